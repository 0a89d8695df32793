import { currencyView } from '../../common/currencies.js';
import type { LookupRow, StoredCurrency } from './repository.js';
import type { LookupView } from './schemas.js';

/** Lookup row → API Lookup; rates are indicative and computed at lookup time. */
export function lookupView(row: LookupRow, rates: Map<string, number | null>): LookupView {
  const currencies = JSON.parse(row.supported_currencies) as StoredCurrency[];
  return {
    id: row.id,
    ...(row.uma_address ? { receiverUmaAddress: row.uma_address } : {}),
    ...(row.external_account_id ? { accountId: row.external_account_id } : {}),
    sendingCurrency: currencyView(row.sending_currency),
    supportedCurrencies: currencies.map((c) => ({
      currency: currencyView(c.code),
      estimatedExchangeRate: rates.get(c.code) ?? null,
      minAmount: c.minAmount,
      maxAmount: c.maxAmount,
    })),
    requiredPayerDataFields: JSON.parse(row.required_payer_data_fields),
    expiresAt: row.expires_at,
    createdAt: row.created_at,
  };
}
