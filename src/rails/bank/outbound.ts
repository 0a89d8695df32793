/**
 * Payout files out: at each cut-off, the payouts queued before it become one file per currency
 * (built, hashed and stored with them in one transaction: the archive), and each stored file is
 * uploaded once. A crash at any instant sends no file twice and loses none:
 * - before the build commits, nothing happened: the next cycle builds the same bytes;
 * - after it, the file is BUILT; the upload writes it under a temporary name, verifies it and
 *   renames it (sftp.ts uploadOnce), and a file already there with the same bytes is not written
 *   again; only then is it recorded UPLOADED. The bank leaves uploaded files in the folder (the
 *   contract docs/production.md states), so a retry after a crash finds it.
 */
import { newId } from '../../common/ids.js';
import type { Database } from '../../db/database.js';
import { nextWindow } from './calendar.js';
import { buildPayoutFile, type FilePayout } from './payout-file.js';
import type { BankProfile, PayoutFormat } from './profile.js';
import type { Counterparty } from './rail.js';
import type { Sftp } from './sftp.js';

/** Payouts in one file at most; more wait for the next file of the same window. */
export const MAX_FILE_PAYOUTS = 100_000;

export function createOutbound(deps: { db: Database; now: () => Date }) {
  const { db } = deps;

  /** The oldest payout of a bank and format still waiting for a file. */
  async function oldestQueued(bank: BankProfile, format: PayoutFormat): Promise<string | undefined> {
    const row = await db
      .executor()
      .selectFrom('bank_payouts')
      .select('queued_at')
      .where('bank_id', '=', bank.id)
      .where('format', '=', format)
      .where('status', '=', 'QUEUED')
      .orderBy('queued_at')
      .limit(1)
      .executeTakeFirst();
    return row?.queued_at;
  }

  /**
   * Builds the files of every window that has closed over queued payouts, oldest first. Answers
   * the files built.
   */
  async function buildDue(bank: BankProfile): Promise<string[]> {
    const built: string[] = [];
    for (const format of bank.formats) {
      for (;;) {
        const oldest = await oldestQueued(bank, format);
        if (!oldest) break;
        const window = nextWindow(bank.schedule, format, new Date(oldest));
        if (window.cutoffAt.getTime() > deps.now().getTime()) break;
        built.push(...(await buildWindow(bank, format, window)));
      }
    }
    return built;
  }

  /** One window's files (one per currency), with their payouts, in one transaction. */
  async function buildWindow(bank: BankProfile, format: PayoutFormat, window: ReturnType<typeof nextWindow>): Promise<string[]> {
    return db.tx(async (trx) => {
      const payouts = await trx
        .selectFrom('bank_payouts')
        .selectAll()
        .where('bank_id', '=', bank.id)
        .where('format', '=', format)
        .where('status', '=', 'QUEUED')
        .where('queued_at', '<', window.cutoffAt.toISOString())
        .orderBy('queued_at')
        .orderBy('transaction_id')
        .limit(MAX_FILE_PAYOUTS)
        .execute();
      const ids: string[] = [];
      const currencies = [...new Set(payouts.map((p) => p.currency))].sort();
      // The day's files so far, across formats: the next file's sequence (names never repeat).
      const today = await trx
        .selectFrom('bank_files')
        .select((eb) => eb.fn.countAll<number | bigint>().as('n'))
        .where('bank_id', '=', bank.id)
        .where('name', 'like', `%-${window.localDate.replaceAll('-', '')}-%`)
        .executeTakeFirstOrThrow();
      let sequence = Number(today.n);
      const now = deps.now().toISOString();
      for (const currency of currencies) {
        const mine = payouts.filter((p) => p.currency === currency);
        const filePayouts: FilePayout[] = mine.map((p) => ({
          reference: p.reference,
          direction: p.direction as FilePayout['direction'],
          amount: BigInt(p.amount),
          currency: p.currency,
          counterparty: JSON.parse(p.counterparty) as Counterparty,
        }));
        const file = buildPayoutFile(bank, format, window, currency, ++sequence, filePayouts);
        const id = newId('BankFile');
        await trx
          .insertInto('bank_files')
          .values({
            id,
            bank_id: bank.id,
            format,
            name: file.name,
            sha256: file.sha256,
            content: file.content,
            window_at: window.cutoffAt.toISOString(),
            effective_date: window.effectiveDate,
            currency,
            entry_count: mine.length,
            total_amount: filePayouts.reduce((sum, p) => sum + p.amount, 0n),
            status: 'BUILT',
            reason: null,
            built_at: now,
            uploaded_at: null,
            acknowledged_at: null,
          })
          .execute();
        for (const [i, p] of mine.entries()) {
          const moved = await trx
            .updateTable('bank_payouts')
            .set({ status: 'IN_FILE', file_id: id, trace_number: file.traceNumbers?.[i] ?? null, updated_at: now })
            .where('transaction_id', '=', p.transaction_id)
            .where('status', '=', 'QUEUED')
            .executeTakeFirst();
          // Cancelled by an operator since it was read: this file must not carry it. Nothing of the
          // build is kept; the next cycle builds the window again without it.
          if (Number(moved.numUpdatedRows) !== 1) throw new Error(`payout ${p.transaction_id} left the queue while its file was built; building again`);
        }
        ids.push(id);
      }
      return ids;
    });
  }

  /** The files built and not yet uploaded, oldest first. */
  function unsent(bank: BankProfile) {
    return db.executor().selectFrom('bank_files').selectAll().where('bank_id', '=', bank.id).where('status', '=', 'BUILT').orderBy('id').execute();
  }

  /** Uploads every BUILT file once and records it; answers the names uploaded. */
  async function uploadBuilt(bank: BankProfile, sftp: () => Promise<Sftp>): Promise<string[]> {
    const files = await unsent(bank);
    const sent: string[] = [];
    for (const file of files) {
      await (await sftp()).uploadOnce(bank.sftp.outboundDir, file.name, Buffer.from(file.content));
      const now = deps.now().toISOString();
      await db.tx(async (trx) => {
        // A file an operator cancelled meanwhile stays cancelled in our records — but it is at the
        // bank now: that is an exception for a person (the operator cancels before the cut-off).
        const changed = await trx
          .updateTable('bank_files')
          .set({ status: 'UPLOADED', uploaded_at: now })
          .where('id', '=', file.id)
          .where('status', '=', 'BUILT')
          .executeTakeFirst();
        if (Number(changed.numUpdatedRows) === 1)
          await trx
            .updateTable('bank_payouts')
            .set({ status: 'SENT', updated_at: now })
            .where('file_id', '=', file.id)
            .where('status', '=', 'IN_FILE')
            .execute();
      });
      sent.push(file.name);
    }
    return sent;
  }

  return { buildDue, uploadBuilt, unsent };
}

export type Outbound = ReturnType<typeof createOutbound>;
