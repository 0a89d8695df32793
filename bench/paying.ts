// What the payment benchmarks share: a bare Fastify ceiling, a load driver that counts SQL
// statements per request, and a platform with funded payers and a payee to pay.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';
import { freePort } from '../test/helpers/server.js';
import { API, DURATION_S } from './lib.js';

export interface Json {
  [k: string]: any;
}

export interface Measured {
  rps: number;
  p50: number;
  p99: number;
  failed: number;
  /** Requests answered in the measurement. */
  answered?: number;
  statements?: number;
  /** CPU µs per answered request: the server process's, and PostgreSQL's. */
  serverCpuUs?: number;
  databaseCpuUs?: number;
  /** µs per answered request the server spent inside SQLite (part of its CPU time; SQLite only). */
  sqliteUs?: number;
}

export async function startBare(): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, [path.join(import.meta.dirname, 'bare-server.mjs')], {
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve) => child.stdout!.once('data', () => resolve()));
  return { url: `http://127.0.0.1:${port}`, child };
}

/**
 * CPU seconds (user + system) process `pid` and its children that ended have used so far (/proc,
 * in clock ticks of 10 ms). The children count for PostgreSQL: a backend whose connection closed
 * leaves the sum of live processes, and its time reappears in the postmaster's.
 */
export function cpuSeconds(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return 0; // gone meanwhile
  }
}

/** CPU seconds used so far by every PostgreSQL server process on this machine (the benchmark's database). */
export function postgresCpuSeconds(): number {
  let total = 0;
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (fs.readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === 'postgres') total += cpuSeconds(Number(entry));
    } catch {
      /* exited */
    }
  }
  return total;
}

/** The database counters of /metrics: statements sent, and (SQLite) seconds spent inside SQLite. */
async function databaseSoFar(baseUrl: string): Promise<{ statements: number; sqliteSeconds?: number }> {
  const text = await (await fetch(`${baseUrl}/metrics`)).text();
  const sqlite = /^corridor_db_sqlite_seconds_total (\S+)/m.exec(text)?.[1];
  return {
    statements: Number(/^corridor_db_statements_total (\d+)/m.exec(text)?.[1] ?? NaN),
    sqliteSeconds: sqlite === undefined ? undefined : Number(sqlite),
  };
}

/**
 * Drives one request shape for DURATION_S seconds at 20 connections; statements per answered
 * request when a Corridor URL is given; with the server's pid, the CPU time the server (and, on
 * PostgreSQL, the database) spent per request: unlike a rate, it hardly moves when other work
 * shares the machine.
 */
export async function drive(opts: Record<string, unknown>, corridor?: string, cpu?: { pid: number; postgres: boolean }): Promise<Measured> {
  const before = corridor ? await databaseSoFar(corridor) : undefined;
  const cpuBefore = cpu ? [cpuSeconds(cpu.pid), cpu.postgres ? postgresCpuSeconds() : 0] : [0, 0];
  const r = await autocannon({ connections: 20, duration: DURATION_S, ...opts });
  const cpuAfter = cpu ? [cpuSeconds(cpu.pid), cpu.postgres ? postgresCpuSeconds() : 0] : [0, 0];
  const after = corridor ? await databaseSoFar(corridor) : undefined;
  const answered = r.requests.total;
  const perRequestUs = (seconds: number) => Math.round((seconds * 1e6) / Math.max(1, answered));
  return {
    serverCpuUs: cpu ? perRequestUs(cpuAfter[0] - cpuBefore[0]) : undefined,
    databaseCpuUs: cpu?.postgres ? perRequestUs(cpuAfter[1] - cpuBefore[1]) : undefined,
    rps: Math.round(r.requests.average),
    answered,
    p50: r.latency.p50,
    p99: r.latency.p99,
    failed: r.non2xx + r.errors,
    statements: before && after ? Math.round(((after.statements - before.statements) / Math.max(1, answered)) * 10) / 10 : undefined,
    sqliteUs: before?.sqliteSeconds !== undefined && after?.sqliteSeconds !== undefined ? perRequestUs(after.sqliteSeconds - before.sqliteSeconds) : undefined,
  };
}

export async function call(baseUrl: string, auth: string, method: string, p: string, body?: unknown): Promise<Json> {
  const res = await fetch(`${baseUrl}${API}${p}`, {
    method,
    headers: { authorization: auth, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = (await res.json()) as Json;
  if (!res.ok) throw new Error(`${method} ${p}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

/** A funded USD payer: its customer and internal account. */
export async function payer(baseUrl: string, auth: string, n: number): Promise<{ customer: string; account: string }> {
  const c = await call(baseUrl, auth, 'POST', '/customers', {
    platformCustomerId: `payer-${n}`,
    customerType: 'INDIVIDUAL',
    fullName: `Payer ${n}`,
    currencies: ['USD'],
  });
  const accounts = await call(baseUrl, auth, 'GET', `/customers/internal-accounts?customerId=${encodeURIComponent(c.id)}`);
  const id = accounts.data[0].id as string;
  for (let i = 0; i < 5; i++) await call(baseUrl, auth, 'POST', `/sandbox/internal-accounts/${id}/fund`, { amount: 100_000_000_000 });
  return { customer: c.id, account: id };
}

/** `payers` funded USD payers and an EUR IBAN payee; `quote(source)` is the body of a full payment (immediatelyExecute). */
export async function payingWorld(base: string, auth: string, payers = 40) {
  const first = await payer(base, auth, 0);
  const sources = [first.account];
  const iban = await call(base, auth, 'POST', '/customers/external-accounts', {
    customerId: first.customer,
    currency: 'EUR',
    accountInfo: {
      accountType: 'IBAN',
      iban: 'DE89370400440532013000',
      swiftBic: 'COBADEFFXXX',
      beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Bench Payee' },
    },
  });
  for (let i = 1; i < payers; i++) sources.push((await payer(base, auth, i)).account);
  const quote = (source: string) =>
    JSON.stringify({
      source: { sourceType: 'ACCOUNT', accountId: source },
      destination: { destinationType: 'ACCOUNT', accountId: iban.id },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 1000,
      immediatelyExecute: true,
    });
  return { sources, quote };
}
