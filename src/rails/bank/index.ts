/**
 * PRODUCTION bank rails, assembled (docs/production.md): the rail queues payouts (rail.ts), the
 * worker builds and uploads files at each cut-off (outbound.ts) and reads the bank's reports
 * (inbound.ts), which settle payouts, credit deposits, fund JIT quotes and reconcile statements
 * (settlement.ts, money-in.ts, reconcile.ts). The path of a payout, by name: quote → engine →
 * rail.started (QUEUED) → outbound.buildDue (IN_FILE) → outbound.uploadBuilt (SENT) →
 * inbound.ingest → settlement: accept (COMPLETED) | reject (FAILED) | returned (COMPLETED → FAILED).
 */
import type { Clock } from '../../common/clock.js';
import type { Database, Executor } from '../../db/database.js';
import type { JobQueue } from '../../db/jobs.js';
import type { Ledger } from '../../ledger/index.js';
import type { ExternalAccountRow } from '../../modules/external-accounts/repository.js';
import type { PaymentEngine } from '../../modules/transactions/engine.js';
import type { Lifecycle } from '../../modules/transactions/lifecycle.js';
import type { TransactionRow } from '../../modules/transactions/repository.js';
import type { Scope } from '../../common/scope.js';
import type { Sealer } from '../../secrets/envelope.js';
import { openBankKey } from './credentials.js';
import { createInbound } from './inbound.js';
import { createMoneyIn } from './money-in.js';
import { createOutbound } from './outbound.js';
import type { BankProfile } from './profile.js';
import { createSettlement } from './settlement.js';
import { openSftp } from './sftp.js';
import { createBankWorker } from './worker.js';

export { BANK_JOB_KINDS } from './worker.js';

/** How long one SFTP connect or request may take before the cycle gives up and tries again later. */
const SFTP_TIMEOUT_MS = 30_000;

export function createBankRails(deps: {
  db: Database;
  clock: Clock;
  jobs: JobQueue;
  ledger: Ledger;
  lifecycle: Lifecycle;
  engine: PaymentEngine;
  payableAccounts: (trx: Executor, scope: Scope, tx: TransactionRow) => Promise<ExternalAccountRow>;
  banks: readonly BankProfile[];
  /** Opens sealed values (a bank's SFTP key imported with `npx corridor bank key import`). */
  secrets: Sealer;
  log: (message: string, facts: Record<string, unknown>) => void;
}) {
  const now = () => deps.clock.now();
  const moneyIn = createMoneyIn({
    db: deps.db,
    clock: deps.clock,
    lifecycle: deps.lifecycle,
    engine: deps.engine,
    payableAccounts: deps.payableAccounts,
    log: deps.log,
  });
  const settlement = createSettlement({ now, ledger: deps.ledger, lifecycle: deps.lifecycle, ...moneyIn });
  const outbound = createOutbound({ db: deps.db, now });
  const inbound = createInbound({ db: deps.db, now, settlement });
  // The key imported into the database (sealed), else the profile's key file: read at each
  // connection, so an imported or rotated key takes effect without a restart.
  const privateKeyOf = async (bank: BankProfile) => (await openBankKey(deps.db, deps.secrets, bank.id, bank.sftp.privateKeyFile)).privateKey;
  const worker = createBankWorker({
    db: deps.db,
    clock: deps.clock,
    jobs: deps.jobs,
    banks: deps.banks,
    outbound,
    inbound,
    connect: async (bank) =>
      openSftp({
        host: bank.sftp.host,
        port: bank.sftp.port,
        username: bank.sftp.username,
        privateKey: await privateKeyOf(bank),
        hostKeySha256: bank.sftp.hostKeySha256,
        timeoutMs: SFTP_TIMEOUT_MS,
      }),
  });
  return { banks: deps.banks, outbound, inbound, settlement, worker };
}

export type BankRails = ReturnType<typeof createBankRails>;
