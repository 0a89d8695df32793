import type { Clock } from '../../common/clock.js';
import { invalidField } from '../../common/errors.js';
import { newId } from '../../common/ids.js';
import { paginate, type Cursors, type PageRequest } from '../../common/pagination.js';
import type { Scope } from '../../common/scope.js';
import type { Database, Executor } from '../../db/database.js';
import { toNumber } from '../../db/values.js';
import { customerRepository, type CustomerRow } from '../customers/repository.js';
import type { CustomerService } from '../customers/service.js';
import { customerErrors } from '../customers/errors.js';
import { ownerErrors } from './errors.js';
import { ownerRepository, type OwnerRow } from './repository.js';
import {
  checkPersonalInfo,
  decodeRoles,
  encodeRoles,
  hasKybRole,
  initialOwnerKycStatus,
  KYB_ROLES,
  MAX_OWNERS_PER_CUSTOMER,
  mergePersonalInfo,
  missingPersonalInfo,
  type StoredPersonalInfo,
} from './rules.js';
import type { OwnerCreate, OwnerPatch } from './schemas.js';
import { ownerView } from './view.js';
import { incompleteOwners } from './kyb.js';

export interface OwnerServiceDeps {
  db: Database;
  clock: Clock;
  cursors: Cursors;
  customers: CustomerService;
}

export function createOwnerService(deps: OwnerServiceDeps) {
  const { db, clock, customers } = deps;

  /** The owner, or 404 when it does not exist in the caller's scope. */
  async function find(ex: Executor, scope: Scope, id: string): Promise<OwnerRow> {
    const row = await ownerRepository.find(ex, scope, id);
    if (!row) throw ownerErrors.BENEFICIAL_OWNER_NOT_FOUND({ beneficialOwnerId: id });
    return row;
  }

  /**
   * The live business the owners belong to, locked for this transaction on PostgreSQL so two
   * concurrent writes cannot both pass the 100% check (SQLite's write transaction already
   * serialises them).
   */
  async function lockBusiness(trx: Executor, scope: Scope, customerId: string): Promise<CustomerRow> {
    await db.lockRow('customers', { id: customerId, platform_id: scope.platformId, environment: scope.environment });
    const customer = await customers.getLive(scope, customerId);
    if (customer.customer_type !== 'BUSINESS') throw invalidField('customerId', `must be a BUSINESS customer; ${customerId} is ${customer.customer_type}`);
    return customer;
  }

  function checkUboTotal(otherUbos: number, roles: readonly string[], percentage: number, customerId: string): void {
    if (!roles.includes('UBO') || otherUbos + percentage <= 100) return;
    const room = Math.max(0, 100 - otherUbos);
    throw ownerErrors.OWNERSHIP_EXCEEDS_100({
      fields: [{ field: 'ownershipPercentage', in: 'body', message: `the other UBOs of this business hold ${otherUbos}%; at most ${room} is left` }],
      customerId,
      otherUbosTotal: otherUbos,
      requested: percentage,
      maximumAllowed: room,
    });
  }

  /**
   * Sandbox KYB: a PENDING business becomes APPROVED once one of its owners is a UBO or control
   * person, and falls back to PENDING when the last such role is taken away. Production statuses
   * are left as the platform sets them; a status the platform set by hand (UNVERIFIED, REJECTED)
   * is never overridden.
   */
  async function syncKyb(trx: Executor, scope: Scope, customer: CustomerRow, qualifiedBefore: boolean, qualifiesNow: boolean, now: string, completed = false) {
    if (scope.environment !== 'SANDBOX') return;
    let next: string | undefined;
    // An owner still lacking facts holds the business back, as it does an approval by hand
    // (kyb.ts); the last of them completed lets another owner's role count again.
    if (
      (qualifiesNow || completed) &&
      customer.kyc_status === 'PENDING' &&
      !(await incompleteOwners(trx, scope, customer.id)).length &&
      (qualifiesNow || (await ownerRepository.anyWithRole(trx, scope, customer.id, KYB_ROLES)))
    )
      next = 'APPROVED';
    if (qualifiedBefore && !qualifiesNow && customer.kyc_status === 'APPROVED' && !(await ownerRepository.anyWithRole(trx, scope, customer.id, KYB_ROLES)))
      next = 'PENDING';
    if (next) await customerRepository.update(trx, customer.id, { kyc_status: next, updated_at: now });
  }

  return {
    find,

    async create(scope: Scope, input: OwnerCreate) {
      const personalInfo = checkPersonalInfo(input.personalInfo, clock.now());
      return db.tx(async (trx) => {
        const customer = await lockBusiness(trx, scope, input.customerId);
        const totals = await ownerRepository.totals(trx, scope, customer.id);
        if (totals.count >= MAX_OWNERS_PER_CUSTOMER)
          throw ownerErrors.BENEFICIAL_OWNER_LIMIT_REACHED({ customerId: customer.id, limit: MAX_OWNERS_PER_CUSTOMER });
        checkUboTotal(totals.uboTotal, input.roles, input.ownershipPercentage, customer.id);
        const now = clock.now().toISOString();
        const row: OwnerRow = {
          id: newId('BeneficialOwner'),
          platform_id: scope.platformId,
          environment: scope.environment,
          customer_id: customer.id,
          roles: encodeRoles(input.roles),
          ownership_percentage: input.ownershipPercentage,
          personal_info: JSON.stringify(personalInfo),
          kyc_status: initialOwnerKycStatus(scope.environment),
          created_at: now,
          updated_at: now,
        };
        await ownerRepository.insert(trx, row);
        await syncKyb(trx, scope, customer, false, hasKybRole(input.roles), now);
        return ownerView(row);
      });
    },

    async get(scope: Scope, id: string) {
      return ownerView(await find(db.executor(), scope, id));
    },

    async update(scope: Scope, id: string, patch: OwnerPatch) {
      return db.tx(async (trx) => {
        const { customer_id } = await find(trx, scope, id);
        const customer = await lockBusiness(trx, scope, customer_id);
        // Read the owner again under the business lock: a PATCH that committed while this one
        // waited must be merged into, not overwritten with the copy read before the wait.
        const current = await find(trx, scope, id);
        const rolesBefore = decodeRoles(current.roles);
        const roles = patch.roles ?? rolesBefore;
        const percentage = patch.ownershipPercentage ?? toNumber(current.ownership_percentage);
        const changes: Partial<OwnerRow> = { updated_at: clock.now().toISOString() };
        const infoBefore = JSON.parse(current.personal_info) as StoredPersonalInfo;
        const missingBefore = missingPersonalInfo(infoBefore);
        let missingNow = missingBefore;
        if (patch.personalInfo) {
          const merged = mergePersonalInfo(infoBefore, patch.personalInfo);
          // An owner created lacking facts (inline with its business) may receive them a few at a
          // time; a complete owner stays complete.
          const stored = checkPersonalInfo(merged, clock.now(), { partial: missingBefore.length > 0 });
          missingNow = missingPersonalInfo(stored);
          changes.personal_info = JSON.stringify(stored);
          // The last missing fact arrived: the owner takes the status a complete one starts with.
          if (missingBefore.length && !missingNow.length && current.kyc_status === 'UNVERIFIED') changes.kyc_status = initialOwnerKycStatus(scope.environment);
        }
        if (patch.roles || patch.ownershipPercentage !== undefined) {
          checkUboTotal((await ownerRepository.totals(trx, scope, customer.id, id)).uboTotal, roles, percentage, customer.id);
          changes.roles = encodeRoles(roles);
          changes.ownership_percentage = percentage;
        }
        await ownerRepository.update(trx, id, changes);
        await syncKyb(
          trx,
          scope,
          customer,
          hasKybRole(rolesBefore) && !missingBefore.length,
          hasKybRole(roles) && !missingNow.length,
          changes.updated_at as string,
          missingBefore.length > 0 && !missingNow.length,
        );
        return ownerView({ ...current, ...changes });
      });
    },

    /** Owners of one business, newest first. The business must exist in the caller's scope. */
    async list(scope: Scope, customerId: string, page: PageRequest) {
      const ex = db.executor();
      // Deleted businesses keep their owners readable: they are the record of who was verified.
      if (!(await customerRepository.find(db, scope, customerId))) throw customerErrors.CUSTOMER_NOT_FOUND({ customerId });
      return paginate({
        cursors: deps.cursors,
        request: page,
        scope: `beneficial-owners|${scope.platformId}|${scope.environment}|${customerId}`,
        fetch: (after, n) => {
          let q = ownerRepository.ofCustomer(ex, scope, customerId).selectAll();
          if (after) q = q.where('id', '<', after);
          return q.orderBy('id', 'desc').limit(n).execute();
        },
        count: async () =>
          toNumber(
            (
              await ownerRepository
                .ofCustomer(ex, scope, customerId)
                .select((eb) => eb.fn.countAll().as('n'))
                .executeTakeFirstOrThrow()
            ).n as bigint,
          ),
        view: ownerView,
      });
    },
  };
}

export type OwnerService = ReturnType<typeof createOwnerService>;
