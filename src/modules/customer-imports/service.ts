/**
 * Bulk customer onboarding (the vendor's POST /customers/bulk/csv). The upload is checked as a
 * file (size, UTF-8, RFC 4180, header, row count) and stored as a job with one row per record,
 * in the request's transaction, together with a durable job (db/jobs.ts). A worker then creates
 * each row's customer through the same schema and service as POST /customers, one transaction per
 * row that also records the row's result, so a crash neither loses nor repeats a row. Rows go in
 * chunks; each chunk's job enqueues the next, so imports of several platforms take turns. When
 * every row is done the job is COMPLETED (at least one customer created) or FAILED (none), and a
 * BULK_UPLOAD webhook reports it.
 */
import type { Clock } from '../../common/clock.js';
import { CsvError, parseCsv } from '../../common/csv.js';
import { ApiError, commonErrors, invalidField, type FieldProblem } from '../../common/errors.js';
import { newId } from '../../common/ids.js';
import type { Scope } from '../../common/scope.js';
import type { Database } from '../../db/database.js';
import type { JobQueue } from '../../db/jobs.js';
import type { CustomerImportRowsTable, CustomerImportsTable } from '../../db/tables/invitations.js';
import { toNumber } from '../../db/values.js';
import type { Outbox } from '../../events/outbox.js';
import { fieldProblems, validatorCompiler } from '../../http/validation.js';
import { CustomerCreateBody, type CustomerCreate } from '../customers/schemas.js';
import type { CustomerService } from '../customers/service.js';
import { checkHeader, columnOf, KNOWN_COLUMNS, MAX_HEADER_COLUMNS, rowToBody } from './columns.js';
import { customerImportErrors } from './errors.js';
import type { ImportJob } from './schemas.js';

/** Bounds of one upload (rule 7). */
export const MAX_CSV_BYTES = 2 * 1024 * 1024;
export const MAX_CSV_ROWS = 5000;
export const CUSTOMER_IMPORT_JOB = 'customers.import';
/** Rows created per claim of the import's job. */
const CHUNK_ROWS = 200;
const LEASE_MS = 5 * 60_000;
const INSERT_BATCH = 500;

export interface CustomerImportDeps {
  db: Database;
  clock: Clock;
  jobs: JobQueue;
  events: Outbox;
  customers: CustomerService;
  /** Runs fn on the scope's sandbox clock, as a request of that platform would. */
  within: <T>(scope: Scope, fn: () => Promise<T>) => Promise<T>;
}

interface RowError {
  code: string;
  message: string;
  details?: Record<string, unknown>;
}

const validateCustomer = validatorCompiler({ schema: CustomerCreateBody, httpPart: 'body', method: 'POST', url: '/customers' }) as unknown as ((
  data: unknown,
) => boolean) & { errors?: Parameters<typeof fieldProblems>[0] | null };

/** A field list with the CSV's column names (what a person looks for in the file). */
function inColumns(fields: FieldProblem[]): Array<{ field: string; message: string }> {
  return fields.map((f) => ({ field: f.field === '(row)' ? f.field : columnOf(f.field), message: f.message }));
}

/** A refused row as its error entry: the D2 error, fields named by column. */
function rowError(e: ApiError): RowError {
  let details = e.details ? { ...e.details } : undefined;
  if (details && Array.isArray(details.fields)) details.fields = inColumns(details.fields as FieldProblem[]);
  else if (e.code === 'PLATFORM_CUSTOMER_ID_EXISTS' || e.code === 'UMA_ADDRESS_EXISTS')
    details = { ...details, fields: [{ field: e.code === 'UMA_ADDRESS_EXISTS' ? 'umaAddress' : 'platformCustomerId', message: e.message }] };
  return details ? { code: e.code, message: e.message, details } : { code: e.code, message: e.message };
}

const headerTooWide = () =>
  invalidField('file', `has a header of more than ${MAX_HEADER_COLUMNS} columns; name each column at most once, of: ${KNOWN_COLUMNS.join(', ')}`);

export function createCustomerImportService(deps: CustomerImportDeps) {
  const { db, clock, jobs } = deps;

  async function findImport(scope: Scope, id: string): Promise<CustomerImportsTable> {
    const row = await db
      .executor()
      .selectFrom('customer_imports')
      .selectAll()
      .where('id', '=', id)
      .where('platform_id', '=', scope.platformId)
      .where('environment', '=', scope.environment)
      .executeTakeFirst();
    if (!row) throw customerImportErrors.BULK_UPLOAD_JOB_NOT_FOUND({ jobId: id });
    return row;
  }

  async function rowsOf(id: string): Promise<CustomerImportRowsTable[]> {
    return db.executor().selectFrom('customer_import_rows').selectAll().where('import_id', '=', id).orderBy('row_number').execute();
  }

  /** The job as GET /customers/bulk/jobs/{jobId} shows it; the webhook leaves out the per-row results. */
  function view(job: CustomerImportsTable, rows: CustomerImportRowsTable[], withResults = true): ImportJob {
    const done = rows.filter((r) => r.status !== 'PENDING');
    const created = done.filter((r) => r.status === 'CREATED').length;
    const errors = done
      .filter((r) => r.status === 'FAILED')
      .map((r) => ({ correlationId: r.correlation_id, row: toNumber(r.row_number), ...(JSON.parse(r.error!) as RowError) }));
    const out: ImportJob = {
      id: job.id,
      status: job.status as ImportJob['status'],
      progress: { total: toNumber(job.total_rows), processed: done.length, successful: created, failed: done.length - created },
      errors,
      createdAt: job.created_at,
      results: [],
    };
    if (job.file_name) out.fileName = job.file_name;
    if (job.completed_at) out.completedAt = job.completed_at;
    out.results = rows.map((r) => ({
      row: toNumber(r.row_number),
      correlationId: r.correlation_id,
      status: r.status as ImportJob['results'][number]['status'],
      ...(r.customer_id ? { customerId: r.customer_id } : {}),
    }));
    if (!withResults) delete (out as Partial<ImportJob>).results;
    return out;
  }

  /** One row: the customer and the row's result in one transaction; a refused row records its error. */
  async function runRow(scope: Scope, row: CustomerImportRowsTable): Promise<void> {
    const key = (q: any) => q.where('import_id', '=', row.import_id).where('row_number', '=', row.row_number).where('status', '=', 'PENDING');
    try {
      const body = JSON.parse(row.input) as CustomerCreate;
      if (!validateCustomer(body)) throw commonErrors.INVALID_INPUT({ fields: fieldProblems(validateCustomer.errors ?? [], 'body') });
      await deps.within(scope, () =>
        db.tx(async (trx) => {
          const customer = await deps.customers.create(scope, body);
          await key(
            trx.updateTable('customer_import_rows').set({ status: 'CREATED', customer_id: customer.id, updated_at: clock.now().toISOString() }),
          ).execute();
        }),
      );
    } catch (e) {
      // A refusal of the rules is the row's result; anything else is a fault, retried with the job.
      if (!(e instanceof ApiError) || e.status >= 500) throw e;
      await db.tx((trx) =>
        key(
          trx.updateTable('customer_import_rows').set({ status: 'FAILED', error: JSON.stringify(rowError(e)), updated_at: clock.now().toISOString() }),
        ).execute(),
      );
    }
  }

  /** Creates the customers of the next chunk of an import's rows; finishes the import after its last row. */
  async function runChunk(importId: string): Promise<'more' | 'done'> {
    const job = await db.executor().selectFrom('customer_imports').selectAll().where('id', '=', importId).executeTakeFirst();
    if (!job || job.status === 'COMPLETED' || job.status === 'FAILED') return 'done';
    const scope: Scope = { platformId: job.platform_id, environment: job.environment as Scope['environment'] };
    if (job.status === 'PENDING')
      await db.tx((trx) =>
        trx.updateTable('customer_imports').set({ status: 'PROCESSING', updated_at: clock.now().toISOString() }).where('id', '=', importId).execute(),
      );
    const pending = await db
      .executor()
      .selectFrom('customer_import_rows')
      .selectAll()
      .where('import_id', '=', importId)
      .where('status', '=', 'PENDING')
      .orderBy('row_number')
      .limit(CHUNK_ROWS)
      .execute();
    for (const row of pending) await runRow(scope, row);
    if (pending.length === CHUNK_ROWS) return 'more';
    await deps.within(scope, () =>
      db.tx(async (trx) => {
        const rows = await rowsOf(importId);
        if (rows.some((r) => r.status === 'PENDING')) return;
        const now = clock.now().toISOString();
        const status = rows.some((r) => r.status === 'CREATED') ? 'COMPLETED' : 'FAILED';
        const moved = await trx
          .updateTable('customer_imports')
          .set({ status, completed_at: now, updated_at: now })
          .where('id', '=', importId)
          .where('status', 'in', ['PENDING', 'PROCESSING'])
          .executeTakeFirst();
        if (Number(moved.numUpdatedRows) !== 1) return;
        const finished = view({ ...job, status, completed_at: now, updated_at: now }, rows, false);
        await deps.events.emit(scope, { type: 'BULK_UPLOAD', subject: importId, payload: { job: finished } });
      }),
    );
    return 'done';
  }

  return {
    /** Checks the file and stores the import and its rows; the worker creates the customers. */
    async upload(scope: Scope, file: { bytes: Buffer; fileName?: string; sha256: string }) {
      let text: string;
      try {
        text = new TextDecoder('utf-8', { fatal: true }).decode(file.bytes);
      } catch {
        throw invalidField('file', 'is not UTF-8 text');
      }
      let records;
      try {
        // Bounded work for any file: a header is refused once it is wider than a valid one can be,
        // and a row keeps only the cells it could use (a wider row is refused alone, by its count).
        records = parseCsv(text, { maxRecords: MAX_CSV_ROWS + 1, maxHeaderFields: MAX_HEADER_COLUMNS, maxFields: MAX_HEADER_COLUMNS + 1 }).filter(
          (r) => !r.blank,
        );
      } catch (e) {
        if (!(e instanceof CsvError)) throw e;
        if (e.kind === 'RECORDS') throw invalidField('file', `has more than ${MAX_CSV_ROWS} rows; split it into several uploads`);
        if (e.kind === 'HEADER_WIDTH') throw headerTooWide();
        throw invalidField('file', `is not valid CSV (RFC 4180): ${e.message}`);
      }
      if (records.length > MAX_CSV_ROWS + 1) throw invalidField('file', `has more than ${MAX_CSV_ROWS} rows; split it into several uploads`);
      const [head, ...data] = records;
      if (!head) throw invalidField('file', 'is empty: the first line must name the columns');
      if (head.fieldCount > MAX_HEADER_COLUMNS) throw headerTooWide();
      const header = head.fields.map((h) => h.trim());
      const problems = checkHeader(header);
      if (problems.length)
        throw commonErrors.INVALID_INPUT({ fields: problems.map((message) => ({ field: 'file', in: 'body', message })) }, `file: ${problems[0]}`);
      if (data.length === 0) throw invalidField('file', 'has no rows after its header');

      const now = clock.now().toISOString();
      const id = newId('Job');
      const pidColumn = header.indexOf('platformCustomerId');
      const rows: CustomerImportRowsTable[] = data.map((record, i) => {
        const shaped = rowToBody(header, record.fields, record.fieldCount);
        const pid = record.fields[pidColumn];
        const base = { import_id: id, row_number: i + 1, correlation_id: pid ? pid : `row_${i + 1}`, updated_at: now, customer_id: null };
        if ('problem' in shaped)
          return {
            ...base,
            input: '{}',
            status: 'FAILED',
            error: JSON.stringify({
              code: 'INVALID_INPUT',
              message: `${shaped.problem.field}: ${shaped.problem.message}`,
              details: { fields: inColumns([shaped.problem]) },
            }),
          };
        return { ...base, input: JSON.stringify(shaped.body), status: 'PENDING', error: null };
      });
      await db.tx(async (trx) => {
        await trx
          .insertInto('customer_imports')
          .values({
            id,
            platform_id: scope.platformId,
            environment: scope.environment,
            status: 'PENDING',
            file_name: file.fileName ?? null,
            file_sha256: file.sha256,
            total_rows: rows.length,
            created_at: now,
            updated_at: now,
            completed_at: null,
          })
          .execute();
        for (let i = 0; i < rows.length; i += INSERT_BATCH)
          await trx
            .insertInto('customer_import_rows')
            .values(rows.slice(i, i + INSERT_BATCH))
            .execute();
        await jobs.enqueue({
          kind: CUSTOMER_IMPORT_JOB,
          subject: `import:${id}`,
          payload: { importId: id, platformId: scope.platformId, environment: scope.environment },
        });
      });
      return { jobId: id, status: 'PENDING' as const };
    },

    async get(scope: Scope, id: string) {
      const job = await findImport(scope, id);
      return view(job, await rowsOf(id));
    },

    /** The worker's step: one chunk of one import. False when no import job is due. */
    async processNext(): Promise<boolean> {
      const job = await jobs.claimNext([CUSTOMER_IMPORT_JOB], LEASE_MS);
      if (!job) return false;
      try {
        const { importId } = job.payload as { importId: string };
        const next = await runChunk(importId);
        await db.tx(async () => {
          await jobs.complete(job);
          // The rest of the rows in a job of their own, behind other platforms' due work.
          if (next === 'more') await jobs.enqueue({ kind: CUSTOMER_IMPORT_JOB, subject: job.subject ?? undefined, payload: job.payload });
        });
      } catch (e) {
        const delayMs = Math.min(3_600_000, 1000 * 2 ** Math.min(job.attempts, 12));
        await jobs.retry(job, new Date(clock.now().getTime() + delayMs), e instanceof Error ? (e.stack ?? e.message) : String(e));
      }
      return true;
    },
  };
}

export type CustomerImportService = ReturnType<typeof createCustomerImportService>;

/** The service over a container's parts (routes, the worker loop and tests build the same one). */
export function customerImportsOf(container: {
  db: Database;
  jobs: JobQueue;
  events: Outbox;
  clock: Clock;
  services: { customers: CustomerService };
  sandbox: { clocks: { within: <T>(scope: Scope, fn: () => Promise<T>) => Promise<T> } };
}): CustomerImportService {
  return createCustomerImportService({
    db: container.db,
    clock: container.clock,
    jobs: container.jobs,
    events: container.events,
    customers: container.services.customers,
    within: container.sandbox.clocks.within,
  });
}
