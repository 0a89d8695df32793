/**
 * Quotes that pay a UMA address (destinationType UMA_ADDRESS) and, with a lookupId, quotes to an
 * external account: the checks against the receiver lookup, and the execution of a UMA payment.
 * Executing reserves the sender's funds (PENDING → PROCESSING through the lifecycle, the same
 * ledger legs as a payout: the money leaves the sender's books through PAYOUTS_IN_FLIGHT) and
 * delivers the payment to the receiver. Receivers hosted here get an INCOMING transaction at
 * once (arrival.ts); the sender's transaction follows its outcome. A receiver hosted by another
 * UMA provider is paid over the wire (src/modules/uma, paying.ts and settling.ts): its pay request is sent while
 * the quote is made, and its invoice settled by a job after the execution commits. A payment to
 * another provider never takes the local path, and a local one never goes on the wire.
 */
import { ApiError, invalidField } from '../../common/errors.js';
import type { Scope } from '../../common/scope.js';
import type { Executor } from '../../db/database.js';
import type { ExternalAccountRow } from '../external-accounts/repository.js';
import type { QuoteRow } from '../quotes/repository.js';
import type { QuoteCreate } from '../quotes/schemas.js';
import type { StoredCurrency } from '../receiver/repository.js';
import { requiredPayerDataFields } from '../config/incoming.js';
import { missingKeys } from '../receiver/errors.js';
import { findHosted, receivingCurrencies } from '../receiver/resolver.js';
import type { ReceiverService } from '../receiver/service.js';
import { paymentRuleErrors } from '../transactions/errors.js';
import type { Lifecycle } from '../transactions/lifecycle.js';
import { transactionRepository, type TransactionRow } from '../transactions/repository.js';
import type { TransactionView } from '../transactions/schemas.js';
import type { Arrivals } from './arrival.js';
import type { Agreement, AgreementInput } from '../uma/paying.js';
import type { RemotePayments } from '../uma/index.js';
import { incomingRepository } from './repository.js';

/** Where a quote's money goes, as the quote service stores it. */
export interface QuoteDestination {
  currency: string;
  /** '' for a UMA address (no external account takes part) */
  externalAccountId: string;
  view: TransactionView['destination'];
  counterpartyInformation: Record<string, string>;
  /** Refuses an amount the receiver does not accept (its lookup's limits). */
  checkReceivedAmount(amount: bigint): void;
  /** A receiver at another UMA provider: its pay request, made once the quote is priced (paying.ts). */
  agree?: (input: Pick<AgreementInput, 'price' | 'reprice' | 'expiresAt' | 'now'>) => Promise<Agreement>;
}

/** What a quote's destination needs of its source: who pays, and how. */
export interface QuoteSource {
  funding: string;
  customerId: string | null;
}

export const isUmaPayment = (tx: Pick<TransactionRow, 'destination'>) =>
  (JSON.parse(tx.destination) as { destinationType?: string }).destinationType === 'UMA_ADDRESS';

export function createUmaPayments(deps: {
  receiver: ReceiverService;
  arrivals: Arrivals;
  lifecycle: Lifecycle;
  /** a getter: UMA on the wire is assembled after the payments */
  remote: () => RemotePayments;
}) {
  const { receiver, lifecycle } = deps;

  function limitsCheck(currencies: string, currency: string) {
    const c = (JSON.parse(currencies) as StoredCurrency[]).find((x) => x.code === currency);
    return (amount: bigint) => {
      if (!c || ((c.minAmount === null || amount >= BigInt(c.minAmount)) && (c.maxAmount === null || amount <= BigInt(c.maxAmount)))) return;
      throw paymentRuleErrors.AMOUNT_OUTSIDE_LIMITS(
        { currency, field: 'lockedCurrencyAmount', amount: Number(amount), minAmount: c.minAmount, maxAmount: c.maxAmount, receiver: true },
        "The amount received is outside the receiver's minimum or maximum for this currency (see the lookup's supportedCurrencies)",
      );
    };
  }

  /**
   * A lookup that named a paying customer prices and fills payer data for that customer: a quote
   * paid by anyone else must look the receiver up again.
   */
  async function checkPayer(ex: Executor, scope: Scope, input: QuoteCreate, lookup: { payer_customer_id?: string | null }) {
    if (!lookup.payer_customer_id) return;
    const id = input.source.accountId;
    const table = id?.startsWith('ExternalAccount:') ? 'external_accounts' : 'internal_accounts';
    const owner = id
      ? (
          await ex
            .selectFrom(table)
            .select('customer_id')
            .where('id', '=', id)
            .where('platform_id', '=', scope.platformId)
            .where('environment', '=', scope.environment)
            .executeTakeFirst()
        )?.customer_id
      : input.source.customerId;
    if (owner !== lookup.payer_customer_id)
      throw invalidField('lookupId', "names another paying customer than this quote's source; look the receiver up with the customer who pays");
  }

  return {
    /** The UMA_ADDRESS destination of a new quote, checked against its lookup. */
    async destination(ex: Executor, scope: Scope, input: QuoteCreate, source: QuoteSource): Promise<QuoteDestination> {
      const d = input.destination;
      if (d.accountId !== undefined) throw invalidField('destination.accountId', 'is not used with UMA_ADDRESS; give umaAddress');
      if (d.umaAddress === undefined) throw invalidField('destination.umaAddress', 'is required when destinationType is UMA_ADDRESS');
      if (source.funding === 'REALTIME')
        throw invalidField('source.sourceType', 'REALTIME_FUNDING cannot pay a UMA address; pay from an internal account or a pullable external account');
      if (input.lookupId === undefined)
        throw invalidField('lookupId', 'is required to pay a UMA address: look the receiver up first (GET /receiver/uma/{receiverUmaAddress})');
      if (d.currency === undefined)
        throw invalidField('destination.currency', "is required when destinationType is UMA_ADDRESS: one of the lookup's supportedCurrencies");
      const address = d.umaAddress.toLowerCase();
      const lookup = await receiver.checkLookup(ex, scope, input.lookupId, { umaAddress: address }, d.currency, input.senderCustomerInfo);
      await checkPayer(ex, scope, input, lookup);
      const lookupId = input.lookupId;
      const currency = d.currency;
      return {
        currency,
        externalAccountId: '',
        view: { destinationType: 'UMA_ADDRESS', umaAddress: address, currency },
        counterpartyInformation: {},
        checkReceivedAmount: limitsCheck(lookup.supported_currencies, currency),
        // Hosted elsewhere: the receiver's provider agrees to the amount and issues the invoice.
        ...(lookup.receiver_platform_id
          ? {}
          : {
              agree: async (priced: Pick<AgreementInput, 'price' | 'reprice' | 'expiresAt' | 'now'>) =>
                deps.remote().agree(scope, {
                  ...priced,
                  lookupId,
                  address,
                  currency,
                  payer: {
                    customerId: source.customerId,
                    info: await receiver.payerDataFor(ex, scope, lookupId, input.senderCustomerInfo ?? {}),
                  },
                }),
            }),
      };
    },

    /** A quote to an external account that names a lookup: the same checks against it. */
    async checkAccountLookup(ex: Executor, scope: Scope, input: QuoteCreate, account: ExternalAccountRow) {
      if (input.lookupId === undefined) return () => undefined;
      const lookup = await receiver.checkLookup(ex, scope, input.lookupId, { accountId: account.id }, account.currency, input.senderCustomerInfo);
      await checkPayer(ex, scope, input, lookup);
      return limitsCheck(lookup.supported_currencies, account.currency);
    },

    isUmaPayment,

    /**
     * Executes a UMA quote in the caller's transaction: reserve, deliver, follow. Undefined when
     * the transaction was no longer PENDING (a concurrent request won).
     */
    async initiate(trx: Executor, scope: Scope, quote: QuoteRow, tx: TransactionRow, cause: string): Promise<TransactionRow | undefined> {
      if (await deps.remote().isRemote(trx, tx.id)) return deps.remote().dispatch(trx, scope, tx, cause);
      // The receiver's side reads this transaction back to complete or refund it: the lifecycle saves the reservation with it.
      const started = await lifecycle.startProcessing(tx, cause, null);
      if (!started) return undefined;
      const address = (JSON.parse(tx.destination) as { umaAddress: string }).umaAddress;
      const fail = (why: string) => lifecycle.fail(started, 'PAY_REQUEST_FAILED', 'COMPLETED', `the UMA payment could not be delivered: ${why}`);
      let hosted;
      try {
        hosted = await findHosted(trx, scope.environment, address);
      } catch (e) {
        if (e instanceof ApiError) return fail(`${address} no longer exists`);
        throw e;
      }
      if (!hosted) return fail(`${address} is not hosted by this Corridor`);
      // The receiver's terms now, not the lookup's: its platform may have changed them since.
      const terms = receivingCurrencies(hosted.customer, hosted.config).find((c) => c.code === tx.receiving_currency);
      if (!terms) return fail(`the receiver no longer accepts ${tx.receiving_currency}`);
      const received = BigInt(tx.received_amount);
      if ((terms.minAmount !== null && received < terms.minAmount) || (terms.maxAmount !== null && received > terms.maxAmount)) {
        return fail(`${received} ${tx.receiving_currency} is outside the receiver's limits now`);
      }
      // The quote's payer data, completed from the paying customer its lookup named.
      const senderInfo = await receiver.payerDataFor(trx, scope, quote.lookup_id, quote.sender_customer_info ? JSON.parse(quote.sender_customer_info) : {});
      const missing = missingKeys(requiredPayerDataFields(hosted.config), senderInfo);
      if (missing.length) return fail(`the receiver now requires payer data the quote lacks: ${missing.join(', ')}`);
      const receiverScope: Scope = { platformId: hosted.config.platform_id, environment: scope.environment };
      const account = await incomingRepository.receivingAccount(trx, receiverScope, hosted.customer.id, tx.receiving_currency);
      if (!account) return fail(`the receiver no longer accepts ${tx.receiving_currency}`);
      const sender = tx.customer_id ? await trx.selectFrom('customers').select('uma_address').where('id', '=', tx.customer_id).executeTakeFirst() : undefined;
      await deps.arrivals.arrive(trx, {
        origin: 'LOCAL',
        receiver: { scope: receiverScope, customer: hosted.customer, config: hosted.config, address, internalAccountId: account.id },
        currency: tx.receiving_currency,
        receivedAmount: BigInt(tx.received_amount),
        counterpartyFee: BigInt(tx.counterparty_fee),
        sender: {
          umaAddress: sender?.uma_address ?? null,
          info: senderInfo,
          currency: tx.sending_currency,
          sentAmount: BigInt(tx.sent_amount),
          convertedAmount: BigInt(tx.converted_amount),
          exchangeRate: tx.exchange_rate,
          platformId: scope.platformId,
          transactionId: tx.id,
        },
        description: tx.description,
      });
      return transactionRepository.find(trx, scope, tx.id);
    },
  };
}

export type UmaPayments = ReturnType<typeof createUmaPayments>;
