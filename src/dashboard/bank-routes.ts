import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { ApiError, commonErrors } from '../common/errors.js';
import { ErrorSchema } from '../common/schemas.js';
import type { Container } from '../container.js';
import type { App } from '../http/types.js';
import { BankOperationError, bankOperationsDeps, createBankOperations, EXCEPTION_KINDS, FILE_STATUSES, type ResolveAction } from '../rails/bank/operations.js';
import { requireCsrf, sessionToken } from './auth.js';
import type { SignedIn } from './service.js';

const { $id: _ignored, ...errorResponse } = ErrorSchema as typeof ErrorSchema & { $id?: string };
const errors = { '4xx': errorResponse, '5xx': errorResponse };
const tags = ['Dashboard'];
const BANK_API = '/dashboard/api/bank';

/** Rows are plain objects whose amounts are minor units: numbers on the wire, as the API writes them. */
const anyObject = Type.Object({}, { additionalProperties: true });
const list = Type.Object({ data: Type.Array(anyObject) });
const wire = <T>(value: T): any => JSON.parse(JSON.stringify(value, (_, v) => (typeof v === 'bigint' ? Number(v) : v)));

const FileQuery = Type.Object(
  {
    bankId: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    status: Type.Optional(Type.Enum([...FILE_STATUSES])),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 100 })),
  },
  { additionalProperties: false },
);
const ExceptionQuery = Type.Object(
  {
    state: Type.Optional(Type.Enum(['OPEN', 'RESOLVED', 'ALL'])),
    kind: Type.Optional(Type.Enum([...EXCEPTION_KINDS])),
    bankId: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 100 })),
  },
  { additionalProperties: false },
);
const FileParams = Type.Object({ id: Type.String({ pattern: '^BankFile:[0-9a-fA-F-]{36}$' }) });
const ExceptionParams = Type.Object({ id: Type.String({ pattern: '^BankException:[0-9a-fA-F-]{36}$' }) });
const PayoutParams = Type.Object({ id: Type.String({ pattern: '^Transaction:[0-9a-fA-F-]{36}$' }) });
const ResolveBody = Type.Object(
  {
    action: Type.Enum(['NOTE', 'APPLY_TO', 'SEND_BACK']),
    note: Type.Optional(Type.String({ maxLength: 1000 })),
    accountId: Type.Optional(Type.String({ pattern: '^InternalAccount:[0-9a-fA-F-]{36}$' })),
  },
  { additionalProperties: false },
);

/**
 * The Bank page's routes (docs/dashboard.md): the bank rails belong to the operator, not to one
 * platform — a file carries the payouts of every platform and an unmatched credit is nobody's yet —
 * so they answer only ADMIN users of the operator's own platform (the install's first platform,
 * the one the first start creates, D10) working in PRODUCTION. Writes need the session's CSRF
 * proof and are recorded in the audit log like every dashboard write (src/audit/http.ts).
 */
export function bankRoutes(app: App, container: Container) {
  const ops = createBankOperations(bankOperationsDeps(container));

  async function operatorPlatform(): Promise<string | undefined> {
    const first = await container.db.executor().selectFrom('platforms').select('id').orderBy('created_at').orderBy('id').limit(1).executeTakeFirst();
    return first?.id;
  }

  async function signedInOperator(req: FastifyRequest, write: boolean): Promise<SignedIn> {
    const token = sessionToken(req);
    const signedIn = token ? await container.dashboard.session(token) : undefined;
    if (!token || !signedIn) throw commonErrors.UNAUTHORIZED({ reason: 'not signed in' }, 'Sign in to the dashboard first');
    if (write) requireCsrf(container.dashboard, req, token, container.config.publicUrl);
    if (signedIn.user.role !== 'ADMIN') throw commonErrors.FORBIDDEN({ requiredRole: 'ADMIN' }, 'Only ADMIN users may operate the bank rails');
    if (signedIn.session.platform_id !== (await operatorPlatform()))
      throw commonErrors.FORBIDDEN(
        { reason: 'not the operator' },
        "The bank rails are the operator's: only ADMIN users of the operator's platform may see them",
      );
    if (signedIn.session.environment !== 'PRODUCTION')
      throw commonErrors.FORBIDDEN({ requiredEnvironment: 'PRODUCTION' }, 'The bank rails move PRODUCTION money: switch the dashboard to production');
    return signedIn;
  }

  /** A refusal of the operations as the dashboard's error body. */
  async function run<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (e) {
      if (e instanceof BankOperationError) throw new ApiError(e.status, e.code, e.message);
      throw e;
    }
  }

  app.get(
    `${BANK_API}/status`,
    { schema: { tags, summary: 'Per partner bank: queued payouts, files by status, open exceptions, last report read', response: { 200: list, ...errors } } },
    async (req) => {
      await signedInOperator(req, false);
      return { data: wire(await ops.status()) };
    },
  );

  app.get(
    `${BANK_API}/files`,
    { schema: { tags, summary: 'Payout files, newest first', querystring: FileQuery, response: { 200: list, ...errors } } },
    async (req) => {
      await signedInOperator(req, false);
      return { data: wire(await run(() => ops.listFiles(req.query))) };
    },
  );

  app.get(
    `${BANK_API}/files/:id/content`,
    { schema: { tags, summary: "A file's bytes as archived before upload (a download)", params: FileParams } },
    async (req, reply) => {
      await signedInOperator(req, false);
      const { file, content } = await run(() => ops.fileContent(req.params.id));
      // The name is ours (letters, digits, dots and dashes), safe in the header as it is.
      reply.header('Content-Disposition', `attachment; filename="${file.name.replace(/[^A-Za-z0-9._-]/g, '_')}"`);
      reply.header('X-Content-SHA256', file.sha256);
      reply.type(file.format === 'NACHA' ? 'text/plain; charset=us-ascii' : 'application/xml');
      return reply.send(content);
    },
  );

  app.get(
    `${BANK_API}/files/:id/payouts`,
    { schema: { tags, summary: 'The payouts a file carries', params: FileParams, response: { 200: list, ...errors } } },
    async (req) => {
      await signedInOperator(req, false);
      return { data: wire(await run(() => ops.filePayouts(req.params.id))) };
    },
  );

  app.get(
    `${BANK_API}/exceptions`,
    {
      schema: {
        tags,
        summary: 'The exceptions queue with the age of each (open ones, oldest first)',
        querystring: ExceptionQuery,
        response: { 200: list, ...errors },
      },
    },
    async (req) => {
      await signedInOperator(req, false);
      return { data: wire(await run(() => ops.listExceptions(req.query))) };
    },
  );

  app.post(
    `${BANK_API}/exceptions/:id/resolve`,
    {
      schema: {
        tags,
        summary: 'Resolve an exception: NOTE, APPLY_TO an internal account (an unmatched credit), or SEND_BACK to the payer',
        params: ExceptionParams,
        body: ResolveBody,
        response: { 200: anyObject, ...errors },
      },
    },
    async (req) => {
      const { user } = await signedInOperator(req, true);
      const b = req.body;
      let action: ResolveAction;
      if (b.action === 'APPLY_TO') {
        if (!b.accountId)
          throw commonErrors.INVALID_INPUT({ fields: [{ field: 'accountId', in: 'body', message: 'required to apply a credit' }] }, 'accountId is required');
        action = { action: 'APPLY_TO', accountId: b.accountId, note: b.note };
      } else if (b.action === 'SEND_BACK') action = { action: 'SEND_BACK', note: b.note };
      else action = { action: 'NOTE', note: b.note ?? '' };
      return wire(await run(() => ops.resolveException(req.params.id, action, { type: 'USER', name: user.email })));
    },
  );

  app.post(
    `${BANK_API}/payouts/:id/cancel`,
    {
      schema: {
        tags,
        summary: 'Cancel a QUEUED payout before its cut-off: the payment FAILS and the payer is refunded',
        params: PayoutParams,
        response: { 200: anyObject, ...errors },
      },
    },
    async (req) => {
      await signedInOperator(req, true);
      return wire(await run(() => ops.cancelPayout(req.params.id)));
    },
  );
}
