import { currencyView } from '../../common/currencies.js';
import { jsonOrNull } from '../../db/values.js';
import type { TransactionRow } from './repository.js';
import type { TransactionView } from './schemas.js';

const amount = (value: bigint, code: string) => ({ amount: Number(value), currency: currencyView(code) });

/** Transaction row → API Transaction: every field of the spec, null where unknown. */
export function transactionView(row: TransactionRow): TransactionView {
  const refund = jsonOrNull<NonNullable<TransactionView['refund']>>(row.refund);
  return {
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
    ...(row.status === 'CREATED' ? {} : { reconciliationInstructions: { reference: row.reference } }),
    exchangeRate: Number(row.exchange_rate),
    fees: Number(row.fees),
    quoteId: row.quote_id,
    paymentInstructions: JSON.parse(row.payment_instructions),
    ...(refund ? { refund } : {}),
    rateDetails: jsonOrNull(row.rate_details),
    failureReason: row.failure_reason as TransactionView['failureReason'],
  };
}
