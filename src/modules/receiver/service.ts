/**
 * Receiver lookups (GET /receiver/uma/{address}, GET /receiver/external-account/{id}): what the
 * receiver accepts, at indicative rates, and the payer data a quote must carry. Each lookup is
 * stored with its expiry; a quote to a UMA address names it as lookupId (checkLookup).
 */
import type { Clock } from '../../common/clock.js';
import { invalidField, invalidInput } from '../../common/errors.js';
import { newId } from '../../common/ids.js';
import { div, ONE, toSignificant } from '../../common/money.js';
import type { Scope } from '../../common/scope.js';
import type { Database, Executor } from '../../db/database.js';
import { RatesUnavailableError } from '../../fx/rates.js';
import { requiredPayerDataFields } from '../config/incoming.js';
import { currencySetting } from '../config/settings.js';
import { customerErrors } from '../customers/errors.js';
import { decodeCurrencies, type CustomerRow } from '../customers/repository.js';
import type { CustomerService } from '../customers/service.js';
import type { ExternalAccountService } from '../external-accounts/service.js';
import { fromDbBool } from '../../db/values.js';
import { readConfig } from '../platforms/config-cache.js';
import type { Fx } from '../quotes/pricing.js';
import { missingKeys, missingUserInfo, receiverErrors } from './errors.js';
import { lookupRepository as repo, type LookupRow, type StoredCurrency } from './repository.js';
import type { ReceivingCurrency, Resolver } from './resolver.js';
import type { LookupOptions, LookupView } from './schemas.js';
import { lookupView } from './view.js';
import { payerDataOf } from './payer.js';

/** "A lookup expires after a few minutes": as long as a quote lives. */
export const LOOKUP_TTL_MS = 5 * 60_000;
export const DEFAULT_LOOKUP_SENDING_CURRENCY = 'USD';

export interface ReceiverServiceDeps {
  db: Database;
  clock: Clock;
  fx: Fx;
  resolver: Resolver;
  externalAccounts: ExternalAccountService;
  customers: Pick<CustomerService, 'getLive'>;
}

/** What a quote names as its receiver, checked against its lookup. */
export type LookupTarget = { umaAddress: string } | { accountId: string };

export function createReceiverService(deps: ReceiverServiceDeps) {
  const { db, clock, fx, resolver } = deps;

  /** Indicative rate of each receiving currency: sending units per receiving unit, 12 digits. */
  async function indicativeRates(scope: Scope, sending: string, codes: string[]) {
    const out = new Map<string, number | null>();
    for (const code of codes) {
      if (code === sending) {
        out.set(code, 1);
        continue;
      }
      try {
        const rate = await fx.rates(scope.environment).getRate(sending, code);
        out.set(code, Number(toSignificant(div(ONE, rate.rate), 12)));
      } catch (e) {
        if (!(e instanceof RatesUnavailableError)) throw e;
        out.set(code, null);
      }
    }
    return out;
  }

  async function store(
    scope: Scope,
    fields: Pick<
      LookupRow,
      'kind' | 'uma_address' | 'external_account_id' | 'receiver_platform_id' | 'receiver_customer_id' | 'required_payer_data_fields' | 'payer_customer_id'
    >,
    currencies: ReceivingCurrency[],
    sending: string,
    persist?: (trx: Executor, lookupId: string) => Promise<unknown>,
  ): Promise<LookupView> {
    const now = clock.now();
    const stored: StoredCurrency[] = currencies.map((c) => ({
      code: c.code,
      minAmount: c.minAmount === null ? null : Number(c.minAmount),
      maxAmount: c.maxAmount === null ? null : Number(c.maxAmount),
    }));
    const row: LookupRow = {
      id: newId('Lookup'),
      platform_id: scope.platformId,
      environment: scope.environment,
      ...fields,
      sending_currency: sending,
      supported_currencies: JSON.stringify(stored),
      expires_at: new Date(now.getTime() + LOOKUP_TTL_MS).toISOString(),
      created_at: now.toISOString(),
    };
    const rates = await indicativeRates(
      scope,
      sending,
      currencies.map((c) => c.code),
    );
    await db.tx(async (trx) => {
      await repo.insert(trx, row);
      await persist?.(trx, row.id);
    });
    return lookupView(row, rates);
  }

  /**
   * The paying customer a lookup names (customerId, senderUmaAddress or both, naming the same
   * customer), of the caller's scope and not deleted, and the currency the rates are priced from:
   * sendingCurrency when given (one of the payer's currencies), else the payer's first currency.
   */
  async function payerOf(scope: Scope, opts: LookupOptions): Promise<{ payer?: CustomerRow; sending: string }> {
    const ex = db.executor();
    const byId = opts.customerId === undefined ? undefined : await deps.customers.getLive(scope, opts.customerId);
    let byAddress: CustomerRow | undefined;
    if (opts.senderUmaAddress !== undefined) {
      byAddress = await ex
        .selectFrom('customers')
        .selectAll()
        .where('platform_id', '=', scope.platformId)
        .where('environment', '=', scope.environment)
        .where('uma_address', '=', opts.senderUmaAddress.toLowerCase())
        .executeTakeFirst();
      // Another platform's customer does not exist for this caller (rule 4); a deleted one is gone.
      if (!byAddress)
        throw customerErrors.CUSTOMER_NOT_FOUND({ senderUmaAddress: opts.senderUmaAddress }, 'No customer of this platform has this senderUmaAddress');
      if (fromDbBool(byAddress.is_deleted)) throw customerErrors.CUSTOMER_DELETED({ customerId: byAddress.id });
      if (byId && byId.id !== byAddress.id)
        throw invalidInput([{ field: 'senderUmaAddress', in: 'query', message: 'is the UMA address of another customer than customerId' }]);
    }
    const payer = byId ?? byAddress;
    if (!payer) return { sending: opts.sendingCurrency ?? DEFAULT_LOOKUP_SENDING_CURRENCY };
    const held = decodeCurrencies(payer.currencies);
    if (opts.sendingCurrency !== undefined && !held.includes(opts.sendingCurrency)) {
      throw invalidInput([{ field: 'sendingCurrency', in: 'query', message: `is not a currency of the paying customer (${held.join(', ')})` }]);
    }
    return { payer, sending: opts.sendingCurrency ?? held[0] ?? DEFAULT_LOOKUP_SENDING_CURRENCY };
  }

  /**
   * The stored facts of the lookup's paying customer that the receiver requires, and no others
   * (UMA shares what the counterparties must exchange); none when it named no payer or it is gone.
   */
  async function payerInfo(ex: Executor, row: LookupRow): Promise<Record<string, string>> {
    if (!row.payer_customer_id) return {};
    const customer = await ex.selectFrom('customers').selectAll().where('id', '=', row.payer_customer_id).executeTakeFirst();
    if (!customer || fromDbBool(customer.is_deleted)) return {};
    const facts: Record<string, string> = payerDataOf(customer);
    const required = JSON.parse(row.required_payer_data_fields) as string[];
    return Object.fromEntries(required.filter((k) => facts[k] !== undefined).map((k) => [k, facts[k]]));
  }

  return {
    resolver,

    async lookupUma(scope: Scope, address: string, opts: LookupOptions): Promise<LookupView> {
      const { payer, sending } = await payerOf(scope, opts);
      const normalised = address.toLowerCase();
      const receiver = await resolver.resolve(db.executor(), scope.environment, normalised, scope);
      return store(
        scope,
        {
          kind: 'UMA',
          uma_address: normalised,
          external_account_id: null,
          receiver_platform_id: receiver.hosted?.scope.platformId ?? null,
          receiver_customer_id: receiver.hosted?.customer.id ?? null,
          required_payer_data_fields: JSON.stringify(receiver.requiredPayerDataFields),
          payer_customer_id: payer?.id ?? null,
        },
        receiver.currencies,
        sending,
        receiver.persist,
      );
    },

    async lookupExternalAccount(scope: Scope, accountId: string, opts: LookupOptions): Promise<LookupView> {
      const { payer, sending } = await payerOf(scope, opts);
      const account = await deps.externalAccounts.find(scope, accountId);
      if (account.status !== 'ACTIVE')
        throw invalidInput([{ field: 'accountId', in: 'path', message: `is ${account.status}; only ACTIVE external accounts receive payments` }]);
      const config = await readConfig(db, scope);
      const setting = currencySetting(config, account.currency);
      const currencies = setting.enabled ? [{ code: account.currency, minAmount: setting.minAmount, maxAmount: setting.maxAmount }] : [];
      return store(
        scope,
        {
          kind: 'EXTERNAL_ACCOUNT',
          uma_address: null,
          external_account_id: account.id,
          receiver_platform_id: scope.platformId,
          receiver_customer_id: account.customer_id,
          required_payer_data_fields: JSON.stringify(requiredPayerDataFields(config)),
          payer_customer_id: payer?.id ?? null,
        },
        currencies,
        sending,
      );
    },

    /**
     * The lookup a quote names: of this scope (404), unexpired (400 LOOKUP_EXPIRED), of the same
     * receiver, accepting the currency, and every required payer field present in
     * senderCustomerInfo (400 MISSING_MANDATORY_USER_INFO).
     */
    async checkLookup(
      ex: Executor,
      scope: Scope,
      lookupId: string,
      target: LookupTarget,
      currency: string,
      senderCustomerInfo: Record<string, unknown> | undefined,
    ): Promise<LookupRow> {
      const row = await repo.find(ex, scope, lookupId);
      if (!row) throw receiverErrors.LOOKUP_NOT_FOUND({ lookupId });
      if (clock.now().toISOString() >= row.expires_at) throw receiverErrors.LOOKUP_EXPIRED({ lookupId, expiresAt: row.expires_at });
      const matches = 'umaAddress' in target ? row.uma_address === target.umaAddress.toLowerCase() : row.external_account_id === target.accountId;
      if (!matches)
        throw invalidField('lookupId', `is a lookup of another receiver; look up ${'umaAddress' in target ? target.umaAddress : target.accountId} first`);
      const accepted = (JSON.parse(row.supported_currencies) as StoredCurrency[]).map((c) => c.code);
      if (!accepted.includes(currency)) {
        throw invalidField(
          'destination.currency',
          accepted.length ? `is not accepted by the receiver; it accepts ${accepted.join(', ')}` : 'cannot be paid: the receiver accepts no currency now',
        );
      }
      const given = { ...(await payerInfo(ex, row)), ...senderCustomerInfo };
      const missing = missingKeys(JSON.parse(row.required_payer_data_fields) as string[], given);
      if (missing.length) throw missingUserInfo('senderCustomerInfo', missing);
      return row;
    },

    /**
     * The payer data a payment against this lookup carries: the paying customer's stored facts
     * (when the lookup named one), overridden by the quote's senderCustomerInfo.
     */
    async payerDataFor(ex: Executor, scope: Scope, lookupId: string | null, senderCustomerInfo: Record<string, unknown>): Promise<Record<string, unknown>> {
      const row = lookupId ? await repo.find(ex, scope, lookupId) : undefined;
      return { ...(row ? await payerInfo(ex, row) : {}), ...senderCustomerInfo };
    },
  };
}

export type ReceiverService = ReturnType<typeof createReceiverService>;
