/**
 * Mobile-money accounts: the phone formats are the spec's exact regexes per currency (not
 * libphonenumber-js, which rejects Benin's older 8/9-digit numbers), and the operator ("provider")
 * codes form a fixed set per currency with exactly the counts the spec gives:
 * KES 1, TZS 2, ZMW 4, RWF 2, MWK 2, UGX 2 (XOF: not given by the spec; chosen here per country).
 *
 * Codes are the operator names (AIRTEL, MTN, ...): a code is unique within a currency and country,
 * and for XOF the same operator (ORANGE, MTN, MOOV, WAVE) can appear in several countries.
 * The discovery catalogue derives its mobile-money entries from this table.
 */

export const MOBILE_MONEY_CURRENCIES = ['KES', 'TZS', 'ZMW', 'RWF', 'MWK', 'UGX', 'XOF'] as const;
export type MobileMoneyCurrency = (typeof MOBILE_MONEY_CURRENCIES)[number];

export interface MobileMoneyOperator {
  /** The value to submit as accountInfo.provider. */
  code: string;
  displayName: string;
  /** ISO 3166-1 alpha-2 country where this operator's wallets live. */
  country: string;
}

interface PhoneRule {
  country: string;
  pattern: RegExp;
  description: string;
}

/**
 * Phone rules. XOF spans several countries; we serve the three the spec names. Benin: the spec says
 * +229 with 8 or 9 digits, but since 30 November 2024 Benin numbers are 10 digits (the old number
 * prefixed with 01), so `+22901` + 8 digits is accepted too; libphonenumber-js already only knows
 * the new form.
 */
const PHONE_RULES: Record<MobileMoneyCurrency, readonly PhoneRule[]> = {
  KES: [{ country: 'KE', pattern: /^\+254\d{9}$/, description: '+254 followed by 9 digits' }],
  TZS: [{ country: 'TZ', pattern: /^\+255\d{9}$/, description: '+255 followed by 9 digits' }],
  ZMW: [{ country: 'ZM', pattern: /^\+260\d{9}$/, description: '+260 followed by 9 digits' }],
  RWF: [{ country: 'RW', pattern: /^\+250\d{9}$/, description: '+250 followed by 9 digits' }],
  MWK: [{ country: 'MW', pattern: /^\+265\d{9}$/, description: '+265 followed by 9 digits' }],
  UGX: [{ country: 'UG', pattern: /^\+256\d{9}$/, description: '+256 followed by 9 digits' }],
  XOF: [
    { country: 'SN', pattern: /^\+221\d{9}$/, description: 'Senegal +221 followed by 9 digits' },
    { country: 'CI', pattern: /^\+225\d{10}$/, description: 'Ivory Coast +225 followed by 10 digits' },
    { country: 'BJ', pattern: /^\+229(\d{8,9}|01\d{8})$/, description: 'Benin +229 followed by 8 or 9 digits, or 01 and 8 digits' },
  ],
};

const OPERATORS: Record<MobileMoneyCurrency, readonly MobileMoneyOperator[]> = {
  KES: [{ code: 'MPESA', displayName: 'Safaricom M-PESA', country: 'KE' }],
  TZS: [
    { code: 'VODACOM', displayName: 'Vodacom M-Pesa', country: 'TZ' },
    { code: 'AIRTEL', displayName: 'Airtel Money', country: 'TZ' },
  ],
  ZMW: [
    { code: 'MTN', displayName: 'MTN MoMo', country: 'ZM' },
    { code: 'AIRTEL', displayName: 'Airtel Money', country: 'ZM' },
    { code: 'ZAMTEL', displayName: 'Zamtel Kwacha', country: 'ZM' },
    // The fourth: Zoona, a Bank of Zambia-licensed agent-based money-transfer/e-wallet provider
    // (not a mobile network). Zed Mobile, the fourth network, has no confirmed wallet yet.
    { code: 'ZOONA', displayName: 'Zoona', country: 'ZM' },
  ],
  RWF: [
    { code: 'MTN', displayName: 'MTN MoMo', country: 'RW' },
    { code: 'AIRTEL', displayName: 'Airtel Money', country: 'RW' },
  ],
  MWK: [
    { code: 'AIRTEL', displayName: 'Airtel Money', country: 'MW' },
    { code: 'TNM', displayName: 'TNM Mpamba', country: 'MW' },
  ],
  UGX: [
    { code: 'MTN', displayName: 'MTN MoMo', country: 'UG' },
    { code: 'AIRTEL', displayName: 'Airtel Money', country: 'UG' },
  ],
  XOF: [
    { code: 'ORANGE', displayName: 'Orange Money', country: 'SN' },
    { code: 'WAVE', displayName: 'Wave', country: 'SN' },
    // Free Money (ex-Tigo Cash) was rebranded "Mixx by Yas" in 2025; the code stays FREE.
    { code: 'FREE', displayName: 'Free Money (Mixx by Yas)', country: 'SN' },
    { code: 'ORANGE', displayName: 'Orange Money', country: 'CI' },
    { code: 'MTN', displayName: 'MTN MoMo', country: 'CI' },
    { code: 'MOOV', displayName: 'Moov Money', country: 'CI' },
    { code: 'WAVE', displayName: 'Wave', country: 'CI' },
    { code: 'MTN', displayName: 'MTN MoMo', country: 'BJ' },
    { code: 'MOOV', displayName: 'Moov Money', country: 'BJ' },
  ],
};

export function isMobileMoneyCurrency(currency: string): currency is MobileMoneyCurrency {
  return (MOBILE_MONEY_CURRENCIES as readonly string[]).includes(currency);
}

/** The operators accepted as `provider` for a currency (empty for a non-mobile-money currency). */
export function mobileMoneyOperators(currency: string): MobileMoneyOperator[] {
  if (!isMobileMoneyCurrency(currency)) return [];
  return OPERATORS[currency].map((o) => ({ ...o }));
}

/** The country a phone number belongs to under the currency's rules, or undefined if it matches none. */
export function mobileMoneyPhoneCountry(currency: string, phone: string): string | undefined {
  if (!isMobileMoneyCurrency(currency)) return undefined;
  return PHONE_RULES[currency].find((r) => r.pattern.test(phone))?.country;
}

export function validateMobileMoneyPhone(currency: string, phone: string): string | null {
  if (!isMobileMoneyCurrency(currency)) return `${currency} is not a mobile-money currency`;
  if (mobileMoneyPhoneCountry(currency, phone)) return null;
  return `phone number must be ${PHONE_RULES[currency].map((r) => r.description).join('; or ')}`;
}

/**
 * The provider code must be one of the currency's operators; when the phone number is given, the
 * operator must also serve the phone's country (an XOF number in Senegal cannot go to MOOV).
 */
export function validateMobileMoneyProvider(currency: string, provider: string, phone?: string): string | null {
  const ops = mobileMoneyOperators(currency);
  if (ops.length === 0) return `${currency} is not a mobile-money currency`;
  const matching = ops.filter((o) => o.code === provider);
  if (matching.length === 0) return `provider must be one of ${[...new Set(ops.map((o) => o.code))].join(', ')}`;
  if (phone !== undefined) {
    const country = mobileMoneyPhoneCountry(currency, phone);
    if (country && !matching.some((o) => o.country === country)) return `provider ${provider} does not operate in ${country}`;
  }
  return null;
}
