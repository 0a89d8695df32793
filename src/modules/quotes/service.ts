import { requireVerified } from '../customers/rules.js';
import type { Clock } from '../../common/clock.js';
import { invalidField } from '../../common/errors.js';
import { newId } from '../../common/ids.js';
import { paginate, type Cursors, type PageRequest } from '../../common/pagination.js';
import type { Scope } from '../../common/scope.js';
import type { Database, Executor } from '../../db/database.js';
import { toNumber } from '../../db/values.js';
import { currency as currencyInfo } from '../../common/currencies.js';
import { externalAccountRepository, type ExternalAccountRow } from '../external-accounts/repository.js';
import { fundingInstructions, newFundingReference, type CollectionAccounts } from '../internal-accounts/instructions.js';
import type { PaymentEngine } from '../transactions/engine.js';
import type { Store } from '../transactions/lifecycle.js';
import type { TransactionRow } from '../transactions/repository.js';
import { transactionRepository } from '../transactions/repository.js';
import { newPaymentRow } from '../transactions/row.js';
import { checkCurrencyLimits, counterpartyInformation, paymentRailOf, usableExternalAccount, type AccountDeps } from '../transactions/rules.js';
import type { QuoteDestination, UmaPayments } from '../incoming/uma.js';
import { quoteErrors } from './errors.js';
import { priceWithRates, type Fx } from './pricing.js';
import { quoteRepository as repo, type QuoteFilters, type QuoteRow, type QuoteWithTransaction } from './repository.js';
import type { QuoteCreate, QuoteView } from './schemas.js';
import { resolveSource } from './sources.js';
import { quoteView, transactionStatusesOf } from './view.js';

/** Quote lifetimes: 5 minutes, 15 for a JIT quote funded by a bank payment (it takes longer to send). */
export const QUOTE_TTL_MS = 5 * 60_000;
export const JIT_BANK_QUOTE_TTL_MS = 15 * 60_000;

export interface QuoteServiceDeps extends AccountDeps {
  db: Database;
  clock: Clock;
  cursors: Cursors;
  fx: Fx;
  engine: PaymentEngine;
  /** UMA destinations and receiver lookups (src/modules/incoming/uma.ts); a getter, since it is built after the payments. */
  uma: () => UmaPayments;
  /** PRODUCTION: the operator's collection accounts, where a REALTIME_FUNDING quote is paid. */
  collections?: CollectionAccounts;
}

export function createQuoteService(deps: QuoteServiceDeps) {
  const { db, clock, engine } = deps;

  async function load(ex: Executor, scope: Scope, id: string): Promise<QuoteWithTransaction> {
    const found = await repo.find(ex, scope, id);
    if (!found) throw quoteErrors.QUOTE_NOT_FOUND({ quoteId: id });
    return found;
  }

  /**
   * The accounts of a quote paying an external account, checked again when its money moves
   * (execute, or a JIT payment arriving) as they were when it was created: an external account
   * deactivated since (400 QUOTE_ACCOUNT_INACTIVE) or a customer deleted since (410
   * CUSTOMER_DELETED), or in PRODUCTION a customer not APPROVED (400 CUSTOMER_NOT_VERIFIED), stops the payment before anything moves; the quote stays PENDING until it
   * expires. Answers the destination account.
   */
  async function payableAccounts(trx: Executor, scope: Scope, tx: TransactionRow): Promise<ExternalAccountRow> {
    const destination = (await externalAccountRepository.find(db, scope, tx.external_account_id))!;
    const external: Array<[ExternalAccountRow, string]> = [[destination, 'destination.accountId']];
    if (tx.funding === 'PULL') {
      const sourceId = (JSON.parse(tx.source) as { accountId: string }).accountId;
      external.push([(await externalAccountRepository.find(db, scope, sourceId))!, 'source.accountId']);
    }
    for (const [account, field] of external) {
      if (account.status !== 'ACTIVE') throw quoteErrors.QUOTE_ACCOUNT_INACTIVE({ quoteId: tx.quote_id, field, accountId: account.id, status: account.status });
    }
    const owners = new Set([tx.customer_id, ...external.map(([a]) => a.customer_id)].filter((id): id is string => id !== null));
    for (const id of owners) requireVerified(scope, await deps.customers.getLive(scope, id));
    return destination;
  }

  /**
   * Executes inside the caller's transaction: checks, then the payment engine. `checked`: the
   * destination account as this same request checked it (immediatelyExecute), not read again.
   * `store`: how the quote and its transaction, made in this request and not stored yet
   * (immediatelyExecute), are stored as the payment starts.
   */
  async function executeIn(trx: Executor, scope: Scope, quote: QuoteRow, tx: TransactionRow, checked?: ExternalAccountRow, store?: Store): Promise<QuoteView> {
    if (quote.funding === 'REALTIME') throw quoteErrors.QUOTE_REQUIRES_FUNDING({ quoteId: quote.id });
    if (tx.status === 'EXPIRED' || (tx.status === 'PENDING' && clock.now().toISOString() >= quote.expires_at)) {
      throw quoteErrors.QUOTE_EXPIRED({ quoteId: quote.id, expiresAt: quote.expires_at });
    }
    if (tx.status !== 'PENDING') throw quoteErrors.QUOTE_NOT_PENDING({ quoteId: quote.id, status: tx.status });
    // PRODUCTION: the payer (and the owner of an account this request checked) must be APPROVED; UMA
    // payments and immediatelyExecute skip payableAccounts, which checks the rest.
    if (scope.environment === 'PRODUCTION') {
      for (const id of new Set([tx.customer_id, checked?.customer_id ?? null].filter((c): c is string => c !== null)))
        requireVerified(scope, await deps.customers.getLive(scope, id));
    }
    const account = async () => checked ?? (await payableAccounts(trx, scope, tx));
    const done = deps.uma().isUmaPayment(tx)
      ? await deps.uma().initiate(trx, scope, quote, tx, 'quote executed')
      : store
        ? await engine.create(trx, tx, await account(), 'quote executed', store)
        : await engine.initiate(trx, tx, await account(), 'quote executed');
    if (!done) throw quoteErrors.QUOTE_NOT_PENDING({ quoteId: quote.id });
    return quoteView(quote, done);
  }

  return {
    load,
    payableAccounts,
    executeIn,

    async create(scope: Scope, input: QuoteCreate): Promise<QuoteView> {
      const ex = db.executor();
      // A destination account is read while the source is (on PostgreSQL two round trips at once);
      // its errors are still reported after the source's.
      const { accountId: destinationId, umaAddress: destinationUma } = input.destination;
      const destinationRead =
        input.destination.destinationType !== 'UMA_ADDRESS' && destinationId !== undefined && destinationUma === undefined
          ? usableExternalAccount(deps, ex, scope, destinationId, 'destination.accountId')
          : undefined;
      destinationRead?.catch(() => undefined); // awaited below, or dropped when the source fails
      const source = await resolveSource(deps, ex, scope, input.source, deps.collections);
      if (source.funding === 'PULL') engine.checkCarried(scope, { currency: source.currency, account_type: 'PULL' }, 'source.accountId', 'QUOTE_PULL');
      if (input.immediatelyExecute && source.funding === 'REALTIME') {
        throw invalidField(
          'immediatelyExecute',
          'is only for a source that is an internal account or a pullable external account; a REALTIME_FUNDING quote executes when its payment arrives',
        );
      }
      // A UMA address (src/modules/incoming/uma.ts) or an external account; both checked against a lookupId if given.
      let dest: QuoteDestination;
      let destinationAccount: ExternalAccountRow | undefined;
      if (input.destination.destinationType === 'UMA_ADDRESS') {
        dest = await deps.uma().destination(ex, scope, input, { funding: source.funding, customerId: source.customerId });
      } else {
        if (input.destination.accountId === undefined)
          throw invalidField('destination.accountId', 'is required (or give destinationType UMA_ADDRESS with umaAddress)');
        if (input.destination.umaAddress !== undefined) throw invalidField('destination.umaAddress', 'is only for destinationType UMA_ADDRESS');
        // Started above under the conditions just checked.
        const destination = await destinationRead!;
        engine.checkCarried(scope, destination, 'destination.accountId', 'PAYOUT');
        destinationAccount = destination;
        if (input.destination.currency && input.destination.currency !== destination.currency) {
          throw invalidField('destination.currency', `must be ${destination.currency}, the currency of the destination account`);
        }
        const checkReceivedAmount = await deps.uma().checkAccountLookup(ex, scope, input, destination);
        dest = {
          currency: destination.currency,
          externalAccountId: destination.id,
          view: { destinationType: 'ACCOUNT', accountId: destination.id, currency: destination.currency, paymentRail: paymentRailOf(destination) },
          counterpartyInformation: counterpartyInformation(destination),
          checkReceivedAmount,
        };
      }
      const sending = source.currency;
      const receiving = dest.currency;
      const lockedAmount = BigInt(input.lockedCurrencyAmount);
      await checkCurrencyLimits(deps.configs, scope, [
        { currency: sending, field: 'source.currency' },
        { currency: receiving, field: 'destination.currency' },
      ]);
      const priceWith = async (counterpartyFixedFee?: bigint) => {
        const p = await priceWithRates(deps.fx, scope.environment, {
          sending,
          receiving,
          lockedSide: input.lockedCurrencySide,
          lockedAmount,
          counterpartyFixedFee,
        });
        await checkCurrencyLimits(deps.configs, scope, [
          { currency: sending, amount: p.totalSendingAmount, field: 'lockedCurrencyAmount' },
          { currency: receiving, amount: p.totalReceivingAmount, field: 'lockedCurrencyAmount' },
        ]);
        dest.checkReceivedAmount(p.totalReceivingAmount);
        return p;
      };
      // A receiver at another UMA provider charges its own fee, if any, which its pay request tells.
      let price = await priceWith(dest.agree ? 0n : undefined);

      const now = clock.now();
      const quoteId = newId('Quote');
      const transactionId = newId('Transaction');
      const reference = newFundingReference();
      const jitBank = source.funding === 'REALTIME' && currencyInfo(sending).kind === 'FIAT';
      let expiresAt = new Date(now.getTime() + (jitBank ? JIT_BANK_QUOTE_TTL_MS : QUOTE_TTL_MS));
      // The pay request to another provider, before the database transaction (the network is never used inside one).
      const agreement = dest.agree ? await dest.agree({ price, reprice: priceWith, expiresAt, now }) : undefined;
      if (agreement) {
        price = agreement.price;
        expiresAt = agreement.expiresAt;
        dest = { ...dest, counterpartyInformation: { ...dest.counterpartyInformation, ...agreement.counterpartyInformation } };
      }
      const instructions =
        source.funding === 'REALTIME'
          ? fundingInstructions(
              { id: transactionId, currency: sending, funding_reference: reference, customer_id: source.customerId },
              scope.environment,
              deps.collections,
            ).map(({ isPlatformAccount: _p, ...i }) => ({
              ...i,
              instructionsNotes: `Pay exactly ${price.totalSendingAmount} (minor units of ${sending}) before ${expiresAt.toISOString()}${i.accountOrWalletInfo.reference ? `, with the reference ${reference} in the payment memo` : ' to this address'}; the quote executes when the payment arrives.${scope.environment === 'SANDBOX' ? ' Sandbox: simulate it with POST /sandbox/send.' : ''}`,
            }))
          : [];
      const tx = newPaymentRow({
        scope,
        now: now.toISOString(),
        id: transactionId,
        type: 'OUTGOING',
        kind: 'QUOTE',
        funding: source.funding,
        quoteId,
        customer: { id: source.customerId, platformCustomerId: source.platformCustomerId },
        internalAccountId: source.funding === 'INTERNAL' ? source.accountId! : null,
        externalAccountId: dest.externalAccountId,
        source: source.view,
        destination: dest.view,
        sendingCurrency: sending,
        receivingCurrency: receiving,
        price,
        description: input.description ?? null,
        counterpartyInformation: dest.counterpartyInformation,
        reference,
        paymentInstructions: instructions,
      });
      const quote: QuoteRow = {
        id: quoteId,
        platform_id: scope.platformId,
        environment: scope.environment,
        transaction_id: transactionId,
        customer_id: source.customerId,
        funding: source.funding,
        locked_side: input.lockedCurrencySide,
        locked_amount: lockedAmount,
        purpose_of_payment: input.purposeOfPayment ?? null,
        sender_customer_info: input.senderCustomerInfo ? JSON.stringify(input.senderCustomerInfo) : null,
        lookup_id: input.lookupId ?? null,
        expires_at: expiresAt.toISOString(),
        created_at: now.toISOString(),
      };
      return db.tx(async (trx) => {
        // Executed at once, the quote never waits for its expiry: it commits executed or not at
        // all. Its transaction row is stored as the payment starts (one write, not an insert and
        // an update), the quote that refers to it right after. A UMA payment's row is stored
        // first: its start goes through the UMA side.
        if (input.immediatelyExecute && destinationAccount) {
          return executeIn(trx, scope, quote, tx, destinationAccount, async (row) => {
            await transactionRepository.insert(db, row);
            await repo.insert(db, quote);
          });
        }
        await transactionRepository.insert(db, tx);
        await repo.insert(db, quote);
        await agreement?.persist(trx, { transactionId, quoteId });
        if (input.immediatelyExecute) return executeIn(trx, scope, quote, tx);
        await engine.scheduleExpiry({ quoteId, transactionId, platformId: scope.platformId, environment: scope.environment }, expiresAt);
        return quoteView(quote, tx);
      });
    },

    async get(scope: Scope, id: string): Promise<QuoteView> {
      const { quote, tx } = await load(db.executor(), scope, id);
      return quoteView(quote, tx);
    },

    /** POST /quotes/{id}/execute: prefunded or pullable quotes, once, before expiresAt. */
    async execute(scope: Scope, id: string): Promise<QuoteView> {
      return db.tx(async (trx) => {
        const { quote, tx } = await load(trx, scope, id);
        return executeIn(trx, scope, quote, tx);
      });
    },

    list(scope: Scope, filters: Omit<QuoteFilters, 'statuses'> & { status?: QuoteView['status'] }, page: PageRequest) {
      const ex = db.executor();
      const { status, ...rest } = filters;
      const f: QuoteFilters = { ...rest, ...(status ? { statuses: transactionStatusesOf(status) } : {}) };
      return paginate({
        cursors: deps.cursors,
        request: page,
        scope: `quotes|${scope.platformId}|${scope.environment}|${JSON.stringify(filters)}`,
        fetch: async (after, n) => {
          let q = repo.filtered(ex, scope, f).selectAll('q');
          if (after) q = q.where('q.id', '<', after);
          const quotes = await q.orderBy('q.id', 'desc').limit(n).execute();
          const txs = await repo.transactionsOf(ex, quotes);
          return quotes.map((quote) => ({ id: quote.id, quote, tx: txs.get(quote.transaction_id)! }));
        },
        count: async () =>
          toNumber(
            (
              await repo
                .filtered(ex, scope, f)
                .select((eb) => eb.fn.countAll().as('n'))
                .executeTakeFirstOrThrow()
            ).n as bigint,
          ),
        view: (r: QuoteWithTransaction) => quoteView(r.quote, r.tx),
      });
    },
  };
}

export type QuoteService = ReturnType<typeof createQuoteService>;
