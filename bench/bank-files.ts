// The bank rails' file paths at the sizes an operator may meet (issue: 100,000 payouts, a
// 100,000-entry statement): a NACHA file and a SEPA pain.001 built from 100,000 payouts (each
// checked as it is before upload: NACHA rules, the official XSD), and a 100,000-entry camt.053
// read and ingested into a fresh database (every entry recorded, matched and its exception
// raised, in the one transaction that records the file). CPU time and peak memory of this process
// for each. Run: npx tsx bench/bank-files.ts (BENCH_DB=sqlite to pick one database;
// BENCH_BANK_N to change the size).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { manualClock } from '../src/common/clock.js';
import { buildCamt053 } from '../src/rails/bank/iso20022/index.js';
import { validateXml } from '../src/rails/bank/iso20022/index.js';
import { validateNachaFile } from '../src/rails/bank/nacha/index.js';
import { buildPayoutFile, type FilePayout, type FileWindow } from '../src/rails/bank/payout-file.js';
import type { BankProfile } from '../src/rails/bank/profile.js';
import { readReport } from '../src/rails/bank/reports.js';
import { loadConfig } from '../src/config.js';
import { createContainer } from '../src/container.js';
import { dropPostgresSchema, openDatabase, randomSchemaName } from '../src/db/database.js';
import { migrate } from '../src/db/migrate.js';
import { PG_URL } from '../test/helpers/env.js';
import { DIALECTS, writeSection } from './lib.js';

const N = Number(process.env.BENCH_BANK_N ?? 100_000);

const bank: BankProfile = {
  id: 'bench-bank',
  name: 'Bench Bank',
  formats: ['NACHA', 'PAIN001_SEPA'],
  accounts: [
    { currency: 'USD', holderName: 'Corridor Bench', bankName: 'Bench Bank', routingNumber: '021000021', accountNumber: '000123456789' },
    { currency: 'EUR', holderName: 'Corridor Bench', bankName: 'Bench Bank', iban: 'DE89370400440532013000', bic: 'COBADEFFXXX' },
  ],
  sftp: {
    host: '127.0.0.1',
    port: 22,
    username: 'bench',
    hostKeySha256: 'SHA256:47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU',
    outboundDir: '/o',
    inboundDir: '/i',
  },
  schedule: { timeZone: 'UTC', cutoffs: { NACHA: [{ time: '16:00' }], PAIN001_SEPA: [{ time: '16:00' }] }, holidays: [] },
  nacha: {
    immediateDestination: '021000021',
    immediateDestinationName: 'BENCH BANK',
    immediateOrigin: '1987654321',
    immediateOriginName: 'CORRIDOR BENCH',
    companyId: '1987654321',
    companyName: 'CORRIDOR BENCH',
    originatingDfi: '02100002',
  },
  pollIntervalMs: 60_000,
};
const window: FileWindow = { cutoffAt: new Date('2026-11-30T16:00:00Z'), localDate: '2026-11-30', sameDay: false, effectiveDate: '2026-12-01' };

const reference = (i: number) => `CP${String(i).padStart(13, '0')}`;
const payouts = (currency: 'USD' | 'EUR'): FilePayout[] =>
  Array.from({ length: N }, (_, i) => ({
    reference: reference(i),
    direction: 'CREDIT',
    amount: BigInt(100 + (i % 997) * 137),
    currency,
    counterparty:
      currency === 'USD'
        ? {
            name: `Payee Number ${i}`,
            kind: i % 3 === 0 ? 'BUSINESS' : 'INDIVIDUAL',
            accountType: 'US_ACCOUNT',
            routingNumber: '011000015',
            accountNumber: String(10_000_000 + i),
          }
        : { name: `Empfänger Nummer ${i}`, kind: 'INDIVIDUAL', accountType: 'IBAN', iban: 'DE89370400440532013000', bic: 'COBADEFFXXX' },
  }));

interface Measured<T> {
  value: T;
  cpuMs: number;
  wallMs: number;
}

/** CPU of this process (user + system) and wall time of `fn`. */
async function measure<T>(fn: () => Promise<T> | T): Promise<Measured<T>> {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const value = await fn();
  const cpu = process.cpuUsage(cpu0);
  return { value, cpuMs: (cpu.user + cpu.system) / 1000, wallMs: performance.now() - t0 };
}

const peakMiB = () => Math.round(process.resourceUsage().maxRSS / 1024);
const mib = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
const s = (ms: number) => (ms / 1000).toFixed(2);

export async function run() {
  const rows: string[] = [];
  const line = (what: string, m: Measured<unknown>, size: string) => rows.push(`| ${what} | ${s(m.cpuMs)} | ${s(m.wallMs)} | ${size} | ${peakMiB()} |`);

  const usd = payouts('USD');
  const nacha = await measure(() => buildPayoutFile(bank, 'NACHA', window, 'USD', 1, usd));
  line(`build a NACHA file of ${N.toLocaleString('en')} credits`, nacha, `${mib(nacha.value.content.length)} MiB`);
  const nachaCheck = await measure(() => validateNachaFile(nacha.value.content.toString('utf8')));
  if (nachaCheck.value.length) throw new Error(`the NACHA file breaks a rule: ${JSON.stringify(nachaCheck.value[0])}`);
  line('check it record by record (NACHA rules)', nachaCheck, '');

  const eur = payouts('EUR');
  const pain = await measure(() => buildPayoutFile(bank, 'PAIN001_SEPA', window, 'EUR', 2, eur));
  line(`build a SEPA pain.001 of ${N.toLocaleString('en')} credits`, pain, `${mib(pain.value.content.length)} MiB`);
  const painCheck = await measure(() => validateXml(pain.value.content.toString('utf8'), 'pain.001.001.09'));
  if (!painCheck.value.valid) throw new Error(`the pain.001 is not valid: ${painCheck.value.errors[0]}`);
  line('validate it against the official XSD (xmllint-wasm)', painCheck, '');

  // A day's statement with N credits nobody's reference names: the worst case for matching.
  const day = '2026-11-30';
  const statement = Buffer.from(
    buildCamt053({
      messageId: 'BENCH-STMT',
      createdAt: '2026-11-30T23:00:00Z',
      statementId: 'BENCH-STMT',
      account: { iban: 'DE89370400440532013000', currency: 'EUR' },
      openingBalance: { amount: 0n, date: day },
      closingBalance: { amount: eur.reduce((sum, p) => sum + p.amount, 0n), date: day },
      entries: eur.map((p, i) => ({
        amount: p.amount,
        direction: 'CREDIT' as const,
        bookingDate: day,
        valueDate: day,
        bankReference: `BENCH-${i}`,
        transactions: [{ creditorReference: `UNKNOWN-${i}`, remittanceInformation: `UNKNOWN-${i}`, debtor: { name: 'A Payer' } }],
      })),
    }),
  );
  const read = await measure(() => readReport(statement));
  line(`read a camt.053 of ${N.toLocaleString('en')} entries`, read, `${mib(statement.length)} MiB`);

  for (const dialect of DIALECTS) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'corridor-bench-bank-'));
    const schema = randomSchemaName('bench');
    const db = await openDatabase(dialect === 'postgres' ? { url: PG_URL, pgSchema: schema } : { url: path.join(dir, 'corridor.db') });
    await migrate(db);
    const banksFile = path.join(dir, 'banks.json');
    fs.writeFileSync(banksFile, JSON.stringify({ banks: [bank] }));
    const config = loadConfig({ DATA_DIR: dir, BANKS_FILE: banksFile, CORRIDOR_KEK: Buffer.alloc(32, 7).toString('base64') });
    const container = await createContainer(config, { db, clock: manualClock(new Date('2026-11-30T23:30:00Z')) });
    const ingest = await measure(() => container.bankRails.inbound.ingest(container.bankRails.banks[0], 'statement.xml', statement));
    if (ingest.value.status !== 'APPLIED') throw new Error(`ingest: ${JSON.stringify(ingest.value)}`);
    const recorded = await db
      .executor()
      .selectFrom('bank_statement_entries')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    if (Number(recorded.n) !== N) throw new Error(`ingest recorded ${recorded.n} entries of ${N}`);
    line(`ingest it (${dialect}): every entry recorded, matched, put in suspense, in one transaction`, ingest, '');
    await container.close();
    if (dialect === 'postgres') await dropPostgresSchema(PG_URL, schema);
    fs.rmSync(dir, { recursive: true, force: true });
  }

  writeSection(
    'Bank files',
    [
      `${N.toLocaleString('en')} payouts or entries, one process (${os.cpus().length} CPUs, ${os.cpus()[0]?.model ?? ''}), ${new Date().toISOString().slice(0, 10)}. CPU is this process's user + system time; peak is its largest resident set so far.`,
      '',
      '| step | CPU s | wall s | size | peak RSS MiB |',
      '|---|---|---|---|---|',
      ...rows,
    ].join('\n'),
  );
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
