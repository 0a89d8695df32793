import type { Clock } from '../../common/clock.js';
import { CURRENCY_CODES } from '../../common/currencies.js';
import { paginate, type Cursors, type PageRequest } from '../../common/pagination.js';
import type { Scope } from '../../common/scope.js';
import type { Database, Executor } from '../../db/database.js';
import { fromDbBool, toNumber } from '../../db/values.js';
import { sandboxFundingLegs, type Ledger } from '../../ledger/index.js';
import { customerErrors } from '../customers/errors.js';
import { internalAccountErrors } from './errors.js';
import { internalAccountRepository as repo, PLATFORM_OWNER, type InternalAccountFilters, type InternalAccountWithBalance } from './repository.js';
import { openInternalAccount } from './sync.js';
import type { CollectionAccounts } from './instructions.js';
import { internalAccountView } from './view.js';

export interface InternalAccountServiceDeps {
  db: Database;
  clock: Clock;
  cursors: Cursors;
  ledger: Ledger;
  /** PRODUCTION: the operator's collection accounts, shown in fundingPaymentInstructions. */
  collections?: CollectionAccounts;
}

export function createInternalAccountService(deps: InternalAccountServiceDeps) {
  const { db, clock, ledger, collections } = deps;

  /** The account with its balance, or 404 (another platform's or environment's ids do not exist). */
  async function find(scope: Scope, id: string): Promise<InternalAccountWithBalance> {
    return found(id, await repo.find(db, scope, id));
  }

  function found<R>(id: string, row: R | undefined): R {
    if (!row) throw internalAccountErrors.INTERNAL_ACCOUNT_NOT_FOUND({ accountId: id });
    return row;
  }

  /**
   * The platform holds one internal account per supported currency, opened on first need. The
   * platform's configuration row is locked meanwhile so concurrent first uses open each once.
   */
  async function ensurePlatformAccounts(scope: Scope): Promise<void> {
    const have = await repo.ofOwner(db.executor(), scope, PLATFORM_OWNER);
    if (have.length >= CURRENCY_CODES.length) return;
    await db.tx(async (trx) => {
      await db.lockRow('platform_configs', { platform_id: scope.platformId, environment: scope.environment });
      const present = new Set((await repo.ofOwner(trx, scope, PLATFORM_OWNER)).map((a) => a.currency));
      const now = clock.now().toISOString();
      for (const code of CURRENCY_CODES) if (!present.has(code)) await openInternalAccount(db, scope, { customerId: null }, code, now);
    });
  }

  function list(scope: Scope, filters: InternalAccountFilters, page: PageRequest) {
    const ex = db.executor();
    return paginate({
      cursors: deps.cursors,
      request: page,
      scope: `internal-accounts|${scope.platformId}|${scope.environment}|${JSON.stringify(filters)}`,
      fetch: (after, n) => {
        let q = repo
          .filtered(ex, scope, filters)
          .selectAll('ia')
          .select(['la.debits_pending', 'la.debits_posted', 'la.credits_pending', 'la.credits_posted', 'la.updated_at as ledger_updated_at']);
        if (after) q = q.where('ia.id', '<', after);
        return q.orderBy('ia.id', 'desc').limit(n).execute();
      },
      count: async () =>
        toNumber(
          (
            await repo
              .filtered(ex, scope, filters)
              .select((eb) => eb.fn.countAll().as('n'))
              .executeTakeFirstOrThrow()
          ).n as bigint,
        ),
      view: (row: InternalAccountWithBalance) => internalAccountView(row, scope.environment, collections),
    });
  }

  return {
    ensurePlatformAccounts,

    async get(scope: Scope, id: string) {
      return internalAccountView(await find(scope, id), scope.environment, collections);
    },

    /** The row (for other services, e.g. quotes checking a source account), or 404. */
    find,

    /** As find, with what a payment checks on the account's owner. */
    async findWithOwner(scope: Scope, id: string) {
      return found(id, await repo.findWithOwner(db, scope, id));
    },

    /** The id of the platform's internal account in a currency. */
    async platformAccountId(scope: Scope, currency: string): Promise<string> {
      await ensurePlatformAccounts(scope);
      const row = (await repo.ofOwner(db.executor(), scope, PLATFORM_OWNER)).find((a) => a.currency === currency);
      if (!row) throw new Error(`no platform account in ${currency}`);
      return row.id;
    },

    listOfCustomers(scope: Scope, filters: { currency?: string; customerId?: string }, page: PageRequest) {
      return list(scope, { ...filters, ofCustomers: true }, page);
    },

    async listOfPlatform(scope: Scope, filters: { currency?: string }, page: PageRequest) {
      await ensurePlatformAccounts(scope);
      return list(scope, { ...filters, ofCustomers: false }, page);
    },

    /** Sandbox money: a FUNDING transfer from the SANDBOX_FUNDING system account. */
    async fund(scope: Scope, id: string, amount: bigint) {
      return db.tx(async (trx) => {
        const account = await find(scope, id);
        if (account.customer_id) {
          const customer = await trx.selectFrom('customers').select('is_deleted').where('id', '=', account.customer_id).executeTakeFirstOrThrow();
          if (fromDbBool(customer.is_deleted)) throw customerErrors.CUSTOMER_DELETED({ customerId: account.customer_id });
        }
        const transfers = await sandboxFundingLegs(ledger, scope, { accountId: id, currency: account.currency, amount });
        await ledger.transfer(scope, { businessId: id, description: 'sandbox funding', transfers });
        // Read again after the ledger update holds the account's lock: a PATCH that removed the
        // currency meanwhile has committed by now, and this sees it.
        const after = await find(scope, id);
        if (!fromDbBool(after.is_active)) throw internalAccountErrors.INTERNAL_ACCOUNT_INACTIVE({ accountId: id, currency: account.currency });
        return internalAccountView(after, scope.environment, collections);
      });
    },
  };
}

export type InternalAccountService = ReturnType<typeof createInternalAccountService>;
