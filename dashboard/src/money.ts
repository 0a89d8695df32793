/** The API's Currency object: amounts are integers in the smallest unit, `decimals` places. */
export interface Currency {
  code: string;
  name: string;
  symbol: string;
  decimals: number;
}

export interface Amount {
  amount: number;
  currency: Currency;
}

function groupThousands(digits: string): string {
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** Minor units → "$1,234.56", "CFA 1,500", "0.00100000 BTC" style text; exact (no floating point). */
export function formatAmount(minor: number | bigint, currency: Currency): string {
  const value = BigInt(minor);
  const negative = value < 0n;
  const digits = (negative ? -value : value).toString().padStart(currency.decimals + 1, '0');
  const whole = digits.slice(0, digits.length - currency.decimals);
  const fraction = currency.decimals > 0 ? `.${digits.slice(digits.length - currency.decimals)}` : '';
  const number = `${groupThousands(whole)}${fraction}`;
  const sign = negative ? '-' : '';
  // A symbol made of letters (CFA, KSh, USDC) reads better with a space; $ € £ ₦ stick to the number.
  if (currency.symbol === currency.code) return `${sign}${number} ${currency.code}`;
  return /[A-Za-z]$/.test(currency.symbol) ? `${sign}${currency.symbol} ${number}` : `${sign}${currency.symbol}${number}`;
}

export function formatMoney(a: Amount | undefined | null): string {
  return a ? formatAmount(a.amount, a.currency) : '—';
}

/**
 * A decimal typed by a person ("1,250.5") → minor units (125050), exactly; undefined when it is
 * not a positive amount with at most `decimals` places.
 */
export function parseAmount(text: string, decimals: number): number | undefined {
  const cleaned = text.trim().replace(/[,\s_]/g, '');
  const m = /^(\d+)(?:\.(\d*))?$/.exec(cleaned);
  if (!m) return undefined;
  const fraction = m[2] ?? '';
  if (fraction.length > decimals) return undefined;
  const minor = BigInt(m[1] + fraction.padEnd(decimals, '0'));
  if (minor <= 0n || minor > BigInt(Number.MAX_SAFE_INTEGER)) return undefined;
  return Number(minor);
}
