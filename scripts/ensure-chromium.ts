// The browser tests drive Debian's Chromium (never a browser downloaded by a test tool). Installs
// it with apt-get when /usr/bin/chromium is missing; does nothing, at once, when it is there.
// Run by the browser tests' global setup; by hand: npx tsx scripts/ensure-chromium.ts
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';

export const CHROMIUM = '/usr/bin/chromium';

export function ensureChromium(): string {
  if (fs.existsSync(CHROMIUM)) return CHROMIUM;
  if (typeof process.getuid === 'function' && process.getuid() !== 0) {
    throw new Error(`${CHROMIUM} is missing: install Debian's chromium package (sudo apt-get install -y chromium)`);
  }
  process.stderr.write('Installing Debian chromium for the browser tests (apt-get)...\n');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [['update'], ['install', '-y', '--no-install-recommends', 'chromium']]) {
    const r = spawnSync('apt-get', args, { stdio: ['ignore', 'ignore', 'inherit'], env });
    if (r.status !== 0) throw new Error(`apt-get ${args.join(' ')} failed (exit ${r.status})`);
  }
  if (!fs.existsSync(CHROMIUM)) throw new Error(`apt-get installed chromium but ${CHROMIUM} is still missing`);
  return CHROMIUM;
}

if (import.meta.url === `file://${process.argv[1]}`) process.stdout.write(`${ensureChromium()}\n`);
