/**
 * Per-currency platform settings (PATCH /config `currencies`), stored as JSON in
 * platform_configs.currency_settings. A currency never configured is enabled with no limits.
 * The quotes and transfers code reads them through currencySetting().
 */
import { CURRENCY_CODES } from '../../common/currencies.js';
import { invalidInput, type FieldProblem } from '../../common/errors.js';
import type { PlatformConfigsTable } from '../../db/schema.js';

export interface CurrencySetting {
  enabled: boolean;
  /** Smallest amount per payment in minor units, inclusive; null: no minimum. */
  minAmount: bigint | null;
  /** Largest amount per payment in minor units, inclusive; null: no maximum. */
  maxAmount: bigint | null;
}

export interface CurrencySettingPatch {
  currencyCode: string;
  enabled?: boolean;
  minAmount?: number | null;
  maxAmount?: number | null;
}

type Stored = Record<string, { enabled: boolean; minAmount: number | null; maxAmount: number | null }>;

const DEFAULT: CurrencySetting = { enabled: true, minAmount: null, maxAmount: null };

function parse(text: string | null): Stored {
  return text ? (JSON.parse(text) as Stored) : {};
}

/** The effective setting of one currency for a platform configuration row. */
export function currencySetting(config: Pick<PlatformConfigsTable, 'currency_settings'>, code: string): CurrencySetting {
  const s = parse(config.currency_settings)[code];
  if (!s) return { ...DEFAULT };
  return { enabled: s.enabled, minAmount: s.minAmount === null ? null : BigInt(s.minAmount), maxAmount: s.maxAmount === null ? null : BigInt(s.maxAmount) };
}

/** Every supported currency with its effective setting, in the currency table's order. */
export function allCurrencySettings(config: Pick<PlatformConfigsTable, 'currency_settings'>) {
  return CURRENCY_CODES.map((code) => {
    const s = currencySetting(config, code);
    return {
      currencyCode: code,
      enabled: s.enabled,
      minAmount: s.minAmount === null ? null : Number(s.minAmount),
      maxAmount: s.maxAmount === null ? null : Number(s.maxAmount),
    };
  });
}

/**
 * Applies a PATCH: each listed currency takes the given fields, the rest of its setting and
 * every unlisted currency stay. Refuses duplicates and a minimum above the maximum.
 */
export function mergeCurrencySettings(current: string | null, patch: readonly CurrencySettingPatch[]): string {
  const stored = parse(current);
  const problems: FieldProblem[] = [];
  const seen = new Set<string>();
  patch.forEach((p, i) => {
    if (seen.has(p.currencyCode)) problems.push({ field: `currencies.${i}.currencyCode`, in: 'body', message: `${p.currencyCode} is listed twice` });
    seen.add(p.currencyCode);
    const was = stored[p.currencyCode] ?? { enabled: true, minAmount: null, maxAmount: null };
    const next = {
      enabled: p.enabled ?? was.enabled,
      minAmount: p.minAmount === undefined ? was.minAmount : p.minAmount,
      maxAmount: p.maxAmount === undefined ? was.maxAmount : p.maxAmount,
    };
    if (next.minAmount !== null && next.maxAmount !== null && next.minAmount > next.maxAmount) {
      problems.push({
        field: `currencies.${i}.${p.minAmount !== undefined ? 'minAmount' : 'maxAmount'}`,
        in: 'body',
        message: `minAmount (${next.minAmount}) must not exceed maxAmount (${next.maxAmount})`,
      });
    }
    stored[p.currencyCode] = next;
  });
  if (problems.length) throw invalidInput(problems);
  return JSON.stringify(stored);
}
