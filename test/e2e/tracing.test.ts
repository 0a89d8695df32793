import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type net from 'node:net';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { dialect } from '../helpers/env.js';
import { serverEnvironment, startServer } from '../helpers/server.js';

const API = '/2025-10-13';
const ROOT = path.resolve(import.meta.dirname, '../..');

/** A stand-in OTLP/HTTP collector (and webhook receiver): keeps every body it is sent. */
async function collector() {
  const traces: string[] = [];
  const waiters: Array<() => void> = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      if (req.url === '/v1/traces') {
        traces.push(Buffer.concat(chunks).toString('latin1'));
        for (const w of waiters.splice(0)) w();
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
  return {
    url,
    /** Waits until the spans received so far contain every one of these texts. */
    async until(texts: string[]) {
      while (!texts.every((t) => traces.some((body) => body.includes(t)))) await new Promise<void>((resolve) => waiters.push(resolve));
      return traces.join('\n');
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('tracing', { timeout: 120_000 }, async () => {
  it('without OTEL_EXPORTER_OTLP_ENDPOINT nothing of OpenTelemetry is loaded', () => {
    const script = `
      await import('./src/tracing/preload.ts');
      const { createRequire } = await import('node:module');
      const loaded = Object.keys(createRequire(import.meta.url).cache).filter((k) => k.includes('@opentelemetry'));
      console.log(JSON.stringify(loaded));`;
    const env = { ...process.env };
    delete env.OTEL_EXPORTER_OTLP_ENDPOINT;
    const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: ROOT, env, encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout.trim().split('\n').pop()!)).toEqual([]);
  });

  it('with it, requests, database statements and webhook deliveries are exported as spans', async () => {
    const otlp = await collector();
    const { env, dataDir, cleanup } = await serverEnvironment(dialect);
    const server = await startServer({
      ...env,
      OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url,
      OTEL_BSP_SCHEDULE_DELAY: '100',
      OTEL_SERVICE_NAME: 'corridor-under-test',
      WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true',
    });
    try {
      const creds = JSON.parse(fs.readFileSync(path.join(dataDir, 'credentials.json'), 'utf8'));
      const auth = `Basic ${Buffer.from(`${creds.clientId}:${creds.clientSecret}`).toString('base64')}`;
      expect((await fetch(`${server.baseUrl}${API}/customers`, { headers: { authorization: auth } })).status).toBe(200);
      const tested = await fetch(`${server.baseUrl}${API}/webhooks/test`, {
        method: 'POST',
        headers: { authorization: auth, 'content-type': 'application/json' },
        body: JSON.stringify({ url: `${otlp.url}/hook` }),
      });
      expect(tested.status).toBe(200);
      // A KYC link's token is its page's whole credential: spans show the route, not the token.
      const token = 'Zx9kQ2mN7pR4sT6vW8yB1c';
      await fetch(`${server.baseUrl}/sandbox/kyc/${token}?lang=en`);
      const statement = dialect === 'postgres' ? 'postgresql' : 'sqlite';
      const spans = await otlp.until(['corridor-under-test', `${API}/customers`, '/hook', statement, '/sandbox/kyc/[redacted]']);
      expect(spans).toContain('select');
      expect(spans).not.toContain(token);
      // Probes are not traced.
      expect(spans).not.toContain('/healthz');
    } finally {
      await server.stop();
      await cleanup();
      await otlp.close();
    }
  });
});
