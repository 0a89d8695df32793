/**
 * The one place a payment's transaction row is built (quotes, transfers, UMA arrivals, their
 * forwarding to a deposit account): every payment starts PENDING, with no outcome, refund or
 * reservation yet, and its amounts from one price.
 */
import { newId } from '../../common/ids.js';
import type { Scope } from '../../common/scope.js';
import type { PricedQuote } from '../../fx/pricing.js';
import { newFundingReference } from '../internal-accounts/instructions.js';
import type { ExternalAccountRow } from '../external-accounts/repository.js';
import type { TransactionRow } from './repository.js';
import { counterpartyInformation, paymentRailOf } from './rules.js';

export interface NewPayment {
  scope: Scope;
  now: string;
  /** Given when something else names the transaction before it exists (a quote, its funding instructions). */
  id?: string;
  type: 'OUTGOING' | 'INCOMING';
  kind: 'QUOTE' | 'TRANSFER_OUT' | 'TRANSFER_IN' | 'UMA_RECEIVE' | 'UMA_DEPOSIT';
  funding: 'INTERNAL' | 'PULL' | 'REALTIME' | 'UMA';
  quoteId?: string;
  customer: { id: string | null; platformCustomerId: string | null };
  internalAccountId: string | null;
  /** '' when no external account takes part (a payment to or from a UMA address). */
  externalAccountId: string;
  /** The Source and Destination objects as responses show them. */
  source: object;
  destination: object;
  sendingCurrency: string;
  receivingCurrency: string;
  price: Pick<
    PricedQuote,
    'totalSendingAmount' | 'totalReceivingAmount' | 'convertedAmount' | 'feesIncluded' | 'counterpartyFixedFee' | 'exchangeRate' | 'rateDetails'
  >;
  description: string | null;
  counterpartyInformation: Record<string, string>;
  /** The memo reference (a JIT quote names it in its instructions first); a new one otherwise. */
  reference?: string;
  paymentInstructions?: unknown[];
}

export function newPaymentRow(p: NewPayment): TransactionRow {
  return {
    id: p.id ?? newId('Transaction'),
    platform_id: p.scope.platformId,
    environment: p.scope.environment,
    type: p.type,
    kind: p.kind,
    funding: p.funding,
    status: 'PENDING',
    quote_id: p.quoteId ?? null,
    customer_id: p.customer.id,
    platform_customer_id: p.customer.platformCustomerId,
    internal_account_id: p.internalAccountId,
    external_account_id: p.externalAccountId,
    source: JSON.stringify(p.source),
    destination: JSON.stringify(p.destination),
    sending_currency: p.sendingCurrency,
    sent_amount: p.price.totalSendingAmount,
    receiving_currency: p.receivingCurrency,
    received_amount: p.price.totalReceivingAmount,
    converted_amount: p.price.convertedAmount,
    fees: p.price.feesIncluded,
    counterparty_fee: p.price.counterpartyFixedFee,
    exchange_rate: p.price.exchangeRate,
    rate_details: p.price.rateDetails ? JSON.stringify(p.price.rateDetails) : null,
    description: p.description,
    counterparty_information: JSON.stringify(p.counterpartyInformation),
    reference: p.reference ?? newFundingReference(),
    payment_instructions: JSON.stringify(p.paymentInstructions ?? []),
    failure_reason: null,
    failure_detail: null,
    refund: null,
    pending_transfer_ids: null,
    settled_at: null,
    created_at: p.now,
    updated_at: p.now,
  };
}

/** A same-currency payout from an internal account to an external account: a transfer-out, or a UMA payment forwarded to its deposit account. */
export function payoutRow(p: {
  scope: Scope;
  now: string;
  kind: 'TRANSFER_OUT' | 'UMA_DEPOSIT';
  from: { accountId: string; customerId: string | null; platformCustomerId: string | null };
  to: ExternalAccountRow;
  price: PricedQuote;
  description: string | null;
}): TransactionRow {
  const currency = p.to.currency;
  return newPaymentRow({
    scope: p.scope,
    now: p.now,
    type: 'OUTGOING',
    kind: p.kind,
    funding: 'INTERNAL',
    customer: { id: p.from.customerId, platformCustomerId: p.from.platformCustomerId },
    internalAccountId: p.from.accountId,
    externalAccountId: p.to.id,
    source: { sourceType: 'ACCOUNT', accountId: p.from.accountId, customerId: p.from.customerId, currency },
    destination: { destinationType: 'ACCOUNT', accountId: p.to.id, currency, paymentRail: paymentRailOf(p.to) },
    sendingCurrency: currency,
    receivingCurrency: currency,
    price: { ...p.price, exchangeRate: '1', rateDetails: undefined },
    description: p.description,
    counterpartyInformation: counterpartyInformation(p.to),
  });
}
