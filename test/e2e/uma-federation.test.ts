/**
 * Two real Corridor processes speaking UMA to each other over HTTP, each with its own database
 * (one SQLite, one PostgreSQL), its own keys and its own port, told where the other's domains are
 * by UMA_DOMAIN_ADDRESSES; and, beside them, a minimal VASP written with nothing but the reference
 * SDK, so the two Corridors cannot agree on a private dialect.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createContainer } from '../../src/container.js';
import { dialect } from '../helpers/env.js';
import { cli, freePort, serverEnvironment, startServer, type RunningServer } from '../helpers/server.js';
import { receivePayments, startVasp, uma, type TestVasp } from '../helpers/uma-vasp.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';

const API = '/2025-10-13';

interface Instance {
  server: RunningServer;
  env: Record<string, string>;
  platformId: string;
  auth: string;
  domain: string;
  cleanup: () => Promise<void>;
}

async function instance(db: 'sqlite' | 'postgres', base: string, port: number, map: string): Promise<Instance> {
  const { env, dataDir, cleanup } = await serverEnvironment(db);
  const server = await startServer({ ...env, UMA_BASE_DOMAIN: base, UMA_DOMAIN_ADDRESSES: map }, { port });
  const c = JSON.parse(fs.readFileSync(path.join(dataDir, 'credentials.json'), 'utf8'));
  const auth = `Basic ${Buffer.from(`${c.clientId}:${c.clientSecret}`).toString('base64')}`;
  const config = await (await fetch(`${server.baseUrl}${API}/config`, { headers: { authorization: auth } })).json();
  return { server, env, platformId: c.platformId, auth, domain: config.umaDomain, cleanup };
}

async function api(i: Instance, method: string, route: string, body?: unknown) {
  const res = await fetch(`${i.server.baseUrl}${API}${route}`, {
    method,
    headers: { authorization: i.auth, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, body: await res.json() };
}

/** Polls a transaction until it reaches one of `statuses` (a worker on the other side of the wire moves it). */
async function settled(i: Instance, id: string, statuses: string[], timeoutMs = 45_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const tx = await api(i, 'GET', `/transactions/${id}`);
    if (statuses.includes(tx.body.status) || Date.now() > until) return tx.body;
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function until<T>(what: () => T | undefined | Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await what();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A customer of `i` holding `amount` USD cents in its internal account. */
async function payer(i: Instance, name: string, amount: number) {
  const made = await api(i, 'POST', '/customers', {
    platformCustomerId: `${name}-${Math.random().toString(36).slice(2, 8)}`,
    customerType: 'INDIVIDUAL',
    fullName: name,
    currencies: ['USD'],
  });
  expect(made.status).toBe(201);
  const accounts = await api(i, 'GET', `/customers/internal-accounts?customerId=${made.body.id}`);
  const account = accounts.body.data.find((a: { balance: { currency: { code: string } } }) => a.balance.currency.code === 'USD').id as string;
  expect((await api(i, 'POST', `/sandbox/internal-accounts/${account}/fund`, { amount })).status).toBe(200);
  return { customer: made.body, account };
}

const balanceOf = async (i: Instance, account: string) => (await api(i, 'GET', `/internal-accounts/${account}`)).body.balance.amount as number;

describe('UMA between two Corridor instances', () => {
  let a: Instance;
  let b: Instance;
  let vasp: TestVasp;
  const other = dialect === 'postgres' ? 'sqlite' : 'postgres';
  let bob: string;

  beforeAll(async () => {
    vasp = await startVasp('vasp.test');
    const [portA, portB] = [await freePort(), await freePort()];
    const map = `*.a.test=http://127.0.0.1:${portA},*.b.test=http://127.0.0.1:${portB},vasp.test=${vasp.url}`;
    [a, b] = await Promise.all([instance(dialect, 'a.test', portA, map), instance(other, 'b.test', portB, map)]);
    vasp.reach.set(a.domain, a.server.baseUrl);
    vasp.reach.set(b.domain, b.server.baseUrl);
    expect((await api(b, 'PATCH', '/config', { requiredPayerDataFields: ['FULL_NAME'] })).status).toBe(200);
    bob = `$bob@${b.domain}`;
    const made = await api(b, 'POST', '/customers', {
      platformCustomerId: 'bob',
      customerType: 'INDIVIDUAL',
      fullName: 'Bob Receiver',
      currencies: ['EUR'],
      umaAddress: bob,
    });
    expect(made.status).toBe(201);
  }, 120_000);

  afterAll(async () => {
    await Promise.all([a?.server.stop(), b?.server.stop()]);
    await Promise.all([a?.cleanup(), b?.cleanup()]);
    await vasp?.close();
  });

  it("A looks B's customer up over HTTP: B verified A's signature, A verified B's answer", async () => {
    const res = await api(a, 'GET', `/receiver/uma/${bob}?sendingCurrency=USD`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      receiverUmaAddress: bob,
      requiredPayerDataFields: ['FULL_NAME'],
      supportedCurrencies: [{ currency: { code: 'EUR' } }],
    });
    const unknown = await api(a, 'GET', `/receiver/uma/$nobody@${b.domain}`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('UMA_ADDRESS_NOT_FOUND');
  });

  it("B refuses a request signed with a key that is not A's, and a replayed one", async () => {
    const request: uma.LnurlpRequest = {
      receiverAddress: bob,
      nonce: uma.generateNonce(),
      timestamp: new Date(),
      vaspDomain: a.domain,
      umaVersion: '1.0',
      isSubjectToTravelRule: true,
      signature: '',
    };
    request.signature = await uma.signPayload(uma.getSignableLnurlpRequestPayload(request), vasp.keys.signingPrivateKey);
    const forged = await vasp.call(
      'GET',
      uma
        .encodeToUrl(request)
        .toString()
        .replace(/^http:/, 'https:'),
    );
    expect(forged.status).toBe(401);
    request.vaspDomain = vasp.domain;
    request.signature = await uma.signPayload(uma.getSignableLnurlpRequestPayload(request), vasp.keys.signingPrivateKey);
    const url = uma.encodeToUrl(request).toString();
    expect((await vasp.call('GET', url)).status).toBe(200);
    expect((await vasp.call('GET', url)).status).toBe(400);
  });

  it("a VASP written with the reference SDK alone pays B's customer: verified invoice, settled once, credited once", async () => {
    const keys = await vasp.fetchKeys(b.domain);
    const request: uma.LnurlpRequest = {
      receiverAddress: bob,
      nonce: uma.generateNonce(),
      timestamp: new Date(),
      vaspDomain: vasp.domain,
      umaVersion: '1.0',
      isSubjectToTravelRule: true,
      signature: '',
    };
    request.signature = await uma.signPayload(uma.getSignableLnurlpRequestPayload(request), vasp.keys.signingPrivateKey);
    const lnurlp = uma.LnurlpResponse.fromJson((await vasp.call('GET', uma.encodeToUrl(request).toString())).body);
    expect(await uma.verifyUmaLnurlpResponseSignature(lnurlp, keys, new uma.InMemoryNonceValidator(0))).toBe(true);
    const payRequest = await uma.getPayRequest({
      receiverEncryptionPubKey: keys.getEncryptionPubKey(),
      sendingVaspPrivateKey: vasp.keys.signingPrivateKey,
      receivingCurrencyCode: 'EUR',
      amount: 2500,
      isAmountInReceivingCurrency: true,
      payerIdentifier: '$sam@vasp.test',
      payerKycStatus: uma.KycStatus.Verified,
      umaMajorVersion: 1,
      trInfo: JSON.stringify({ FULL_NAME: 'Sam Sender' }),
      payerData: { name: 'Sam Sender' },
    });
    const answered = await vasp.call('POST', lnurlp.callback, payRequest.toJsonString());
    expect(answered.status, answered.body).toBe(200);
    const response = uma.PayReqResponse.fromJson(answered.body);
    expect(await uma.verifyPayReqResponseSignature(response, '$sam@vasp.test', bob, keys, new uma.InMemoryNonceValidator(0))).toBe(true);

    const settle = async () => {
      const nonce = uma.generateNonce();
      const timestamp = Math.floor(Date.now() / 1000);
      const signature = await uma.signPayload(`${response.pr}|${nonce}|${timestamp}`, vasp.keys.signingPrivateKey);
      const res = await vasp.call(
        'POST',
        `https://${b.domain}/uma/sandbox/settle`,
        JSON.stringify({ invoice: response.pr, vaspDomain: vasp.domain, nonce, timestamp, signature }),
      );
      return JSON.parse(res.body);
    };
    const first = await settle();
    expect(first.status).toBe('COMPLETED');
    expect(await settle()).toEqual(first);
    const customers = await api(b, 'GET', '/customers?platformCustomerId=bob');
    const list = await api(b, 'GET', `/transactions?customerId=${customers.body.data[0].id}&type=INCOMING`);
    expect(list.body.data).toHaveLength(1);
    expect(list.body.data[0]).toMatchObject({ status: 'COMPLETED', receivedAmount: { amount: 2500 }, counterpartyInformation: { FULL_NAME: 'Sam Sender' } });
  });

  describe("A pays B's customer", () => {
    let hooksA: WebhookReceiver;
    let hooksB: WebhookReceiver;
    let bobAccount: string;

    beforeAll(async () => {
      const [configA, configB] = [(await api(a, 'GET', '/config')).body, (await api(b, 'GET', '/config')).body];
      hooksA = await startWebhookReceiver({ publicKeyPem: configA.webhookPublicKey });
      hooksB = await startWebhookReceiver({ publicKeyPem: configB.webhookPublicKey });
      expect((await api(a, 'PATCH', '/config', { webhookEndpoint: hooksA.url })).status).toBe(200);
      const patched = await api(b, 'PATCH', '/config', {
        webhookEndpoint: hooksB.url,
        incomingPaymentApproval: { required: true, requestedReceiverCustomerInfoFields: ['FULL_NAME'] },
      });
      expect(patched.status, JSON.stringify(patched.body)).toBe(200);
      const bobs = await api(b, 'GET', '/customers?platformCustomerId=bob');
      const accounts = await api(b, 'GET', `/customers/internal-accounts?customerId=${bobs.body.data[0].id}`);
      bobAccount = accounts.body.data.find((x: { balance: { currency: { code: string } } }) => x.balance.currency.code === 'EUR').id;
    });
    afterAll(async () => {
      await hooksA?.close();
      await hooksB?.close();
    });

    /** A funded payer of A, its lookup of bob (with its customerId: its data is the payer data) and a quote of 10,000 cents. */
    async function quoteToBob(name: string) {
      const p = await payer(a, name, 50_000);
      const found = await api(a, 'GET', `/receiver/uma/${bob}?sendingCurrency=USD&customerId=${p.customer.id}`);
      expect(found.status, JSON.stringify(found.body)).toBe(200);
      const q = await api(a, 'POST', '/quotes', {
        source: { sourceType: 'ACCOUNT', accountId: p.account },
        destination: { destinationType: 'UMA_ADDRESS', umaAddress: bob, currency: 'EUR' },
        lockedCurrencySide: 'SENDING',
        lockedCurrencyAmount: 10_000,
        lookupId: found.body.id,
      });
      expect(q.status, JSON.stringify(q.body)).toBe(201);
      return { ...p, quote: q.body };
    }
    const approvalRequest = (transactionOf: (e: any) => boolean) =>
      until(() => hooksB.accepted().find((e) => e.type === 'INCOMING_PAYMENT' && e.transaction.status === 'PENDING' && transactionOf(e)));

    it("B approves: A is debited and B credited exactly once, with webhooks on both sides and B holding exactly A's customer data", async () => {
      const before = await balanceOf(b, bobAccount);
      const { account, quote } = await quoteToBob('Alice Sender');
      expect(quote.rateDetails.counterpartyMultiplier).toBeGreaterThan(0);
      const executed = await api(a, 'POST', `/quotes/${quote.id}/execute`);
      expect(executed.status, JSON.stringify(executed.body)).toBe(200);
      // B's platform is asked, with the payer data A sent.
      const asked = await approvalRequest((e) => e.transaction.receivedAmount.amount === quote.totalReceivingAmount);
      expect(asked.requestedReceiverCustomerInfoFields).toEqual(['FULL_NAME']);
      expect(asked.transaction.counterpartyInformation).toEqual({ FULL_NAME: 'Alice Sender' });
      expect((await settled(a, quote.transactionId, ['COMPLETED'], 2_000)).status).toBe('PROCESSING');
      const approved = await api(b, 'POST', `/transactions/${asked.transaction.id}/approve`, { receiverCustomerInfo: { FULL_NAME: 'Bob Receiver' } });
      expect(approved.status, JSON.stringify(approved.body)).toBe(200);
      const done = await settled(a, quote.transactionId, ['COMPLETED', 'FAILED', 'REJECTED']);
      expect(done.status).toBe('COMPLETED');
      expect(await balanceOf(a, account)).toBe(50_000 - quote.totalSendingAmount);
      expect(await balanceOf(b, bobAccount)).toBe(before + quote.totalReceivingAmount);
      const incoming = await api(b, 'GET', `/transactions/${asked.transaction.id}`);
      expect(incoming.body).toMatchObject({ status: 'COMPLETED', receivedAmount: { amount: quote.totalReceivingAmount } });
      // Webhooks on both sides: A's payment through PROCESSING to COMPLETED, B's arrival through PENDING to COMPLETED.
      await until(() => (hooksA.accepted().some((e) => e.transaction?.id === quote.transactionId && e.transaction.status === 'COMPLETED') ? true : undefined));
      await until(() => (hooksB.accepted().some((e) => e.transaction?.id === asked.transaction.id && e.transaction.status === 'COMPLETED') ? true : undefined));
      expect(
        hooksA
          .accepted()
          .filter((e) => e.transaction?.id === quote.transactionId)
          .map((e) => e.transaction.status),
      ).toEqual(expect.arrayContaining(['PROCESSING', 'COMPLETED']));
      // A's post-transaction callback was acknowledged by B, which answers 200 only to a verified one.
      const readA = await createContainer(loadConfig(a.env));
      try {
        const settledRow = () =>
          readA.db.executor().selectFrom('uma_payments').selectAll().where('transaction_id', '=', quote.transactionId).executeTakeFirstOrThrow();
        await until(async () => ((await settledRow()).post_tx_at ? true : undefined));
        expect(await settledRow()).toMatchObject({ status: 'SETTLED', domain: b.domain, post_tx_url: `https://${b.domain}/uma/post-transaction` });
      } finally {
        await readA.close();
      }
      // Exactly once, whatever A's worker asked meanwhile.
      const list = await api(b, 'GET', `/transactions?type=INCOMING&limit=100`);
      expect(list.body.data.filter((t: { receivedAmount: { amount: number }; id: string }) => t.id === asked.transaction.id)).toHaveLength(1);
    }, 90_000);

    it("B rejects: A's payment is REJECTED and refunded; nothing reaches bob", async () => {
      const before = await balanceOf(b, bobAccount);
      const { account, quote } = await quoteToBob('Carol Sender');
      expect((await api(a, 'POST', `/quotes/${quote.id}/execute`)).status).toBe(200);
      const asked = await approvalRequest((e) => e.transaction.counterpartyInformation?.FULL_NAME === 'Carol Sender');
      expect((await api(b, 'POST', `/transactions/${asked.transaction.id}/reject`, { reason: 'not expected' })).status).toBe(200);
      const done = await settled(a, quote.transactionId, ['COMPLETED', 'FAILED', 'REJECTED']);
      expect(done.status).toBe('REJECTED');
      expect(await balanceOf(a, account)).toBe(50_000);
      expect(await balanceOf(b, bobAccount)).toBe(before);
    }, 90_000);

    it('an expired quote is refused at execution: no pay request is settled, no money moves', async () => {
      const { account, quote } = await quoteToBob('Dan Sender');
      expect((await api(a, 'POST', '/sandbox/clock/advance', { seconds: 400 })).status).toBe(200);
      const late = await api(a, 'POST', `/quotes/${quote.id}/execute`);
      expect(late.status).toBe(400);
      expect(late.body.code).toBe('QUOTE_EXPIRED');
      expect(await balanceOf(a, account)).toBe(50_000);
    });
  });

  it("the operator rotates B's keys with the CLI: a new generation of all three", async () => {
    const keysOf = (args: string[]) => {
      const r = cli(['uma-keys', ...args, '--platform', b.platformId, '--environment', 'SANDBOX', '--json'], b.env);
      expect(r.status, r.stderr).toBe(0);
      return JSON.parse(r.stdout);
    };
    const before = keysOf(['show']);
    expect(before).toMatchObject({ platformId: b.platformId, umaDomain: b.domain, generation: 1 });
    const after = keysOf(['rotate']);
    expect(after.generation).toBe(2);
    for (const k of ['signingPubKey', 'encryptionPubKey', 'nodePubKey']) expect(after[k]).not.toBe(before[k]);
    const bad = cli(['uma-keys', 'show', '--platform', 'nope'], b.env);
    expect(bad.status).not.toBe(0);
  }, 120_000);

  it('A looks up a user of the SDK VASP', async () => {
    vasp.routes.set('/.well-known/lnurlp/', async (req) => {
      const query = uma.parseLnurlpRequest(new URL(req.url!, `https://${vasp.domain}`));
      const senderKeys = await vasp.fetchKeys(query.vaspDomain!);
      if (!(await uma.verifyUmaLnurlpQuerySignature(query, senderKeys, new uma.InMemoryNonceValidator(0))))
        return [401, { status: 'ERROR', reason: 'bad signature' }];
      const response = await uma.getLnurlpResponse({
        request: query,
        privateKeyBytes: vasp.keys.signingPrivateKey,
        requiresTravelRuleInfo: true,
        callback: `https://${vasp.domain}/payreq/vic`,
        encodedMetadata: '[["text/plain","Pay vic"]]',
        minSendableSats: 1,
        maxSendableSats: 10_000_000,
        payerDataOptions: { identifier: { mandatory: true }, compliance: { mandatory: true }, name: { mandatory: true } },
        currencyOptions: [new uma.Currency('USD', 'US Dollar', '$', 10_000, 1, 1_000_000, 2)],
        receiverKycStatus: uma.KycStatus.Verified,
      });
      return [200, response.toJsonString()];
    });
    const res = await api(a, 'GET', `/receiver/uma/$vic@${vasp.domain}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      requiredPayerDataFields: ['FULL_NAME'],
      supportedCurrencies: [{ currency: { code: 'USD' }, minAmount: 1, maxAmount: 1_000_000 }],
    });
  });

  it('A pays a customer of the SDK VASP: its invoice verified, settled with a proof of payment, and a post-transaction callback the SDK verifies', async () => {
    const receiver = receivePayments(vasp, { code: 'USD', multiplier: 10_000, decimals: 2 });
    const p = await payer(a, 'Erin Sender', 50_000);
    const found = await api(a, 'GET', `/receiver/uma/$vic@${vasp.domain}?customerId=${p.customer.id}`);
    expect(found.status, JSON.stringify(found.body)).toBe(200);
    const q = await api(a, 'POST', '/quotes', {
      source: { sourceType: 'ACCOUNT', accountId: p.account },
      destination: { destinationType: 'UMA_ADDRESS', umaAddress: `$vic@${vasp.domain}`, currency: 'USD' },
      lockedCurrencySide: 'RECEIVING',
      lockedCurrencyAmount: 2_000,
      lookupId: found.body.id,
      immediatelyExecute: true,
    });
    expect(q.status, JSON.stringify(q.body)).toBe(201);
    expect(receiver.payRequests.at(-1)!.request.payerData).toMatchObject({ name: 'Erin Sender' });
    const done = await settled(a, q.body.transactionId, ['COMPLETED', 'FAILED']);
    expect(done.status).toBe('COMPLETED');
    expect(receiver.settlements).toEqual([{ invoice: expect.any(String), first: true }]);
    await until(() => (receiver.callbacks.length ? true : undefined));
    expect(receiver.callbacks[0].vaspDomain).toBe(a.domain);
    expect(await balanceOf(a, p.account)).toBe(50_000 - q.body.totalSendingAmount);
  }, 90_000);
});
