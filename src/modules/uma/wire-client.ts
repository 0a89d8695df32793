/**
 * Outbound UMA calls (lookups, public keys, pay requests, callbacks, settlement). A counterparty
 * names the domains we call (in its address, its vaspDomain, its callback), so every call goes
 * through the webhook URL guard (no cloud metadata ever; no loopback or private address unless the
 * operator allows them, which the default does only for a server on loopback) and connects to
 * the addresses it approved. Answers are bounded in size and time, and redirects are not
 * followed: a redirect could lead off the counterparty's own domain.
 */
import http from 'node:http';
import https from 'node:https';
import { pinnedLookup } from '../../events/http-delivery.js';
import { checkWebhookUrl, type Environment } from '../../events/url-guard.js';
import { baseUrlOf, type DomainAddress } from './domain-map.js';

export const WIRE_TIMEOUT_MS = 10_000;
export const WIRE_MAX_RESPONSE_BYTES = 256 * 1024;

export interface WireClientOptions {
  domainAddresses: readonly DomainAddress[];
  allowPrivate: boolean;
  resolve?: (host: string) => Promise<string[]>;
  timeoutMs?: number;
}

export interface WireResponse {
  status: number;
  body: string;
}

/** A call that did not get an answer: refused by the guard, timed out, too large, unreachable. */
export class WireError extends Error {}

export interface WireRequest {
  environment: Environment;
  method: 'GET' | 'POST';
  /** https://<uma domain>/path?query as the protocol names it; the domain map decides where it goes */
  url: string;
  body?: string;
}

export function createWireClient(options: WireClientOptions) {
  const timeoutMs = options.timeoutMs ?? WIRE_TIMEOUT_MS;

  return {
    async request(req: WireRequest): Promise<WireResponse> {
      let url: URL;
      try {
        url = new URL(req.url);
      } catch {
        throw new WireError(`not a URL: ${req.url}`);
      }
      const domain = url.host.toLowerCase();
      const { base, mapped } = baseUrlOf(options.domainAddresses, domain);
      // A mapped domain is reached at its base URL; an unmapped one over https whatever was named.
      const target = new URL(`${url.pathname}${url.search}`, base);
      if (!mapped && req.environment === 'PRODUCTION' && url.protocol !== 'https:') throw new WireError('PRODUCTION UMA calls require https');
      const check = await checkWebhookUrl(target.toString(), {
        environment: mapped ? 'SANDBOX' : req.environment,
        allowPrivate: options.allowPrivate,
        resolve: options.resolve,
      });
      if (!check.ok) throw new WireError(`${domain}: ${check.reason}`);
      return send(target, domain, check.addresses, req, timeoutMs);
    },
  };
}

export type WireClient = ReturnType<typeof createWireClient>;

function send(target: URL, host: string, addresses: string[], req: WireRequest, timeoutMs: number): Promise<WireResponse> {
  return new Promise((resolve, reject) => {
    const signal = AbortSignal.timeout(timeoutMs);
    const client = target.protocol === 'https:' ? https : http;
    const body = req.body === undefined ? undefined : Buffer.from(req.body, 'utf8');
    const request = client.request(target, {
      method: req.method,
      headers: {
        host,
        accept: 'application/json',
        'user-agent': 'Corridor-UMA/1',
        ...(body ? { 'content-type': 'application/json', 'content-length': String(body.length) } : {}),
      },
      // The TLS name is the UMA domain when it is reached directly.
      ...(target.protocol === 'https:' ? { servername: host.replace(/:\d+$/, '') } : {}),
      signal,
      agent: false,
      lookup: pinnedLookup(addresses),
    });
    request.on('error', (err) => reject(new WireError(signal.aborted ? `${host}: no answer within ${timeoutMs} ms` : `${host}: ${err.message}`)));
    request.on('response', (res) => {
      const chunks: Buffer[] = [];
      let received = 0;
      res.on('data', (chunk: Buffer) => {
        received += chunk.length;
        if (received > WIRE_MAX_RESPONSE_BYTES) {
          request.destroy();
          reject(new WireError(`${host}: answer larger than ${WIRE_MAX_RESPONSE_BYTES} bytes`));
          return;
        }
        chunks.push(chunk);
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', (err) => reject(new WireError(`${host}: ${err.message}`)));
      res.on('aborted', () => reject(new WireError(`${host}: answer cut short`)));
    });
    request.end(body);
  });
}
