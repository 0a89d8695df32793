/**
 * `npx corridor keys rotate-kek`: seals again, with the current key-encryption key, every secret
 * at rest that is not sealed by it yet: rows written before encryption, and rows sealed by a
 * previous KEK (CORRIDOR_KEK_PREVIOUS, or the embedded key being replaced). One row per
 * transaction, so it runs beside a live server and can be stopped and started again.
 */
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Database } from '../db/database.js';
import { gridWebhookKeyContext, webhookKeyContext } from '../events/keys.js';
import { documentContext } from '../modules/documents/service.js';
import { resealUmaKeys } from '../modules/uma/keys.js';
import { resealBankKeys } from '../rails/bank/credentials.js';
import { createSealer, KEK_BYTES, type Sealer } from './envelope.js';
import { KEK_FILE_NAME, NEXT_KEK_FILE_NAME, PREVIOUS_KEK_FILE_NAME, readKekFile, type Secrets } from './kek.js';

export interface RotationReport {
  kekId: string;
  webhookKeys: { checked: number; sealed: number };
  umaKeys: { checked: number; sealed: number };
  bankKeys: { checked: number; sealed: number };
  documents: { checked: number; sealed: number };
}

const PAGE = 200;

export async function resealAll(db: Database, secrets: Sealer): Promise<RotationReport> {
  const report: RotationReport = {
    kekId: secrets.currentKekId,
    webhookKeys: { checked: 0, sealed: 0 },
    umaKeys: { checked: 0, sealed: 0 },
    bankKeys: { checked: 0, sealed: 0 },
    documents: { checked: 0, sealed: 0 },
  };

  // Both kinds of webhook key (Ed25519, and the GRID profile's P-256), each sealed to its own context.
  const kinds = [
    { table: 'webhook_keys', context: webhookKeyContext },
    { table: 'webhook_p256_keys', context: gridWebhookKeyContext },
  ] as const;
  for (const kind of kinds) {
    const keys = await db.executor().selectFrom(kind.table).select(['platform_id', 'environment', 'private_key_pem']).execute();
    for (const key of keys) {
      report.webhookKeys.checked += 1;
      if (secrets.isCurrentText(key.private_key_pem)) continue;
      const context = kind.context(key.platform_id, key.environment);
      const sealed = secrets.sealText(secrets.openText(key.private_key_pem, context), context);
      await db.tx((trx) =>
        trx
          .updateTable(kind.table)
          .set({ private_key_pem: sealed })
          .where('platform_id', '=', key.platform_id)
          .where('environment', '=', key.environment)
          .where('private_key_pem', '=', key.private_key_pem)
          .execute(),
      );
      report.webhookKeys.sealed += 1;
    }
  }

  // UMA signing, encryption and node keys (src/modules/uma/keys.ts).
  report.umaKeys = await resealUmaKeys(db, secrets);

  // The SFTP client keys of the partner banks (src/rails/bank/credentials.ts).
  report.bankKeys = await resealBankKeys(db, secrets);

  // Documents hold up to 10 MiB each: ids a page at a time, then one row at a time.
  let after = '';
  for (;;) {
    const ids = await db.executor().selectFrom('documents').select('id').where('id', '>', after).orderBy('id').limit(PAGE).execute();
    if (ids.length === 0) break;
    for (const { id } of ids) {
      after = id;
      const row = await db.executor().selectFrom('documents').select('content').where('id', '=', id).executeTakeFirst();
      if (!row) continue; // deleted meanwhile
      report.documents.checked += 1;
      if (secrets.isCurrentBytes(row.content)) continue;
      const sealed = secrets.sealBytes(secrets.openBytes(row.content, documentContext(id)), documentContext(id));
      await db.tx((trx) => trx.updateTable('documents').set({ content: sealed }).where('id', '=', id).execute());
      report.documents.sealed += 1;
    }
  }
  return report;
}

/**
 * Rotation of the embedded key (`--generate`): a new key in kek.next.key, every secret sealed with
 * it, then kek.key becomes kek.previous.key and kek.next.key becomes kek.key, and the retired key
 * is deleted. An interruption at any step leaves every key that some row needs on disk (loadSecrets
 * reads all three files), so running the command again finishes the job.
 */
export async function rotateEmbeddedKek(db: Database, secrets: Secrets): Promise<RotationReport> {
  if (secrets.source !== 'data directory' || !secrets.file)
    throw new Error('--generate rotates the key kept in the data directory; with CORRIDOR_KEK or CORRIDOR_KEK_FILE set, rotate as docs/operations.md says');
  const dir = path.dirname(secrets.file);
  const current = path.join(dir, KEK_FILE_NAME);
  const next = path.join(dir, NEXT_KEK_FILE_NAME);
  const previous = path.join(dir, PREVIOUS_KEK_FILE_NAME);
  if (!fs.existsSync(next)) fs.writeFileSync(next, `${randomBytes(KEK_BYTES).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
  const known = [current, previous].filter((f) => fs.existsSync(f)).map(readKekFile);
  const report = await resealAll(db, createSealer({ current: readKekFile(next), previous: known }));
  if (fs.existsSync(current)) fs.renameSync(current, previous);
  fs.renameSync(next, current);
  fs.rmSync(previous, { force: true });
  return report;
}
