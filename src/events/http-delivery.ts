/**
 * One HTTP attempt of a webhook: POST the body, report what happened, never throw.
 *
 * node:http / node:https rather than fetch, because pinning the connection to the address that
 * url-guard checked (DNS rebinding defence) is just a custom `lookup` here, while the URL's host
 * still drives the Host header and the TLS servername (SNI + certificate check).
 */
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { performance } from 'node:perf_hooks';

export interface DeliveryRequest {
  url: string;
  body: string;
  headers: Record<string, string>;
  timeoutMs?: number;
  maxResponseBytes?: number;
  /**
   * The addresses checkWebhookUrl approved: connect to one of them instead of resolving the host
   * again, trying them in turn like a normal client (Happy Eyeballs), so a receiver listening on
   * only one address family (127.0.0.1 but not ::1) is still reached.
   */
  pinnedAddresses?: readonly string[];
  /**
   * A keep-alive agent whose connections all went to these pinned addresses (connections.ts):
   * reuses them. Without one, the attempt opens a connection of its own and closes it.
   */
  agent?: http.Agent;
}

export interface DeliveryResult {
  ok: boolean;
  statusCode?: number;
  latencyMs: number;
  /** The first maxResponseBytes of the response, for the delivery log. */
  responseBody?: string;
  error?: string;
}

export const DEFAULT_TIMEOUT_MS = 10_000;
export const DEFAULT_MAX_RESPONSE_BYTES = 4_096;

export function deliver(request: DeliveryRequest): Promise<DeliveryResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const { body, headers, timeoutMs = DEFAULT_TIMEOUT_MS, maxResponseBytes = DEFAULT_MAX_RESPONSE_BYTES, pinnedAddresses } = request;

  return new Promise<DeliveryResult>((resolvePromise) => {
    let settled = false;
    const finish = (result: Omit<DeliveryResult, 'latencyMs'>) => {
      if (settled) return;
      settled = true;
      resolvePromise({ ...result, latencyMs: elapsed() });
    };

    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      return finish({ ok: false, error: 'invalid URL' });
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return finish({ ok: false, error: 'unsupported protocol' });
    if (pinnedAddresses !== undefined && (pinnedAddresses.length === 0 || !pinnedAddresses.every((a) => isIP(a))))
      return finish({ ok: false, error: 'invalid pinned address' });

    // One timer for the whole exchange (connect, TLS, headers, body): a receiver that trickles
    // bytes cannot hold the worker beyond timeoutMs.
    const signal = AbortSignal.timeout(timeoutMs);
    const client = url.protocol === 'https:' ? https : http;
    let req: http.ClientRequest;
    try {
      req = client.request(url, {
        method: 'POST',
        headers: {
          'user-agent': 'Corridor-Webhooks/1',
          ...headers,
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(body, 'utf8')),
        },
        signal,
        // Pooled only through an agent keyed by the URL's origin and these very addresses
        // (connections.ts), so a reused socket was opened to an address the check approved.
        agent: request.agent ?? false,
        ...(pinnedAddresses ? { lookup: pinnedLookup(pinnedAddresses) } : {}),
      });
    } catch (err) {
      return finish({ ok: false, error: describeError(err, signal) });
    }

    // Set once the status line arrived: an error after that still reports the status.
    let onBodyError: ((err: unknown) => void) | undefined;
    req.on('error', (err) => {
      if (onBodyError) return onBodyError(err);
      // A kept-alive connection the receiver closed meanwhile fails before any answer: the
      // request was not received, so it goes once more on a connection of its own.
      const code = (err as { code?: string }).code;
      if (req.reusedSocket && !signal.aborted && (code === 'ECONNRESET' || code === 'EPIPE') && !settled) {
        settled = true;
        const remaining = Math.max(1, timeoutMs - elapsed());
        void deliver({ ...request, agent: undefined, timeoutMs: remaining }).then((r) => resolvePromise({ ...r, latencyMs: elapsed() }));
        return;
      }
      finish({ ok: false, error: describeError(err, signal) });
    });
    req.on('response', (res) => {
      const statusCode = res.statusCode ?? 0;
      const chunks: Buffer[] = [];
      let received = 0;
      let read = false;
      let complete = false;
      const done = (failure?: string) => {
        if (read) return;
        read = true;
        // A whole answer leaves a pooled connection open for the next attempt; anything else
        // (a failure, a body cut at the limit, no agent) drops it.
        if (failure !== undefined || !complete || !request.agent) req.destroy();
        // stream: true holds back a multi-byte character cut at the byte limit instead of
        // emitting a replacement character.
        const responseBody = new TextDecoder('utf-8').decode(Buffer.concat(chunks, received), { stream: true });
        const is2xx = statusCode >= 200 && statusCode < 300;
        // A body that never completes (timeout, reset) is a failure even after a 2xx status:
        // the receiver may not have finished, and a retry is safe (receivers dedupe).
        const error = failure ?? (is2xx ? undefined : statusCode >= 300 && statusCode < 400 ? `redirect ${statusCode} not followed` : `HTTP ${statusCode}`);
        finish({ ok: error === undefined, statusCode, responseBody, ...(error ? { error } : {}) });
      };
      onBodyError = (err) => done(describeError(err, signal));
      res.on('data', (chunk: Buffer) => {
        if (read) return;
        const room = maxResponseBytes - received;
        chunks.push(chunk.length > room ? chunk.subarray(0, room) : chunk);
        received += Math.min(chunk.length, room);
        if (received >= maxResponseBytes) done();
      });
      res.on('end', () => {
        complete = true;
        done();
      });
      res.on('error', (err) => done(describeError(err, signal)));
      res.on('aborted', () => done(signal.aborted ? 'timeout' : 'connection reset'));
    });
    req.end(body);
  });
}

/** Answers every lookup with the pinned addresses, in both callback shapes net may ask for. */
export function pinnedLookup(addresses: readonly string[]): LookupFunction {
  const all = addresses.map((address) => ({ address, family: isIP(address) }));
  return ((_hostname: string, options: { all?: boolean; family?: number }, callback: (...args: unknown[]) => void) => {
    const wanted = options?.family === 4 || options?.family === 6 ? all.filter((a) => a.family === options.family) : all;
    if (wanted.length === 0) return callback(Object.assign(new Error('no pinned address of the requested family'), { code: 'ENOTFOUND' }));
    // With autoSelectFamily (the default since Node 20) net asks for all addresses at once and
    // tries them in turn, alternating families; otherwise it takes the first.
    if (options?.all) callback(null, wanted);
    else callback(null, wanted[0].address, wanted[0].family);
  }) as LookupFunction;
}

/** A short, log-safe reason; never the whole error (which may carry request details). */
function describeError(err: unknown, signal: AbortSignal): string {
  if (signal.aborted) return 'timeout';
  const e = err as { code?: string; message?: string };
  const code = e?.code ?? '';
  switch (code) {
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'ECONNRESET':
      return 'connection reset';
    case 'ETIMEDOUT':
      return 'timeout';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_FAIL':
      return 'DNS lookup failed';
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return 'host unreachable';
  }
  if (/^(ERR_TLS_|ERR_SSL_|CERT_|DEPTH_ZERO|SELF_SIGNED|UNABLE_TO_|HOSTNAME_MISMATCH)/.test(code) || /certificate|ssl|tls/i.test(e?.message ?? '')) {
    return `TLS error${code ? ` (${code})` : ''}`;
  }
  return (code || e?.message || 'request failed').slice(0, 200);
}
