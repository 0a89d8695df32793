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
  close(): Promise<void>;
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
  return {
    domain,
    url: `http://127.0.0.1:${port}`,
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
