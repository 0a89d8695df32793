/**
 * `npx corridor bank-simulator …`: the partner bank simulator for operators (docs/bank-simulator.md).
 * `start` runs the bank in the foreground until Ctrl-C (SIGINT) or SIGTERM; `credit`, `statement`,
 * `process` and `state` talk to a running one through its control API.
 */
import fs from 'node:fs';
import { InvalidArgumentError, type Command } from 'commander';
import { setupFromConfigFile } from './accounts.js';
import { startBankSimulator } from './server.js';

function port(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 65535) throw new InvalidArgumentError('must be a port number, 1 to 65535');
  return n;
}

function minorUnits(value: string): string {
  if (!/^-?\d{1,30}$/.test(value)) throw new InvalidArgumentError('must be an integer of minor units, e.g. 12345 for 123.45');
  return value;
}

function openingBalance(value: string, previous: Record<string, bigint> = {}): Record<string, bigint> {
  const m = /^([A-Z]{3})=(-?\d{1,30})$/.exec(value);
  if (!m) throw new InvalidArgumentError('must be CURRENCY=MINOR_UNITS, e.g. USD=100000000 for 1,000,000.00');
  return { ...previous, [m[1]]: BigInt(m[2]) };
}

function pollMs(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 10) throw new InvalidArgumentError('must be an integer of at least 10 (milliseconds)');
  return n;
}

/** The operator's public key: one OpenSSH line, refused clearly when the private half is given by mistake. */
function readPublicKey(file: string): string {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8').trim();
  } catch (e) {
    throw new Error(`--operator-key ${file} cannot be read: ${(e as Error).message}`);
  }
  if (/PRIVATE KEY/.test(text))
    throw new Error(`--operator-key ${file} is a private key: give its public half (the .pub file); the private one stays with Corridor`);
  if (text.includes('\n') || !/^(ssh-ed25519|ssh-rsa|ecdsa-sha2-nistp(256|384|521)) /.test(text)) {
    throw new Error(`--operator-key ${file} must hold one public key in OpenSSH format ("ssh-ed25519 AAAA… comment")`);
  }
  return text;
}

async function callControl(url: string, method: 'GET' | 'POST', route: string, body?: Record<string, unknown>): Promise<Record<string, unknown>> {
  let res: Response;
  try {
    res = await fetch(new URL(route, url), {
      method,
      headers: { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (e) {
    throw new Error(`the bank simulator at ${url} does not answer (${(e as Error).message}); is it started?`);
  }
  const answer = (await res.json().catch(() => ({}))) as Record<string, unknown>;
  if (!res.ok) throw new Error(`the bank simulator refused: ${String(answer.error ?? res.statusText)} (HTTP ${res.status})`);
  return answer;
}

function out(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

export function registerBankSimulatorCommand(program: Command) {
  const sim = program
    .command('bank-simulator')
    .description('a partner bank to rehearse with: NACHA and ISO 20022 files over a real SFTP server (see docs/bank-simulator.md)');

  sim
    .command('start')
    .description('run the bank until Ctrl-C: an OpenSSH SFTP server (needs root), the bank answering /outbound, and the control API')
    .requiredOption('--dir <dir>', "the simulator's working folder: sshd's files and host key, the bank's state (kept across restarts)")
    .requiredOption('--operator-key <file>', 'the public key (OpenSSH format) Corridor logs in with')
    .option('--banks-file <file>', "Corridor's BANKS_FILE: the operator accounts of the bank given by --bank")
    .option('--bank <id>', 'the id of the bank to play in --banks-file')
    .option('--config <file>', "the simulator's own JSON configuration instead of a BANKS_FILE (docs/bank-simulator.md)")
    .option('--opening-balance <CUR=minor>', 'with --banks-file: an opening balance in minor units (repeatable; default 1,000,000.00 each)', openingBalance)
    .option('--port <n>', 'SFTP port on 127.0.0.1 (default: a free one)', port)
    .option('--control-port <n>', 'control API port on 127.0.0.1 (default: a free one)', port)
    .option('--poll-ms <n>', 'how often /outbound is read', pollMs)
    .action(
      async (opts: {
        dir: string;
        operatorKey: string;
        banksFile?: string;
        bank?: string;
        config?: string;
        openingBalance?: Record<string, bigint>;
        port?: number;
        controlPort?: number;
        pollMs?: number;
      }) => {
        if (opts.config !== undefined && (opts.banksFile !== undefined || opts.bank !== undefined))
          throw new Error('give --config, or --banks-file with --bank, not both');
        if (opts.config === undefined && (opts.banksFile === undefined || opts.bank === undefined))
          throw new Error('the operator accounts are needed: --banks-file <file> --bank <id>, or --config <file>');
        if (opts.config !== undefined && opts.openingBalance)
          throw new Error('--opening-balance goes with --banks-file; in --config, give each account its openingBalance');
        const setup = opts.config !== undefined ? setupFromConfigFile(opts.config) : undefined;
        const simulator = await startBankSimulator({
          dir: opts.dir,
          operatorPublicKey: readPublicKey(opts.operatorKey),
          ...(setup ?? { banksFile: opts.banksFile, bankId: opts.bank, openingBalances: opts.openingBalance }),
          port: opts.port,
          controlPort: opts.controlPort,
          pollMs: opts.pollMs,
        });
        process.stdout.write('running; Ctrl-C stops the bank (its state and files stay)\n');
        const signal = await new Promise<NodeJS.Signals>((resolve) => {
          const stop = (s: NodeJS.Signals) => {
            process.off('SIGINT', stop);
            process.off('SIGTERM', stop);
            resolve(s);
          };
          process.on('SIGINT', stop);
          process.on('SIGTERM', stop);
        });
        process.stdout.write(`${signal}: stopping\n`);
        await simulator.stop();
      },
    );

  const controlUrl = '--control-url <url>';
  const controlHelp = 'the control API the simulator printed at start, e.g. http://127.0.0.1:8790';

  sim
    .command('credit')
    .description('an incoming credit to the operator account: booked and announced in a camt.054 at once')
    .requiredOption(controlUrl, controlHelp)
    .requiredOption('--currency <code>', 'the account it arrives on, e.g. USD')
    .requiredOption('--amount <minor>', 'minor units, e.g. 12345 for 123.45', minorUnits)
    .requiredOption('--reference <ref>', 'the reference the payer quoted (a deposit or JIT reference from Corridor)')
    .requiredOption('--debtor-name <name>', 'who pays')
    .option('--debtor-account <account>', "the payer's IBAN or account number")
    .action(async (opts: { controlUrl: string; currency: string; amount: string; reference: string; debtorName: string; debtorAccount?: string }) => {
      const { controlUrl: url, ...body } = opts;
      out(await callControl(url, 'POST', '/credit', body));
    });

  sim
    .command('statement')
    .description("end of day: a camt.053 per account, opening at the last statement's closing balance")
    .requiredOption(controlUrl, controlHelp)
    .option('--currency <code>', "only this account's statement")
    .option('--skew <minor>', 'add this many minor units to the reported closing balance (to rehearse a balance break)', minorUnits)
    .action(async (opts: { controlUrl: string; currency?: string; skew?: string }) => {
      const { controlUrl: url, ...body } = opts;
      out(await callControl(url, 'POST', '/statement', body));
    });

  sim
    .command('process')
    .description('answer the files in /outbound now, without waiting for the next poll')
    .requiredOption(controlUrl, controlHelp)
    .action(async (opts: { controlUrl: string }) => out(await callControl(opts.controlUrl, 'POST', '/process')));

  sim
    .command('state')
    .description('balances, entries since the last statement, and the files processed')
    .requiredOption(controlUrl, controlHelp)
    .action(async (opts: { controlUrl: string }) => out(await callControl(opts.controlUrl, 'GET', '/state')));
}
