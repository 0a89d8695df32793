/**
 * A minimal UMA VASP written with nothing but `@uma-sdk/core` and `bolt11` (and Node's own HTTP
 * and crypto): someone else's implementation, so Corridor is tested against the protocol as the
 * reference SDK speaks it, not against itself. It publishes bare keys (no certificate), signs
 * what it sends and verifies what it receives with the SDK's functions.
 */
import { generateKeyPairSync } from 'node:crypto';
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

export { uma };
