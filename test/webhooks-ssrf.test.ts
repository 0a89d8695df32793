/**
 * Webhook URL safety (issue item 5): forbidden address ranges, DNS answers that change, the
 * operator switch, redirects, and the response size cap.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { createContainer, type Container } from '../src/container.js';
import type { Environment, Permission } from '../src/common/scope.js';
import type { App } from '../src/http/types.js';
import { basic, expectError, freshDatabase } from './helpers/context.js';
import { startWebhookReceiver } from './helpers/webhook-receiver.js';

/** DNS of the tests: names map to what the test says, so a name can "rebind" between lookups. */
const dns = new Map<string, string[]>();

interface Node {
  app: App;
  container: Container;
  token(environment: Environment, permissions?: Permission[]): Promise<string>;
  close(): Promise<void>;
}

async function node(env: Record<string, string> = {}): Promise<Node> {
  const { db, drop } = await freshDatabase();
  const container = await createContainer(loadConfig({ DATA_DIR: '/nonexistent', ...env }), {
    db,
    webhookResolve: async (host) => dns.get(host) ?? Promise.reject(new Error('ENOTFOUND')),
  });
  const app = await buildApp(container);
  const platform = await container.services.platforms.create('SSRF');
  return {
    app,
    container,
    async token(environment, permissions = ['VIEW', 'MANAGE']) {
      const { row, clientSecret } = await container.services.tokens.issue({ platformId: platform.id, environment, name: 't', permissions });
      return basic(row.client_id, clientSecret);
    },
    async close() {
      await app.close();
      await container.close();
      await drop();
    },
  };
}

async function send(n: Node, auth: string, method: 'PATCH' | 'POST', path: string, payload: object) {
  const res = await n.app.inject({ method, url: `/2025-10-13${path}`, headers: { authorization: auth }, payload });
  return { status: res.statusCode, body: res.json() };
}

// A hosted server (listening on every interface): private addresses are refused by default.
let strict: Node;
let prod: string;
let sandbox: string;
// A server on a laptop (listening on loopback only): its receivers live on the same machine.
let laptop: Node;
let laptopSandbox: string;
beforeAll(async () => {
  strict = await node({ HOST: '0.0.0.0' });
  prod = await strict.token('PRODUCTION');
  sandbox = await strict.token('SANDBOX');
  laptop = await node({ HOST: '127.0.0.1' });
  laptopSandbox = await laptop.token('SANDBOX');
});
afterAll(async () => {
  await strict.close();
  await laptop.close();
});

// One address of each forbidden range, with the range name the refusal gives.
const FORBIDDEN: Array<[string, string]> = [
  ['127.0.0.1', 'loopback'],
  ['127.255.0.9', 'loopback'],
  ['[::1]', 'loopback'],
  ['10.1.2.3', 'private'],
  ['172.16.5.4', 'private'],
  ['172.31.255.254', 'private'],
  ['192.168.1.1', 'private'],
  ['[fc00::1]', 'private'],
  ['[fd12:3456::1]', 'private'],
  ['169.254.10.10', 'link-local'],
  ['[fe80::1]', 'link-local'],
  ['169.254.169.254', 'cloud-metadata'],
  ['169.254.170.2', 'cloud-metadata'],
  ['100.100.100.200', 'cloud-metadata'],
  ['[fd00:ec2::254]', 'cloud-metadata'],
  ['100.64.0.1', 'cgnat'],
  ['0.0.0.0', 'unspecified'],
  ['[::]', 'unspecified'],
  ['224.0.0.1', 'multicast'],
  ['[ff02::1]', 'multicast'],
  ['192.0.2.1', 'documentation'],
  ['198.18.0.1', 'benchmarking'],
  ['240.0.0.1', 'reserved'],
  ['[::ffff:127.0.0.1]', 'loopback'],
  ['[::ffff:10.0.0.1]', 'private'],
  ['2130706433', 'loopback'], // 127.0.0.1 written as one number
  ['0x7f.1', 'loopback'],
];

describe('PRODUCTION refuses every forbidden range', () => {
  it.each(FORBIDDEN)('webhookEndpoint https://%s/ (%s) → 400 naming the field', async (host, range) => {
    const err = expectError(await send(strict, prod, 'PATCH', '/config', { webhookEndpoint: `https://${host}/hooks` }), 400, 'INVALID_INPUT');
    expect(err.details.fields[0]).toMatchObject({ field: 'webhookEndpoint', message: expect.stringContaining(`(${range})`) });
  });

  it('POST /webhooks/test refuses them too, and records nothing', async () => {
    for (const [host] of FORBIDDEN) {
      const err = expectError(await send(strict, prod, 'POST', '/webhooks/test', { url: `https://${host}/hooks` }), 400, 'INVALID_INPUT');
      expect(err.details.fields[0].field).toBe('url');
    }
    const log = await strict.app.inject({ method: 'GET', url: '/2025-10-13/webhooks/deliveries', headers: { authorization: prod } });
    expect(log.json().totalCount).toBe(0);
  });

  it('refuses a name that resolves to a private address, and metadata host names', async () => {
    dns.set('intranet.example.com', ['93.184.215.14', '10.0.0.7']); // one bad answer is enough
    expect(
      expectError(await send(strict, prod, 'PATCH', '/config', { webhookEndpoint: 'https://intranet.example.com/h' }), 400, 'INVALID_INPUT').details.fields[0]
        .message,
    ).toMatch(/10\.0\.0\.7/);
    expectError(await send(strict, prod, 'PATCH', '/config', { webhookEndpoint: 'https://metadata.google.internal/h' }), 400, 'INVALID_INPUT');
  });

  it('accepts a public address and a name that does not resolve yet (checked again at each attempt)', async () => {
    dns.set('hooks.example.com', ['93.184.215.14']);
    expect((await send(strict, prod, 'PATCH', '/config', { webhookEndpoint: 'https://hooks.example.com/h' })).status).toBe(200);
    expect((await send(strict, prod, 'PATCH', '/config', { webhookEndpoint: 'https://not-yet.example.com/h' })).status).toBe(200);
  });
});

describe('SANDBOX on a hosted server', () => {
  it("refuses loopback and private ranges like PRODUCTION: a sandbox token cannot reach the server's own ports", async () => {
    const local = await startWebhookReceiver(); // a service on the server's machine
    for (const url of [
      local.url,
      'http://127.0.0.1:5432/h',
      'http://[::1]:3000/h',
      'http://10.0.0.1/h',
      'http://192.168.0.10/h',
      'http://169.254.169.254/latest/meta-data',
    ]) {
      const err = expectError(await send(strict, sandbox, 'PATCH', '/config', { webhookEndpoint: url }), 400, 'INVALID_INPUT');
      expect(err.details.fields[0].field).toBe('webhookEndpoint');
      expect(expectError(await send(strict, sandbox, 'POST', '/webhooks/test', { url }), 400, 'INVALID_INPUT').details.fields[0].field).toBe('url');
    }
    expect(local.requests).toHaveLength(0);
    await local.close();
  });
});

describe('SANDBOX on a laptop (HOST on loopback, WEBHOOK_ALLOW_PRIVATE_ADDRESSES unset)', () => {
  it('allows loopback (a receiver on your laptop) and http, never metadata', async () => {
    for (const url of ['http://127.0.0.1:3000/h', 'http://[::1]:3000/h']) {
      expect((await send(laptop, laptopSandbox, 'PATCH', '/config', { webhookEndpoint: url })).status).toBe(200);
    }
    expectError(await send(laptop, laptopSandbox, 'PATCH', '/config', { webhookEndpoint: 'http://169.254.169.254/latest/meta-data' }), 400, 'INVALID_INPUT');
  });

  it('an operator may refuse them there too (WEBHOOK_ALLOW_PRIVATE_ADDRESSES=false)', async () => {
    const closed = await node({ HOST: '127.0.0.1', WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'false' });
    expectError(await send(closed, await closed.token('SANDBOX'), 'PATCH', '/config', { webhookEndpoint: 'http://127.0.0.1:3000/h' }), 400, 'INVALID_INPUT');
    await closed.close();
  });
});

describe('WEBHOOK_ALLOW_PRIVATE_ADDRESSES=true', () => {
  it('lets the operator allow private networks, never cloud metadata', async () => {
    const open = await node({ WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true' });
    const auth = await open.token('PRODUCTION');
    for (const host of ['10.1.2.3', '192.168.1.1', '172.16.0.1', '127.0.0.1', '[fc00::1]']) {
      expect((await send(open, auth, 'PATCH', '/config', { webhookEndpoint: `https://${host}/h` })).status).toBe(200);
    }
    for (const host of ['169.254.169.254', '[fd00:ec2::254]', 'metadata.google.internal']) {
      expectError(await send(open, auth, 'PATCH', '/config', { webhookEndpoint: `https://${host}/h` }), 400, 'INVALID_INPUT');
    }
    await open.close();
  });
});

describe('at delivery time', () => {
  it('re-checks DNS at each attempt: a name that now points inside is refused without a request', async () => {
    const receiver = await startWebhookReceiver();
    dns.set('rebind.example.com', ['127.0.0.1']);
    const url = `http://rebind.example.com:${receiver.port}/webhooks`;
    expect((await send(laptop, laptopSandbox, 'PATCH', '/config', { webhookEndpoint: url })).status).toBe(200);
    dns.set('rebind.example.com', ['169.254.169.254']);
    const scope = { platformId: await platformOf(laptop), environment: 'SANDBOX' as const };
    const { deliveryId } = await laptop.container.db.tx(() =>
      laptop.container.events.emit(scope, {
        type: 'OUTGOING_PAYMENT',
        subject: 'Transaction:019a6f1e-8f3c-7cc1-9d6e-000000000001',
        payload: { transaction: {} },
      }),
    );
    expect(await laptop.container.webhooks.worker.processNext()).toBe(true);
    const log = await laptop.app.inject({ method: 'GET', url: `/2025-10-13/webhooks/deliveries/${deliveryId}`, headers: { authorization: laptopSandbox } });
    expect(log.json()).toMatchObject({
      status: 'PENDING',
      attempts: [{ error: 'refused: address 169.254.169.254 is not allowed (cloud-metadata)' }],
    });
    expect(log.json().attempts[0]).not.toHaveProperty('statusCode');
    expect(receiver.requests).toHaveLength(0);
    // Connected to the checked address, with the URL's own host name in the Host header.
    dns.set('rebind.example.com', ['127.0.0.1']);
    const res = await send(laptop, laptopSandbox, 'POST', '/webhooks/test', {});
    expect(res.body).toMatchObject({ delivered: true, statusCode: 200 });
    expect(receiver.requests[0].headers.host).toBe(`rebind.example.com:${receiver.port}`);
    await receiver.close();
  });

  it('reaches a SANDBOX receiver on 127.0.0.1 whose name resolves to ::1 first (as localhost often does)', async () => {
    const receiver = await startWebhookReceiver(); // listens on 127.0.0.1 only
    dns.set('laptop.example.com', ['::1', '127.0.0.1']);
    const res = await send(laptop, laptopSandbox, 'POST', '/webhooks/test', { url: `http://laptop.example.com:${receiver.port}/webhooks` });
    expect(res.body).toMatchObject({ delivered: true, statusCode: 200 });
    expect(res.body).not.toHaveProperty('error');
    expect(receiver.requests).toHaveLength(1);
    await receiver.close();
  });

  it('does not follow redirects', async () => {
    const target = await startWebhookReceiver();
    const redirecting = await startWebhookReceiver({ respond: () => ({ status: 302, headers: { location: target.url } }) });
    const res = await send(laptop, laptopSandbox, 'POST', '/webhooks/test', { url: redirecting.url });
    expect(res.body).toMatchObject({ delivered: false, statusCode: 302, error: 'redirect 302 not followed' });
    expect(target.requests).toHaveLength(0);
    await target.close();
    await redirecting.close();
  });

  it('shows 256 characters of a 2xx answer, and nothing of any other answer', async () => {
    const chatty = await startWebhookReceiver({ respond: () => ({ status: 200, body: 'x'.repeat(200_000) }) });
    const res = await send(laptop, laptopSandbox, 'POST', '/webhooks/test', { url: chatty.url });
    expect(res.body.delivered).toBe(true);
    expect(res.body.responseBody).toBe('x'.repeat(256));
    await chatty.close();
    // A service that is not a webhook receiver (a status page, an admin port) answers something else.
    const admin = await startWebhookReceiver({ respond: () => ({ status: 404, body: 'secret-admin-page' }) });
    const refused = await send(laptop, laptopSandbox, 'POST', '/webhooks/test', { url: admin.url });
    expect(refused.body).toMatchObject({ delivered: false, statusCode: 404 });
    expect(refused.body).not.toHaveProperty('responseBody');
    expect(JSON.stringify(refused.body)).not.toContain('secret-admin-page');
    const log = await laptop.app.inject({
      method: 'GET',
      url: `/2025-10-13/webhooks/deliveries/${refused.body.deliveryId}`,
      headers: { authorization: laptopSandbox },
    });
    expect(log.json().attempts[0]).toMatchObject({ statusCode: 404 });
    expect(log.json().attempts[0]).not.toHaveProperty('responseBody');
    await admin.close();
  });
});

async function platformOf(n: Node): Promise<string> {
  const row = await n.container.db.executor().selectFrom('platforms').select('id').executeTakeFirstOrThrow();
  return row.id;
}
