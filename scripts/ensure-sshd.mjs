#!/usr/bin/env node
// The SFTP tests and the bank simulator run Debian's OpenSSH server (never a JavaScript imitation
// of one: the bank's server is OpenSSH or behaves like it). Installs it with apt-get when
// /usr/sbin/sshd is missing; does nothing, at once, when it is there.
// By hand or from CI before the tests: node scripts/ensure-sshd.mjs
// From code: ensureSshd() in src/rails/bank/sshd.ts runs this file.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';

const SSHD = '/usr/sbin/sshd';
const PACKAGES = ['openssh-server', 'openssh-sftp-server'];
// invoke-rc.d and deb-systemd-invoke ask this file whether a package may start its service; exit
// 101 means "no". Without it, openssh-server's postinst starts a system sshd on port 22 wherever an
// init system runs (a CI virtual machine): a login service nobody asked for, left running.
const POLICY = '/usr/sbin/policy-rc.d';

// Other installs may run at the same moment (the browser tests' Chromium, in the same test run):
// the install waits for dpkg's lock, and the update, whose lock does not wait, is tried again.
const APT_LOCK_WAIT = ['-o', 'DPkg::Lock::Timeout=300'];

function apt(args, attempts = 1) {
  for (let attempt = 1; ; attempt++) {
    const r = spawnSync('apt-get', [...APT_LOCK_WAIT, ...args], {
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
    if (r.error) throw new Error(`apt-get ${args.join(' ')} could not run: ${r.error.message}`);
    if (r.status === 0) return;
    if (attempt >= attempts) throw new Error(`apt-get ${args.join(' ')} failed (exit ${r.status})`);
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5_000);
  }
}

function install() {
  // An existing policy (Debian's container images ship one) is the machine's own: kept as it is.
  const ownPolicy = !fs.existsSync(POLICY);
  if (ownPolicy) fs.writeFileSync(POLICY, '#!/bin/sh\n# Written by corridor scripts/ensure-sshd.mjs while apt-get runs.\nexit 101\n', { mode: 0o755 });
  try {
    // The package lists of a fresh machine are empty or stale: without the update, install fails.
    apt(['update'], 12);
    apt(['install', '-y', '--no-install-recommends', ...PACKAGES]);
  } finally {
    if (ownPolicy) fs.rmSync(POLICY, { force: true });
  }
}

export function ensureSshd() {
  if (fs.existsSync(SSHD)) return SSHD;
  if (typeof process.getuid === 'function' && process.getuid() !== 0) {
    throw new Error(`${SSHD} is missing: install Debian's ${PACKAGES.join(' and ')} packages (sudo apt-get install -y ${PACKAGES.join(' ')})`);
  }
  process.stderr.write(`Installing ${PACKAGES.join(' and ')} for the SFTP tests (apt-get)...\n`);
  install();
  if (!fs.existsSync(SSHD)) throw new Error(`apt-get installed ${PACKAGES.join(' and ')} but ${SSHD} is still missing`);
  return SSHD;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    process.stdout.write(`${ensureSshd()}\n`);
  } catch (err) {
    process.stderr.write(`${err.message}\n`);
    process.exit(1);
  }
}
