/**
 * UMA on the wire, the receiving side: a platform's domain publishes its keys and answers signed
 * LNURLP requests from another VASP — here a minimal one written with the reference SDK alone
 * (test/helpers/uma-vasp.ts), reached through UMA_DOMAIN_ADDRESSES. What a regulated receiver
 * must refuse is refused: replayed nonces, bad signatures, stale timestamps, unknown versions
 * and users, unsigned requests.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { call, testContext, type TestContext } from './helpers/context.js';
import bolt11 from 'bolt11';
import { createHash } from 'node:crypto';
import { balance, drainWebhooks, fundedCustomer } from './helpers/payments.js';
import { createRetentionSweeper } from '../src/retention/sweeper.js';
import { startWebhookReceiver } from './helpers/webhook-receiver.js';
import { receivePayments, startVasp, uma, type TestVasp, type VaspReceiver } from './helpers/uma-vasp.js';
import { expectLedgerBalanced } from './helpers/ledger.js';

let ctx: TestContext;
let vasp: TestVasp;
/** Publishes a signing key that is not the one it signs with. */
let impostor: TestVasp;
let domain: string;
const user = `bea${Math.random().toString(36).slice(2, 8)}`;
let address: string;

beforeAll(async () => {
  vasp = await startVasp('vasp.test');
  impostor = await startVasp('impostor.test');
  impostor.setPublishedKeys(() => ({ ...impostor.publishedKeys(), signingPubKey: vasp.keys.signingPublicKey.toString('hex') }));
  ctx = await testContext({ env: { UMA_DOMAIN_ADDRESSES: `vasp.test=${vasp.url},impostor.test=${impostor.url}` } });
  const config = await call(ctx, 'PATCH', '/config', { body: { requiredPayerDataFields: ['FULL_NAME', 'NATIONALITY'] } });
  domain = config.body.umaDomain;
  address = `$${user}@${domain}`;
  const bea = await call(ctx, 'POST', '/customers', {
    body: { platformCustomerId: `bea-${user}`, customerType: 'INDIVIDUAL', fullName: 'Bea Receiver', currencies: ['EUR', 'USD'], umaAddress: address },
  });
  expect(bea.status).toBe(201);
});
afterAll(async () => {
  await vasp.close();
  await impostor.close();
});

const get = (url: string, host = domain) => ctx.app.inject({ method: 'GET', url, headers: { host } });
const pathOf = (u: URL) => `${u.pathname}${u.search}`;

async function signedRequest(opts: { receiver?: string; timestamp?: Date; version?: string; key?: Buffer } = {}) {
  const request: uma.LnurlpRequest = {
    receiverAddress: opts.receiver ?? address,
    nonce: uma.generateNonce(),
    timestamp: opts.timestamp ?? new Date(),
    vaspDomain: vasp.domain,
    umaVersion: opts.version ?? uma.UmaProtocolVersion,
    isSubjectToTravelRule: true,
    signature: '',
  };
  request.signature = await uma.signPayload(uma.getSignableLnurlpRequestPayload(request), opts.key ?? vasp.keys.signingPrivateKey);
  return uma.encodeToUrl(request);
}

async function publishedKeys() {
  const res = await get('/.well-known/lnurlpubkey');
  expect(res.statusCode).toBe(200);
  return uma.PubKeyResponse.fromJson(res.body);
}

describe('/.well-known/lnurlpubkey', () => {
  it('publishes certificate chains of distinct signing and encryption keys, with an expiry in seconds', async () => {
    const body = JSON.parse((await get('/.well-known/lnurlpubkey')).body);
    const keys = await publishedKeys();
    expect(Buffer.from(keys.getSigningPubKey()).toString('hex')).toBe(body.signingPubKey);
    expect(Buffer.from(keys.getEncryptionPubKey()).toString('hex')).toBe(body.encryptionPubKey);
    expect(body.signingPubKey).not.toBe(body.encryptionPubKey);
    const now = Date.now() / 1000;
    expect(body.expirationTimestamp).toBeGreaterThan(now + 600);
    expect(body.expirationTimestamp).toBeLessThan(now + 2 * 3600);
    expect(keys.signingCertChain![0].subject).toContain(domain);
  });

  it('keeps the private keys sealed under the KEK, and is answered only for a hosted domain', async () => {
    const rows = await ctx.container.db.executor().selectFrom('uma_keys').select(['purpose', 'private_key']).execute();
    expect(rows.map((r) => r.purpose).sort()).toEqual(['ENCRYPTION', 'NODE', 'SIGNING']);
    for (const r of rows) expect(r.private_key).toMatch(/^enc:v1:/);
    const res = await get('/.well-known/lnurlpubkey', 'nobody.example');
    expect(res.statusCode).toBe(404);
    expect(JSON.parse(res.body)).toMatchObject({ status: 'ERROR', code: 'USER_NOT_FOUND' });
  });

  it('serves the UMA configuration with the versions spoken', async () => {
    const res = await get('/.well-known/uma-configuration');
    expect(JSON.parse(res.body)).toEqual({ uma_major_versions: [1, 0] });
  });
});

describe('/.well-known/lnurlp/{user}', () => {
  it("answers a signed request with the customer's currencies, the required payer data and a signed compliance section", async () => {
    const res = await get(pathOf(await signedRequest()));
    expect(res.statusCode).toBe(200);
    const response = uma.LnurlpResponse.fromJson(res.body);
    expect(response.isUma()).toBe(true);
    expect(response.umaVersion).toBe('1.0');
    const validator = new uma.InMemoryNonceValidator(Date.now() - 60_000);
    expect(await uma.verifyUmaLnurlpResponseSignature(response, await publishedKeys(), validator)).toBe(true);
    expect(response.compliance!.receiverIdentifier).toBe(address);
    expect(response.compliance!.isSubjectToTravelRule).toBe(true);
    expect(response.callback).toBe(`https://${domain}/uma/payreq/%24${user}`);
    expect(response.payerData).toMatchObject({
      identifier: { mandatory: true },
      compliance: { mandatory: true },
      name: { mandatory: true },
      nationality: { mandatory: true },
    });
    const codes = response.currencies!.map((c) => c.code).sort();
    expect(codes).toEqual(['EUR', 'USD']);
    // 1 BTC = 100000 USD in the sandbox: a cent is 10000 millisatoshis.
    expect(response.currencies!.find((c) => c.code === 'USD')!.multiplier).toBe(10_000);
  });

  it('refuses a replayed request (the nonce was seen), and remembers it in the database', async () => {
    const url = pathOf(await signedRequest());
    expect((await get(url)).statusCode).toBe(200);
    const again = await get(url);
    expect(again.statusCode).toBe(400);
    expect(JSON.parse(again.body)).toMatchObject({ code: 'INVALID_NONCE' });
    const nonce = new URL(url, 'http://x').searchParams.get('nonce')!;
    const row = await ctx.container.db
      .executor()
      .selectFrom('uma_nonces')
      .selectAll()
      .where('domain', '=', 'vasp.test')
      .where('nonce', '=', nonce)
      .executeTakeFirst();
    expect(row).toBeDefined();
  });

  it('refuses a tampered signature, a signature by another key and a stale timestamp, spending no nonce', async () => {
    const good = await signedRequest();
    const tampered = new URL(good);
    const sig = tampered.searchParams.get('signature')!;
    tampered.searchParams.set('signature', sig.slice(0, -2) + (sig.endsWith('00') ? '01' : '00'));
    const res = await get(pathOf(tampered));
    expect(res.statusCode).toBe(401);
    expect(JSON.parse(res.body)).toMatchObject({ code: 'INVALID_SIGNATURE' });
    // The genuine request still goes through: the forged one did not use up its nonce.
    expect((await get(pathOf(good))).statusCode).toBe(200);

    const other = await signedRequest({ key: Buffer.alloc(32, 9) });
    expect((await get(pathOf(other))).statusCode).toBe(401);

    const stale = await get(pathOf(await signedRequest({ timestamp: new Date(Date.now() - 10 * 60_000) })));
    expect(stale.statusCode).toBe(400);
    expect(JSON.parse(stale.body)).toMatchObject({ code: 'INVALID_TIMESTAMP' });
  });

  it('answers 412 with the supported major versions to an unknown major version, and negotiates 0.3 down', async () => {
    const res = await get(pathOf(await signedRequest({ version: '2.0' })));
    expect(res.statusCode).toBe(412);
    expect(JSON.parse(res.body)).toMatchObject({ code: 'UNSUPPORTED_UMA_VERSION', supportedMajorVersions: expect.arrayContaining([0, 1]) });
    const old = await get(pathOf(await signedRequest({ version: '0.3' })));
    expect(old.statusCode).toBe(200);
    expect(JSON.parse(old.body).umaVersion).toBe('0.3');
  });

  it('answers 404 for an unknown user, and refuses an unsigned (plain LNURL) request', async () => {
    const unknown = await get(pathOf(await signedRequest({ receiver: `$nobody@${domain}` })));
    expect(unknown.statusCode).toBe(404);
    expect(JSON.parse(unknown.body)).toMatchObject({ code: 'USER_NOT_FOUND' });
    const plain = await get(`/.well-known/lnurlp/$${user}`);
    expect(plain.statusCode).toBe(400);
    expect(JSON.parse(plain.body)).toMatchObject({ code: 'MISSING_REQUIRED_UMA_PARAMETERS' });
  });

  it("refuses a sender whose published key is not the signer's, or whose keys cannot be read", async () => {
    const signedBy = async (vaspDomain: string, key: Buffer) => {
      const request: uma.LnurlpRequest = {
        receiverAddress: address,
        nonce: uma.generateNonce(),
        timestamp: new Date(),
        vaspDomain,
        umaVersion: '1.0',
        isSubjectToTravelRule: true,
        signature: '',
      };
      request.signature = await uma.signPayload(uma.getSignableLnurlpRequestPayload(request), key);
      return get(pathOf(uma.encodeToUrl(request)));
    };
    const swapped = await signedBy('impostor.test', impostor.keys.signingPrivateKey);
    expect(swapped.statusCode).toBe(401);
    expect(JSON.parse(swapped.body)).toMatchObject({ code: 'INVALID_SIGNATURE' });
    // An unmapped domain of the test has no address: its keys cannot be fetched, nothing is answered.
    const unreachable = await signedBy('unreachable.invalid', vasp.keys.signingPrivateKey);
    expect(unreachable.statusCode).toBe(424);
    expect(JSON.parse(unreachable.body)).toMatchObject({ code: 'COUNTERPARTY_PUBKEY_FETCH_ERROR' });
  });
});

describe('keys', () => {
  it('rotate: a new generation is published; the previous encryption key still decrypts for a while', async () => {
    const before = await publishedKeys();
    const scope = { platformId: ctx.platform.platformId, environment: 'SANDBOX' as const };
    await ctx.container.umaWire.keys.rotate(scope, domain);
    // Another node's cache would hold the old keys for a moment; this node forgets them at once.
    const after = await publishedKeys();
    expect(Buffer.from(after.getSigningPubKey()).equals(Buffer.from(before.getSigningPubKey()))).toBe(false);
    const decryption = await ctx.container.umaWire.keys.decryptionKeys(scope);
    expect(decryption).toHaveLength(2);
    // Requests still verify and are answered with the new signing key.
    const res = await get(pathOf(await signedRequest()));
    const response = uma.LnurlpResponse.fromJson(res.body);
    expect(await uma.verifyUmaLnurlpResponseSignature(response, after, new uma.InMemoryNonceValidator(0))).toBe(true);
  });
});

describe('lookups of addresses hosted by another UMA provider', () => {
  const seen = new uma.InMemoryNonceValidator(Date.now() - 60_000);
  let verifiedSenders = 0;
  let replayed = '';

  /** The test VASP's LNURLP endpoint, written with the reference SDK; each user shows one behaviour. */
  beforeAll(async () => {
    const base = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    vasp.reach.set(domain, base);
    vasp.routes.set('/.well-known/lnurlp/', async (req) => {
      let query: uma.LnurlpRequest;
      try {
        query = uma.parseLnurlpRequest(new URL(req.url!, `https://${vasp.domain}`));
      } catch (e) {
        if (e instanceof uma.UnsupportedVersionError)
          return [412, { supportedMajorVersions: e.supportedMajorVersions, unsupportedVersion: e.unsupportedVersion }];
        throw e;
      }
      const user = query.receiverAddress.split('@')[0];
      if (user === '$old' && uma.getMajorVersion(query.umaVersion!) !== 0) return [412, { supportedMajorVersions: [0], unsupportedVersion: query.umaVersion }];
      // $replay answers its first signed answer again, nonce and all.
      if (user === '$replay' && replayed) return [200, replayed];
      const senderKeys = await vasp.fetchKeys(query.vaspDomain!);
      if (!(await uma.verifyUmaLnurlpQuerySignature(query, senderKeys, seen))) return [401, { status: 'ERROR', reason: 'bad signature' }];
      verifiedSenders += 1;
      if (user === '$nobody') return [404, { status: 'ERROR', reason: 'no such user' }];
      const response = await uma.getLnurlpResponse({
        request: query,
        privateKeyBytes: user === '$forged' ? Buffer.alloc(32, 5) : vasp.keys.signingPrivateKey,
        requiresTravelRuleInfo: true,
        callback: user === '$offsite' ? 'https://elsewhere.test/payreq' : `https://${vasp.domain}/payreq/${user.slice(1)}`,
        encodedMetadata: JSON.stringify([['text/plain', `Pay ${user}`]]),
        minSendableSats: 1,
        maxSendableSats: 10_000_000,
        payerDataOptions: { identifier: { mandatory: true }, compliance: { mandatory: true }, name: { mandatory: true }, email: { mandatory: false } },
        currencyOptions: [new uma.Currency('EUR', 'Euro', '€', 10_870, 100, 1_000_000, 2), new uma.Currency('XYZ', 'Unknown', 'X', 5, 1, 10, 0)],
        receiverKycStatus: uma.KycStatus.Verified,
      });
      const json = JSON.parse(response.toJsonString());
      if (user === '$someone') json.compliance.receiverIdentifier = `$else@${vasp.domain}`;
      if (user === '$replay') replayed = JSON.stringify(json);
      return [200, JSON.stringify(json)];
    });
  });

  const lookup = (user: string, auth?: string) => call(ctx, 'GET', `/receiver/uma/$${user}@${vasp.domain}`, { auth, query: { sendingCurrency: 'USD' } });

  it('sends a signed LNURLP request the other VASP verifies, and stores the verified answer as the lookup', async () => {
    const before = verifiedSenders;
    const res = await lookup('vic');
    expect(res.status).toBe(200);
    expect(verifiedSenders).toBe(before + 1);
    expect(res.body).toMatchObject({
      receiverUmaAddress: `$vic@${vasp.domain}`,
      requiredPayerDataFields: ['FULL_NAME'],
      supportedCurrencies: [{ currency: { code: 'EUR' }, minAmount: 100, maxAmount: 1_000_000 }],
    });
    const terms = await ctx.container.db.executor().selectFrom('uma_remote_lookups').selectAll().where('lookup_id', '=', res.body.id).executeTakeFirstOrThrow();
    expect(terms).toMatchObject({ domain: vasp.domain, callback: `https://${vasp.domain}/payreq/vic`, uma_version: '1.0' });
    expect(JSON.parse(terms.currencies)).toEqual([{ code: 'EUR', multiplier: '10870', decimals: 2, min: 100, max: 1_000_000 }]);
    // The request reached the VASP with its own domain as Host.
    expect(vasp.requests.some((r) => r.url.startsWith('/.well-known/lnurlp/$vic') && r.host === vasp.domain)).toBe(true);
  });

  it('negotiates down to 0.3 with a VASP that answers 412', async () => {
    const res = await lookup('old');
    expect(res.status).toBe(200);
    const terms = await ctx.container.db.executor().selectFrom('uma_remote_lookups').selectAll().where('lookup_id', '=', res.body.id).executeTakeFirstOrThrow();
    expect(terms.uma_version).toBe('0.3');
  });

  it('answers 404 for a user the other VASP does not know', async () => {
    const res = await lookup('nobody');
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('UMA_ADDRESS_NOT_FOUND');
  });

  it('refuses an answer not signed by the receiver, about someone else, with an off-domain callback, or replayed; stores nothing', async () => {
    const count = async () => (await ctx.container.db.executor().selectFrom('uma_remote_lookups').select('lookup_id').execute()).length;
    expect((await lookup('replay')).status).toBe(200);
    const before = await count();
    const cases: [string, RegExp][] = [
      ['forged', /not signed by vasp.test/],
      ['someone', /about \$else@vasp.test/],
      ['offsite', /callback .* is not on vasp.test/],
      ['replay', /nonce was refused/],
    ];
    for (const [user, reason] of cases) {
      const res = await lookup(user);
      expect(res.status, user).toBe(400);
      expect(res.body.code).toBe('LOOKUP_REQUEST_FAILED');
      expect(res.body.details.reason).toMatch(reason);
    }
    expect(await count()).toBe(before);
  });

  it('the retention sweeper removes the verified terms with their lookup', async () => {
    const found = await lookup('vic');
    const sweeper = createRetentionSweeper({
      db: ctx.container.db,
      clock: { now: () => new Date(Date.now() + 8 * 86_400_000) },
      settings: { webhookDays: 0, lookupDays: 7, batchSize: 1000 },
    });
    await sweeper.sweepAll();
    const left = await ctx.container.db.executor().selectFrom('uma_remote_lookups').select('lookup_id').where('lookup_id', '=', found.body.id).execute();
    expect(left).toEqual([]);
  });

  it('refuses in PRODUCTION, where no Lightning backend is configured', async () => {
    const prod = await ctx.platform.token(['VIEW', 'TRANSACT', 'MANAGE'], 'PRODUCTION');
    const res = await lookup('vic', prod);
    expect(res.status).toBe(400);
    expect(res.body.details.reason).toMatch(/PRODUCTION needs a Lightning backend/);
  });
});

describe('payments from another UMA provider, settled on the sandbox Lightning', () => {
  const sam = `$sam@vasp.test`;
  const validator = new uma.InMemoryNonceValidator(Date.now() - 60_000);
  let bea: { id: string; eur: string };

  beforeAll(async () => {
    const list = await call(ctx, 'GET', '/customers', { query: { platformCustomerId: `bea-${user}` } });
    const id = list.body.data[0].id as string;
    const accounts = await call(ctx, 'GET', '/customers/internal-accounts', { query: { customerId: id, currency: 'EUR' } });
    bea = { id, eur: accounts.body.data[0].id };
  });

  /** The VASP's pay request for `amount` EUR cents, written with the reference SDK alone. */
  async function payRequest(extra: Partial<Parameters<typeof uma.getPayRequest>[0]> = {}) {
    const keys = await publishedKeys();
    return uma.getPayRequest({
      receiverEncryptionPubKey: keys.getEncryptionPubKey(),
      sendingVaspPrivateKey: vasp.keys.signingPrivateKey,
      receivingCurrencyCode: 'EUR',
      amount: 1000,
      isAmountInReceivingCurrency: true,
      payerIdentifier: sam,
      payerKycStatus: uma.KycStatus.Verified,
      umaMajorVersion: 1,
      trInfo: JSON.stringify({ FULL_NAME: 'Sam Sender', NATIONALITY: 'FR', BIRTH_DATE: '1980-02-03' }),
      payerData: { name: 'Sam Sender', nationality: 'FR' },
      requestedPayeeData: { name: { mandatory: true } },
      ...extra,
    });
  }
  const post = (path: string, body: string) =>
    ctx.app.inject({ method: 'POST', url: path, headers: { host: domain, 'content-type': 'application/json' }, payload: body });
  const payreq = (request: uma.PayRequest) => post(`/uma/payreq/%24${user}`, request.toJsonString());

  async function settle(invoice: string, key = vasp.keys.signingPrivateKey, vaspDomain = vasp.domain) {
    const nonce = uma.generateNonce();
    const timestamp = Math.floor(Date.now() / 1000);
    const signature = await uma.signPayload(`${invoice}|${nonce}|${timestamp}`, key);
    const res = await post('/uma/sandbox/settle', JSON.stringify({ invoice, vaspDomain, nonce, timestamp, signature }));
    return { status: res.statusCode, body: JSON.parse(res.body) };
  }

  async function incoming() {
    const list = await call(ctx, 'GET', '/transactions', { query: { customerId: bea.id, type: 'INCOMING' } });
    return list.body.data as Array<Record<string, any>>;
  }

  it('answers a verified pay request with payee data, a signed compliance section and an invoice for amount × multiplier, then credits once on settlement', async () => {
    const request = await payRequest();
    const res = await payreq(request);
    expect(res.statusCode, res.body).toBe(200);
    const response = uma.PayReqResponse.fromJson(res.body);
    expect(await uma.verifyPayReqResponseSignature(response, sam, address, await publishedKeys(), validator)).toBe(true);
    expect(response.payeeData).toMatchObject({ identifier: address, name: 'Bea Receiver' });
    const multiplier = response.converted!.multiplier;
    expect(response.converted).toMatchObject({ amount: 1000, currencyCode: 'EUR', decimals: 2, fee: 0 });
    const decoded = bolt11.decode(response.pr, { bech32: 'bcrt', pubKeyHash: 0x6f, scriptHash: 0xc4, validWitnessVersions: [0] });
    expect(decoded.millisatoshis).toBe(String(Math.round(1000 * multiplier)));
    expect(decoded.payeeNodeKey).toBe(response.payeeData!.compliance!.nodePubKey);
    expect(decoded.timeExpireDate! - decoded.timestamp!).toBe(300);
    const hash = decoded.tags.find((t) => t.tagName === 'payment_hash')!.data as string;
    // Nothing lands before the invoice is paid.
    expect(await incoming()).toHaveLength(0);

    const settled = await settle(response.pr);
    expect(settled).toMatchObject({ status: 200, body: { status: 'COMPLETED' } });
    expect(createHash('sha256').update(Buffer.from(settled.body.preimage, 'hex')).digest('hex')).toBe(hash);
    const [tx] = await incoming();
    expect(tx).toMatchObject({
      status: 'COMPLETED',
      receivedAmount: { amount: 1000, currency: { code: 'EUR' } },
      source: { sourceType: 'UMA_ADDRESS', umaAddress: sam },
      counterpartyInformation: { FULL_NAME: 'Sam Sender', NATIONALITY: 'FR', BIRTH_DATE: '1980-02-03' },
    });
    expect(await balance(ctx, bea.eur)).toBe(1000);

    // Settling again reveals the same preimage and credits nothing more.
    const again = await settle(response.pr);
    expect(again.body).toEqual(settled.body);
    expect(await incoming()).toHaveLength(1);
    expect(await balance(ctx, bea.eur)).toBe(1000);
  });

  it('refuses a replayed pay request, missing payer data and a payee field it cannot give; nothing is issued', async () => {
    const request = await payRequest();
    expect((await payreq(request)).statusCode).toBe(200);
    const invoices = async () => (await ctx.container.db.executor().selectFrom('uma_invoices').select('payment_hash').execute()).length;
    const issued = await invoices();
    const replay = await payreq(request);
    expect(replay.statusCode).toBe(400);
    expect(JSON.parse(replay.body).code).toBe('INVALID_NONCE');
    const noNationality = await payreq(await payRequest({ payerData: { name: 'Sam Sender' } }));
    expect(noNationality.statusCode).toBe(400);
    expect(JSON.parse(noNationality.body)).toMatchObject({ code: 'MISSING_PAYER_DATA', missingFields: ['NATIONALITY'] });
    const payee = await payreq(await payRequest({ requestedPayeeData: { taxId: { mandatory: true } } }));
    expect(payee.statusCode).toBe(400);
    expect(JSON.parse(payee.body)).toMatchObject({ code: 'MISSING_PAYEE_DATA', missingFields: ['taxId'] });
    const otherCurrency = await payreq(await payRequest({ receivingCurrencyCode: 'GBP' }));
    expect(JSON.parse(otherCurrency.body).code).toBe('INVALID_CURRENCY');
    expect(await invoices()).toBe(issued);
  });

  it("waits for the platform's approval before the preimage is revealed; a rejection never reveals it", async () => {
    const config = (await call(ctx, 'GET', '/config')).body;
    const hooks = await startWebhookReceiver({ publicKeyPem: config.webhookPublicKey });
    try {
      const patched = await call(ctx, 'PATCH', '/config', {
        body: { webhookEndpoint: hooks.url, incomingPaymentApproval: { required: true, requestedReceiverCustomerInfoFields: ['FULL_NAME'] } },
      });
      expect(patched.status).toBe(200);
      const before = await balance(ctx, bea.eur);
      const approvedLater = uma.PayReqResponse.fromJson((await payreq(await payRequest())).body);
      const pending = await settle(approvedLater.pr);
      expect(pending.body).toEqual({ status: 'PENDING' });
      const asked = () => hooks.accepted().filter((b) => b.type === 'INCOMING_PAYMENT' && b.transaction.status === 'PENDING');
      await drainWebhooks(ctx);
      expect(asked()).toHaveLength(1);
      expect(asked()[0]).toMatchObject({
        requestedReceiverCustomerInfoFields: ['FULL_NAME'],
        transaction: { counterpartyInformation: { FULL_NAME: 'Sam Sender', NATIONALITY: 'FR' } },
      });
      const id = asked()[0].transaction.id as string;
      expect(await balance(ctx, bea.eur)).toBe(before);
      expect((await call(ctx, 'POST', `/transactions/${id}/approve`, { body: { receiverCustomerInfo: { FULL_NAME: 'Bea Receiver' } } })).status).toBe(200);
      const done = await settle(approvedLater.pr);
      expect(done.body.status).toBe('COMPLETED');
      expect(done.body.preimage).toMatch(/^[0-9a-f]{64}$/);
      expect(await balance(ctx, bea.eur)).toBe(before + 1000);

      const rejected = uma.PayReqResponse.fromJson((await payreq(await payRequest())).body);
      expect((await settle(rejected.pr)).body).toEqual({ status: 'PENDING' });
      await drainWebhooks(ctx);
      expect(asked()).toHaveLength(2);
      expect((await call(ctx, 'POST', `/transactions/${asked()[1].transaction.id}/reject`, { body: { reason: 'unknown sender' } })).status).toBe(200);
      const refused = await settle(rejected.pr);
      expect(refused.body).toEqual({ status: 'REJECTED' });
      expect(await balance(ctx, bea.eur)).toBe(before + 1000);
    } finally {
      await call(ctx, 'PATCH', '/config', { body: { incomingPaymentApproval: { required: false, requestedReceiverCustomerInfoFields: [] } } });
      await hooks.close();
    }
  });

  it('verifies a post-transaction callback at the URL the pay response names', async () => {
    const response = uma.PayReqResponse.fromJson((await payreq(await payRequest())).body);
    const url = response.payeeData!.compliance!.utxoCallback!;
    expect(url).toBe(`https://${domain}/uma/post-transaction`);
    const path = new URL(url).pathname;
    const signed = await uma.getPostTransactionCallback({ utxos: [], vaspDomain: vasp.domain, signingPrivateKey: vasp.keys.signingPrivateKey });
    const ok = await post(path, JSON.stringify(signed));
    expect(ok.statusCode, ok.body).toBe(200);
    const replayed = await post(path, JSON.stringify(signed));
    expect(JSON.parse(replayed.body).code).toBe('INVALID_NONCE');
    const forged = await uma.getPostTransactionCallback({ utxos: [], vaspDomain: vasp.domain, signingPrivateKey: impostor.keys.signingPrivateKey });
    expect((await post(path, JSON.stringify(forged))).statusCode).toBe(401);
  });

  it('answers malformed input with a protocol error, never a server error', async () => {
    const bodies = [
      '',
      'null',
      '[]',
      '{"amount":"x"}',
      '{"amount":"1000.EUR","convert":"EUR","payerData":{"identifier":"nobody","compliance":{}}}',
      'not json',
    ];
    for (const body of bodies) {
      for (const path of [`/uma/payreq/%24${user}`, '/uma/sandbox/settle', '/uma/post-transaction']) {
        const res = await post(path, body);
        expect(res.statusCode, `${path} ${body}`).toBeGreaterThanOrEqual(400);
        expect(res.statusCode, `${path} ${body}`).toBeLessThan(500);
      }
    }
    for (const query of [
      '?nonce=1',
      '?umaVersion=abc&signature=x&vaspDomain=v&nonce=1&timestamp=zz',
      '?timestamp=99999999999999&umaVersion=1.0&signature=zz&vaspDomain=vasp.test&nonce=1',
    ]) {
      const res = await get(`/.well-known/lnurlp/%24${user}${query}`);
      expect(res.statusCode, query).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, query).toBeLessThan(500);
    }
  });

  it('is settled only by the VASP that asked, with its own signature', async () => {
    const response = uma.PayReqResponse.fromJson((await payreq(await payRequest())).body);
    const before = (await incoming()).length;
    const forged = await settle(response.pr, impostor.keys.signingPrivateKey);
    expect(forged.status).toBe(401);
    const elsewhere = await settle(response.pr, impostor.keys.signingPrivateKey, 'impostor.test');
    expect(elsewhere.body.code).toBe('COUNTERPARTY_NOT_ALLOWED');
    const unknown = await settle(
      'lnbcrt1pvjluezpp5qqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqypqdpl2pkx2ctnv5sxxmmwwd5kgetjypeh2ursdae8g6twvus8g6rfwvs8qun0dfjkxaq8rkx3yf5tcsyz3d73gafnh3cax9rn449d9p5uxz9ezhhypd0elx87sjle52x86fux2ypatgddc6k63n7erqz25le42c4u4ecky03ylcqca784w',
    );
    expect(unknown.body.code).toBe('INVALID_INVOICE');
    expect(await incoming()).toHaveLength(before);
  });
});

describe('paying a customer of another UMA provider (the sandbox Lightning)', () => {
  let receiver: VaspReceiver;
  const rows = () => ctx.container.db.executor().selectFrom('uma_payments').selectAll();
  const settleAll = async () => {
    while (await ctx.container.umaWire.settling.processNext());
  };

  beforeAll(() => {
    receiver = receivePayments(vasp, { code: 'EUR', multiplier: 10870, decimals: 2 });
  });
  beforeEach(() => {
    Object.assign(receiver.behaviour, { feeMsats: 0, overchargeMsats: 0, omitCompliance: false, refusePayRequests: false, settle: 'COMPLETED' });
  });

  /** A funded USD payer (its UMA address is the payer's identifier), and a fresh lookup of $vic at the VASP. */
  async function payer() {
    const { customer, accounts } = await fundedCustomer(ctx, ['USD'], 100_000);
    const found = await call(ctx, 'GET', `/receiver/uma/$vic@${vasp.domain}`, { query: { sendingCurrency: 'USD', customerId: customer.id } });
    expect(found.status, JSON.stringify(found.body)).toBe(200);
    return { customer, account: accounts.USD.id as string, lookupId: found.body.id as string };
  }
  const quote = (p: { account: string; lookupId: string }, amount = 10_000, side = 'SENDING') =>
    call(ctx, 'POST', '/quotes', {
      body: {
        source: { sourceType: 'ACCOUNT', accountId: p.account },
        destination: { destinationType: 'UMA_ADDRESS', umaAddress: `$vic@${vasp.domain}`, currency: 'EUR' },
        lockedCurrencySide: side,
        lockedCurrencyAmount: amount,
        lookupId: p.lookupId,
        senderCustomerInfo: { FULL_NAME: 'Ada Lovelace' },
      },
    });

  it('quotes with a verified pay request: exactly the amount quoted, the payer data and travel-rule information sent, the quote expiring before the invoice', async () => {
    const p = await payer();
    const asked = receiver.payRequests.length;
    const q = await quote(p);
    expect(q.status, JSON.stringify(q.body)).toBe(201);
    expect(receiver.payRequests.length).toBe(asked + 1);
    const { request, trInfo } = receiver.payRequests.at(-1)!;
    expect(request.receivingCurrencyCode).toBe('EUR');
    expect(request.sendingAmountCurrencyCode).toBe('EUR');
    expect(request.amount).toBe(q.body.totalReceivingAmount);
    expect(request.payerData).toMatchObject({ name: 'Ada Lovelace', identifier: expect.stringMatching(new RegExp(`@${domain}$`)) });
    expect(JSON.parse(trInfo!)).toMatchObject({ FULL_NAME: 'Ada Lovelace' });
    expect(q.body.rateDetails.counterpartyMultiplier).toBeCloseTo(1 / 10870, 12);
    expect(q.body.rateDetails.counterpartyFixedFee).toBe(0);
    const row = await rows().where('quote_id', '=', q.body.id).executeTakeFirstOrThrow();
    expect(BigInt(row.amount_msats)).toBe(BigInt(q.body.totalReceivingAmount) * 10870n);
    expect(Date.parse(q.body.expiresAt)).toBeLessThanOrEqual(Date.parse(row.expires_at) - 30_000);
    expect(row.status).toBe('QUOTED');
    expect(await balance(ctx, p.account)).toBe(100_000);
  });

  it('executes: reserves, settles once with a proof of payment, completes, and sends a signed post-transaction callback', async () => {
    const p = await payer();
    const q = await quote(p);
    const executed = await call(ctx, 'POST', `/quotes/${q.body.id}/execute`);
    expect(executed.status, JSON.stringify(executed.body)).toBe(200);
    expect(executed.body.status).toBe('PROCESSING');
    expect(await balance(ctx, p.account)).toBe(100_000 - q.body.totalSendingAmount);
    const settlements = receiver.settlements.length;
    const callbacks = receiver.callbacks.length;
    await settleAll();
    expect(receiver.settlements.slice(settlements)).toEqual([{ invoice: expect.any(String), first: true }]);
    expect(receiver.callbacks.length).toBe(callbacks + 1);
    const tx = await call(ctx, 'GET', `/transactions/${q.body.transactionId}`);
    expect(tx.body).toMatchObject({ status: 'COMPLETED', counterpartyInformation: { FULL_NAME: `vic at ${vasp.domain}` } });
    const row = await rows().where('quote_id', '=', q.body.id).executeTakeFirstOrThrow();
    expect(row.status).toBe('SETTLED');
    expect(createHash('sha256').update(Buffer.from(row.preimage!, 'hex')).digest('hex')).toBe(row.payment_hash);
    expect(row.post_tx_at).not.toBeNull();
    // A second execution changes nothing.
    expect((await call(ctx, 'POST', `/quotes/${q.body.id}/execute`)).status).toBe(409);
    await settleAll();
    expect(receiver.settlements.length).toBe(settlements + 1);
    expect(await balance(ctx, p.account)).toBe(100_000 - q.body.totalSendingAmount);
    await expectLedgerBalanced(ctx);
  });

  it("charges the receiver's fee to the sender, shown as counterpartyFixedFee, and asks again for what then arrives", async () => {
    const p = await payer();
    const plain = await quote(p);
    receiver.behaviour.feeMsats = 50_000; // 4.6 cents at 10870 msats a cent: 5 cents, rounded up
    const asked = receiver.payRequests.length;
    const q = await quote(p);
    expect(q.status, JSON.stringify(q.body)).toBe(201);
    expect(q.body.rateDetails.counterpartyFixedFee).toBe(5);
    expect(q.body.totalReceivingAmount).toBe(plain.body.totalReceivingAmount - 5);
    expect(receiver.payRequests.length).toBe(asked + 2);
    expect(receiver.payRequests.at(-1)!.request.amount).toBe(q.body.totalReceivingAmount);
    // Locked on the receiving side, the receiver gets the amount locked, and the sender pays for the fee.
    const r = await quote(p, 9_000, 'RECEIVING');
    expect(r.status).toBe(201);
    expect(r.body.totalReceivingAmount).toBe(9_000);
    expect(receiver.payRequests.at(-1)!.request.amount).toBe(9_000);
  });

  it('refuses a quote whose invoice asks more, whose answer lacks the signed payee compliance, or that the receiver refuses; nothing is stored or moved', async () => {
    const p = await payer();
    const count = async () => (await rows().execute()).length;
    const before = await count();
    const cases: [Partial<typeof receiver.behaviour>, RegExp][] = [
      [{ overchargeMsats: 1000 }, /does not pay what was quoted: it asks \d+ msats/],
      [{ omitCompliance: true }, /lacks the mandatory payee data compliance/],
      [{ refusePayRequests: true }, /answered 403: PAYMENT_REJECTED/],
    ];
    for (const [behaviour, reason] of cases) {
      Object.assign(receiver.behaviour, { overchargeMsats: 0, omitCompliance: false, refusePayRequests: false }, behaviour);
      const q = await quote(p);
      expect(q.status, JSON.stringify(behaviour)).toBe(400);
      expect(q.body.code).toBe('PAY_REQUEST_FAILED');
      expect(q.body.details.reason).toMatch(reason);
    }
    expect(await count()).toBe(before);
    expect(await balance(ctx, p.account)).toBe(100_000);
  });

  it('a settlement the receiver refuses fails the payment with LIGHTNING_PAYMENT_FAILED and refunds the payer', async () => {
    const p = await payer();
    const q = await quote(p);
    receiver.behaviour.settle = 'FAILED';
    expect((await call(ctx, 'POST', `/quotes/${q.body.id}/execute`)).status).toBe(200);
    await settleAll();
    const tx = await call(ctx, 'GET', `/transactions/${q.body.transactionId}`);
    expect(tx.body).toMatchObject({ status: 'FAILED', failureReason: 'LIGHTNING_PAYMENT_FAILED', refund: { status: 'COMPLETED' } });
    expect(await balance(ctx, p.account)).toBe(100_000);
    await expectLedgerBalanced(ctx);
  });

  it('a preimage that proves nothing completes nothing and refunds nothing: the payment waits, and is asked about again', async () => {
    const p = await payer();
    const q = await quote(p);
    receiver.behaviour.settle = 'WRONG_PREIMAGE';
    expect((await call(ctx, 'POST', `/quotes/${q.body.id}/execute`)).status).toBe(200);
    await settleAll();
    const tx = await call(ctx, 'GET', `/transactions/${q.body.transactionId}`);
    expect(tx.body.status).toBe('PROCESSING');
    const job = await ctx.container.db
      .executor()
      .selectFrom('jobs')
      .select(['last_error', 'run_at'])
      .where('subject', '=', `uma-payment:${q.body.transactionId}`)
      .executeTakeFirstOrThrow();
    expect(job.last_error).toMatch(/does not prove payment/);
    expect(await balance(ctx, p.account)).toBe(100_000 - q.body.totalSendingAmount);
    await expectLedgerBalanced(ctx);
  });
  // Last in this file: it moves the platform's sandbox clock a day ahead.
  it("completes on the payer platform's own sandbox clock, whatever the settlement job's time", async () => {
    expect((await call(ctx, 'POST', '/sandbox/clock/advance', { body: { seconds: 86_400 } })).status).toBe(200);
    const p = await payer();
    const q = await quote(p);
    expect(q.status, JSON.stringify(q.body)).toBe(201);
    expect((await call(ctx, 'POST', `/quotes/${q.body.id}/execute`)).status).toBe(200);
    await settleAll();
    const tx = await call(ctx, 'GET', `/transactions/${q.body.transactionId}`);
    expect(tx.body.status).toBe('COMPLETED');
    expect(Date.parse(tx.body.updatedAt)).toBeGreaterThan(Date.now() + 23 * 3_600_000);
    await expectLedgerBalanced(ctx);
  });
});
