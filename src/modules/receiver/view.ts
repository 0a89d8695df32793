import { absent } from '../../common/absent.js';
import { currencyView } from '../../common/currencies.js';
import type { LookupRow, StoredCurrency } from './repository.js';
import type { LookupView } from './schemas.js';

/** Lookup row → API Lookup; rates are indicative and computed at lookup time; no rate or no limit: left out (D11). */
export function lookupView(row: LookupRow, rates: Map<string, number | null>): LookupView {
  const currencies = JSON.parse(row.supported_currencies) as StoredCurrency[];
  return absent({
    id: row.id,
    receiverUmaAddress: row.uma_address || null,
    accountId: row.external_account_id || null,
    sendingCurrency: currencyView(row.sending_currency),
    supportedCurrencies: currencies.map((c) => ({
      currency: currencyView(c.code),
      estimatedExchangeRate: rates.get(c.code) ?? undefined,
      minAmount: c.minAmount ?? undefined,
      maxAmount: c.maxAmount ?? undefined,
    })),
    requiredPayerDataFields: JSON.parse(row.required_payer_data_fields),
    expiresAt: row.expires_at,
    createdAt: row.created_at,
  });
}
