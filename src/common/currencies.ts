/**
 * The currencies Corridor can hold, quote and pay out. Names and decimals follow ISO 4217 for fiat
 * (kept here rather than read from Intl so responses never change with Node's ICU data); crypto
 * units are the smallest on-chain unit (satoshis for BTC, 6 decimals for USDC).
 */
export interface Currency {
  code: string;
  name: string;
  symbol: string;
  decimals: number;
  kind: 'FIAT' | 'CRYPTO';
  /**
   * Countries whose domestic rails pay out in this currency. A "domestic" currency (every fiat
   * currency except the majors USD, EUR, GBP, CAD) can only be held by a customer alongside no
   * other domestic currency: each needs its own locally-onboarded customer.
   */
  countries: readonly string[];
  domestic: boolean;
}

const table: Currency[] = [
  { code: 'USD', name: 'US Dollar', symbol: '$', decimals: 2, kind: 'FIAT', countries: ['US'], domestic: false },
  {
    code: 'EUR',
    name: 'Euro',
    symbol: '€',
    decimals: 2,
    kind: 'FIAT',
    countries: ['AT', 'BE', 'HR', 'CY', 'EE', 'FI', 'FR', 'DE', 'GR', 'IE', 'IT', 'LV', 'LT', 'LU', 'MT', 'NL', 'PT', 'SK', 'SI', 'ES'],
    domestic: false,
  },
  { code: 'GBP', name: 'Pound Sterling', symbol: '£', decimals: 2, kind: 'FIAT', countries: ['GB'], domestic: false },
  { code: 'CAD', name: 'Canadian Dollar', symbol: 'CA$', decimals: 2, kind: 'FIAT', countries: ['CA'], domestic: false },
  { code: 'MXN', name: 'Mexican Peso', symbol: 'MX$', decimals: 2, kind: 'FIAT', countries: ['MX'], domestic: true },
  { code: 'BRL', name: 'Brazilian Real', symbol: 'R$', decimals: 2, kind: 'FIAT', countries: ['BR'], domestic: true },
  { code: 'PHP', name: 'Philippine Peso', symbol: '₱', decimals: 2, kind: 'FIAT', countries: ['PH'], domestic: true },
  { code: 'INR', name: 'Indian Rupee', symbol: '₹', decimals: 2, kind: 'FIAT', countries: ['IN'], domestic: true },
  { code: 'NGN', name: 'Naira', symbol: '₦', decimals: 2, kind: 'FIAT', countries: ['NG'], domestic: true },
  { code: 'ZAR', name: 'Rand', symbol: 'R', decimals: 2, kind: 'FIAT', countries: ['ZA'], domestic: true },
  { code: 'KES', name: 'Kenyan Shilling', symbol: 'KSh', decimals: 2, kind: 'FIAT', countries: ['KE'], domestic: true },
  { code: 'TZS', name: 'Tanzanian Shilling', symbol: 'TSh', decimals: 2, kind: 'FIAT', countries: ['TZ'], domestic: true },
  { code: 'ZMW', name: 'Zambian Kwacha', symbol: 'ZK', decimals: 2, kind: 'FIAT', countries: ['ZM'], domestic: true },
  { code: 'RWF', name: 'Rwanda Franc', symbol: 'FRw', decimals: 0, kind: 'FIAT', countries: ['RW'], domestic: true },
  { code: 'MWK', name: 'Malawi Kwacha', symbol: 'MK', decimals: 2, kind: 'FIAT', countries: ['MW'], domestic: true },
  { code: 'UGX', name: 'Uganda Shilling', symbol: 'USh', decimals: 0, kind: 'FIAT', countries: ['UG'], domestic: true },
  {
    code: 'XOF',
    name: 'CFA Franc BCEAO',
    symbol: 'CFA',
    decimals: 0,
    kind: 'FIAT',
    countries: ['SN', 'CI', 'BJ', 'BF', 'ML', 'NE', 'TG', 'GW'],
    domestic: true,
  },
  { code: 'BTC', name: 'Bitcoin', symbol: '₿', decimals: 8, kind: 'CRYPTO', countries: [], domestic: false },
  { code: 'USDC', name: 'USD Coin', symbol: 'USDC', decimals: 6, kind: 'CRYPTO', countries: [], domestic: false },
];

const byCode = new Map(table.map((c) => [c.code, Object.freeze(c)]));

export const CURRENCY_CODES: readonly string[] = table.map((c) => c.code);

export function isSupportedCurrency(code: string): boolean {
  return byCode.has(code);
}

/** The currency with this code; throws for an unknown code (callers validate input first). */
export function currency(code: string): Currency {
  const c = byCode.get(code);
  if (!c) throw new Error(`unsupported currency ${code}`);
  return c;
}

/** The Currency object of the API (code, name, symbol, decimals). */
export function currencyView(code: string): { code: string; name: string; symbol: string; decimals: number } {
  const c = currency(code);
  return { code: c.code, name: c.name, symbol: c.symbol, decimals: c.decimals };
}

/** The currency paid out domestically in a country, if Corridor supports one. */
export function currencyOfCountry(country: string): string | undefined {
  return table.find((c) => c.countries.includes(country))?.code;
}
