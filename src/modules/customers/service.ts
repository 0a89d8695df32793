import type { Clock } from '../../common/clock.js';
import { newId } from '../../common/ids.js';
import { paginate, type Cursors, type PageRequest } from '../../common/pagination.js';
import type { Scope } from '../../common/scope.js';
import type { Database, Executor } from '../../db/database.js';
import { fromDbBool, isUniqueViolation, toDbBool, toNumber } from '../../db/values.js';
import { heldConfig } from '../platforms/config-cache.js';
import { customerErrors } from './errors.js';
import { customerRepository, encodeCurrencies, VIEW_COLUMNS, type CustomerFilters, type CustomerRow } from './repository.js';
import { checkBirthDate, checkCurrencyCombination, defaultCurrencies, generateUmaAddress, initialKycStatus, normaliseUmaAddress } from './rules.js';
import type { CustomerCreate, CustomerPatch } from './schemas.js';
import { customerView, missingFields } from './view.js';
import { invalidField } from '../../common/errors.js';
import { openCustomerAccounts, syncCustomerAccounts } from '../internal-accounts/sync.js';
import { bumpCounts, countKey, countKeyFor, readCount } from '../../db/counters.js';
import { checkKybApproval } from '../beneficial-owners/kyb.js';
import { insertInlineOwners, mapInlineOwners, qualifiesForKyb } from '../beneficial-owners/inline.js';
import { createAuditLog } from '../../audit/store.js';
import { KYC_STATUSES } from './schemas.js';
import type { Outbox } from '../../events/outbox.js';

export interface CustomerServiceDeps {
  db: Database;
  clock: Clock;
  cursors: Cursors;
  /** Who attests kycStatus in PRODUCTION (KYC_ATTESTATION): the platform through the API (each change audited), or only the operator (CLI). */
  kycAttestation?: 'PLATFORM' | 'OPERATOR';
  /** The outbox: a change of kycStatus is reported by a CUSTOMER webhook, in the change's transaction. */
  events?: Outbox;
}

/** Maps unique-key violations of the customers table to their API errors. */
function conflictError(e: unknown): never {
  if (isUniqueViolation(e)) {
    const text = String((e as Error).message);
    if (/uma_address/.test(text)) throw customerErrors.UMA_ADDRESS_EXISTS();
    throw customerErrors.PLATFORM_CUSTOMER_ID_EXISTS();
  }
  throw e;
}

/** The customer `id` as read (undefined: no such customer in the scope), or 404 / 410: what every use of a customer checks first. */
export function requireLive<R extends { is_deleted: number | bigint }>(id: string, row: R | undefined): R {
  if (!row) throw customerErrors.CUSTOMER_NOT_FOUND({ customerId: id });
  if (fromDbBool(row.is_deleted)) throw customerErrors.CUSTOMER_DELETED({ customerId: id });
  return row;
}

export function createCustomerService(deps: CustomerServiceDeps) {
  const { db, clock } = deps;
  const audit = createAuditLog({ db, clock });

  /** The live customer row, or 404 / 410. Other services use it to check a customer they are given. */
  async function getLive(scope: Scope, id: string): Promise<CustomerRow> {
    return requireLive(id, await customerRepository.find(db, scope, id));
  }

  /**
   * The platform's UMA domain, for an address written in the open transaction, held until that
   * transaction ends. A change of domain moves every address of the platform in its own
   * transaction; without the hold, an address written beside it on PostgreSQL could keep the old
   * domain (read before the change committed, inserted after it moved the others).
   */
  const umaDomainHeld = async (scope: Scope) => (await heldConfig(db, scope)).uma_domain;

  // A customer may lack its name or businessInfo (the vendor SDK's minimal create): it is then
  // UNVERIFIED and says what is missing (view.ts, missingFields) until a PATCH gives it.
  function checkTypeFields(type: string, input: { businessInfo?: unknown; beneficialOwners?: unknown }) {
    if (type === 'INDIVIDUAL' && input.businessInfo !== undefined) throw invalidField('businessInfo', 'is only for BUSINESS customers');
    if (type === 'INDIVIDUAL' && input.beneficialOwners !== undefined) throw invalidField('beneficialOwners', 'is only for BUSINESS customers');
  }

  /** Every change of kycStatus (API, sandbox KYC page, operator) reports the customer as it now is. */
  async function kycChanged(scope: Scope, customer: ReturnType<typeof customerView>, previousKycStatus: string) {
    if (customer.kycStatus === previousKycStatus || !deps.events) return;
    await deps.events.emit(scope, { type: 'CUSTOMER', subject: customer.id, payload: { customer, previousKycStatus } });
  }

  return {
    getLive,

    async create(scope: Scope, input: CustomerCreate) {
      checkTypeFields(input.customerType, input);
      checkBirthDate(input.birthDate, clock.now());
      const region = input.region ?? input.address?.country ?? input.nationality ?? null;
      const currencies = input.currencies ?? defaultCurrencies(region);
      checkCurrencyCombination(currencies);
      // The vendor's inline owners, checked before anything is written: one refused owner refuses
      // the whole request.
      const owners = mapInlineOwners(input.beneficialOwners ?? [], clock.now());
      const now = clock.now().toISOString();
      const missing = missingFields({ customer_type: input.customerType, full_name: input.fullName ?? null, business_info: input.businessInfo ? '{}' : null });
      let kycStatus = missing.length > 0 ? 'UNVERIFIED' : initialKycStatus(scope.environment, input.customerType);
      // As POST /beneficial-owners would right after: a PENDING sandbox business passes its KYB
      // with a UBO or control person, once no owner lacks a fact.
      if (kycStatus === 'PENDING' && owners.some(qualifiesForKyb) && owners.every((o) => !o.missing.length)) kycStatus = 'APPROVED';
      return db.tx(async (trx) => {
        const domain = await umaDomainHeld(scope);
        const umaAddress = input.umaAddress
          ? normaliseUmaAddress(input.umaAddress, domain)
          : generateUmaAddress(input.fullName ?? input.businessInfo?.legalName, domain);
        const row: CustomerRow = {
          id: newId('Customer'),
          platform_id: scope.platformId,
          environment: scope.environment,
          platform_customer_id: input.platformCustomerId,
          customer_type: input.customerType,
          uma_address: umaAddress,
          region,
          currencies: encodeCurrencies(currencies),
          kyc_status: kycStatus,
          full_name: input.fullName ?? null,
          birth_date: input.birthDate ?? null,
          nationality: input.nationality ?? null,
          address: input.address ? JSON.stringify(input.address) : null,
          business_info: input.businessInfo ? JSON.stringify(input.businessInfo) : null,
          is_deleted: toDbBool(false),
          deleted_at: null,
          created_at: now,
          updated_at: now,
        };
        await customerRepository.insert(db, row).catch(conflictError);
        await bumpCounts(db, scope, ['customers', countKey('customers', 'customerType', row.customer_type)], 1);
        // One internal account per enabled currency, in the same transaction as the customer.
        await openCustomerAccounts(db, scope, row.id, currencies, now);
        await insertInlineOwners(trx, scope, row.id, owners, now);
        return customerView(row);
      });
    },

    /** A customer; a deleted one only with `deleted` (else 410), for the vendor profile's read. */
    async get(scope: Scope, id: string, opts: { deleted?: boolean } = {}) {
      const row = await customerRepository.find(db, scope, id);
      return customerView(opts.deleted && row ? row : requireLive(id, row));
    },

    async update(scope: Scope & { clientId?: string }, id: string, patch: CustomerPatch) {
      if (patch.kycStatus && scope.environment === 'PRODUCTION' && deps.kycAttestation === 'OPERATOR')
        throw customerErrors.KYC_ATTESTED_BY_OPERATOR({ customerId: id, field: 'kycStatus' });
      checkBirthDate(patch.birthDate, clock.now());
      if (patch.currencies) checkCurrencyCombination(patch.currencies);
      return db.tx(async (trx) => {
        const row = await getLive(scope, id);
        if (patch.customerType !== undefined && patch.customerType !== row.customer_type)
          throw invalidField('customerType', `cannot change; this customer is ${row.customer_type}`);
        checkTypeFields(row.customer_type, patch);
        // A customer that lacks its data cannot be APPROVED before it has it.
        const stillMissing = missingFields({
          customer_type: row.customer_type,
          full_name: patch.fullName ?? row.full_name,
          business_info: patch.businessInfo !== undefined ? JSON.stringify(patch.businessInfo) : row.business_info,
        });
        if (patch.kycStatus === 'APPROVED' && stillMissing.length)
          throw invalidField('kycStatus', `cannot be APPROVED while the customer lacks ${stillMissing.join(', ')}`);
        const changes: Partial<CustomerRow> = { updated_at: clock.now().toISOString() };
        if (patch.currencies) changes.currencies = encodeCurrencies(patch.currencies);
        if (patch.umaAddress) changes.uma_address = normaliseUmaAddress(patch.umaAddress, await umaDomainHeld(scope));
        if (patch.kycStatus) {
          if (patch.kycStatus === 'APPROVED' && row.kyc_status !== 'APPROVED') await checkKybApproval(db, scope, row);
          changes.kyc_status = patch.kycStatus;
          // In PRODUCTION the platform's attestation is recorded with the change (same transaction).
          if (scope.environment === 'PRODUCTION' && patch.kycStatus !== row.kyc_status)
            await audit.record({
              actorType: 'TOKEN',
              actor: scope.clientId ?? 'api',
              action: 'customer kyc',
              target: id,
              platformId: scope.platformId,
              environment: scope.environment,
              outcome: 'SUCCEEDED',
              details: { from: row.kyc_status, to: patch.kycStatus },
            });
        }
        if (patch.fullName !== undefined) changes.full_name = patch.fullName;
        if (patch.birthDate !== undefined) changes.birth_date = patch.birthDate;
        if (patch.nationality !== undefined) changes.nationality = patch.nationality;
        if (patch.address !== undefined) changes.address = JSON.stringify(patch.address);
        if (patch.region !== undefined) changes.region = patch.region;
        if (patch.businessInfo !== undefined) changes.business_info = JSON.stringify(patch.businessInfo);
        // Once the missing data arrives, an UNVERIFIED customer takes the status a complete one starts with.
        if (patch.kycStatus === undefined && row.kyc_status === 'UNVERIFIED' && missingFields(row).length && !stillMissing.length)
          changes.kyc_status = initialKycStatus(scope.environment, row.customer_type);
        await customerRepository.update(trx, id, changes).catch(conflictError);
        if (patch.currencies) await syncCustomerAccounts(db, scope, id, patch.currencies, changes.updated_at!);
        const customer = customerView({ ...row, ...changes });
        await kycChanged(scope, customer, row.kyc_status);
        return customer;
      });
    },

    /**
     * The operator's attestation (`npx corridor customer kyc`): sets a customer's kycStatus in any
     * scope, KYB rules of businesses included. The CLI records the command in the audit log.
     */
    async attestKyc(id: string, status: string) {
      if (!(KYC_STATUSES as readonly string[]).includes(status)) throw invalidField('status', `must be one of ${KYC_STATUSES.join(', ')}`);
      return db.tx(async (trx) => {
        const found = await trx.selectFrom('customers').select(['platform_id', 'environment']).where('id', '=', id).executeTakeFirst();
        if (!found) throw customerErrors.CUSTOMER_NOT_FOUND({ customerId: id });
        const scope = { platformId: found.platform_id, environment: found.environment } as Scope;
        const row = await getLive(scope, id);
        if (status === 'APPROVED' && row.kyc_status !== 'APPROVED') await checkKybApproval(db, scope, row);
        const changes = { kyc_status: status, updated_at: clock.now().toISOString() };
        await customerRepository.update(trx, id, changes);
        const customer = customerView({ ...row, ...changes });
        await kycChanged(scope, customer, row.kyc_status);
        return { ...customer, previousKycStatus: row.kyc_status };
      });
    },

    /** Soft delete: the customer stays for the record, hidden from lists, and answers 410 afterwards. */
    async remove(scope: Scope, id: string) {
      return db.tx(async (trx) => {
        const row = await getLive(scope, id);
        const now = clock.now().toISOString();
        const changes = { is_deleted: toDbBool(true), deleted_at: now, updated_at: now };
        await customerRepository.update(trx, id, changes);
        await bumpCounts(db, scope, ['customers', countKey('customers', 'customerType', row.customer_type)], -1);
        return customerView({ ...row, ...changes });
      });
    },

    async list(scope: Scope, filters: CustomerFilters, page: PageRequest) {
      const ex = db.executor();
      const key = countKeyFor('customers', filters, { includeDeleted: false });
      return paginate({
        cursors: deps.cursors,
        request: page,
        scope: `customers|${scope.platformId}|${scope.environment}|${JSON.stringify(filters)}`,
        fetch: (after, n) => {
          if (key === 'customers') return customerRepository.page(db, scope, after, n);
          let q = customerRepository.filtered(ex, scope, filters).select(VIEW_COLUMNS);
          if (after) q = q.where('id', '<', after);
          return q.orderBy('id', 'desc').limit(n).execute();
        },
        // Without filters, or with customerType alone, a maintained count answers (docs/decisions.md,
        // "Scale"); another filtered count costs what the index range of its matches costs.
        count: async () => {
          return key
            ? readCount(db, scope, key)
            : toNumber(
                (
                  await customerRepository
                    .filtered(ex, scope, filters)
                    .select((eb) => eb.fn.countAll().as('n'))
                    .executeTakeFirstOrThrow()
                ).n as bigint,
              );
        },
        view: customerView,
      });
    },
  };
}

export type CustomerService = ReturnType<typeof createCustomerService>;
