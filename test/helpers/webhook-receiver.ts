/**
 * A webhook receiver written as an integrator would write one: node:http, the raw body, the
 * signature checked with plain node:crypto against the public key from GET /config (the same
 * dozen lines as docs/webhooks.md), 400 for a bad signature. It records every request so tests
 * can observe webhook sequences, and can be told to fail or go down.
 */
import { createPublicKey, verify } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** The integrator's check from docs/webhooks.md. */
export function verifyCorridorSignature(
  header: string | undefined,
  rawBody: string | Buffer,
  publicKeyPem: string,
  nowSeconds = Math.floor(Date.now() / 1000),
): boolean {
  const match = /^t=(\d{1,12}),v1=([A-Za-z0-9+/]{86}==)$/.exec(header ?? '');
  if (!match) return false; // malformed header
  if (Math.abs(nowSeconds - Number(match[1])) > 300) return false; // older or newer than 5 minutes
  const signed = Buffer.concat([Buffer.from(`${match[1]}.`), Buffer.from(rawBody)]);
  try {
    return verify(null, signed, createPublicKey(publicKeyPem), Buffer.from(match[2], 'base64'));
  } catch {
    return false; // not an Ed25519 key or signature
  }
}

export interface ReceivedRequest {
  path: string;
  headers: http.IncomingHttpHeaders;
  rawBody: string;
  signature: string | undefined;
  /** The signature verified (false also when no public key was given). */
  verified: boolean;
  /** The parsed body (undefined when not JSON). */
  event: any;
  /** The status this receiver answered. */
  status: number;
}

/** Decides the answer to a verified request: a status, or a status with a body / delay. */
export type Responder = (req: ReceivedRequest) => number | { status: number; body?: string; delayMs?: number; headers?: Record<string, string> };

export interface ReceiverOptions {
  /** webhookPublicKey from GET /config; without it every request counts as unverified but is answered. */
  publicKeyPem?: string;
  /** The receiver's clock in ms (a test's manual clock), for the 5-minute window. */
  now?: () => number;
  respond?: Responder;
}

export interface WebhookReceiver {
  url: string;
  port: number;
  requests: ReceivedRequest[];
  publicKeyPem: string | undefined;
  /** Bodies answered 2xx, in arrival order (a redelivered event appears again). */
  accepted(): any[];
  respondWith(responder: Responder | number): void;
  /** Refuse connections (the receiver is down) until up(). */
  down(): Promise<void>;
  up(): Promise<void>;
  waitFor(predicate: () => boolean, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export async function startWebhookReceiver(opts: ReceiverOptions = {}): Promise<WebhookReceiver> {
  let responder: Responder = opts.respond ?? (() => 200);
  const requests: ReceivedRequest[] = [];
  const now = opts.now ?? Date.now;

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const rawBody = Buffer.concat(chunks).toString('utf8');
      const signature = req.headers['x-corridor-signature'] as string | undefined;
      const verified = receiver.publicKeyPem !== undefined && verifyCorridorSignature(signature, rawBody, receiver.publicKeyPem, Math.floor(now() / 1000));
      let event: any;
      try {
        event = JSON.parse(rawBody);
      } catch {
        event = undefined;
      }
      const entry: ReceivedRequest = { path: req.url ?? '', headers: req.headers, rawBody, signature, verified, event, status: 0 };
      requests.push(entry);
      const answer = receiver.publicKeyPem !== undefined && !verified ? { status: 400, body: 'bad signature' } : responder(entry);
      const { status, body = '', delayMs = 0, headers = {} } = typeof answer === 'number' ? { status: answer } : answer;
      entry.status = status;
      setTimeout(() => res.writeHead(status, headers).end(body), delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;

  const receiver: WebhookReceiver = {
    url: `http://127.0.0.1:${port}/webhooks`,
    port,
    requests,
    publicKeyPem: opts.publicKeyPem,
    accepted: () => requests.filter((r) => r.status >= 200 && r.status < 300).map((r) => r.event),
    respondWith(r) {
      responder = typeof r === 'number' ? () => r : r;
    },
    async down() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
    async up() {
      await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    },
    async waitFor(predicate, timeoutMs = 5_000) {
      const until = Date.now() + timeoutMs;
      while (!predicate()) {
        if (Date.now() > until) throw new Error('webhook receiver: timed out waiting');
        await new Promise((r) => setTimeout(r, 10));
      }
    },
    async close() {
      if (!server.listening) return;
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
  return receiver;
}
