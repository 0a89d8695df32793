/**
 * Payer data from the paying customer's record: the facts a receiver may require
 * (requiredPayerDataFields) that Corridor stores about a customer. Email, phone and account
 * identifiers are not stored on customers, so a quote still gives them.
 */
import { jsonOrNull } from '../../db/values.js';
import type { CustomerInfoField } from '../config/incoming.js';
import type { CustomerRow } from '../customers/repository.js';

interface StoredAddress {
  line1: string;
  line2?: string;
  city?: string;
  state?: string;
  postalCode: string;
  country: string;
}

export function payerDataOf(customer: CustomerRow): Partial<Record<CustomerInfoField, string>> {
  const business = jsonOrNull<{ legalName?: string; taxId?: string }>(customer.business_info);
  const address = jsonOrNull<StoredAddress>(customer.address);
  const out: Partial<Record<CustomerInfoField, string>> = {};
  const name = customer.full_name ?? business?.legalName;
  if (name) out.FULL_NAME = name;
  if (business?.legalName) out.BUSINESS_NAME = business.legalName;
  if (customer.birth_date) out.BIRTH_DATE = customer.birth_date;
  if (customer.nationality) out.NATIONALITY = customer.nationality;
  const residence = address?.country ?? customer.region;
  if (residence) out.COUNTRY_OF_RESIDENCE = residence;
  if (address) out.POSTAL_ADDRESS = [address.line1, address.line2, address.city, address.state, address.postalCode, address.country].filter(Boolean).join(', ');
  if (business?.taxId) out.TAX_ID = business.taxId;
  return out;
}
