/**
 * Bank reports in. Each file of a bank's inbound folder is read once: kept (bank_inbound_files,
 * with its bytes: the archive) under its content hash, and what it says applied in the same
 * transaction, so a crash or a second node never applies a file twice, and a file is either
 * applied whole or not at all. "Strict out, tolerant in": a file that cannot be read, or that
 * names what we never sent, is kept as REFUSED and becomes an exception for the operator; it never
 * stops the files after it.
 */
import { createHash } from 'node:crypto';
import { newId } from '../../common/ids.js';
import type { Database, Executor } from '../../db/database.js';
import { isUniqueViolation } from '../../db/values.js';
import { readReport, type BankReport } from './reports.js';
import type { Settlement } from './settlement.js';
import type { BankProfile } from './profile.js';
import type { Sftp } from './sftp.js';
import { raiseException } from './exceptions.js';

export interface IngestResult {
  name: string;
  status: 'APPLIED' | 'REFUSED' | 'DUPLICATE';
  kind?: string;
  problem?: string;
}

export function createInbound(deps: { db: Database; now: () => Date; settlement: Settlement }) {
  const { db } = deps;

  /** Reads one file and applies it, once per content hash. */
  async function ingest(bank: BankProfile, name: string, content: Buffer): Promise<IngestResult> {
    const sha256 = createHash('sha256').update(content).digest('hex');
    let report: BankReport | undefined;
    let problem: string | undefined;
    try {
      report = readReport(content);
    } catch (e) {
      problem = e instanceof Error ? e.message : String(e);
    }
    try {
      return await db.tx(async (trx) => {
        const id = newId('BankInbound');
        const now = deps.now().toISOString();
        const seen = await trx.selectFrom('bank_inbound_files').select('id').where('bank_id', '=', bank.id).where('sha256', '=', sha256).executeTakeFirst();
        if (seen) {
          // Kept under its own name, so the next poll does not read it again; applied once only.
          await trx
            .insertInto('bank_inbound_files')
            .values({
              id,
              bank_id: bank.id,
              name,
              sha256,
              kind: report?.kind ?? null,
              content,
              status: 'DUPLICATE',
              problem: `the same bytes as ${seen.id}`,
              received_at: now,
            })
            .execute();
          return { name, status: 'DUPLICATE' as const };
        }
        // First, so a second reader of the same bytes fails here before it applies anything.
        await trx
          .insertInto('bank_inbound_files')
          .values({ id, bank_id: bank.id, name, sha256, kind: report?.kind ?? null, content, status: 'APPLIED', problem: null, received_at: now })
          .execute();
        if (report) {
          // What the report names but cannot be applied (a payout we never sent) is an exception,
          // not a refusal of the whole file.
          await deps.settlement.apply(trx, bank, report, id);
          return { name, status: 'APPLIED' as const, kind: report.kind };
        }
        await trx.updateTable('bank_inbound_files').set({ status: 'REFUSED', problem }).where('id', '=', id).execute();
        await raiseException(trx, {
          bankId: bank.id,
          kind: 'FILE_REFUSED',
          subjectId: id,
          details: { file: name, sha256, problem },
          now,
        });
        return { name, status: 'REFUSED' as const, problem };
      });
    } catch (e) {
      if (isUniqueViolation(e)) return { name, status: 'DUPLICATE' };
      throw e;
    }
  }

  /** Reads the files of the inbound folder not read before (by name and size, then by content hash). */
  async function poll(bank: BankProfile, sftp: Sftp): Promise<IngestResult[]> {
    const listed = await sftp.list(bank.sftp.inboundDir);
    const known = await knownFiles(db.executor(), bank.id);
    const results: IngestResult[] = [];
    // In the order the bank wrote them: a return after the acknowledgement of its file.
    const inOrder = listed.sort((a, b) => a.modifiedAt.getTime() - b.modifiedAt.getTime() || a.name.localeCompare(b.name));
    for (const file of inOrder) {
      // A name seen with the same size was read: not downloaded again on every poll.
      if (known.get(file.name)?.has(file.size)) continue;
      const content = await sftp.download(bank.sftp.inboundDir, file.name);
      results.push(await ingest(bank, file.name, content));
    }
    return results;
  }

  return { ingest, poll };
}

async function knownFiles(ex: Executor, bankId: string): Promise<Map<string, Set<number>>> {
  const rows = await ex
    .selectFrom('bank_inbound_files')
    .select((eb) => ['name', eb.fn('length', ['content']).as('size')])
    .where('bank_id', '=', bankId)
    .execute();
  const known = new Map<string, Set<number>>();
  for (const r of rows) {
    const sizes = known.get(r.name) ?? new Set<number>();
    sizes.add(Number(r.size));
    known.set(r.name, sizes);
  }
  return known;
}

export type Inbound = ReturnType<typeof createInbound>;
