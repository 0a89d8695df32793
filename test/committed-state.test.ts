// Work done from state that never committed (issue 38, item 2). Inside a transaction a read sees
// that transaction's writes, and in a batch the earlier members' writes too: none of it is certain
// until the commit. So caches learn only from what committed, and a refusal decided on the batch's
// state is answered (and recorded for an Idempotency-Key) only once that state committed.
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.js';
import { createIdempotency } from '../src/http/idempotency.js';
import { ledgerErrors } from '../src/ledger/errors.js';
import type { Scope } from '../src/common/scope.js';
import { holdTransaction } from './helpers/held-transaction.js';
import { testContext, type TestContext } from './helpers/context.js';

class ChangedMind extends Error {}

describe('caches and refusals rest on committed state', () => {
  let ctx: TestContext;
  let db: Database;
  let scope: Scope;
  beforeAll(async () => {
    ctx = await testContext();
    db = ctx.container.db;
    scope = { platformId: ctx.platform.platformId, environment: 'SANDBOX' };
    // A dangling reference is refused only at COMMIT: a batch that fails after its members ran.
    await sql`create table cs_parent (k text primary key)`.execute(db.admin);
    await sql`create table cs_child (k text references cs_parent (k) deferrable initially deferred)`.execute(db.admin);
    await sql`create table cs_funds (k text primary key)`.execute(db.admin);
  });

  /** Starts `members` so that they run as one batch (one group on SQLite), then lets it go. */
  async function oneBatch<T extends unknown[]>(members: () => { [K in keyof T]: Promise<T[K]> }) {
    const lane = await holdTransaction(db, async () => undefined);
    const settled = Promise.allSettled(members());
    // On SQLite the held transaction is of the same group: it fails with it when the group does.
    await lane.release().catch(() => undefined);
    return settled;
  }

  it('a configuration read inside a transaction that rolls back is not cached', async () => {
    const before = await ctx.container.configs.get(scope);
    ctx.container.configs.forget(scope);
    await expect(
      db.tx(async (trx) => {
        await trx
          .updateTable('platform_configs')
          .set({ webhook_endpoint: 'https://never.example/hook' })
          .where('platform_id', '=', scope.platformId)
          .where('environment', '=', scope.environment)
          .execute();
        // A payment's read through the cache, in the same transaction (a batch's later member).
        expect((await ctx.container.configs.get(scope)).webhook_endpoint).toBe('https://never.example/hook');
        throw new ChangedMind();
      }),
    ).rejects.toBeInstanceOf(ChangedMind);
    expect((await ctx.container.configs.get(scope)).webhook_endpoint).toBe(before.webhook_endpoint);
  });

  it('a webhook signing key made in a transaction that rolls back is not remembered', async () => {
    const other = await ctx.newPlatform('keys');
    const keyScope: Scope = { platformId: other.platformId, environment: 'PRODUCTION' };
    await expect(
      db.tx(async () => {
        await ctx.container.webhooks.keys.publicKeyPem(keyScope);
        throw new ChangedMind();
      }),
    ).rejects.toBeInstanceOf(ChangedMind);
    // The key this node signs with is the one stored, which receivers fetch.
    const used = await ctx.container.webhooks.keys.publicKeyPem(keyScope);
    const stored = await db.admin
      .selectFrom('webhook_keys')
      .select('public_key_pem')
      .where('platform_id', '=', keyScope.platformId)
      .where('environment', '=', keyScope.environment)
      .executeTakeFirst();
    expect(stored?.public_key_pem).toBe(used);
  });

  it('a refusal that rests on an earlier member of a batch that never commits is not recorded for its Idempotency-Key', async () => {
    const idempotency = createIdempotency({ db, clock: { now: () => new Date() } });
    // Refuses when the funds are taken, as a payment does after an earlier member's debit.
    const pay = idempotency.wrap(async () => {
      const taken = await sql`select k from cs_funds where k = 'taken'`.execute(db.executor());
      if (taken.rows.length > 0) throw ledgerErrors.INSUFFICIENT_FUNDS();
      return { paid: true };
    });
    const reply = { statusCode: 200, code: (s: number) => ((reply.statusCode = s), reply), header: () => reply };
    const request = {
      headers: { 'idempotency-key': 'refusal-on-uncommitted' },
      auth: { ...scope },
      body: { amount: 1 },
      method: 'POST',
      url: '/pay',
      routeOptions: { url: '/pay' },
      params: {},
    };
    const [debit, refusal] = await oneBatch(() => [
      // An earlier member takes the funds, and leaves a reference that fails the batch at COMMIT.
      db.tx(async (trx) => {
        await sql`insert into cs_funds (k) values ('taken')`.execute(trx);
        await sql`insert into cs_child (k) values ('dangling')`.execute(trx);
      }),
      Promise.resolve(pay(request as never, reply as never)),
    ]);
    expect(debit.status).toBe('rejected');
    // The debit never committed: a refusal for lack of funds must not be the answer, nor kept.
    expect((await sql`select k from cs_funds`.execute(db.admin)).rows).toEqual([]);
    if (refusal.status === 'fulfilled') expect(refusal.value).toEqual({ paid: true });
    else expect(refusal.reason).not.toMatchObject({ code: 'INSUFFICIENT_FUNDS' });
    const recorded = await db.admin.selectFrom('idempotency_keys').selectAll().where('idempotency_key', '=', 'refusal-on-uncommitted').execute();
    expect(recorded.filter((r) => r.status_code >= 400)).toEqual([]);
  });

  it('a member refused in a batch is answered with the batch error when the batch fails, and with its refusal when it commits', async () => {
    const refuser = () =>
      db.tx(async (trx) => {
        if ((await sql`select k from cs_funds where k = 'second'`.execute(trx)).rows.length > 0) throw new ChangedMind('refused');
        await sql`insert into cs_funds (k) values ('refuser')`.execute(trx);
      });
    const failing = await oneBatch(() => [
      db.tx(async (trx) => {
        await sql`insert into cs_funds (k) values ('second')`.execute(trx);
        await sql`insert into cs_child (k) values ('dangling-2')`.execute(trx);
      }),
      refuser(),
    ]);
    expect(failing.map((s) => s.status)).toEqual(['rejected', 'rejected']);
    expect((failing[1] as PromiseRejectedResult).reason).not.toBeInstanceOf(ChangedMind);
    const committing = await oneBatch(() => [db.tx(async (trx) => sql`insert into cs_funds (k) values ('second')`.execute(trx)), refuser()]);
    expect(committing[0].status).toBe('fulfilled');
    expect((committing[1] as PromiseRejectedResult).reason).toBeInstanceOf(ChangedMind);
  });

  it('a commit hook that throws leaves every member of its batch answered as committed', async () => {
    const warnings: unknown[] = [];
    const onWarning = (w: unknown) => warnings.push(w);
    process.on('warning', onWarning);
    try {
      const insert = (k: string, hook?: () => void) =>
        db.tx(async (trx) => {
          await sql`insert into cs_funds (k) values (${k})`.execute(trx);
          if (hook) db.afterCommit(hook);
          return k;
        });
      const settled = await oneBatch(() => [
        insert('h1', () => {
          throw new Error('a broken hook');
        }),
        insert('h2'),
        insert('h3'),
      ]);
      expect(settled.map((s) => (s.status === 'fulfilled' ? s.value : String(s.reason)))).toEqual(['h1', 'h2', 'h3']);
      expect((await sql`select k from cs_funds where k like 'h%' order by k`.execute(db.admin)).rows).toEqual([{ k: 'h1' }, { k: 'h2' }, { k: 'h3' }]);
      await new Promise((r) => setImmediate(r));
      expect(warnings.some((w) => String(w).includes('a broken hook'))).toBe(true);
    } finally {
      process.off('warning', onWarning);
    }
  });
});
