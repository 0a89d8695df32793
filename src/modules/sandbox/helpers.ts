/**
 * The sandbox's test helpers: force the next step of a live sandbox payment without an account
 * suffix. Each applies the same rail event the sandbox rail would (engine.apply → lifecycle), so
 * the ledger legs, webhooks and history are those of the suffix outcomes. A timed job still
 * pending for the step finds the transaction moved on and does nothing (engine.apply ignores an
 * event that no longer fits the status).
 */
import { Type } from 'typebox';
import type { Scope } from '../../common/scope.js';
import type { Container } from '../../container.js';
import type { Database } from '../../db/database.js';
import type { App } from '../../http/types.js';
import { FAILURE_REASONS, type FailureReason, type RailEvent } from '../../rails/types.js';
import type { IncomingService } from '../incoming/service.js';
import type { PaymentEngine } from '../transactions/engine.js';
import { transactionErrors } from '../transactions/errors.js';
import { transactionRepository, type TransactionRow } from '../transactions/repository.js';
import { TransactionIdParams, TransactionSchema } from '../transactions/schemas.js';
import { transactionView } from '../transactions/view.js';
import { sandboxErrors } from './errors.js';

/** What /fail answers with when no failureReason is given: the bank refused the payout (or the pull). */
export const DEFAULT_FAIL_REASON: FailureReason = 'OFFRAMP_FAILED';
/** What /return records when no failureReason is given: the sandbox 005 pattern's reason. */
export const DEFAULT_RETURN_REASON: FailureReason = 'COUNTERPARTY_POST_TX_FAILED';

const Reason = Type.Union(
  FAILURE_REASONS.map((r) => Type.Literal(r)),
  { description: 'A failureReason of the spec' },
);

export const SandboxFailBody = Type.Object(
  { failureReason: Type.Optional({ ...Reason, description: `Defaults to ${DEFAULT_FAIL_REASON}`, examples: ['OFFRAMP_FAILED'] }) },
  { additionalProperties: false },
);
export const SandboxReturnBody = Type.Object(
  { failureReason: Type.Optional({ ...Reason, description: `Defaults to ${DEFAULT_RETURN_REASON}`, examples: ['COUNTERPARTY_POST_TX_FAILED'] }) },
  { additionalProperties: false },
);

/** /complete and /approval-timeout take nothing: an empty object, or no body at all. */
export const SandboxEmptyBody = Type.Object({}, { additionalProperties: false, examples: [{}] });

export function createSandboxHelpers(deps: { db: Database; engine: PaymentEngine; incoming: IncomingService }) {
  const { db, engine } = deps;

  /** Loads the caller's transaction, checks the state the event needs, applies it in one database transaction. */
  function step(scope: Scope, id: string, event: RailEvent, cause: string, check: (row: TransactionRow) => void) {
    return db.tx(async (trx) => {
      const row = await transactionRepository.find(trx, scope, id);
      if (!row) throw transactionErrors.TRANSACTION_NOT_FOUND({ transactionId: id });
      check(row);
      const next = await engine.apply(trx, row, event, cause);
      // Zero rows moved: a concurrent request or job got there first; nothing changed here.
      if (next === row)
        throw (event.kind === 'RETURN' ? sandboxErrors.TRANSACTION_NOT_COMPLETED : transactionErrors.TRANSACTION_NOT_PROCESSING)({ transactionId: id });
      return transactionView(next);
    });
  }

  const onRail = (row: TransactionRow) => {
    if (row.external_account_id === '') throw sandboxErrors.TRANSACTION_NOT_ON_RAIL({ transactionId: row.id, status: row.status });
  };
  const processing = (row: TransactionRow) => {
    if (row.status !== 'PROCESSING') throw transactionErrors.TRANSACTION_NOT_PROCESSING({ transactionId: row.id, status: row.status });
    onRail(row);
  };

  return {
    complete: (scope: Scope, id: string) => step(scope, id, { kind: 'COMPLETE' }, 'sandbox rail: complete (test helper)', processing),
    fail: (scope: Scope, id: string, reason: FailureReason = DEFAULT_FAIL_REASON) =>
      step(scope, id, { kind: 'FAIL', reason, refund: 'COMPLETED' }, `sandbox rail: fail, ${reason} (test helper)`, processing),
    returnPayment: (scope: Scope, id: string, reason: FailureReason = DEFAULT_RETURN_REASON) =>
      step(scope, id, { kind: 'RETURN', reason }, `sandbox rail: return, ${reason} (test helper)`, (row) => {
        if (row.status !== 'COMPLETED' || row.type !== 'OUTGOING')
          throw sandboxErrors.TRANSACTION_NOT_COMPLETED({ transactionId: row.id, status: row.status, type: row.type });
        onRail(row);
      }),
    approvalTimeout: (scope: Scope, id: string) => deps.incoming.sandboxTimeOut(scope, id),
  };
}

export type SandboxHelpers = ReturnType<typeof createSandboxHelpers>;

export function sandboxHelperRoutes(app: App, { sandbox }: Container) {
  const tags = ['Sandbox'];
  const config = { permission: 'TRANSACT', sandboxOnly: true } as const;
  const response = { 200: TransactionSchema };
  // The body of /fail and /return is optional (curl -X POST without one): no body reads as {}.
  const noBodyIsEmpty = async (req: { body: unknown }) => {
    req.body ??= {};
  };
  app.post(
    '/sandbox/transactions/:transactionId/complete',
    {
      config,
      preValidation: noBodyIsEmpty,
      schema: {
        tags,
        summary: 'Complete a PROCESSING sandbox payment now, as its rail would (sandbox only)',
        params: TransactionIdParams,
        body: SandboxEmptyBody,
        response,
      },
    },
    async (req) => sandbox.helpers.complete(req.auth, req.params.transactionId),
  );
  app.post(
    '/sandbox/transactions/:transactionId/fail',
    {
      config,
      preValidation: noBodyIsEmpty,
      schema: {
        tags,
        summary: 'Fail a PROCESSING sandbox payment now and refund it, as its rail would (sandbox only)',
        params: TransactionIdParams,
        body: SandboxFailBody,
        response,
      },
    },
    async (req) => sandbox.helpers.fail(req.auth, req.params.transactionId, req.body.failureReason),
  );
  app.post(
    '/sandbox/transactions/:transactionId/return',
    {
      config,
      preValidation: noBodyIsEmpty,
      schema: {
        tags,
        summary: 'Return a COMPLETED sandbox payout: it comes back and the payer is refunded (sandbox only)',
        params: TransactionIdParams,
        body: SandboxReturnBody,
        response,
      },
    },
    async (req) => sandbox.helpers.returnPayment(req.auth, req.params.transactionId, req.body.failureReason),
  );
  app.post(
    '/sandbox/transactions/:transactionId/approval-timeout',
    {
      config,
      preValidation: noBodyIsEmpty,
      schema: {
        tags,
        summary: 'Close the approval window of an incoming payment now: FAILED, PAYMENT_APPROVAL_TIMED_OUT (sandbox only)',
        params: TransactionIdParams,
        body: SandboxEmptyBody,
        response,
      },
    },
    async (req) => sandbox.helpers.approvalTimeout(req.auth, req.params.transactionId),
  );
}
