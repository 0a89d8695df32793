import { absent } from '../../common/absent.js';
import { currencyView } from '../../common/currencies.js';
import { jsonOrNull } from '../../db/values.js';
import type { TransactionRow } from './repository.js';
import type { TransactionView } from './schemas.js';

/** A refund as stored: settledAt null until it settles (the view leaves it out). */
export type StoredRefund = Omit<NonNullable<TransactionView['refund']>, 'settledAt'> & { settledAt: string | null };

const amount = (value: bigint, code: string) => ({ amount: Number(value), currency: currencyView(code) });

/** Transaction row → API Transaction; a member without a value is left out (D11). Webhooks carry this view. */
export function transactionView(row: TransactionRow): TransactionView {
  const refund = jsonOrNull<StoredRefund>(row.refund);
  return absent({
    id: row.id,
    status: row.status as TransactionView['status'],
    type: row.type as TransactionView['type'],
    source: JSON.parse(row.source),
    destination: JSON.parse(row.destination),
    customerId: row.customer_id,
    platformCustomerId: row.platform_customer_id,
    sentAmount: amount(BigInt(row.sent_amount), row.sending_currency),
    receivedAmount: amount(BigInt(row.received_amount), row.receiving_currency),
    settledAt: row.settled_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    description: row.description,
    counterpartyInformation: JSON.parse(row.counterparty_information),
    // The spec: for every transaction except those still CREATED.
    reconciliationInstructions: row.status === 'CREATED' ? null : { reference: row.reference },
    exchangeRate: Number(row.exchange_rate),
    fees: Number(row.fees),
    quoteId: row.quote_id,
    paymentInstructions: JSON.parse(row.payment_instructions),
    refund: refund && absent(refund),
    rateDetails: jsonOrNull<NonNullable<TransactionView['rateDetails']>>(row.rate_details),
    failureReason: row.failure_reason as TransactionView['failureReason'] | null,
    failureDetail: jsonOrNull<NonNullable<TransactionView['failureDetail']>>(row.failure_detail),
  });
}
