/**
 * The discovery catalogue behind GET /discoveries: the bank names the service accepts, per country,
 * plus the mobile-money operators per currency. Bank lists are data (catalogue/<COUNTRY>.json, with
 * their official sources in catalogue/SOURCES.md); operators are derived from
 * src/identifiers/mobile-money.ts so the `provider` check and the catalogue can never disagree.
 *
 * Loaded once, synchronously, at first use; every entry's shape is checked so a bad data edit fails
 * loudly at start-up instead of serving a malformed entry.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { projectPath } from '../../common/paths.js';
import { MOBILE_MONEY_CURRENCIES, mobileMoneyOperators } from '../../identifiers/mobile-money.js';

export interface DiscoveryEntry {
  /** The exact UPPER-CASE value to submit as accountInfo.bankName (or provider, for mobile money). */
  bankName: string;
  /** The label to show to users. */
  displayName: string;
  /** ISO 3166-1 alpha-2. */
  country: string;
  /** ISO 4217. */
  currency: string;
}

/** Countries whose accountInfo.bankName must be one of the catalogue's names (spec: PH, NG, ZA). */
export const countriesRequiringBankName: readonly string[] = Object.freeze(['PH', 'NG', 'ZA']);

const CATALOGUE_DIR = pathToFileURL(`${projectPath('src', 'modules', 'discoveries', 'catalogue')}/`);

function checkEntry(raw: unknown, file: string, index: number): DiscoveryEntry {
  const where = `${file}[${index}]`;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new Error(`${where}: entry must be an object`);
  const e = raw as Record<string, unknown>;
  const keys = Object.keys(e).sort().join(',');
  if (keys !== 'bankName,country,currency,displayName')
    throw new Error(`${where}: entry must have exactly bankName, displayName, country, currency (has ${keys})`);
  const { bankName, displayName, country, currency } = e;
  if (typeof bankName !== 'string' || !/^[A-Z0-9&](?:[A-Z0-9& ]*[A-Z0-9&])?$/.test(bankName))
    throw new Error(`${where}: bankName must be upper-case letters, digits, '&' and single spaces`);
  if (/ {2}/.test(bankName)) throw new Error(`${where}: bankName has a double space`);
  if (typeof displayName !== 'string' || displayName.trim() === '' || displayName !== displayName.trim())
    throw new Error(`${where}: displayName must be a non-empty trimmed string`);
  if (typeof country !== 'string' || !/^[A-Z]{2}$/.test(country)) throw new Error(`${where}: country must be ISO 3166-1 alpha-2`);
  if (typeof currency !== 'string' || !/^[A-Z]{3,4}$/.test(currency)) throw new Error(`${where}: currency must be a currency code`);
  return Object.freeze({ bankName, displayName, country, currency });
}

function loadBanks(): DiscoveryEntry[] {
  const files = readdirSync(CATALOGUE_DIR)
    .filter((f) => /^[A-Z]{2}\.json$/.test(f))
    .sort();
  const out: DiscoveryEntry[] = [];
  for (const file of files) {
    const data: unknown = JSON.parse(readFileSync(new URL(file, CATALOGUE_DIR), 'utf8'));
    if (!Array.isArray(data)) throw new Error(`${file}: must hold a JSON array`);
    const fileCountry = file.slice(0, 2);
    data.forEach((raw, i) => {
      const entry = checkEntry(raw, file, i);
      if (entry.country !== fileCountry) throw new Error(`${file}[${i}]: country ${entry.country} does not match the file name`);
      out.push(entry);
    });
  }
  return out;
}

function mobileMoneyEntries(): DiscoveryEntry[] {
  return MOBILE_MONEY_CURRENCIES.flatMap((currency) =>
    mobileMoneyOperators(currency).map((op) => Object.freeze({ bankName: op.code, displayName: op.displayName, country: op.country, currency })),
  );
}

/** Sort key independent of the ICU data of the running Node: accents folded, case folded. */
function sortKey(s: string): string {
  return s
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
}
function byDisplayName(a: DiscoveryEntry, b: DiscoveryEntry): number {
  const ka = sortKey(a.displayName);
  const kb = sortKey(b.displayName);
  if (ka !== kb) return ka < kb ? -1 : 1;
  if (a.country !== b.country) return a.country < b.country ? -1 : 1;
  return a.bankName < b.bankName ? -1 : a.bankName > b.bankName ? 1 : 0;
}

let cache: { all: readonly DiscoveryEntry[]; names: Map<string, Set<string>> } | undefined;

function catalogue() {
  if (!cache) {
    const all = [...loadBanks(), ...mobileMoneyEntries()].sort(byDisplayName);
    const names = new Map<string, Set<string>>();
    for (const e of all) {
      const set = names.get(e.country) ?? new Set<string>();
      if (set.has(e.bankName)) throw new Error(`discovery catalogue: duplicate bankName ${e.bankName} in ${e.country}`);
      set.add(e.bankName);
      names.set(e.country, set);
    }
    cache = { all: Object.freeze(all), names };
  }
  return cache;
}

/** Entries matching the optional filters, sorted by displayName. */
export function listDiscoveries(filter: { country?: string; currency?: string } = {}): DiscoveryEntry[] {
  return catalogue().all.filter(
    (e) => (filter.country === undefined || e.country === filter.country) && (filter.currency === undefined || e.currency === filter.currency),
  );
}

/** Whether `bankName` is exactly one of the catalogue's names for the country (case-sensitive). */
export function isKnownBankName(country: string, bankName: string): boolean {
  return catalogue().names.get(country)?.has(bankName) ?? false;
}
