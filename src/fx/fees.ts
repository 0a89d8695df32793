/**
 * The fee schedule: which fees apply to a corridor (sending currency → receiving currency).
 *
 * Configuration (JSON, see docs/pricing.md):
 *
 *   {
 *     "corridors": [
 *       { "from": "USD", "to": "EUR", "serviceFixedFee": "25", "serviceVariableRate": "0.002", "counterpartyFixedFee": 0 },
 *       { "from": "*",   "to": "BTC", "serviceFixedFee": 0,    "serviceVariableRate": "0.005" },
 *       { "from": "*",   "to": "*",   "serviceFixedFee": 0,    "serviceVariableRate": "0.003" }
 *     ],
 *     "sameCurrency": { "serviceFixedFee": 0, "serviceVariableRate": "0" }
 *   }
 *
 * - serviceFixedFee: sending-currency minor units; counterpartyFixedFee: receiving-currency minor
 *   units. Integers given as JSON numbers or integer strings, 0 ..= 2^53-1; default 0.
 * - serviceVariableRate: a decimal fraction string, 0 <= rate < 1 ("0.003" = 0.3 %); default "0".
 * - Matching: the most specific rule wins. Specificity: exact from + exact to (3) > exact from +
 *   "*" to (2) > "*" from + exact to (1) > "*" → "*" (0). A pair appears at most once.
 * - Wildcards only match cross-currency corridors. A same-currency movement (USD → USD) uses an
 *   explicit rule for that pair if there is one, else `sameCurrency`, else DEFAULT_SAME_CURRENCY_FEE.
 * - A cross-currency corridor that no rule matches uses DEFAULT_CROSS_CURRENCY_FEE.
 */
import { isSupportedCurrency } from '../common/currencies.js';
import { DecimalFormatError, parseDecimal, type Rational } from '../common/money.js';

export interface FeeRule {
  /** Charged by the service, in sending-currency minor units. */
  serviceFixedFee: bigint;
  /** Charged by the service on the sending amount, a decimal fraction string: "0.003" = 0.3 %. */
  serviceVariableRate: string;
  /** Charged by the paying counterparty, in receiving-currency minor units. */
  counterpartyFixedFee: bigint;
}

export interface CorridorFeeRule extends FeeRule {
  /** Sending currency code or "*". */
  from: string;
  /** Receiving currency code or "*". */
  to: string;
}

export interface FeeSchedule {
  readonly corridors: readonly CorridorFeeRule[];
  readonly sameCurrency: FeeRule;
  /** The fee rule for a corridor (never throws for supported currencies). */
  feeFor(sendingCurrency: string, receivingCurrency: string): FeeRule;
}

/** Default for a cross-currency corridor no rule matches: 0 fixed, 0.3 % variable, 0 counterparty. */
export const DEFAULT_CROSS_CURRENCY_FEE: Readonly<FeeRule> = Object.freeze({
  serviceFixedFee: 0n,
  serviceVariableRate: '0.003',
  counterpartyFixedFee: 0n,
});

/** Default for a same-currency movement (transfers): no fee. */
export const DEFAULT_SAME_CURRENCY_FEE: Readonly<FeeRule> = Object.freeze({
  serviceFixedFee: 0n,
  serviceVariableRate: '0',
  counterpartyFixedFee: 0n,
});

/** A fee configuration that fails validation; `path` names the offending field. */
export class FeeScheduleError extends Error {
  override readonly name = 'FeeScheduleError';
  constructor(
    readonly path: string,
    reason: string,
  ) {
    super(`fee schedule: ${path}: ${reason}`);
  }
}

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
const MAX_RULES = 1000;

/** The variable rate of a rule as an exact rational, validated: 0 <= rate < 1. */
export function variableRateOf(rule: Pick<FeeRule, 'serviceVariableRate'>): Rational {
  const r = parseDecimal(rule.serviceVariableRate, { maxLength: 24 });
  if (r.num >= r.den) throw new DecimalFormatError(rule.serviceVariableRate, 'a variable fee rate must be below 1');
  return r;
}

function parseAmount(value: unknown, path: string): bigint {
  if (value === undefined) return 0n;
  let n: bigint;
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value)) throw new FeeScheduleError(path, 'must be an integer (at most 2^53-1)');
    n = BigInt(value);
  } else if (typeof value === 'string' && /^(0|[1-9][0-9]{0,15})$/.test(value)) {
    n = BigInt(value);
  } else {
    throw new FeeScheduleError(path, 'must be a non-negative integer, as a JSON number or an integer string');
  }
  if (n < 0n) throw new FeeScheduleError(path, 'must not be negative');
  if (n > MAX_SAFE) throw new FeeScheduleError(path, 'must be at most 2^53-1');
  return n;
}

function parseRate(value: unknown, path: string): string {
  if (value === undefined) return '0';
  if (typeof value !== 'string') throw new FeeScheduleError(path, 'must be a decimal string such as "0.003"');
  try {
    variableRateOf({ serviceVariableRate: value });
  } catch (e) {
    throw new FeeScheduleError(path, (e as Error).message);
  }
  return value;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function checkKeys(o: Record<string, unknown>, allowed: readonly string[], path: string): void {
  for (const k of Object.keys(o)) {
    if (!allowed.includes(k)) throw new FeeScheduleError(`${path}.${k}`, 'unknown field');
  }
}

const RULE_FIELDS = ['serviceFixedFee', 'serviceVariableRate', 'counterpartyFixedFee'] as const;

function parseRule(o: unknown, path: string): FeeRule {
  if (!isObject(o)) throw new FeeScheduleError(path, 'must be an object');
  return {
    serviceFixedFee: parseAmount(o.serviceFixedFee, `${path}.serviceFixedFee`),
    serviceVariableRate: parseRate(o.serviceVariableRate, `${path}.serviceVariableRate`),
    counterpartyFixedFee: parseAmount(o.counterpartyFixedFee, `${path}.counterpartyFixedFee`),
  };
}

function parseSide(v: unknown, path: string): string {
  if (v === '*') return v;
  if (typeof v !== 'string' || !isSupportedCurrency(v)) throw new FeeScheduleError(path, 'must be a supported currency code or "*"');
  return v;
}

/**
 * Validates a fee configuration (a JSON string or an already parsed value) and builds the
 * schedule. Unknown fields, unknown currencies, duplicate corridors and bad amounts are rejected
 * with a FeeScheduleError naming the field.
 */
export function parseFeeSchedule(json: unknown): FeeSchedule {
  let doc: unknown = json;
  if (typeof json === 'string') {
    try {
      doc = JSON.parse(json);
    } catch (e) {
      throw new FeeScheduleError('$', `not valid JSON (${(e as Error).message})`);
    }
  }
  if (!isObject(doc)) throw new FeeScheduleError('$', 'must be an object');
  checkKeys(doc, ['corridors', 'sameCurrency'], '$');
  const list = doc.corridors ?? [];
  if (!Array.isArray(list)) throw new FeeScheduleError('$.corridors', 'must be an array');
  if (list.length > MAX_RULES) throw new FeeScheduleError('$.corridors', `at most ${MAX_RULES} rules`);
  const corridors = list.map((item, i): CorridorFeeRule => {
    const path = `$.corridors[${i}]`;
    if (!isObject(item)) throw new FeeScheduleError(path, 'must be an object');
    checkKeys(item, ['from', 'to', ...RULE_FIELDS], path);
    return { from: parseSide(item.from, `${path}.from`), to: parseSide(item.to, `${path}.to`), ...parseRule(item, path) };
  });
  let sameCurrency: FeeRule | undefined;
  if (doc.sameCurrency !== undefined) {
    if (isObject(doc.sameCurrency)) checkKeys(doc.sameCurrency, RULE_FIELDS, '$.sameCurrency');
    sameCurrency = parseRule(doc.sameCurrency, '$.sameCurrency');
  }
  return createFeeSchedule(corridors, sameCurrency);
}

function specificity(rule: CorridorFeeRule): number {
  return (rule.from === '*' ? 0 : 2) + (rule.to === '*' ? 0 : 1);
}

/** Builds a schedule from already typed rules (validated the same way as parseFeeSchedule). */
export function createFeeSchedule(corridors: readonly CorridorFeeRule[], sameCurrency: FeeRule = DEFAULT_SAME_CURRENCY_FEE): FeeSchedule {
  const seen = new Set<string>();
  corridors.forEach((r, i) => {
    const path = `corridors[${i}]`;
    parseSide(r.from, `${path}.from`);
    parseSide(r.to, `${path}.to`);
    for (const f of ['serviceFixedFee', 'counterpartyFixedFee'] as const) {
      if (typeof r[f] !== 'bigint' || r[f] < 0n || r[f] > MAX_SAFE) throw new FeeScheduleError(`${path}.${f}`, 'must be a bigint in 0 ..= 2^53-1');
    }
    parseRate(r.serviceVariableRate, `${path}.serviceVariableRate`);
    const key = `${r.from}>${r.to}`;
    if (seen.has(key)) throw new FeeScheduleError(path, `duplicate corridor ${r.from} → ${r.to}`);
    seen.add(key);
  });
  parseRate(sameCurrency.serviceVariableRate, 'sameCurrency.serviceVariableRate');
  const frozen = Object.freeze(corridors.map((r) => Object.freeze({ ...r })));
  const same = Object.freeze({ ...sameCurrency });
  const strip = (r: CorridorFeeRule): FeeRule => ({
    serviceFixedFee: r.serviceFixedFee,
    serviceVariableRate: r.serviceVariableRate,
    counterpartyFixedFee: r.counterpartyFixedFee,
  });
  return {
    corridors: frozen,
    sameCurrency: same,
    feeFor(from: string, to: string): FeeRule {
      if (from === to) {
        const exact = frozen.find((r) => r.from === from && r.to === to);
        return exact ? strip(exact) : { ...same };
      }
      let best: CorridorFeeRule | undefined;
      for (const r of frozen) {
        if ((r.from === '*' || r.from === from) && (r.to === '*' || r.to === to)) {
          if (!best || specificity(r) > specificity(best)) best = r;
        }
      }
      return best ? strip(best) : { ...DEFAULT_CROSS_CURRENCY_FEE };
    },
  };
}
