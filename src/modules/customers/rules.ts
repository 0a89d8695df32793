import { currency, currencyOfCountry } from '../../common/currencies.js';
import { randomView } from '../../common/random.js';
import { invalidField } from '../../common/errors.js';
import { SANDBOX_SUFFIXES, sandboxSuffixOf } from '../../identifiers/sandbox-fixtures.js';
import type { Environment, Scope } from '../../common/scope.js';
import { customerErrors } from './errors.js';

/**
 * Each domestic currency (one paid out only on its own country's rails) needs a customer
 * onboarded in that country, so a customer holds at most one of them, next to any of the
 * majors (USD, EUR, GBP, CAD) and crypto.
 */
export function checkCurrencyCombination(codes: readonly string[]): void {
  const domestic = codes.filter((c) => currency(c).domestic);
  if (domestic.length > 1) {
    throw customerErrors.CURRENCY_COMBINATION_NOT_ALLOWED({
      field: 'currencies',
      conflicting: domestic,
      reason: `${domestic.join(', ')} are each paid out on domestic rails only; create one customer per domestic currency`,
    });
  }
}

/** Without an explicit list: the currency of the customer's region when supported, else USD. */
export function defaultCurrencies(region: string | null): string[] {
  return [(region && currencyOfCountry(region)) || 'USD'];
}

/** Sandbox KYC is simulated and instant for individuals; businesses wait for a beneficial owner. */
export function initialKycStatus(environment: Environment, customerType: string): string {
  if (environment === 'PRODUCTION') return 'UNVERIFIED';
  return customerType === 'INDIVIDUAL' ? 'APPROVED' : 'PENDING';
}

/** Lower-cases a given UMA address and checks it lives on the platform's UMA domain. */
export function normaliseUmaAddress(address: string, platformDomain: string): string {
  const lower = address.toLowerCase();
  const domain = lower.slice(lower.indexOf('@') + 1);
  if (domain !== platformDomain.toLowerCase()) throw invalidField('umaAddress', `must be on this platform's UMA domain: $<name>@${platformDomain}`);
  return lower;
}

/**
 * A fresh UMA address: a readable part from the name plus random characters, so it is unguessable.
 * The random part never ends in a sandbox test pattern (`…002` is a lookup that fails, and so on),
 * which one generated address in about 270 did: only an address the platform chose behaves as one.
 */
export function generateUmaAddress(name: string | null | undefined, platformDomain: string): string {
  const slug = (name ?? '')
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '.')
    .replace(/^\.+|\.+$/g, '')
    .slice(0, 24);
  // Read as every sandbox lookup reads an address (sandboxSuffixOf), so the two cannot disagree.
  let address: string;
  do address = `$${slug ? `${slug}.` : ''}${randomView(5).toString('hex')}@${platformDomain.toLowerCase()}`;
  while ((SANDBOX_SUFFIXES as readonly string[]).includes(sandboxSuffixOf(address)));
  return address;
}

/** A birth date must be a real day in the past, and a human age. */
export function checkBirthDate(value: string | undefined, today: Date): void {
  if (value === undefined) return;
  const d = new Date(`${value}T00:00:00Z`);
  if (d.getTime() > today.getTime()) throw invalidField('birthDate', 'must not be in the future');
  if (today.getUTCFullYear() - d.getUTCFullYear() > 150) throw invalidField('birthDate', 'must be within the last 150 years');
}

/**
 * In PRODUCTION a payment moves money only for customers whose kycStatus is APPROVED (for a
 * business: its KYB); 400 CUSTOMER_NOT_VERIFIED names the customer and the field otherwise. The
 * sandbox is unchecked.
 */
export function requireVerified(scope: Scope, customer: { id: string; customer_type: string; kyc_status: string }): void {
  if (scope.environment !== 'PRODUCTION' || customer.kyc_status === 'APPROVED') return;
  const check = customer.customer_type === 'BUSINESS' ? 'KYB' : 'KYC';
  throw customerErrors.CUSTOMER_NOT_VERIFIED(
    { customerId: customer.id, field: 'kycStatus', kycStatus: customer.kyc_status, required: 'APPROVED' },
    `Customer ${customer.id} has kycStatus ${customer.kyc_status}: in PRODUCTION money moves only once its ${check} is APPROVED`,
  );
}
