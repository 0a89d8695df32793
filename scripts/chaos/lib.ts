/**
 * The chaos harness shared by `npm run chaos:crash`, `npm run chaos:nodes` and their short CI
 * versions (test/e2e/crash.test.ts, test/e2e/nodes.test.ts): real server processes over one
 * database, a client that records every request and its answer, a mixed load of operations that
 * plug in as their routes appear in /openapi.json, and the checks that prove each acknowledged
 * effect happened exactly once.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { openDatabase } from '../../src/db/database.js';
import { DELIVERY_LEASE_MS } from '../../src/events/types.js';
import { cli, serverEnvironment, startServer, type RunningServer } from '../../test/helpers/server.js';
import { startWebhookReceiver, type WebhookReceiver } from '../../test/helpers/webhook-receiver.js';

export const API = '/2025-10-13';

export interface Node {
  index: number;
  server: RunningServer | undefined;
  /** Set while the node is down between a kill and its restart. */
  down: boolean;
  restarts: number;
}

/** N server processes over one database (N > 1 needs PostgreSQL). */
export class Cluster {
  nodes: Node[] = [];
  env: Record<string, string> = {};
  dataDir = '';
  private cleanupEnv: () => Promise<void> = async () => undefined;
  private turn = 0;

  /** `databaseUrl`: how the nodes reach the database, from the URL of the fresh schema (a relay in between, for the fault harness). */
  static async start(
    dialect: 'sqlite' | 'postgres',
    size: number,
    extraEnv: Record<string, string> = {},
    databaseUrl: (url: string) => string = (url) => url,
  ): Promise<Cluster> {
    if (size > 1 && dialect !== 'postgres') throw new Error('several nodes need PostgreSQL');
    const c = new Cluster();
    const { env, dataDir, cleanup } = await serverEnvironment(dialect);
    if (env.DATABASE_URL) env.DATABASE_URL = databaseUrl(env.DATABASE_URL);
    c.env = { ...env, SANDBOX_TIME_SCALE: '1000', WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true', AUTH_FAILURE_LIMIT: '0', ...extraEnv };
    c.dataDir = dataDir;
    c.cleanupEnv = cleanup;
    // The first node bootstraps and migrates; the others join the same database.
    for (let i = 0; i < size; i++) c.nodes.push({ index: i, server: await startServer(c.env), down: false, restarts: 0 });
    return c;
  }

  credentials(): { platformId: string; clientId: string; clientSecret: string } {
    return JSON.parse(fs.readFileSync(path.join(this.dataDir, 'credentials.json'), 'utf8'));
  }

  /** The next live node, round robin; undefined when every node is down. */
  pick(): Node | undefined {
    for (let i = 0; i < this.nodes.length; i++) {
      const n = this.nodes[this.turn++ % this.nodes.length];
      if (!n.down && n.server) return n;
    }
    return undefined;
  }

  /** SIGKILL: no shutdown hook runs, in-flight requests get no answer. */
  async kill(node: Node): Promise<void> {
    node.down = true;
    await node.server?.stop('SIGKILL');
  }

  async restart(node: Node): Promise<void> {
    node.server = await startServer(this.env);
    node.restarts++;
    node.down = false;
  }

  async stop(): Promise<void> {
    for (const n of this.nodes) await n.server?.stop('SIGTERM');
    await this.cleanupEnv();
  }

  outputs(): string {
    return this.nodes.map((n) => n.server?.output() ?? '').join('\n');
  }
}

export interface Answer {
  status: number;
  body: any;
  replayed: boolean;
}

/** One request and what came back (undefined: no answer, e.g. the node died). */
export interface Exchange {
  method: string;
  path: string;
  key?: string;
  body?: unknown;
  node?: number;
  answer?: Answer;
  error?: string;
  /** How long the attempt waited for its answer (or its error). */
  ms?: number;
}

export class Client {
  log: Exchange[] = [];
  constructor(
    private cluster: Cluster,
    readonly auth: string,
  ) {}

  /** One attempt on the next live node. */
  async once(method: string, p: string, body?: unknown, key?: string): Promise<Exchange> {
    const node = this.cluster.pick();
    const ex: Exchange = { method, path: p, key, body, node: node?.index };
    // Waiting for a node to come back is not a request.
    if (!node?.server) {
      ex.error = 'no live node';
      return ex;
    }
    this.log.push(ex);
    const headers: Record<string, string> = { authorization: this.auth };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (key) headers['idempotency-key'] = key;
    const started = performance.now();
    try {
      const res = await fetch(`${node.server.baseUrl}${API}${p}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(15_000),
      });
      const text = await res.text();
      ex.answer = { status: res.status, body: text ? JSON.parse(text) : undefined, replayed: res.headers.get('idempotent-replayed') === 'true' };
    } catch (e) {
      ex.error = (e as Error).message;
    }
    ex.ms = performance.now() - started;
    return ex;
  }

  /**
   * Sends until an answer that settles the request: anything but no answer, a 5xx or 409
   * IDEMPOTENCY_REQUEST_IN_PROGRESS. A POST keeps its Idempotency-Key across retries, so however
   * many attempts died with a node, the request takes effect once.
   */
  async settle(method: string, p: string, body?: unknown, key?: string, deadlineMs = 120_000): Promise<Answer> {
    const until = Date.now() + deadlineMs;
    for (;;) {
      const ex = await this.once(method, p, body, key);
      const a = ex.answer;
      if (a && a.status < 500 && a.body?.code !== 'IDEMPOTENCY_REQUEST_IN_PROGRESS') return a;
      if (Date.now() > until) throw new Error(`${method} ${p} never settled: ${ex.error ?? JSON.stringify(a)}`);
      await sleep(50 + Math.random() * 150);
    }
  }

  async get(p: string): Promise<any> {
    const a = await this.settle('GET', p);
    if (a.status !== 200) throw new Error(`GET ${p}: ${a.status} ${JSON.stringify(a.body)}`);
    return a.body;
  }

  /** Every item of a list, following cursors. */
  async all(p: string): Promise<any[]> {
    const out: any[] = [];
    let cursor: string | undefined;
    do {
      const sep = p.includes('?') ? '&' : '?';
      const page = await this.get(`${p}${sep}limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      out.push(...page.data);
      cursor = page.hasMore ? page.nextCursor : undefined;
    } while (cursor);
    return out;
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
export const basicAuth = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

// ---------------------------------------------------------------------------------------------
// The world the load runs in, and the operations

export interface World {
  client: Client;
  routes: Set<string>;
  /** The customer whose USD internal account every funding credits and every payment debits. */
  customerId: string;
  accountId: string;
  externalAccountId: string;
  receiver: WebhookReceiver;
  /** What the operations did, for the checks. */
  customers: Map<string, string[]>; // platformCustomerId → ids answered
  tokens: Map<string, string[]>; // token name → ids answered
  fundings: Map<string, number>; // key → amount, for fundings answered 2xx
  executions: Map<string, string[]>; // quote id → keys whose execute answered 2xx
  transfers: string[]; // transaction ids of answered transfer-outs
  refusedDebits: number; // payments refused for want of funds (no overdraft)
}

/** The account, the payee and the webhook receiver every operation uses. */
export async function prepareWorld(cluster: Cluster): Promise<World> {
  const creds = cluster.credentials();
  const client = new Client(cluster, basicAuth(creds.clientId, creds.clientSecret));
  const doc = (await (await fetch(`${cluster.pick()!.server!.baseUrl}/openapi.json`)).json()) as { paths: Record<string, object> };
  const routes = new Set<string>();
  for (const [p, item] of Object.entries<any>(doc.paths)) for (const m of Object.keys(item)) routes.add(`${m.toUpperCase()} ${p.slice(API.length)}`);
  const config = await client.get('/config');
  const receiver = await startWebhookReceiver({ publicKeyPem: config.webhookPublicKey });
  const patched = await client.settle('PATCH', '/config', { webhookEndpoint: receiver.url });
  if (patched.status !== 200) throw new Error(`config: ${JSON.stringify(patched.body)}`);
  const customer = await client.settle(
    'POST',
    '/customers',
    { platformCustomerId: 'chaos-payer', customerType: 'INDIVIDUAL', fullName: 'Chaos Payer', currencies: ['USD'] },
    randomUUID(),
  );
  if (customer.status !== 201) throw new Error(`customer: ${JSON.stringify(customer.body)}`);
  const accounts = await client.get(`/customers/internal-accounts?customerId=${customer.body.id}`);
  const accountId = accounts.data.find((a: any) => a.balance?.currency?.code === 'USD' || a.currency === 'USD')?.id ?? accounts.data[0].id;
  const payee = await client.settle(
    'POST',
    '/customers/external-accounts',
    {
      customerId: customer.body.id,
      currency: 'USD',
      accountInfo: {
        accountType: 'US_ACCOUNT',
        accountNumber: '1234567000',
        routingNumber: '021000021',
        accountCategory: 'CHECKING',
        bankName: 'JPMORGAN CHASE BANK',
        beneficiary: {
          beneficiaryType: 'INDIVIDUAL',
          fullName: 'Ada Lovelace',
          address: { line1: '12 St James Square', postalCode: 'SW1Y 4JH', country: 'GB' },
        },
      },
    },
    randomUUID(),
  );
  if (payee.status !== 201) throw new Error(`external account: ${JSON.stringify(payee.body)}`);
  return {
    client,
    routes,
    customerId: customer.body.id,
    accountId,
    externalAccountId: payee.body.id,
    receiver,
    customers: new Map(),
    tokens: new Map(),
    fundings: new Map(),
    executions: new Map(),
    transfers: [],
    refusedDebits: 0,
  };
}

export interface Operation {
  name: string;
  /** Routes it needs ("POST /quotes"); it joins the load once they are in /openapi.json. */
  routes: string[];
  weight: number;
  run(w: World, n: number): Promise<void>;
}

const push = (m: Map<string, string[]>, k: string, v: string) => m.set(k, [...(m.get(k) ?? []), v]);

/** Every operation the load may use; payment ones join when their routes exist. */
export const OPERATIONS: Operation[] = [
  {
    name: 'create customer',
    routes: ['POST /customers'],
    weight: 3,
    async run(w, n) {
      const pcid = `chaos-${n}`;
      const a = await w.client.settle(
        'POST',
        '/customers',
        { platformCustomerId: pcid, customerType: 'INDIVIDUAL', fullName: `Chaos ${n}`, currencies: ['USD'] },
        randomUUID(),
      );
      if (a.status !== 201) throw new Error(`create customer: ${a.status} ${JSON.stringify(a.body)}`);
      push(w.customers, pcid, a.body.id);
    },
  },
  {
    name: 'sandbox funding',
    routes: ['POST /sandbox/internal-accounts/{accountId}/fund'],
    weight: 3,
    async run(w, n) {
      const key = randomUUID();
      const amount = 10_000 + (n % 7) * 1_000;
      const a = await w.client.settle('POST', `/sandbox/internal-accounts/${w.accountId}/fund`, { amount }, key);
      if (a.status !== 200) throw new Error(`fund: ${a.status} ${JSON.stringify(a.body)}`);
      w.fundings.set(key, amount);
    },
  },
  {
    name: 'create token',
    routes: ['POST /tokens'],
    weight: 1,
    async run(w, n) {
      const name = `chaos-token-${n}`;
      const a = await w.client.settle('POST', '/tokens', { name, permissions: ['VIEW'] }, randomUUID());
      if (a.status !== 201) throw new Error(`token: ${a.status} ${JSON.stringify(a.body)}`);
      push(w.tokens, name, a.body.id);
    },
  },
  {
    name: 'quote and execute (twice, racing)',
    routes: ['POST /quotes', 'POST /quotes/{quoteId}/execute'],
    weight: 3,
    async run(w, n) {
      const quote = await w.client.settle(
        'POST',
        '/quotes',
        {
          source: { sourceType: 'ACCOUNT', accountId: w.accountId },
          destination: { destinationType: 'ACCOUNT', accountId: w.externalAccountId },
          lockedCurrencySide: 'SENDING',
          lockedCurrencyAmount: 2_000 + (n % 5) * 500,
        },
        randomUUID(),
      );
      if (quote.status === 400 && quote.body?.code === 'INSUFFICIENT_FUNDS') return void w.refusedDebits++;
      if (quote.status !== 201 && quote.status !== 200) throw new Error(`quote: ${quote.status} ${JSON.stringify(quote.body)}`);
      // Two executions of the same quote under different keys, on different nodes, at once.
      const keys = [randomUUID(), randomUUID()];
      const answers = await Promise.all(keys.map((k) => w.client.settle('POST', `/quotes/${quote.body.id}/execute`, {}, k)));
      answers.forEach((a, i) => {
        if (a.status < 300) push(w.executions, quote.body.id, keys[i]);
        else if (a.body?.code === 'INSUFFICIENT_FUNDS') w.refusedDebits++;
        else if (!['QUOTE_NOT_PENDING', 'QUOTE_EXPIRED'].includes(a.body?.code)) throw new Error(`execute: ${a.status} ${JSON.stringify(a.body)}`);
      });
    },
  },
  {
    name: 'transfer out',
    routes: ['POST /transfer-out'],
    weight: 2,
    async run(w, n) {
      const a = await w.client.settle(
        'POST',
        '/transfer-out',
        { source: { accountId: w.accountId }, destination: { accountId: w.externalAccountId }, amount: 1_000 + (n % 3) * 250 },
        randomUUID(),
      );
      if (a.status === 400 && a.body?.code === 'INSUFFICIENT_FUNDS') return void w.refusedDebits++;
      if (a.status >= 300) throw new Error(`transfer-out: ${a.status} ${JSON.stringify(a.body)}`);
      w.transfers.push(a.body.id);
    },
  },
];

export function availableOperations(w: World): Operation[] {
  return OPERATIONS.filter((op) => op.routes.every((r) => w.routes.has(r)));
}

/** `concurrency` loops each running a weighted random operation until `stop()` says so. */
export async function runLoad(w: World, ops: Operation[], concurrency: number, stop: () => boolean, onError: (e: Error) => void): Promise<number> {
  const bag = ops.flatMap((op) => Array.from({ length: op.weight }, () => op));
  let n = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (!stop()) {
        const op = bag[Math.floor(Math.random() * bag.length)];
        try {
          await op.run(w, ++n);
        } catch (e) {
          onError(e as Error);
        }
      }
    }),
  );
  return n;
}

// ---------------------------------------------------------------------------------------------
// The checks

const TERMINAL = new Set(['COMPLETED', 'FAILED', 'REFUNDED', 'REJECTED', 'EXPIRED']);

/**
 * A quote nobody managed to execute (both executions refused for lack of funds) keeps its PENDING
 * transaction until the quote expires (5 minutes): that is correct, not a payment left open.
 */
function awaitingExecution(w: World, t: any): boolean {
  return t.status === 'PENDING' && t.quoteId && !w.executions.has(t.quoteId);
}

/** Waits until every payment of the account has reached a final status. */
async function settledTransactions(w: World, timeoutMs: number): Promise<any[]> {
  if (!w.routes.has('GET /transactions')) return [];
  const until = Date.now() + timeoutMs;
  for (;;) {
    const txs = await w.client.all('/transactions');
    const open = txs.filter((t) => !TERMINAL.has(t.status) && !awaitingExecution(w, t));
    if (open.length === 0 || Date.now() > until) return txs;
    await sleep(500);
  }
}

/** The jobs rows naming these subjects, for a diagnosis when a payment never finishes. */
async function jobsOf(cluster: Cluster, subjects: string[]): Promise<string> {
  const db = await openDatabase({ url: cluster.env.DATABASE_URL ?? path.join(cluster.dataDir, 'corridor.db') });
  try {
    const rows = await db.executor().selectFrom('jobs').select(['kind', 'subject', 'run_at', 'locked_until', 'locked_by', 'attempts', 'last_error']).execute();
    return JSON.stringify(
      rows.filter((r) => subjects.some((s) => r.subject?.includes(s))),
      (_k, v) => (typeof v === 'bigint' ? Number(v) : v),
    ).slice(0, 2000);
  } finally {
    await db.close();
  }
}

/** Proves the effects; returns every violation found (empty: all good). */
export async function verify(
  cluster: Cluster,
  w: World,
  opts: { webhookTimeoutMs?: number } = {},
): Promise<{ problems: string[]; facts: Record<string, number> }> {
  const problems: string[] = [];
  const c = w.client;
  // Customers: one per platformCustomerId, and every answer (first or replay) named that one.
  const customers = await c.all('/customers');
  for (const [pcid, ids] of w.customers) {
    const stored = customers.filter((x) => x.platformCustomerId === pcid);
    if (stored.length !== 1) problems.push(`customer ${pcid}: ${stored.length} stored`);
    if (new Set(ids).size !== 1 || stored[0]?.id !== ids[0]) problems.push(`customer ${pcid}: answers ${ids.join(',')} vs stored ${stored[0]?.id}`);
  }
  // Tokens: one per name.
  const tokens = await c.all('/tokens');
  for (const [name, ids] of w.tokens) {
    const stored = tokens.filter((t) => t.name === name);
    if (stored.length !== 1 || stored[0].id !== ids[0] || new Set(ids).size !== 1)
      problems.push(`token ${name}: ${stored.length} stored, answers ${ids.join(',')}`);
  }
  // Quotes: at most one execution each, and one transaction per executed quote. A job leased by a
  // killed node waits for its lease (60 s) to end before another node takes it.
  const txs = await settledTransactions(w, 180_000);
  const byQuote = new Map<string, number>();
  for (const t of txs) if (t.quoteId) byQuote.set(t.quoteId, (byQuote.get(t.quoteId) ?? 0) + 1);
  for (const [quoteId, keys] of w.executions) {
    if (keys.length > 1) problems.push(`quote ${quoteId} executed ${keys.length} times`);
    if (byQuote.get(quoteId) !== 1) problems.push(`quote ${quoteId}: ${byQuote.get(quoteId) ?? 0} transactions`);
  }
  for (const [quoteId, n] of byQuote) if (n > 1) problems.push(`quote ${quoteId}: ${n} transactions`);
  for (const id of w.transfers) if (!txs.some((t) => t.id === id)) problems.push(`transfer ${id} answered but not stored`);
  const open = txs.filter((t) => !TERMINAL.has(t.status) && !awaitingExecution(w, t));
  if (open.length)
    problems.push(
      `${open.length} payments still open: ${open
        .slice(0, 3)
        .map((t) => `${t.id} ${t.status}`)
        .join(', ')}; their jobs: ${await jobsOf(
        cluster,
        open.map((t) => t.id),
      )}`,
    );
  // Money: the balance is every acknowledged funding once, less every payment that went out.
  const funded = [...w.fundings.values()].reduce((s, a) => s + a, 0);
  const ours = txs.filter((t) => t.type === 'OUTGOING' && t.source?.accountId === w.accountId);
  // A completed payment took its sent amount (fees included in it); a failed one was refunded.
  const out = ours.filter((t) => t.status === 'COMPLETED').reduce((s, t) => s + Number(t.sentAmount.amount), 0);
  const account = await c.get(`/internal-accounts/${w.accountId}`);
  const balance = Number(account.balance.amount);
  if (balance < 0) problems.push(`overdraft: balance ${balance}`);
  if (balance !== funded - out) problems.push(`balance ${balance} != funded ${funded} - paid out ${out} (${ours.length} payments)`);
  // The ledger proves itself.
  const verified = cli(['ledger', 'verify', '--json'], cluster.env);
  if (verified.status !== 0) problems.push(`ledger verify failed: ${verified.stdout.slice(0, 500)} ${verified.stderr.slice(0, 500)}`);
  // Webhooks: every event stored for an endpoint reached the receiver at least once.
  const deliveries = await c.all('/webhooks/deliveries');
  const expected = new Set(deliveries.filter((d) => d.status !== 'NO_ENDPOINT').map((d) => d.webhookId));
  const received = () => new Set(w.receiver.accepted().map((e) => e?.webhookId));
  // A delivery a killed node had claimed is attempted again once its lease ends: wait past it.
  const until = Date.now() + (opts.webhookTimeoutMs ?? DELIVERY_LEASE_MS + 30_000);
  while ([...expected].some((id) => !received().has(id)) && Date.now() < until) await sleep(250);
  const missing = [...expected].filter((id) => !received().has(id));
  if (missing.length) problems.push(`${missing.length} of ${expected.size} webhook events never delivered, e.g. ${missing.slice(0, 3).join(', ')}`);
  const got = received();
  return {
    problems,
    facts: {
      customers: w.customers.size,
      tokens: w.tokens.size,
      fundings: w.fundings.size,
      executedQuotes: w.executions.size,
      transfers: w.transfers.length,
      payments: ours.length,
      refusedDebits: w.refusedDebits,
      webhookEvents: expected.size,
      webhooksReceived: w.receiver.accepted().length,
      distinctWebhooksReceived: got.size,
      requests: c.log.length,
      unanswered: c.log.filter((e) => !e.answer).length,
      replays: c.log.filter((e) => e.answer?.replayed).length,
      balance,
    },
  };
}
