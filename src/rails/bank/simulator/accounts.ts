/**
 * The operator's accounts at the simulated bank, one per currency, and where they come from: the
 * operator's own BANKS_FILE (the accounts Corridor will debit and show in payment instructions,
 * so the rehearsal uses the real numbers) or the simulator's own JSON configuration. Opening
 * balances default to 1,000,000.00 in each currency's minor units.
 */
import fs from 'node:fs';
import path from 'node:path';
import { validateAbaRoutingNumber } from '../../../identifiers/aba.js';
import { normalizeIban, validateBic, validateIban } from '../../../identifiers/iban.js';
import { isTimeZone, loadBankProfiles } from '../config.js';
import { currencyDecimals } from '../iso20022/index.js';

export interface SimulatedAccount {
  currency: string;
  holderName?: string;
  iban?: string;
  bic?: string;
  routingNumber?: string;
  accountNumber?: string;
  /** Minor units; default 1,000,000 units of the currency. */
  openingBalance?: bigint;
}

/** Everything about the bank that is read from configuration. */
export interface SimulatedBankSetup {
  accounts: SimulatedAccount[];
  /** The bank's routing number: a NACHA file addressed to another is refused. */
  routingNumber?: string;
  /** The bank's BIC, named in its pain.002 and on its accounts. */
  bic?: string;
  /** IANA zone of the bank's booking dates; default UTC. */
  timeZone?: string;
}

/** 1,000,000.00 (or 1,000,000 in a currency without minor units). */
export function defaultOpeningBalance(currency: string): bigint {
  return 1_000_000n * 10n ** BigInt(currencyDecimals(currency));
}

/** Refuses what the bank could not work with, every problem at once. */
export function checkAccounts(accounts: readonly SimulatedAccount[], where: string): void {
  const problems = accountProblems(accounts);
  if (problems.length) throw new Error(`${where}:\n  - ${problems.join('\n  - ')}`);
}

function accountProblems(accounts: readonly SimulatedAccount[]): string[] {
  const problems: string[] = [];
  if (accounts.length === 0) problems.push('at least one account is needed');
  const seen = new Set<string>();
  accounts.forEach((a, i) => {
    const at = `accounts[${i}]`;
    if (typeof a.currency !== 'string' || !/^[A-Z]{3}$/.test(a.currency)) problems.push(`${at}.currency: must be an ISO 4217 code such as USD`);
    else if (seen.has(a.currency)) problems.push(`${at}.currency: ${a.currency} is already an account; the bank keeps one account per currency`);
    else seen.add(a.currency);
    if (a.iban !== undefined && validateIban(a.iban)) problems.push(`${at}.iban: ${validateIban(a.iban)}`);
    if (a.bic !== undefined && validateBic(a.bic)) problems.push(`${at}.bic: ${validateBic(a.bic)}`);
    if (a.routingNumber !== undefined && validateAbaRoutingNumber(a.routingNumber))
      problems.push(`${at}.routingNumber: ${validateAbaRoutingNumber(a.routingNumber)}`);
    if (a.accountNumber !== undefined && !/^[0-9A-Za-z-]{1,34}$/.test(a.accountNumber))
      problems.push(`${at}.accountNumber: must be 1 to 34 letters, digits or dashes`);
    if (a.iban === undefined && a.accountNumber === undefined) problems.push(`${at}: needs an iban or an accountNumber`);
    if (a.openingBalance !== undefined && typeof a.openingBalance !== 'bigint') problems.push(`${at}.openingBalance: must be an integer of minor units`);
  });
  return problems;
}

/** The bank as the operator's BANKS_FILE describes it (validated by loadBankProfiles). */
export function setupFromBanksFile(file: string, bankId: string, openingBalances: Record<string, bigint> = {}): SimulatedBankSetup {
  const bank = loadBankProfiles(file).find((b) => b.id === bankId);
  if (!bank) throw new Error(`${path.resolve(file)} has no bank with id "${bankId}"`);
  const accounts = bank.accounts.map((a): SimulatedAccount => ({
    currency: a.currency,
    holderName: a.holderName,
    ...(a.iban !== undefined ? { iban: a.iban, bic: a.bic } : {}),
    ...(a.routingNumber !== undefined ? { routingNumber: a.routingNumber, accountNumber: a.accountNumber } : {}),
    ...(openingBalances[a.currency] !== undefined ? { openingBalance: openingBalances[a.currency] } : {}),
  }));
  for (const currency of Object.keys(openingBalances))
    if (!accounts.some((a) => a.currency === currency))
      throw new Error(`an opening balance is given for ${currency}, but bank "${bankId}" has no ${currency} account`);
  checkAccounts(accounts, `bank "${bankId}" in ${path.resolve(file)}`);
  return {
    accounts,
    routingNumber: bank.nacha?.immediateDestination,
    bic: bank.accounts.find((a) => a.bic !== undefined)?.bic,
    timeZone: bank.schedule.timeZone,
  };
}

const CONFIG_FIELDS = new Set(['$comment', 'accounts', 'routingNumber', 'bic', 'timeZone']);
const ACCOUNT_FIELDS = new Set(['$comment', 'currency', 'holderName', 'iban', 'bic', 'routingNumber', 'accountNumber', 'openingBalance']);

/**
 * The simulator's own configuration, for a rehearsal without a BANKS_FILE yet:
 * `{ "accounts": [{ "currency": "USD", "routingNumber": "…", "accountNumber": "…", "openingBalance": "100000000" }], "routingNumber": "…", "bic": "…", "timeZone": "America/New_York" }`.
 * Opening balances are minor units, as a string (or a safe integer).
 */
export function setupFromConfigFile(file: string): SimulatedBankSetup {
  const where = path.resolve(file);
  let doc: unknown;
  try {
    doc = JSON.parse(fs.readFileSync(where, 'utf8'));
  } catch (e) {
    throw new Error(`${where}: cannot be read as JSON: ${(e as Error).message}`);
  }
  return parseSetup(doc, where);
}

export function parseSetup(doc: unknown, where: string): SimulatedBankSetup {
  const problems: string[] = [];
  const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
  if (!isObject(doc)) throw new Error(`${where}: must be a JSON object with "accounts"`);
  for (const k of Object.keys(doc)) if (!CONFIG_FIELDS.has(k)) problems.push(`${k}: is not a known field`);
  const text = (v: unknown, at: string): string | undefined => {
    if (v === undefined) return undefined;
    if (typeof v === 'string' && v.trim() !== '') return v;
    problems.push(`${at}: must be a non-empty string`);
    return undefined;
  };
  if (!Array.isArray(doc.accounts)) problems.push('accounts: must be a list of accounts');
  const accounts = (Array.isArray(doc.accounts) ? doc.accounts : []).map((raw: unknown, i: number): SimulatedAccount => {
    const at = `accounts[${i}]`;
    if (!isObject(raw)) {
      problems.push(`${at}: must be an object`);
      return { currency: '' };
    }
    for (const k of Object.keys(raw)) if (!ACCOUNT_FIELDS.has(k)) problems.push(`${at}.${k}: is not a known field`);
    const iban = text(raw.iban, `${at}.iban`);
    const opening = raw.openingBalance;
    let openingBalance: bigint | undefined;
    if (typeof opening === 'string' && /^-?\d{1,30}$/.test(opening)) openingBalance = BigInt(opening);
    else if (typeof opening === 'number' && Number.isSafeInteger(opening)) openingBalance = BigInt(opening);
    else if (opening !== undefined) problems.push(`${at}.openingBalance: must be an integer of minor units, e.g. "100000000" for 1,000,000.00`);
    return {
      currency: text(raw.currency, `${at}.currency`) ?? '',
      holderName: text(raw.holderName, `${at}.holderName`),
      iban: iban === undefined ? undefined : normalizeIban(iban),
      bic: text(raw.bic, `${at}.bic`)?.toUpperCase(),
      routingNumber: text(raw.routingNumber, `${at}.routingNumber`),
      accountNumber: text(raw.accountNumber, `${at}.accountNumber`),
      openingBalance,
    };
  });
  const routingNumber = text(doc.routingNumber, 'routingNumber');
  if (routingNumber !== undefined && validateAbaRoutingNumber(routingNumber)) problems.push(`routingNumber: ${validateAbaRoutingNumber(routingNumber)}`);
  const bic = text(doc.bic, 'bic')?.toUpperCase();
  if (bic !== undefined && validateBic(bic)) problems.push(`bic: ${validateBic(bic)}`);
  const timeZone = text(doc.timeZone, 'timeZone');
  if (timeZone !== undefined && !isTimeZone(timeZone)) problems.push(`timeZone: must be an IANA time zone such as America/New_York`);
  const clean = accounts.map((a) => Object.fromEntries(Object.entries(a).filter(([, v]) => v !== undefined)) as unknown as SimulatedAccount);
  problems.push(...accountProblems(clean).filter((p) => !problems.some((q) => q.split(':')[0] === p.split(':')[0])));
  if (problems.length) throw new Error(`${where}:\n  - ${problems.join('\n  - ')}`);
  return { accounts: clean, routingNumber, bic, timeZone };
}
