/**
 * The partner bank simulator as a running service: a real OpenSSH SFTP server (sshd.ts) whose
 * chroot holds /outbound and /inbound, the simulated bank (bank.ts) answering what arrives in
 * /outbound, and the control API (control.ts) on 127.0.0.1.
 *
 * - sshd needs root and a login user that exists on the machine: the operator logs in as root,
 *   with the key given here only, into an SFTP-only chroot on 127.0.0.1 (see sshd.ts).
 * - Everything lives under `dir`: sshd's configuration and host key (kept, so the fingerprint
 *   Corridor pins survives restarts), and the bank's state file, outside the chroot where the
 *   SFTP user cannot touch it.
 * - /outbound is polled (every 200 ms by default). A file is taken once its size and time have
 *   not changed between two polls: Corridor renames complete uploads into place, but a person
 *   uploading by hand writes under the final name.
 */
import fs from 'node:fs';
import type http from 'node:http';
import type net from 'node:net';
import path from 'node:path';
import { startSftpServer } from '../sshd.js';
import { setupFromBanksFile, type SimulatedAccount, type SimulatedBankSetup } from './accounts.js';
import { createSimulatedBank, type SimulatedBank } from './bank.js';
import { createControlServer } from './control.js';

export const DEFAULT_POLL_MS = 200;

export interface BankSimulatorOptions {
  /** The simulator's working folder (sshd's files, the bank's state); made if missing. */
  dir: string;
  /** SFTP port on 127.0.0.1; 0 or absent: a free one. */
  port?: number;
  /** The operator's accounts, or… */
  accounts?: SimulatedAccount[];
  /** …the operator's BANKS_FILE and the id of the bank in it to play. */
  banksFile?: string;
  bankId?: string;
  /** With banksFile: opening balances per currency, in minor units (default 1,000,000.00 each). */
  openingBalances?: Record<string, bigint>;
  /** With accounts: the bank's routing number (NACHA files addressed elsewhere are refused), BIC and time zone. */
  routingNumber?: string;
  bic?: string;
  timeZone?: string;
  /** The public half of the key Corridor logs in with, one line in OpenSSH format. */
  operatorPublicKey: string;
  /** Control API port on 127.0.0.1; 0 or absent: a free one. */
  controlPort?: number;
  pollMs?: number;
  now?: () => Date;
  /** Where the simulator tells what it does; default standard output. */
  log?: (line: string) => void;
}

export interface BankSimulator {
  /** What goes in the bank's `sftp` section of Corridor's BANKS_FILE (with the operator's privateKeyFile). */
  sftp: { host: string; port: number; hostKeySha256: string; username: string; outboundDir: '/outbound'; inboundDir: '/inbound' };
  controlUrl: string;
  /** The SFTP root on disk (outbound/ and inbound/ are in it). */
  root: string;
  /** The bank itself, for a caller in the same process. */
  bank: SimulatedBank;
  /** Stops polling, the control API and sshd; the state and the files stay. */
  stop(): Promise<void>;
}

function setupOf(opts: BankSimulatorOptions): SimulatedBankSetup {
  if (opts.accounts && opts.banksFile) throw new Error('give accounts or a BANKS_FILE, not both');
  if (opts.accounts) return { accounts: opts.accounts, routingNumber: opts.routingNumber, bic: opts.bic, timeZone: opts.timeZone };
  if (opts.banksFile && opts.bankId) return setupFromBanksFile(opts.banksFile, opts.bankId, opts.openingBalances);
  throw new Error('the simulator needs the operator accounts: accounts, or banksFile and bankId');
}

export async function startBankSimulator(opts: BankSimulatorOptions): Promise<BankSimulator> {
  const log = opts.log ?? ((line: string) => process.stdout.write(`${line}\n`));
  const setup = setupOf(opts);
  const pollMs = opts.pollMs ?? DEFAULT_POLL_MS;
  if (!Number.isInteger(pollMs) || pollMs < 10) throw new Error('pollMs must be an integer of at least 10');
  const dir = path.resolve(opts.dir);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });

  const sshd = await startSftpServer({ dir: path.join(dir, 'sshd'), port: opts.port, users: [{ username: 'root', publicKey: opts.operatorPublicKey.trim() }] });
  let bank: SimulatedBank;
  let control: http.Server;
  try {
    bank = createSimulatedBank({ ...setup, root: sshd.root, stateFile: path.join(dir, 'state.json'), now: opts.now, log });
    control = createControlServer(bank);
    await new Promise<void>((resolve, reject) => {
      control.once('error', reject);
      control.listen(opts.controlPort ?? 0, '127.0.0.1', () => resolve());
    });
  } catch (err) {
    await sshd.stop();
    throw err;
  }

  // A file is ready once two polls saw it alike (see the top of this file).
  const lastSeen = new Map<string, string>();
  const ready = (file: { name: string; size: number; mtimeMs: number }) => {
    const seen = `${file.size}:${file.mtimeMs}`;
    const same = lastSeen.get(file.name) === seen;
    lastSeen.set(file.name, seen);
    return same;
  };
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let lastError: string | undefined;
  const tick = async () => {
    try {
      await bank.processOutbound({ ready });
      lastError = undefined;
    } catch (err) {
      // The same failure every poll is told once.
      const message = err instanceof Error ? err.message : String(err);
      if (message !== lastError) log(`error while processing /outbound: ${message}`);
      lastError = message;
    }
    if (!stopped) timer = setTimeout(() => void tick(), pollMs);
  };
  timer = setTimeout(() => void tick(), 0);

  const { port: controlPort } = control.address() as net.AddressInfo;
  const sftp = {
    host: sshd.host,
    port: sshd.port,
    hostKeySha256: sshd.hostKeySha256,
    username: 'root',
    outboundDir: '/outbound' as const,
    inboundDir: '/inbound' as const,
  };
  const controlUrl = `http://127.0.0.1:${controlPort}`;
  log(
    [
      `bank simulator listening: SFTP ${sftp.host}:${sftp.port} (user root, host key ${sftp.hostKeySha256}), control API ${controlUrl}`,
      `accounts: ${bank
        .snapshot()
        .accounts.map((a) => `${a.currency} ${a.balance}`)
        .join(', ')} (minor units)`,
      `the bank's "sftp" section in Corridor's BANKS_FILE:`,
      JSON.stringify({ ...sftp, privateKeyFile: '<the file of the operator key whose public half was given>' }, null, 2),
    ].join('\n'),
  );

  return {
    sftp,
    controlUrl,
    root: sshd.root,
    bank,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await bank.idle();
      await new Promise<void>((resolve) => {
        control.close(() => resolve());
        control.closeAllConnections();
      });
      await sshd.stop();
    },
  };
}
