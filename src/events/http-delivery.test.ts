import { readFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { deliver } from './http-delivery.ts';

type Handler = (req: http.IncomingMessage, res: http.ServerResponse, body: string) => void;
const servers: (http.Server | https.Server)[] = [];

afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  }
});

/** A local receiver on 127.0.0.1; handler sees the request and its full body. */
async function serve(handler: Handler): Promise<{ url: string; port: number }> {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => handler(req, res, Buffer.concat(chunks).toString('utf8')));
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/hook`, port };
}

const body = JSON.stringify({ type: 'TEST', webhookId: 'Webhook:1' });

describe('deliver', () => {
  it('POSTs JSON with the given headers; 200 is ok', async () => {
    let seen: { method?: string; headers?: http.IncomingHttpHeaders; body?: string } = {};
    const { url } = await serve((req, res, received) => {
      seen = { method: req.method, headers: req.headers, body: received };
      res.end('thanks');
    });
    const result = await deliver({ url, body, headers: { 'X-Corridor-Signature': 't=1,v1=x', 'Content-Type': 'text/plain' } });
    expect(result).toMatchObject({ ok: true, statusCode: 200, responseBody: 'thanks' });
    expect(result.error).toBeUndefined();
    expect(result.latencyMs).toBeGreaterThanOrEqual(0);
    expect(seen.method).toBe('POST');
    expect(seen.body).toBe(body);
    expect(seen.headers?.['content-type']).toBe('application/json'); // not overridable
    expect(seen.headers?.['x-corridor-signature']).toBe('t=1,v1=x');
    expect(seen.headers?.['content-length']).toBe(String(Buffer.byteLength(body)));
  });

  it('any 2xx is ok', async () => {
    const { url } = await serve((_req, res) => res.writeHead(204).end());
    expect(await deliver({ url, body, headers: {} })).toMatchObject({ ok: true, statusCode: 204, responseBody: '' });
  });

  it('500 is a failure that keeps status and body', async () => {
    const { url } = await serve((_req, res) => res.writeHead(500).end('boom'));
    expect(await deliver({ url, body, headers: {} })).toMatchObject({ ok: false, statusCode: 500, responseBody: 'boom', error: 'HTTP 500' });
  });

  it('302 is a failure and is not followed', async () => {
    let followed = false;
    const target = await serve((_req, res) => {
      followed = true;
      res.end('ok');
    });
    const { url } = await serve((_req, res) => res.writeHead(302, { location: target.url }).end());
    expect(await deliver({ url, body, headers: {} })).toMatchObject({ ok: false, statusCode: 302, error: 'redirect 302 not followed' });
    expect(followed).toBe(false);
  });

  it('times out a slow receiver', async () => {
    const { url } = await serve(() => {
      /* never answers */
    });
    const result = await deliver({ url, body, headers: {}, timeoutMs: 200 });
    expect(result).toMatchObject({ ok: false, error: 'timeout' });
    expect(result.statusCode).toBeUndefined();
    expect(result.latencyMs).toBeGreaterThanOrEqual(150);
    expect(result.latencyMs).toBeLessThan(2_000);
  });

  it('times out a receiver that sends headers then trickles the body', async () => {
    const { url } = await serve((_req, res) => {
      res.writeHead(200);
      res.write('a'); // then nothing: the body never ends
    });
    const result = await deliver({ url, body, headers: {}, timeoutMs: 300 });
    expect(result.latencyMs).toBeLessThan(2_000);
    // The status arrived but the body never completed: a failure that still reports what came.
    expect(result).toMatchObject({ ok: false, statusCode: 200, error: 'timeout', responseBody: 'a' });
  });

  it('reads only the first maxResponseBytes of a huge body and returns quickly', async () => {
    let written = 0;
    const { url } = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      const chunk = Buffer.alloc(64 * 1024, 'x');
      const pump = () => {
        // An endless body: stops only when the client goes away.
        while (!res.destroyed && written < 1024 ** 3 && res.write(chunk)) written += chunk.length;
        if (!res.destroyed) res.once('drain', pump);
      };
      pump();
    });
    const result = await deliver({ url, body, headers: {}, maxResponseBytes: 100, timeoutMs: 5_000 });
    expect(result).toMatchObject({ ok: true, statusCode: 200, responseBody: 'x'.repeat(100) });
    expect(result.latencyMs).toBeLessThan(2_000);
  });

  it('does not split a multi-byte character at the byte limit', async () => {
    const { url } = await serve((_req, res) => res.end('ab€€'));
    // 'ab' + 3 bytes + 3 bytes: a 4-byte limit cuts the first euro sign.
    expect((await deliver({ url, body, headers: {}, maxResponseBytes: 4 })).responseBody).toBe('ab');
  });

  it('reports connection refused', async () => {
    const { url } = await serve(() => {});
    await servers.pop()!.close();
    const result = await deliver({ url, body, headers: {} });
    expect(result).toMatchObject({ ok: false, error: 'connection refused' });
    expect(result.statusCode).toBeUndefined();
  });

  it('reports a DNS failure without throwing', async () => {
    const result = await deliver({ url: 'http://does-not-exist.invalid/hook', body, headers: {}, timeoutMs: 5_000 });
    expect(result).toMatchObject({ ok: false });
    expect(['DNS lookup failed', 'timeout']).toContain(result.error);
  });

  it('never throws on bad input', async () => {
    expect(await deliver({ url: 'not a url', body, headers: {} })).toMatchObject({ ok: false, error: 'invalid URL' });
    expect(await deliver({ url: 'ftp://example.com/', body, headers: {} })).toMatchObject({ ok: false, error: 'unsupported protocol' });
    expect(await deliver({ url: 'http://example.com/', body, headers: {}, pinnedAddresses: ['nope'] })).toMatchObject({
      ok: false,
      error: 'invalid pinned address',
    });
    expect(await deliver({ url: 'http://example.com/', body, headers: {}, pinnedAddresses: [] })).toMatchObject({ ok: false, error: 'invalid pinned address' });
    expect((await deliver({ url: 'http://127.0.0.1:1/', body, headers: { 'bad\nheader': 'x' } })).ok).toBe(false);
  });

  it('connects to the pinned address while keeping the Host header of the URL (DNS rebinding defence)', async () => {
    let host: string | undefined;
    const { port } = await serve((req, res) => {
      host = req.headers.host;
      res.end('pinned');
    });
    // .invalid never resolves: reaching the server proves the pinned address was used.
    const result = await deliver({ url: `http://hooks.example.invalid:${port}/hook`, body, headers: {}, pinnedAddresses: ['127.0.0.1'] });
    expect(result).toMatchObject({ ok: true, statusCode: 200, responseBody: 'pinned' });
    expect(host).toBe(`hooks.example.invalid:${port}`);
  });

  it('pins IPv6 addresses too', async () => {
    const server = http.createServer((_req, res) => res.end('v6'));
    servers.push(server);
    const listening = await new Promise<boolean>((r) => {
      server.once('error', () => r(false));
      server.listen(0, '::1', () => r(true));
    });
    if (!listening) return; // no IPv6 loopback on this machine
    const { port } = server.address() as AddressInfo;
    expect(await deliver({ url: `http://hooks.example.invalid:${port}/`, body, headers: {}, pinnedAddresses: ['::1'] })).toMatchObject({
      ok: true,
      responseBody: 'v6',
    });
  });

  it('tries every pinned address in turn: a receiver on 127.0.0.1 only is reached when ::1 comes first', async () => {
    // A name such as localhost often resolves to ::1 before 127.0.0.1, while many receivers
    // (Flask, python -m http.server) listen on IPv4 only; a normal client falls back, so must we.
    const { port } = await serve((_req, res) => res.end('v4 only'));
    for (const pinned of [
      ['::1', '127.0.0.1'],
      ['127.0.0.2', '127.0.0.1'],
    ]) {
      expect(await deliver({ url: `http://laptop.example.invalid:${port}/`, body, headers: {}, pinnedAddresses: pinned })).toMatchObject({
        ok: true,
        responseBody: 'v4 only',
      });
    }
  });

  it('over https, keeps the URL host as TLS servername when pinned, and reports an untrusted certificate as a TLS error', async () => {
    // A self-signed certificate for hooks.example.test (fixtures/, valid until 2126), so the
    // test needs no openssl at run time.
    const cert = readFileSync(new URL('./fixtures/tls-test-cert.pem', import.meta.url));
    const key = readFileSync(new URL('./fixtures/tls-test-key.pem', import.meta.url));
    let servername: string | undefined;
    const server = https.createServer(
      {
        cert,
        key,
        SNICallback: (name, cb) => {
          servername = name;
          cb(null);
        },
      },
      (_req, res) => res.end('secret'),
    );
    servers.push(server);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;

    const result = await deliver({ url: `https://hooks.example.test:${port}/hook`, body, headers: {}, pinnedAddresses: ['127.0.0.1'] });
    expect(result.ok).toBe(false);
    expect(result.error).toMatch(/^TLS error/);
    expect(result.responseBody).toBeUndefined();
    expect(servername).toBe('hooks.example.test');
  });
});
