/**
 * A minimal UMA VASP written with nothing but `@uma-sdk/core` and `bolt11` (and Node's own HTTP
 * and crypto): someone else's implementation, so Corridor is tested against the protocol as the
 * reference SDK speaks it, not against itself. It publishes bare keys (no certificate), signs
 * what it sends and verifies what it receives with the SDK's functions.
 */
import { createHash, createPublicKey, generateKeyPairSync, randomBytes, verify } from 'node:crypto';
import bolt11 from 'bolt11';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as uma from '@uma-sdk/core';

export interface VaspKeys {
  signingPrivateKey: Buffer;
  signingPublicKey: Buffer;
  encryptionPrivateKey: Buffer;
  encryptionPublicKey: Buffer;
}

function secp256k1Pair() {
  const jwk = generateKeyPairSync('ec', { namedCurve: 'secp256k1' }).privateKey.export({ format: 'jwk' });
  return {
    privateKey: Buffer.from(jwk.d!, 'base64url'),
    publicKey: Buffer.concat([Buffer.from([4]), Buffer.from(jwk.x!, 'base64url'), Buffer.from(jwk.y!, 'base64url')]),
  };
}

export function vaspKeys(): VaspKeys {
  const s = secp256k1Pair();
  const e = secp256k1Pair();
  return { signingPrivateKey: s.privateKey, signingPublicKey: s.publicKey, encryptionPrivateKey: e.privateKey, encryptionPublicKey: e.publicKey };
}

export interface TestVasp {
  domain: string;
  url: string;
  keys: VaspKeys;
  /** Its genuine /.well-known/lnurlpubkey answer (bare keys, an hour's expiry). */
  publishedKeys: () => Record<string, unknown>;
  /** Replaces what /.well-known/lnurlpubkey answers (a swapped key, an expiry). */
  setPublishedKeys(fn: () => Record<string, unknown>): void;
  /** Extra routes: path → handler returning [status, body]. */
  routes: Map<string, (req: http.IncomingMessage, body: string) => Promise<[number, unknown]>>;
  requests: { method: string; url: string; host: string }[];
  /** Where a counterparty's UMA domain is reached (this VASP's own domain map). */
  reach: Map<string, string>;
  /** A counterparty's published keys, fetched over HTTP as the SDK's PubKeyResponse. */
  fetchKeys(domain: string): Promise<uma.PubKeyResponse>;
  /** A call to a counterparty's domain through `reach`, with the domain as Host. */
  call(method: 'GET' | 'POST', url: string, body?: string): Promise<{ status: number; body: string }>;
  close(): Promise<void>;
}

function request(method: string, target: URL, host: string, body?: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(target, { method, headers: { host, ...(body ? { 'content-type': 'application/json' } : {}) } }, (res) => {
      let text = '';
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

export async function startVasp(domain: string): Promise<TestVasp> {
  const keys = vaspKeys();
  const genuine = () => ({
    signingPubKey: keys.signingPublicKey.toString('hex'),
    encryptionPubKey: keys.encryptionPublicKey.toString('hex'),
    expirationTimestamp: Math.floor(Date.now() / 1000) + 3600,
  });
  let published: () => Record<string, unknown> = genuine;
  const routes = new Map<string, (req: http.IncomingMessage, body: string) => Promise<[number, unknown]>>();
  const requests: TestVasp['requests'] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', async () => {
      requests.push({ method: req.method!, url: req.url!, host: req.headers.host ?? '' });
      const path = new URL(req.url!, 'http://x').pathname;
      let status = 404;
      let answer: unknown = { status: 'ERROR', reason: 'not found' };
      if (path === '/.well-known/lnurlpubkey') [status, answer] = [200, published()];
      else {
        const handler = [...routes.entries()].find(([prefix]) => path.startsWith(prefix))?.[1];
        if (handler) [status, answer] = await handler(req, body);
      }
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(typeof answer === 'string' ? answer : JSON.stringify(answer));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  const reach = new Map<string, string>();
  const call = (method: 'GET' | 'POST', url: string, body?: string) => {
    const u = new URL(url);
    const base = reach.get(u.host);
    if (!base) throw new Error(`the test VASP cannot reach ${u.host}`);
    return request(method, new URL(`${u.pathname}${u.search}`, base), u.host, body);
  };
  return {
    domain,
    url: `http://127.0.0.1:${port}`,
    reach,
    call,
    async fetchKeys(other) {
      const res = await call('GET', `https://${other}/.well-known/lnurlpubkey`);
      if (res.status !== 200) throw new Error(`${other} answered ${res.status}`);
      return uma.PubKeyResponse.fromJson(res.body);
    },
    keys,
    publishedKeys: genuine,
    setPublishedKeys(fn) {
      published = fn;
    },
    routes,
    requests,
    close: () => new Promise((r) => server.close(() => r())),
  };
}

/** How the test VASP answers pay requests and settlements: each a way a receiver may behave. */
export interface ReceiverBehaviour {
  /** msats the receiver charges on top (converted.fee) */
  feeMsats: number;
  /** msats added to the invoice beyond what was agreed (a receiver asking too much) */
  overchargeMsats: number;
  /** leave the signed compliance section out of payeeData */
  omitCompliance: boolean;
  /** answer pay requests 403 PAYMENT_REJECTED */
  refusePayRequests: boolean;
  /** settlement answer: COMPLETED with the preimage, FAILED, or COMPLETED with a preimage of another invoice */
  settle: 'COMPLETED' | 'FAILED' | 'WRONG_PREIMAGE';
}

export interface VaspReceiver {
  behaviour: ReceiverBehaviour;
  /** pay requests received and verified (the SDK's verifyPayReqSignature), with their travel-rule information decrypted */
  payRequests: { request: uma.PayRequest; trInfo: string | undefined }[];
  /** settlements presented: the invoice, and whether it was the first */
  settlements: { invoice: string; first: boolean }[];
  /** post-transaction callbacks received, verified with the SDK */
  callbacks: uma.PostTransactionCallback[];
}

/**
 * Makes the VASP a receiver of UMA payments at `/payreq/{user}` (the callback its LNURLP answers
 * name), settled on the sandbox Lightning at `/uma/sandbox/settle`, with `/uma/post-transaction`:
 * the reference SDK's pay response, a BOLT11 invoice of its own node key for amount × multiplier
 * + fee, the preimage revealed once and answered the same again.
 */
export function receivePayments(vasp: TestVasp, currency: { code: string; multiplier: number; decimals: number }): VaspReceiver {
  const node = secp256k1Pair();
  const nodePubKey = Buffer.concat([Buffer.from([2 + (node.publicKey[64] & 1)]), node.publicKey.subarray(1, 33)]).toString('hex');
  const preimages = new Map<string, string>();
  const settled = new Set<string>();
  const seen = new uma.InMemoryNonceValidator(Date.now() - 60_000);
  const state: VaspReceiver = {
    behaviour: { feeMsats: 0, overchargeMsats: 0, omitCompliance: false, refusePayRequests: false, settle: 'COMPLETED' },
    payRequests: [],
    settlements: [],
    callbacks: [],
  };
  vasp.routes.set('/payreq/', async (req, body) => {
    const user = new URL(req.url!, 'http://x').pathname.split('/').pop()!;
    const request = uma.PayRequest.fromJson(body);
    const sender = request.payerData!.identifier!.split('@')[1];
    if (!(await uma.verifyPayReqSignature(request, await vasp.fetchKeys(sender), seen))) return [401, { status: 'ERROR', reason: 'bad signature' }];
    const encrypted = request.payerData!.compliance?.encryptedTravelRuleInfo;
    let trInfo: string | undefined;
    if (encrypted) {
      const { decrypt } = await import('eciesjs');
      trInfo = Buffer.from(decrypt(vasp.keys.encryptionPrivateKey, Buffer.from(encrypted, 'hex'))).toString('utf8');
    }
    state.payRequests.push({ request, trInfo });
    if (state.behaviour.refusePayRequests) return [403, { status: 'ERROR', reason: 'the receiver does not accept this payment', code: 'PAYMENT_REJECTED' }];
    const payee = `$${user}@${vasp.domain}`;
    const response = await uma.getPayReqResponse({
      request,
      conversionRate: currency.multiplier,
      receivingCurrencyCode: currency.code,
      receivingCurrencyDecimals: currency.decimals,
      invoiceCreator: {
        async createUmaInvoice(amountMsats, metadata) {
          const preimage = randomBytes(32);
          const hash = createHash('sha256').update(preimage).digest('hex');
          const unsigned = bolt11.encode({
            network: { bech32: 'bcrt', pubKeyHash: 0x6f, scriptHash: 0xc4, validWitnessVersions: [0, 1] },
            millisatoshis: String(amountMsats + state.behaviour.overchargeMsats),
            timestamp: Math.floor(Date.now() / 1000),
            tags: [
              { tagName: 'payment_hash', data: hash },
              { tagName: 'purpose_commit_hash', data: createHash('sha256').update(metadata).digest('hex') },
              { tagName: 'expire_time', data: 600 },
              { tagName: 'payment_secret', data: randomBytes(32).toString('hex') },
            ],
          });
          const invoice = bolt11.sign(unsigned, node.privateKey.toString('hex')).paymentRequest!;
          preimages.set(invoice, preimage.toString('hex'));
          return invoice;
        },
      },
      metadata: JSON.stringify([['text/plain', `Pay ${payee}`]]),
      receiverChannelUtxos: [],
      receiverFeesMillisats: state.behaviour.feeMsats,
      receiverNodePubKey: nodePubKey,
      utxoCallback: `https://${vasp.domain}/uma/post-transaction`,
      payeeData: { identifier: payee, name: `${user} at ${vasp.domain}` },
      receivingVaspPrivateKey: vasp.keys.signingPrivateKey,
      payeeIdentifier: payee,
    });
    const json = JSON.parse(response.toJsonString());
    if (state.behaviour.omitCompliance) delete json.payeeData.compliance;
    return [200, JSON.stringify(json)];
  });
  vasp.routes.set('/uma/sandbox/settle', async (_req, body) => {
    const b = JSON.parse(body) as { invoice: string; vaspDomain: string; nonce: string; timestamp: number; signature: string };
    const keys = await vasp.fetchKeys(b.vaspDomain);
    const pub = Buffer.from(keys.getSigningPubKey());
    const key = createPublicKey({
      format: 'jwk',
      key: { kty: 'EC', crv: 'secp256k1', x: pub.subarray(1, 33).toString('base64url'), y: pub.subarray(33).toString('base64url') },
    });
    if (!verify('sha256', Buffer.from(`${b.invoice}|${b.nonce}|${b.timestamp}`), { key, dsaEncoding: 'der' }, Buffer.from(b.signature, 'hex')))
      return [401, { status: 'ERROR', reason: 'bad signature' }];
    const preimage = preimages.get(b.invoice);
    if (!preimage) return [400, { status: 'ERROR', reason: 'not our invoice', code: 'INVALID_INVOICE' }];
    state.settlements.push({ invoice: b.invoice, first: !settled.has(b.invoice) });
    settled.add(b.invoice);
    if (state.behaviour.settle === 'FAILED') return [200, { status: 'FAILED' }];
    if (state.behaviour.settle === 'WRONG_PREIMAGE') return [200, { status: 'COMPLETED', preimage: randomBytes(32).toString('hex') }];
    return [200, { status: 'COMPLETED', preimage }];
  });
  vasp.routes.set('/uma/post-transaction', async (_req, body) => {
    const callback = uma.parsePostTransactionCallback(body);
    if (!(await uma.verifyPostTransactionCallbackSignature(callback, await vasp.fetchKeys(callback.vaspDomain), seen)))
      return [401, { status: 'ERROR', reason: 'bad signature' }];
    state.callbacks.push(callback);
    return [200, {}];
  });
  return state;
}

export { uma };
