import type { Clock } from '../../common/clock.js';
import { invalidField, invalidInput, type FieldProblem } from '../../common/errors.js';
import { newId } from '../../common/ids.js';
import { paginate, type Cursors, type PageRequest } from '../../common/pagination.js';
import type { Scope } from '../../common/scope.js';
import type { Database } from '../../db/database.js';
import { isUniqueViolation, toDbBool, toNumber } from '../../db/values.js';
import { fieldProblems, validatorCompiler } from '../../http/validation.js';
import type { CustomerService } from '../customers/service.js';
import { cryptoNetworkOfAddress } from '../../identifiers/crypto.js';
import { ACCOUNT_TYPE_ALIASES, ACCOUNT_TYPES, accountInfoSchema, canonicalAccountType } from './account-types.js';
import { externalAccountErrors } from './errors.js';
import { externalAccountRepository as repo, type ExternalAccountFilters, type ExternalAccountRow } from './repository.js';
import { checkAccountRules, normaliseAccountInfo, primaryIdentifier, type AccountInfo } from './rules.js';
import type { ExternalAccountCreate } from './schemas.js';
import { verifyBeneficiary } from './verification.js';
import { externalAccountView } from './view.js';

export interface ExternalAccountServiceDeps {
  db: Database;
  clock: Clock;
  cursors: Cursors;
  customers: CustomerService;
}

type Validate = ((data: unknown) => boolean) & { errors?: unknown[] | null };

// One compiled validator per account type, with the same Ajv (formats, messages) as request bodies.
const validators = new Map<string, Validate>(
  Object.entries(ACCOUNT_TYPES).map(([type, spec]) => [
    type,
    validatorCompiler({ schema: accountInfoSchema(type, spec), httpPart: 'body', method: 'POST', url: '' }) as unknown as Validate,
  ]),
);

/**
 * Moves the fields of another spelling to their canonical names: an alias's field names
 * (EUR_ACCOUNT's swiftCode), the vendor's business beneficiary (legalName for fullName), and the
 * values an alias fills in when left out. Both names with different values are refused.
 */
function applySpelling(spelling: string, info: AccountInfo): FieldProblem[] {
  const alias = ACCOUNT_TYPE_ALIASES[spelling];
  const problems: FieldProblem[] = [];
  const rename = (obj: Record<string, unknown>, from: string, to: string, path: string) => {
    if (!(from in obj)) return;
    if (to in obj && JSON.stringify(obj[to]) !== JSON.stringify(obj[from])) {
      problems.push({ field: `${path}${from}`, in: 'body', message: `differs from ${path}${to}, which names the same value; give one` });
      return;
    }
    obj[to] = obj[from];
    delete obj[from];
  };
  for (const [from, to] of Object.entries(alias?.fieldNames ?? {})) rename(info, from, to, 'accountInfo.');
  const b = info.beneficiary;
  if (b && typeof b === 'object' && !Array.isArray(b)) rename(b as Record<string, unknown>, 'legalName', 'fullName', 'accountInfo.beneficiary.');
  for (const [field, value] of Object.entries(alias?.defaults ?? {})) if (!(field in info)) info[field] = value;
  return problems;
}

/**
 * The network of a wallet type whose address cannot tell it, when the request leaves it out: the
 * one network of the kind the environment pays on (the vendor's CLI registers Solana wallets
 * without one). EVM and Lightning wallets still need it: their addresses travel on several chains.
 */
const ENVIRONMENT_NETWORK: Readonly<Record<string, Readonly<Record<Scope['environment'], string>>>> = {
  SOLANA_WALLET: { SANDBOX: 'SOLANA_DEVNET', PRODUCTION: 'SOLANA_MAINNET' },
};

/** accountInfo checked against its type: shape first (naming each field), then the rules. */
function validateAccount(scope: Scope, input: ExternalAccountCreate): { type: string; info: AccountInfo; primary: string; cryptoNetwork?: string } {
  const spelling = input.accountInfo.accountType;
  const alias = ACCOUNT_TYPE_ALIASES[spelling];
  const type = canonicalAccountType(spelling);
  const spec = ACCOUNT_TYPES[type];
  // A copy: Ajv fills defaults (beneficiaryType) in place.
  const info = structuredClone(input.accountInfo) as AccountInfo;
  const renamed = applySpelling(spelling, info);
  if (renamed.length) throw invalidInput(renamed);
  const validate = validators.get(type)!;
  if (!validate(info)) {
    const problems = fieldProblems((validate.errors ?? []) as never, 'body').map((p): FieldProblem => ({
      ...p,
      field: p.field === '(root)' ? 'accountInfo' : `accountInfo.${p.field}`,
    }));
    throw invalidInput(problems);
  }
  const networks = alias?.networks ?? spec.networks;
  // A wallet's network may be left out when its address names it (a Spark address), or, for a
  // Solana wallet, whose address is the same on every network, when the environment does.
  const inferred = input.cryptoNetwork === undefined && networks ? cryptoNetworkOfAddress(String(info.address)) : undefined;
  const cryptoNetwork = input.cryptoNetwork ?? inferred ?? ENVIRONMENT_NETWORK[type]?.[scope.environment];
  const problems = checkAccountRules({
    type,
    spec,
    spelling,
    networks,
    addressForm: alias?.addressForm,
    currency: input.currency,
    cryptoNetwork,
    networkInferred: inferred !== undefined,
    info,
    environment: scope.environment,
  });
  if (problems.length) throw invalidInput(problems);
  const normalised = normaliseAccountInfo(type, info);
  return { type, info: normalised, primary: primaryIdentifier(type, normalised), cryptoNetwork };
}

export function createExternalAccountService(deps: ExternalAccountServiceDeps) {
  const { db, clock, customers } = deps;

  async function find(scope: Scope, id: string, ofCustomers?: boolean): Promise<ExternalAccountRow> {
    return found(id, await repo.find(db, scope, id), ofCustomers);
  }

  function found<R extends ExternalAccountRow>(id: string, row: R | undefined, ofCustomers?: boolean): R {
    if (!row || (ofCustomers !== undefined && (row.customer_id !== null) !== ofCustomers))
      throw externalAccountErrors.EXTERNAL_ACCOUNT_NOT_FOUND({ externalAccountId: id });
    return row;
  }

  function list(scope: Scope, filters: ExternalAccountFilters, page: PageRequest) {
    const ex = db.executor();
    return paginate({
      cursors: deps.cursors,
      request: page,
      scope: `external-accounts|${scope.platformId}|${scope.environment}|${JSON.stringify(filters)}`,
      fetch: (after, n) => {
        let q = repo.filtered(ex, scope, filters).selectAll();
        if (after) q = q.where('id', '<', after);
        return q.orderBy('id', 'desc').limit(n).execute();
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
      view: externalAccountView,
    });
  }

  return {
    async create(scope: Scope, input: ExternalAccountCreate) {
      const { type, info, primary, cryptoNetwork } = validateAccount(scope, input);
      const inner = (input.accountInfo as { platformAccountId?: string }).platformAccountId;
      if (inner !== undefined && input.platformAccountId !== undefined && inner !== input.platformAccountId) {
        throw invalidField('platformAccountId', 'differs from accountInfo.platformAccountId; give it once');
      }
      const isDefault = input.defaultUmaDepositAccount === true;
      if (isDefault && !input.customerId) throw invalidField('defaultUmaDepositAccount', "can only be true for a customer's account (give customerId)");
      const beneficiary = info.beneficiary as { fullName: string } | undefined;
      // Before the transaction: a 105 or 109 answer stores nothing, and the rail call (simulated
      // here) must not hold a transaction open once it is real.
      const verification = verifyBeneficiary(scope.environment, ACCOUNT_TYPES[type].primaryField, primary, beneficiary?.fullName);
      return db.tx(async (trx) => {
        if (input.customerId) await customers.getLive(scope, input.customerId);
        const now = clock.now().toISOString();
        if (isDefault) {
          // Lock the customer so two requests that both set a default run one after the other.
          await db.lockRow('customers', { id: input.customerId! });
          await repo.clearDefault(trx, scope, input.customerId!, now);
        }
        const row: ExternalAccountRow = {
          id: newId('ExternalAccount'),
          platform_id: scope.platformId,
          environment: scope.environment,
          customer_id: input.customerId ?? null,
          status: 'ACTIVE',
          currency: input.currency,
          account_type: type,
          account_info: JSON.stringify(info),
          primary_identifier: primary,
          crypto_network: cryptoNetwork ?? null,
          platform_account_id: input.platformAccountId ?? inner ?? null,
          default_uma_deposit: toDbBool(isDefault),
          verification_status: verification.status,
          verified_data: verification.verifiedData ? JSON.stringify(verification.verifiedData) : null,
          created_at: now,
          updated_at: now,
        };
        await repo.insert(trx, row).catch((e: unknown) => {
          if (isUniqueViolation(e)) throw invalidField('defaultUmaDepositAccount', 'another request set a default for this customer at the same time; retry');
          throw e;
        });
        return externalAccountView(row);
      });
    },

    async get(scope: Scope, id: string, ofCustomers?: boolean) {
      return externalAccountView(await find(scope, id, ofCustomers));
    },

    /** The row, for other services (quotes, transfers): 404 when not in scope. */
    find: (scope: Scope, id: string) => find(scope, id),

    /** As find, with what a payment checks on the account's owner. */
    findWithOwner: async (scope: Scope, id: string) => found(id, await repo.findWithOwner(db, scope, id)),

    /** Deactivates: INACTIVE accounts stay readable but cannot be used for new quotes or transfers. */
    async deactivate(scope: Scope, id: string, ofCustomers: boolean) {
      return db.tx(async (trx) => {
        const row = await find(scope, id, ofCustomers);
        if (row.status === 'INACTIVE') return externalAccountView(row);
        const changes = { status: 'INACTIVE', default_uma_deposit: 0, updated_at: clock.now().toISOString() };
        await repo.update(trx, id, changes);
        return externalAccountView({ ...row, ...changes });
      });
    },

    listOfCustomers: (scope: Scope, filters: Omit<ExternalAccountFilters, 'ofCustomers'>, page: PageRequest) =>
      list(scope, { ...filters, ofCustomers: true }, page),
    listOfPlatform: (scope: Scope, filters: Omit<ExternalAccountFilters, 'ofCustomers'>, page: PageRequest) =>
      list(scope, { ...filters, ofCustomers: false }, page),
  };
}

export type ExternalAccountService = ReturnType<typeof createExternalAccountService>;
