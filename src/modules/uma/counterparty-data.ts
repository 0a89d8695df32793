/**
 * Corridor's customer-info field names (requiredPayerDataFields, senderCustomerInfo,
 * requestedReceiverCustomerInfoFields) and the UMA counterparty-data keys they travel as. The
 * first six are the protocol's common keys (CounterPartyDataKeys); the rest are written the same
 * way (lower camel case), as UMA allows any key both sides agree on.
 */
import type { CustomerInfoField } from '../config/incoming.js';

export const UMA_KEY_OF: Record<CustomerInfoField, string> = {
  FULL_NAME: 'name',
  EMAIL: 'email',
  BIRTH_DATE: 'birthDate',
  NATIONALITY: 'nationality',
  COUNTRY_OF_RESIDENCE: 'countryOfResidence',
  PHONE_NUMBER: 'phoneNumber',
  POSTAL_ADDRESS: 'postalAddress',
  TAX_ID: 'taxId',
  ACCOUNT_IDENTIFIER: 'accountIdentifier',
  BUSINESS_NAME: 'businessName',
};

const FIELD_OF = new Map(Object.entries(UMA_KEY_OF).map(([field, key]) => [key, field as CustomerInfoField]));

/** The Corridor field a UMA key stands for, if any. */
export const fieldOfUmaKey = (key: string): CustomerInfoField | undefined => FIELD_OF.get(key);

/** `{FULL_NAME: 'Ada'}` → `{name: 'Ada'}`; unknown names are dropped. */
export function toUmaData(info: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(info)) {
    const key = UMA_KEY_OF[k as CustomerInfoField];
    if (key && v !== undefined && v !== null) out[key] = String(v);
  }
  return out;
}

/** `{name: 'Ada', identifier: …}` → `{FULL_NAME: 'Ada'}`: only keys Corridor knows, only text values. */
export function fromUmaData(data: Record<string, unknown> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(data ?? {})) {
    const field = fieldOfUmaKey(k);
    if (field && typeof v === 'string') out[field] = v;
  }
  return out;
}

/** A payerData / payeeData options object: each field mandatory. */
export function dataOptions(fields: readonly CustomerInfoField[]): Record<string, { mandatory: boolean }> {
  return Object.fromEntries(fields.map((f) => [UMA_KEY_OF[f], { mandatory: true }]));
}
