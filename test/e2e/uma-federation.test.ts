/**
 * Two real Corridor processes speaking UMA to each other over HTTP, each with its own database
 * (one SQLite, one PostgreSQL), its own keys and its own port, told where the other's domains are
 * by UMA_DOMAIN_ADDRESSES; and, beside them, a minimal VASP written with nothing but the reference
 * SDK, so the two Corridors cannot agree on a private dialect.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialect } from '../helpers/env.js';
import { cli, freePort, serverEnvironment, startServer, type RunningServer } from '../helpers/server.js';
import { startVasp, uma, type TestVasp } from '../helpers/uma-vasp.js';

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
});
