/**
 * The vendor's hosted KYC link, in the sandbox: a single-use page served by Corridor where a
 * tester approves or rejects a customer. The link's token is 256 random bits, stored only as its
 * SHA-256, valid for KYC_LINK_LIFETIME_MS on the platform's sandbox clock, and good for one
 * decision. The decision goes through the customer service's own update (the same checks, e.g.
 * KYB of businesses, and the same CUSTOMER webhook as any kycStatus change). PRODUCTION has no
 * hosted KYC: platforms verify with their provider and attest kycStatus.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Clock } from '../../common/clock.js';
import type { Scope } from '../../common/scope.js';
import type { Database } from '../../db/database.js';
import type { KycLinksTable } from '../../db/tables/invitations.js';
import { fromDbBool } from '../../db/values.js';
import { customerErrors } from '../customers/errors.js';
import type { CustomerService } from '../customers/service.js';
import { kycLinkErrors } from './errors.js';

/** A link is valid for 24 hours after it is issued. */
export const KYC_LINK_LIFETIME_MS = 24 * 60 * 60 * 1000;
export const KYC_DECISIONS = ['APPROVED', 'REJECTED'] as const;

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export interface KycLinkDeps {
  db: Database;
  clock: Clock;
  customers: CustomerService;
  /** Runs fn on the scope's sandbox clock (the page is called without credentials, so outside any request context). */
  within: <T>(scope: Scope, fn: () => Promise<T>) => Promise<T>;
  /** The public URL and the API prefix. */
  pageBase: string;
}

/**
 * What the page may show. Only an open link shows the customer it decides on; the answer to the
 * decision repeats the decision just sent; a used link says only that, and an expired one
 * (used or not) nothing: the token must not stay a window on the customer once its job is done.
 */
export type LinkState =
  | { state: 'UNKNOWN' }
  | { state: 'EXPIRED' }
  | { state: 'USED' }
  | { state: 'DECIDED'; link: KycLinksTable }
  | { state: 'OPEN'; link: KycLinksTable; customer: Awaited<ReturnType<CustomerService['get']>> };

export function createKycLinkService(deps: KycLinkDeps) {
  const { db, clock } = deps;

  async function findLink(token: string): Promise<KycLinksTable | undefined> {
    if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return undefined;
    return db.executor().selectFrom('kyc_links').selectAll().where('token_hash', '=', hashToken(token)).executeTakeFirst();
  }

  const scopeOf = (link: KycLinksTable): Scope => ({ platformId: link.platform_id, environment: link.environment as Scope['environment'] });

  return {
    async issue(scope: Scope, input: { platformCustomerId: string; redirectUri?: string }) {
      if (scope.environment !== 'SANDBOX') throw kycLinkErrors.HOSTED_KYC_NOT_AVAILABLE({ environment: scope.environment });
      const customer = await db
        .executor()
        .selectFrom('customers')
        .select(['id', 'is_deleted'])
        .where('platform_id', '=', scope.platformId)
        .where('environment', '=', scope.environment)
        .where('platform_customer_id', '=', input.platformCustomerId)
        .orderBy('id', 'desc')
        .executeTakeFirst();
      if (!customer) throw customerErrors.CUSTOMER_NOT_FOUND({ platformCustomerId: input.platformCustomerId }, 'No customer with this platformCustomerId');
      if (fromDbBool(customer.is_deleted)) throw customerErrors.CUSTOMER_DELETED({ platformCustomerId: input.platformCustomerId, customerId: customer.id });
      const token = randomBytes(32).toString('base64url');
      const now = clock.now();
      const expiresAt = new Date(now.getTime() + KYC_LINK_LIFETIME_MS).toISOString();
      await db.tx((trx) =>
        trx
          .insertInto('kyc_links')
          .values({
            token_hash: hashToken(token),
            platform_id: scope.platformId,
            environment: scope.environment,
            customer_id: customer.id,
            redirect_uri: input.redirectUri ?? null,
            expires_at: expiresAt,
            used_at: null,
            decision: null,
            created_at: now.toISOString(),
          })
          .execute(),
      );
      return { kycUrl: `${deps.pageBase}/sandbox/kyc/${token}`, platformCustomerId: input.platformCustomerId, customerId: customer.id, expiresAt };
    },

    /** The link's state for the page, read on the platform's sandbox clock. */
    async inspect(token: string): Promise<LinkState> {
      const link = await findLink(token);
      if (!link) return { state: 'UNKNOWN' };
      const scope = scopeOf(link);
      return deps.within(scope, async (): Promise<LinkState> => {
        if (link.expires_at <= clock.now().toISOString()) return { state: 'EXPIRED' };
        if (link.used_at) return { state: 'USED' };
        const customer = await deps.customers.get(scope, link.customer_id).catch(() => undefined);
        return customer ? { state: 'OPEN', link, customer } : { state: 'EXPIRED' };
      });
    },

    /**
     * The tester's decision: marks the link used and sets the customer's kycStatus through the
     * customer service, in one transaction (a refused change, e.g. a business without approved
     * KYB, leaves the link unused).
     */
    async decide(token: string, decision: (typeof KYC_DECISIONS)[number]): Promise<LinkState> {
      const link = await findLink(token);
      if (!link) return { state: 'UNKNOWN' };
      const scope = scopeOf(link);
      return deps.within(scope, () =>
        db.tx(async (): Promise<LinkState> => {
          const locked = (await db.lockRow<KycLinksTable>('kyc_links', { token_hash: link.token_hash }))!;
          const now = clock.now().toISOString();
          if (locked.expires_at <= now) return { state: 'EXPIRED' };
          if (locked.used_at) return { state: 'USED' };
          const current = await deps.customers.get(scope, locked.customer_id);
          const used = await db
            .executor()
            .updateTable('kyc_links')
            .set({ used_at: now, decision })
            .where('token_hash', '=', locked.token_hash)
            .where('used_at', 'is', null)
            .executeTakeFirst();
          if (Number(used.numUpdatedRows) !== 1) return { state: 'USED' };
          await deps.customers.update(scope, locked.customer_id, { customerType: current.customerType, kycStatus: decision });
          return { state: 'DECIDED', link: { ...locked, used_at: now, decision } };
        }),
      );
    },
  };
}
