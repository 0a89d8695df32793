import { absent } from '../../common/absent.js';
import { currencyView } from '../../common/currencies.js';
import { jsonOrNull } from '../../db/values.js';
import type { TransactionRow } from '../transactions/repository.js';
import type { QuoteRow } from './repository.js';
import type { QuoteView } from './schemas.js';

/** The quote status a transaction status stands for (the quote follows its transaction). */
export function quoteStatusOf(txStatus: string): QuoteView['status'] {
  if (txStatus === 'CREATED') return 'PENDING';
  if (txStatus === 'REJECTED' || txStatus === 'REFUNDED') return 'FAILED';
  return txStatus as QuoteView['status'];
}

/** Transaction statuses matched by a quote status filter. */
export function transactionStatusesOf(quoteStatus: QuoteView['status']): string[] {
  if (quoteStatus === 'FAILED') return ['FAILED', 'REJECTED', 'REFUNDED'];
  if (quoteStatus === 'PENDING') return ['PENDING', 'CREATED'];
  return [quoteStatus];
}

export function quoteView(q: QuoteRow, t: TransactionRow): QuoteView {
  const counterparty = JSON.parse(t.counterparty_information) as Record<string, string>;
  const senderInfo = jsonOrNull<NonNullable<QuoteView['senderCustomerInfo']>>(q.sender_customer_info);
  return absent({
    id: q.id,
    status: quoteStatusOf(t.status),
    createdAt: q.created_at,
    expiresAt: q.expires_at,
    source: JSON.parse(t.source),
    destination: JSON.parse(t.destination),
    sendingCurrency: currencyView(t.sending_currency),
    receivingCurrency: currencyView(t.receiving_currency),
    totalSendingAmount: Number(t.sent_amount),
    totalReceivingAmount: Number(t.received_amount),
    exchangeRate: Number(t.exchange_rate),
    feesIncluded: Number(t.fees),
    transactionId: t.id,
    paymentInstructions: JSON.parse(t.payment_instructions),
    counterpartyInformation: Object.keys(counterparty).length ? counterparty : null,
    rateDetails: jsonOrNull<NonNullable<QuoteView['rateDetails']>>(t.rate_details),
    lockedCurrencySide: q.locked_side as QuoteView['lockedCurrencySide'],
    lockedCurrencyAmount: Number(q.locked_amount),
    description: t.description,
    purposeOfPayment: q.purpose_of_payment as QuoteView['purposeOfPayment'] | null,
    senderCustomerInfo: senderInfo,
    lookupId: q.lookup_id || null,
    failureReason: t.failure_reason as QuoteView['failureReason'] | null,
  });
}
