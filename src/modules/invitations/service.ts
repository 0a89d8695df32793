/**
 * UMA invitations (the vendor's /invitations): a platform's customer invites someone by a link;
 * the invitee's platform claims it for its own customer; the inviting platform may cancel it
 * while it is pending. The code is a random secret: any platform of the same environment that
 * holds it may read and claim the invitation (the invitee is usually another platform's customer),
 * only the inviting platform may cancel it. The claim is reported to the inviting platform by an
 * INVITATION webhook.
 */
import { randomBytes } from 'node:crypto';
import type { Clock } from '../../common/clock.js';
import { currencyView } from '../../common/currencies.js';
import { invalidField } from '../../common/errors.js';
import type { Scope } from '../../common/scope.js';
import type { Database } from '../../db/database.js';
import type { UmaInvitationsTable } from '../../db/tables/invitations.js';
import { toDbBool, toNumber } from '../../db/values.js';
import type { Outbox } from '../../events/outbox.js';
import { decodeCurrencies } from '../customers/repository.js';
import { invitationErrors } from './errors.js';
import type { Invitation, InvitationCreate } from './schemas.js';

/** An invitation may be valid for at most this long (rule 7). */
export const MAX_INVITATION_LIFETIME_MS = 365 * 24 * 60 * 60 * 1000;

export interface InvitationServiceDeps {
  db: Database;
  clock: Clock;
  events: Outbox;
  /** Where the invitation's page lives: the public URL and the API prefix. */
  pageBase: string;
  /** Runs fn on the scope's sandbox clock (a SANDBOX platform's time); directly when absent. */
  within?: <T>(scope: Scope, fn: () => Promise<T>) => Promise<T>;
}

/** 16 characters of base64url: 96 random bits, not guessable, short enough to share. */
function newCode(): string {
  return randomBytes(12).toString('base64url');
}

export function createInvitationService(deps: InvitationServiceDeps) {
  const { db, clock } = deps;
  const within = deps.within ?? (<T>(_scope: Scope, fn: () => Promise<T>) => fn());

  const inviterOf = (row: UmaInvitationsTable): Scope => ({ platformId: row.platform_id, environment: row.environment as Scope['environment'] });
  /**
   * The inviting platform's time. An invitation is the inviter's object: its expiry and the times
   * written on it are read on the inviter's clock whoever asks, so a claimer whose sandbox clock is
   * behind (or frozen) cannot claim what has expired, nor date a claim before the invitation.
   */
  const inviterNow = (row: UmaInvitationsTable) => within(inviterOf(row), async () => clock.now());

  /** The status as the API shows it: a pending invitation past its expiry is EXPIRED. */
  function statusOf(row: UmaInvitationsTable, now: Date): Invitation['status'] {
    if (row.status === 'PENDING' && row.expires_at !== null && row.expires_at <= now.toISOString()) return 'EXPIRED';
    return row.status as Invitation['status'];
  }

  /** The invitation as the API shows it, its status as of `now` on the inviter's clock. */
  function view(row: UmaInvitationsTable, now: Date): Invitation {
    const out: Invitation = {
      code: row.code,
      createdAt: row.created_at,
      url: `${deps.pageBase}/invitations/${row.code}/page`,
      inviterUma: row.inviter_uma,
      status: statusOf(row, now),
    };
    if (row.claimed_at) out.claimedAt = row.claimed_at;
    if (row.cancelled_at) out.cancelledAt = row.cancelled_at;
    if (row.expires_at) out.expiresAt = row.expires_at;
    if (row.invitee_uma) out.inviteeUma = row.invitee_uma;
    if (row.first_name) out.firstName = row.first_name;
    if (row.amount_to_send !== null && row.amount_currency)
      out.amountToSend = { amount: toNumber(row.amount_to_send), currency: currencyView(row.amount_currency) };
    return out;
  }

  /** A live customer of the scope with this UMA address (addresses are stored in lower case). */
  async function customerByUma(scope: Scope, address: string) {
    return db
      .executor()
      .selectFrom('customers')
      .select(['id', 'uma_address', 'currencies'])
      .where('platform_id', '=', scope.platformId)
      .where('environment', '=', scope.environment)
      .where('uma_address', '=', address.toLowerCase())
      .where('is_deleted', '=', toDbBool(false))
      .executeTakeFirst();
  }

  /** The invitation in the caller's environment, locked when inside a transaction that will change it. */
  async function find(scope: Scope, code: string, lock = false): Promise<UmaInvitationsTable> {
    const row = lock
      ? await db.lockRow<UmaInvitationsTable>('uma_invitations', { code })
      : await db.executor().selectFrom('uma_invitations').selectAll().where('code', '=', code).executeTakeFirst();
    if (!row || row.environment !== scope.environment) throw invitationErrors.INVITATION_NOT_FOUND({ invitationCode: code });
    return row;
  }

  /** The error for an invitation that is no longer pending. */
  function notPending(row: UmaInvitationsTable, now: Date) {
    const status = statusOf(row, now);
    const details = { invitationCode: row.code, status };
    if (status === 'CLAIMED') return invitationErrors.INVITATION_ALREADY_CLAIMED(details);
    if (status === 'CANCELLED') return invitationErrors.INVITATION_CANCELLED(details);
    if (status === 'EXPIRED') return invitationErrors.INVITATION_EXPIRED({ ...details, expiresAt: row.expires_at });
    return undefined;
  }

  return {
    view,

    async create(scope: Scope, input: InvitationCreate): Promise<Invitation> {
      const now = clock.now();
      let expiresAt: string | null = null;
      if (input.expiresAt !== undefined) {
        const at = new Date(input.expiresAt);
        if (at.getTime() <= now.getTime()) throw invalidField('expiresAt', 'must be in the future');
        if (at.getTime() - now.getTime() > MAX_INVITATION_LIFETIME_MS) throw invalidField('expiresAt', 'must be at most 365 days ahead');
        expiresAt = at.toISOString();
      }
      const inviter = await customerByUma(scope, input.inviterUma);
      if (!inviter) throw invalidField('inviterUma', 'is not the UMA address of one of your customers');
      const currency = decodeCurrencies(inviter.currencies)[0];
      if (input.amountToSend !== undefined && !currency) throw invalidField('amountToSend', 'the inviter has no currency to send in');
      const row: UmaInvitationsTable = {
        code: newCode(),
        platform_id: scope.platformId,
        environment: scope.environment,
        inviter_customer_id: inviter.id,
        inviter_uma: inviter.uma_address,
        first_name: input.firstName ?? null,
        amount_to_send: input.amountToSend ?? null,
        amount_currency: input.amountToSend !== undefined ? currency : null,
        status: 'PENDING',
        invitee_uma: null,
        invitee_platform_id: null,
        invitee_customer_id: null,
        expires_at: expiresAt,
        claimed_at: null,
        cancelled_at: null,
        created_at: now.toISOString(),
        updated_at: now.toISOString(),
      };
      await db.tx((trx) => trx.insertInto('uma_invitations').values(row).execute());
      return view(row, now);
    },

    async get(scope: Scope, code: string): Promise<Invitation> {
      const row = await find(scope, code);
      return view(row, await inviterNow(row));
    },

    /** The invitation as its public page shows it (no credentials: the code is the secret). */
    async forPage(code: string): Promise<Invitation | undefined> {
      const row = await db.executor().selectFrom('uma_invitations').selectAll().where('code', '=', code).executeTakeFirst();
      return row ? view(row, await inviterNow(row)) : undefined;
    },

    /** The invitee's platform claims the invitation for one of its customers. */
    async claim(scope: Scope, code: string, inviteeUma: string): Promise<Invitation> {
      const invitee = await customerByUma(scope, inviteeUma);
      if (!invitee) throw invalidField('inviteeUma', 'is not the UMA address of one of your customers');
      return db.tx(async () => {
        const row = await find(scope, code, true);
        const now = await inviterNow(row);
        const refused = notPending(row, now);
        if (refused) throw refused;
        if (row.inviter_customer_id === invitee.id) throw invalidField('inviteeUma', 'is the inviter: an invitation is claimed by someone else');
        const changes = {
          status: 'CLAIMED',
          invitee_uma: invitee.uma_address,
          invitee_platform_id: scope.platformId,
          invitee_customer_id: invitee.id,
          claimed_at: now.toISOString(),
          updated_at: now.toISOString(),
        };
        const moved = await db
          .executor()
          .updateTable('uma_invitations')
          .set(changes)
          .where('code', '=', code)
          .where('status', '=', 'PENDING')
          .executeTakeFirst();
        if (Number(moved.numUpdatedRows) !== 1) throw invitationErrors.INVITATION_ALREADY_CLAIMED({ invitationCode: code });
        const invitation = view({ ...row, ...changes }, now);
        // The inviting platform learns of the claim (it may now send amountToSend), on its own clock.
        await within(inviterOf(row), () => deps.events.emit(inviterOf(row), { type: 'INVITATION', subject: `Invitation:${code}`, payload: { invitation } }));
        return invitation;
      });
    },

    /** The inviting platform withdraws a pending invitation. */
    async cancel(scope: Scope, code: string): Promise<Invitation> {
      return db.tx(async () => {
        const row = await find(scope, code, true);
        if (row.platform_id !== scope.platformId) throw invitationErrors.INVITATION_NOT_INVITER({ invitationCode: code });
        const now = await inviterNow(row);
        const refused = notPending(row, now);
        if (refused) throw refused;
        const changes = { status: 'CANCELLED', cancelled_at: now.toISOString(), updated_at: now.toISOString() };
        await db.executor().updateTable('uma_invitations').set(changes).where('code', '=', code).where('status', '=', 'PENDING').execute();
        return view({ ...row, ...changes }, now);
      });
    },
  };
}

export type InvitationService = ReturnType<typeof createInvitationService>;
