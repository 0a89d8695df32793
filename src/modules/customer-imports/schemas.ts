import { Type, type Static } from 'typebox';
import { idPattern } from '../../common/ids.js';
import { DateTime } from '../../common/schemas.js';
import { MAX_CSV_BYTES, MAX_CSV_ROWS } from './service.js';

export const CustomerCsvForm = Type.Object(
  {
    file: Type.String({
      format: 'binary',
      description: `The CSV file (RFC 4180, UTF-8, a header line naming the columns), at most ${MAX_CSV_BYTES / 1024 / 1024} MiB and ${MAX_CSV_ROWS} rows`,
    }),
  },
  { additionalProperties: false },
);

export const ImportAcceptedSchema = Type.Object(
  {
    jobId: Type.String({ description: 'Follow it at GET /customers/bulk/jobs/{jobId}' }),
    status: Type.Enum(['PENDING', 'PROCESSING']),
  },
  { examples: [{ jobId: 'Job:019a6f1e-8f3c-7cc1-9d6e-2b8f0c2a4e11', status: 'PENDING' }] },
);

export const ImportJobParams = Type.Object({ jobId: Type.String({ pattern: idPattern('Job'), description: 'Job:<id>' }) });

const RowField = Type.Object({ field: Type.String({ description: 'The CSV column (or "(row)" for the row as a whole)' }), message: Type.String() });

export const ImportJobSchema = Type.Object(
  {
    id: Type.String(),
    status: Type.Enum(['PENDING', 'PROCESSING', 'COMPLETED', 'FAILED'], {
      description: 'COMPLETED: every row processed, at least one customer created; FAILED: none created',
    }),
    progress: Type.Object({ total: Type.Integer(), processed: Type.Integer(), successful: Type.Integer(), failed: Type.Integer() }),
    errors: Type.Array(
      Type.Object({
        correlationId: Type.String({ description: 'The row’s platformCustomerId, or row_<n> when it has none' }),
        row: Type.Integer({ description: '1 for the first line after the header' }),
        code: Type.String(),
        message: Type.String(),
        details: Type.Optional(Type.Object({ fields: Type.Optional(Type.Array(RowField)) }, { additionalProperties: true })),
      }),
    ),
    results: Type.Array(
      Type.Object({
        row: Type.Integer(),
        correlationId: Type.String(),
        status: Type.Enum(['PENDING', 'CREATED', 'FAILED']),
        customerId: Type.Optional(Type.String()),
      }),
    ),
    fileName: Type.Optional(Type.String()),
    createdAt: DateTime,
    completedAt: Type.Optional(DateTime),
  },
  {
    examples: [
      {
        id: 'Job:019a6f1e-8f3c-7cc1-9d6e-2b8f0c2a4e11',
        status: 'COMPLETED',
        progress: { total: 2, processed: 2, successful: 1, failed: 1 },
        errors: [
          {
            correlationId: 'biz456',
            row: 2,
            code: 'INVALID_INPUT',
            message: 'The request is invalid; see details.fields',
            details: { fields: [{ field: 'country', message: 'must be an ISO 3166-1 alpha-2 country code in upper case (e.g. US)' }] },
          },
        ],
        results: [
          { row: 1, correlationId: 'customer123', status: 'CREATED', customerId: 'Customer:019a6f1e-8f3c-7cc1-9d6e-2b8f0c2a4e12' },
          { row: 2, correlationId: 'biz456', status: 'FAILED' },
        ],
        fileName: 'customers.csv',
        createdAt: '2025-10-13T09:30:00.000Z',
        completedAt: '2025-10-13T09:30:02.000Z',
      },
    ],
  },
);
export type ImportJob = Static<typeof ImportJobSchema>;
