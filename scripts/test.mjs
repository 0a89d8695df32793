#!/usr/bin/env node
// `npm test`: the whole suite (unit once; storage and API tests on SQLite and on PostgreSQL),
// then one plain summary line "N passed, N failed" that CI reads.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// The end-to-end tests run the built server, as `npm start` does: build it from the sources first.
const built = spawnSync(process.execPath, [path.join(import.meta.dirname, 'build.mjs')], { stdio: 'inherit' });
if (built.status !== 0) {
  process.stdout.write('\n0 passed, 1 failed\n');
  process.exit(1);
}

// The bank-rail tests run Debian's OpenSSH server: installed (once, when missing) before the test
// files run side by side.
if (spawnSync(process.execPath, [path.join(import.meta.dirname, 'ensure-sshd.mjs')], { stdio: 'inherit' }).status !== 0) {
  process.stdout.write('\n0 passed, 1 failed\n');
  process.exit(1);
}

// The code's formatting is part of the check (prettier; `npm run format` fixes it).
const formatted = spawnSync(
  process.execPath,
  [path.join(import.meta.dirname, '../node_modules/prettier/bin/prettier.cjs'), '--check', '.', '--log-level', 'warn'],
  {
    cwd: path.join(import.meta.dirname, '..'),
    stdio: 'inherit',
  },
);
const formatFailures = formatted.status === 0 ? 0 : 1;
if (formatFailures) process.stdout.write('format: the files above are not formatted (npm run format)\n');

const out = path.join(os.tmpdir(), `corridor-vitest-${process.pid}.json`);
const args = ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${out}`, ...process.argv.slice(2)];
const run = spawnSync('npx', args, { stdio: 'inherit', env: { ...process.env, FORCE_COLOR: process.env.FORCE_COLOR ?? '0' } });

let passed = 0;
let failed = 0;
try {
  const report = JSON.parse(fs.readFileSync(out, 'utf8'));
  passed = report.numPassedTests;
  // Failed tests, plus test files that failed without a failed test (an import error, a hook).
  const brokenFiles = (report.testResults ?? []).filter((f) => f.status === 'failed' && !(f.assertionResults ?? []).some((a) => a.status === 'failed')).length;
  failed = report.numFailedTests + brokenFiles + formatFailures;
  fs.rmSync(out, { force: true });
} catch {
  failed = Math.max(failed, 1);
}
process.stdout.write(`\n${passed} passed, ${failed} failed\n`);
process.exit(run.status === 0 && failed === 0 ? 0 : 1);
