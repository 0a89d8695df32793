/**
 * The bank worker: for each partner bank, one cycle at a time across every node (a durable job
 * per bank, `bank.cycle`, whose subject serialises it): build the files of windows that closed,
 * upload what is built, read what the bank left in the inbound folder. Each step commits on its
 * own (outbound.ts, inbound.ts), so a crash between them loses nothing and repeats nothing; the
 * network is never used inside a database transaction.
 */
import type { Clock } from '../../common/clock.js';
import type { Database } from '../../db/database.js';
import type { JobQueue } from '../../db/jobs.js';
import type { Inbound, IngestResult } from './inbound.js';
import type { Outbound } from './outbound.js';
import type { BankProfile } from './profile.js';
import type { Sftp } from './sftp.js';

export const BANK_CYCLE_JOB = 'bank.cycle';
export const BANK_JOB_KINDS = [BANK_CYCLE_JOB] as const;
const bankSubject = (bankId: string) => `bank:${bankId}`;
/**
 * A cycle holds its bank this long at most; then another node (or this one restarted after a
 * crash) takes the bank over. Short, so that a crash mid-cycle delays the bank by a minute and a
 * half, not more; long enough for a cycle's SFTP waits (30 s each). A cycle taken over while it
 * still runs repeats nothing: builds are guarded, uploads are exactly once, reads once per content.
 */
const LEASE_MS = 90_000;
/** The most a bank waits between two cycles; a window closing sooner wakes it sooner. */
const MAX_SLEEP_MS = 60_000;

export interface CycleReport {
  built: string[];
  uploaded: string[];
  read: IngestResult[];
}

export function createBankWorker(deps: {
  db: Database;
  clock: Clock;
  jobs: JobQueue;
  banks: readonly BankProfile[];
  outbound: Outbound;
  inbound: Inbound;
  /** Opens the SFTP connection of a bank (sftp.ts openSftp with its sealed key). */
  connect: (bank: BankProfile) => Promise<Sftp>;
}) {
  const { db, jobs, banks } = deps;
  const byId = new Map(banks.map((b) => [b.id, b]));

  /** One cycle of one bank; the connection is opened only when there is something to send or it is time to read. */
  async function cycle(bank: BankProfile, opts: { read: boolean }): Promise<CycleReport> {
    let sftp: Sftp | undefined;
    const connection = async () => (sftp ??= await deps.connect(bank));
    try {
      const built = await deps.outbound.buildDue(bank);
      const uploaded = await deps.outbound.uploadBuilt(bank, connection);
      const read = opts.read ? await deps.inbound.poll(bank, await connection()) : [];
      return { built, uploaded, read };
    } finally {
      await sftp?.close();
    }
  }

  /** A cycle job for every bank that has none live: after a start, or a bank added to the file. */
  async function ensureScheduled(): Promise<void> {
    for (const bank of banks) {
      const live = await db
        .executor()
        .selectFrom('jobs')
        .select('id')
        .where('kind', '=', BANK_CYCLE_JOB)
        .where('subject', '=', bankSubject(bank.id))
        .where('dead_at', 'is', null)
        .executeTakeFirst();
      if (!live) await jobs.enqueue({ kind: BANK_CYCLE_JOB, subject: bankSubject(bank.id), payload: { bankId: bank.id, lastReadAt: null } });
    }
  }

  return {
    cycle,
    ensureScheduled,

    /** Runs one due cycle job; false when none is due. */
    async processNext(): Promise<boolean> {
      const job = await jobs.claimNext(BANK_JOB_KINDS, LEASE_MS);
      if (!job) return false;
      const payload = job.payload as { bankId: string; lastReadAt: string | null };
      const bank = byId.get(payload.bankId);
      if (!bank) {
        // A bank removed from the configuration: its chain ends.
        await jobs.complete(job);
        return true;
      }
      const now = deps.clock.now().getTime();
      const read = payload.lastReadAt === null || now - Date.parse(payload.lastReadAt) >= bank.pollIntervalMs;
      const next = async (p: typeof payload, delayMs: number) =>
        db.tx(async () => {
          await jobs.complete(job);
          await jobs.enqueue({ kind: BANK_CYCLE_JOB, subject: bankSubject(bank.id), payload: p, runAt: new Date(now + delayMs) });
        });
      try {
        await cycle(bank, { read });
      } catch (e) {
        // The bank unreachable, a file it refused to take: the next cycle tries again soon. The chain
        // never ends on a failure (a dead-lettered job would stop a bank's money until a restart);
        // the error goes to the log, and what waits shows in `npx corridor bank status`.
        const failures = ((job.payload as { failures?: number }).failures ?? 0) + 1;
        await next({ ...payload, failures } as typeof payload, Math.min(MAX_SLEEP_MS, 1000 * 2 ** Math.min(failures, 6)));
        throw e;
      }
      await next({ bankId: bank.id, lastReadAt: read ? new Date(now).toISOString() : payload.lastReadAt }, Math.min(MAX_SLEEP_MS, bank.pollIntervalMs));
      return true;
    },
  };
}

export type BankWorker = ReturnType<typeof createBankWorker>;
