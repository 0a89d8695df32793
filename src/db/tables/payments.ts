/** Row types: transactions, quotes, their history, receiver lookups, incoming payments (conventions in db/schema.ts). */
/** A payment: created by a quote (OUTGOING) or a transfer (OUTGOING transfer-out, INCOMING transfer-in). */
export interface TransactionsTable {
  id: string;
  platform_id: string;
  environment: string;
  /** OUTGOING | INCOMING */
  type: string;
  /** QUOTE | TRANSFER_OUT | TRANSFER_IN | UMA_RECEIVE (an incoming UMA payment) | UMA_DEPOSIT (its payout to the default UMA deposit account) */
  kind: string;
  /** where the money comes from: INTERNAL (an internal account), PULL (a pullable external account), REALTIME (a JIT payment), UMA (a UMA payment received) */
  funding: string;
  status: string;
  quote_id: string | null;
  customer_id: string | null;
  platform_customer_id: string | null;
  /** the internal account debited (OUTGOING, INTERNAL funding) or credited (INCOMING) */
  internal_account_id: string | null;
  /** the external account paid (OUTGOING) or pulled from (INCOMING); '' when none takes part (a payment to or from a UMA address) */
  external_account_id: string;
  /** the Source and Destination objects as JSON */
  source: string;
  destination: string;
  sending_currency: string;
  sent_amount: bigint;
  receiving_currency: string;
  received_amount: bigint;
  /** sent_amount − fees: what is converted */
  converted_amount: bigint;
  fees: bigint;
  /** receiving minor units kept by the paying counterparty, already out of received_amount */
  counterparty_fee: bigint;
  /** exact decimal text, sending units per receiving unit */
  exchange_rate: string;
  rate_details: string | null;
  description: string | null;
  counterparty_information: string;
  /** unique per scope: the memo reference of a JIT payment and of reconciliation */
  reference: string;
  payment_instructions: string;
  failure_reason: string | null;
  /** JSON {code, description?, source}: the bank's own code behind failure_reason (bank rails) */
  failure_detail: string | null;
  refund: string | null;
  /** JSON ids of the ledger transfers reserved at execution, posted or voided once */
  pending_transfer_ids: string | null;
  settled_at: string | null;
  created_at: string;
  updated_at: string;
}

/** A quote: the locked price of a transaction (the amounts live on the transaction row). */
export interface QuotesTable {
  id: string;
  platform_id: string;
  environment: string;
  transaction_id: string;
  customer_id: string | null;
  funding: string;
  locked_side: string;
  locked_amount: bigint;
  purpose_of_payment: string | null;
  sender_customer_info: string | null;
  lookup_id: string | null;
  expires_at: string;
  created_at: string;
}

/** One status change of a transaction, with its time and cause (rule 2). */
export interface TransactionHistoryTable {
  id: string;
  platform_id: string;
  environment: string;
  transaction_id: string;
  from_status: string | null;
  to_status: string;
  cause: string;
  created_at: string;
}

/** A receiver lookup (GET /receiver/...): what the receiver accepts, valid until expires_at. */
export interface ReceiverLookupsTable {
  id: string;
  platform_id: string;
  environment: string;
  /** UMA | EXTERNAL_ACCOUNT */
  kind: string;
  uma_address: string | null;
  external_account_id: string | null;
  /** the receiver when hosted by this Corridor (possibly another platform); never shown to the caller */
  receiver_platform_id: string | null;
  receiver_customer_id: string | null;
  sending_currency: string;
  /** JSON [{code, minAmount, maxAmount}] (receiving minor units; null: no limit) */
  supported_currencies: string;
  /** JSON ["FULL_NAME", ...] */
  required_payer_data_fields: string;
  /** the paying customer the lookup named (customerId / senderUmaAddress); null: none (migration 200) */
  payer_customer_id?: string | null;
  expires_at: string;
  created_at: string;
}

/** What an INCOMING transaction of a UMA payment needs beyond its transactions row. */
export interface IncomingPaymentsTable {
  /** the receiver's INCOMING transaction */
  transaction_id: string;
  platform_id: string;
  environment: string;
  /** LOCAL (a UMA payment of a platform hosted here) | SANDBOX (POST /sandbox/uma/receive) */
  origin: string;
  receiver_uma_address: string;
  sender_uma_address: string | null;
  /** the sender's platform and OUTGOING transaction when the sender is hosted here */
  sender_platform_id: string | null;
  sender_transaction_id: string | null;
  approval_required: number | bigint;
  /** JSON ["FULL_NAME", ...]: requestedReceiverCustomerInfoFields of the approval webhook */
  requested_fields: string;
  approval_deadline: string | null;
  /** the webhook delivery of the approval request (PAYMENT_APPROVAL_WEBHOOK_ERROR when it never arrived) */
  approval_delivery_id: string | null;
  receiver_customer_info: string | null;
  rejection_reason: string | null;
  /** the customer's default UMA deposit account the funds were paid out to, and that payout's transaction */
  deposit_account_id: string | null;
  deposit_transaction_id: string | null;
  created_at: string;
  updated_at: string;
}
