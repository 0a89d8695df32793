import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Clock } from '../common/clock.js';
import { invalidField } from '../common/errors.js';
import { newId } from '../common/ids.js';
import type { AuthContext, Environment } from '../common/scope.js';
import type { Database } from '../db/database.js';
import type { DashboardSessionsTable, DashboardUsersTable } from '../db/schema.js';
import { isUniqueViolation, toNumber } from '../db/values.js';
import { dashboardErrors } from './errors.js';
import { generatePassword, hashPassword, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, verifyPassword } from './passwords.js';
import { permissionsOf, type Role } from './roles.js';
import { createSemaphore, SemaphoreFull } from './semaphore.js';

/** Wrong passwords allowed before the account waits; each further one doubles the wait. */
export const FREE_ATTEMPTS = 5;
const FIRST_WAIT_MS = 30_000;
const MAX_WAIT_MS = 60 * 60_000;
const MAX_REMEMBERED_UNKNOWN = 10_000;
const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,253}$/;

export type UserRow = DashboardUsersTable;
export type SessionRow = DashboardSessionsTable;

export interface SignedIn {
  session: SessionRow;
  user: UserRow;
}

/** How long the account waits after its `failures`-th wrong password in a row (0: not yet). */
export function lockoutMs(failures: number): number {
  if (failures < FREE_ATTEMPTS) return 0;
  return Math.min(FIRST_WAIT_MS * 2 ** (failures - FREE_ATTEMPTS), MAX_WAIT_MS);
}

export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** The CSRF token of a session: HMAC-SHA256 keyed by the session token. */
export function csrfTokenOf(token: string): string {
  return createHmac('sha256', token).update('corridor-dashboard-csrf').digest('base64url');
}

function tokenHash(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/**
 * Dashboard users and their sessions. A session token is 256 random bits; the cookie carries it,
 * the database only its SHA-256. The CSRF token is an HMAC of the session token, so it is bound
 * to the session and needs no storage.
 */
export interface PasswordHashing {
  hash(password: string): Promise<string>;
  verify(storedHash: string | undefined, password: string): Promise<boolean>;
}

export function createDashboardService(deps: { db: Database; clock: Clock; sessionTtlMs: number; hashConcurrency?: number; passwords?: PasswordHashing }) {
  const { db, clock } = deps;
  const passwords: PasswordHashing = deps.passwords ?? { hash: hashPassword, verify: verifyPassword };
  // Argon2 hashes running at once (each ~100 ms on a libuv thread); a few more may queue.
  const slots = deps.hashConcurrency ?? 2;
  const hashing = createSemaphore(slots, slots * 8);
  // Failures for emails that have no user, so the answers for known and unknown emails look alike
  // (same 401s, same backoff). Per node and bounded; known users' counters live in the database.
  const unknownFailures = new Map<string, { failures: number; lockedUntil: number }>();

  const nowIso = () => clock.now().toISOString();

  function tooMany(untilMs: number): never {
    const seconds = Math.max(1, Math.ceil((untilMs - clock.now().getTime()) / 1000));
    throw dashboardErrors.TOO_MANY_ATTEMPTS({ retryAfterSeconds: seconds });
  }

  /**
   * Counts an attempt on an email that has no user, or refuses it while that email waits.
   * Synchronous (no await between the check and the count), so concurrent attempts cannot both
   * pass the check. Such an attempt always fails, so its wait starts now.
   */
  function countUnknownAttempt(email: string): number {
    const now = clock.now().getTime();
    const entry = unknownFailures.get(email) ?? { failures: 0, lockedUntil: 0 };
    if (entry.lockedUntil > now) tooMany(entry.lockedUntil);
    entry.failures += 1;
    const wait = lockoutMs(entry.failures);
    if (wait) entry.lockedUntil = now + wait;
    unknownFailures.delete(email);
    if (unknownFailures.size >= MAX_REMEMBERED_UNKNOWN) unknownFailures.delete(unknownFailures.keys().next().value as string);
    unknownFailures.set(email, entry);
    return entry.failures;
  }

  /**
   * Counts an attempt on a user in one guarded UPDATE, or refuses it (429) while the user waits.
   * The attempt that would be the FREE_ATTEMPTS-th failure locks the account in the same
   * statement (for FIRST_WAIT_MS, while its password is checked), so attempts arriving meanwhile
   * are refused rather than hashed. Returns the attempt's number in the current run of failures.
   */
  async function countKnownAttempt(userId: string): Promise<number> {
    const now = nowIso();
    const provisional = new Date(clock.now().getTime() + FIRST_WAIT_MS).toISOString();
    const row = await db.tx((trx) =>
      trx
        .updateTable('dashboard_users')
        .set((eb) => ({
          failed_attempts: eb('failed_attempts', '+', 1),
          locked_until: eb
            .case()
            .when('failed_attempts', '>=', FREE_ATTEMPTS - 1)
            .then(provisional)
            .else(eb.ref('locked_until'))
            .end(),
        }))
        .where('id', '=', userId)
        .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', now)]))
        .returning('failed_attempts')
        .executeTakeFirst(),
    );
    if (row) return toNumber(row.failed_attempts);
    const current = await db.executor().selectFrom('dashboard_users').select('locked_until').where('id', '=', userId).executeTakeFirst();
    tooMany(Date.parse(current?.locked_until ?? provisional));
  }

  /** A counted attempt failed: from the FREE_ATTEMPTS-th on, the account waits, doubling each time. */
  async function recordKnownFailure(userId: string, attempt: number) {
    const wait = lockoutMs(attempt);
    if (!wait) return;
    const until = new Date(clock.now().getTime() + wait).toISOString();
    await db.tx((trx) => trx.updateTable('dashboard_users').set({ locked_until: until }).where('id', '=', userId).execute());
  }

  const findSession = (token: string) =>
    db
      .executor()
      .selectFrom('dashboard_sessions')
      .innerJoin('dashboard_users', 'dashboard_users.id', 'dashboard_sessions.user_id')
      .selectAll('dashboard_sessions')
      .select([
        'dashboard_users.email',
        'dashboard_users.role',
        'dashboard_users.password_hash',
        'dashboard_users.failed_attempts',
        'dashboard_users.locked_until',
        'dashboard_users.last_sign_in_at',
        'dashboard_users.created_at as user_created_at',
        'dashboard_users.updated_at as user_updated_at',
      ])
      .where('dashboard_sessions.token_hash', '=', tokenHash(token))
      .where('dashboard_users.disabled_at', 'is', null)
      .executeTakeFirst();

  return {
    /** Creates a user; generates a password when none is given (returned once, never stored). */
    async createUser(input: {
      platformId: string;
      email: string;
      role: Role;
      password?: string;
    }): Promise<{ user: UserRow; password: string; generated: boolean }> {
      const email = normaliseEmail(input.email);
      if (!EMAIL.test(email)) throw invalidField('email', 'must be an email address');
      const generated = input.password === undefined;
      const password = input.password ?? generatePassword();
      if (password.length < PASSWORD_MIN_LENGTH || password.length > PASSWORD_MAX_LENGTH) {
        throw invalidField('password', `must be ${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters`);
      }
      const now = nowIso();
      const user: UserRow = {
        id: newId('User'),
        platform_id: input.platformId,
        email,
        password_hash: await hashing.run(() => passwords.hash(password)),
        role: input.role,
        failed_attempts: 0,
        locked_until: null,
        last_sign_in_at: null,
        created_at: now,
        updated_at: now,
      };
      try {
        await db.tx((trx) => trx.insertInto('dashboard_users').values(user).execute());
      } catch (e) {
        if (isUniqueViolation(e)) throw dashboardErrors.DASHBOARD_USER_EXISTS({ email });
        throw e;
      }
      return { user, password, generated };
    },

    /**
     * Checks email and password and opens a session in the SANDBOX. Wrong email and wrong
     * password get the same 401; from the FREE_ATTEMPTS-th failure on, the account waits (429).
     *
     * Each attempt is counted BEFORE its password is hashed, in one guarded statement that only
     * succeeds while the account is not waiting, and the attempt that reaches FREE_ATTEMPTS locks
     * the account in that same statement. Concurrent guesses therefore cannot all pass the check
     * before any of them is counted: at most FREE_ATTEMPTS hashes run before the wait, however
     * many arrive at once. A correct password then resets the count.
     */
    async signIn(emailInput: string, password: string): Promise<SignedIn & { token: string }> {
      const email = normaliseEmail(emailInput);
      const user = await db.executor().selectFrom('dashboard_users').selectAll().where('email', '=', email).executeTakeFirst();
      const attempt = user ? await countKnownAttempt(user.id) : countUnknownAttempt(email);

      let ok: boolean;
      try {
        ok = await hashing.run(() => passwords.verify(user?.password_hash, password));
      } catch (e) {
        if (!(e instanceof SemaphoreFull)) throw e;
        // Busy: the attempt stays counted (a flood must not be free), and waits like a failure.
        if (user) await recordKnownFailure(user.id, attempt);
        throw dashboardErrors.SIGN_IN_BUSY({ retryAfterSeconds: 1 });
      }
      // A disabled user (`npx corridor user disable`) gets the same answer as a wrong password.
      if (!user || !ok || user.disabled_at) {
        if (user && !ok) await recordKnownFailure(user.id, attempt);
        throw dashboardErrors.INVALID_CREDENTIALS();
      }

      const token = randomBytes(32).toString('base64url');
      const now = clock.now();
      const session: SessionRow = {
        id: newId('Session'),
        platform_id: user.platform_id,
        environment: 'SANDBOX',
        user_id: user.id,
        token_hash: tokenHash(token),
        created_at: now.toISOString(),
        expires_at: new Date(now.getTime() + deps.sessionTtlMs).toISOString(),
        revoked_at: null,
      };
      await db.tx(async (trx) => {
        await trx
          .updateTable('dashboard_users')
          .set({ failed_attempts: 0, locked_until: null, last_sign_in_at: session.created_at })
          .where('id', '=', user.id)
          .execute();
        // Housekeeping: this user's finished sessions go.
        await trx.deleteFrom('dashboard_sessions').where('user_id', '=', user.id).where('expires_at', '<', session.created_at).execute();
        await trx.insertInto('dashboard_sessions').values(session).execute();
      });
      return { token, session, user: { ...user, failed_attempts: 0, locked_until: null, last_sign_in_at: session.created_at } };
    },

    /** The live session of a cookie token, with its user; undefined when unknown, expired or signed out. */
    async session(token: string): Promise<SignedIn | undefined> {
      if (!token || token.length > 128) return undefined;
      const row = await findSession(token);
      if (!row || row.revoked_at !== null || row.expires_at <= nowIso()) return undefined;
      const session: SessionRow = {
        id: row.id,
        platform_id: row.platform_id,
        environment: row.environment,
        user_id: row.user_id,
        token_hash: row.token_hash,
        created_at: row.created_at,
        expires_at: row.expires_at,
        revoked_at: row.revoked_at,
      };
      const user: UserRow = {
        id: row.user_id,
        platform_id: row.platform_id,
        email: row.email,
        password_hash: row.password_hash,
        role: row.role,
        failed_attempts: row.failed_attempts,
        locked_until: row.locked_until,
        last_sign_in_at: row.last_sign_in_at,
        created_at: row.user_created_at,
        updated_at: row.user_updated_at,
      };
      return { session, user };
    },

    /**
     * Operator commands: disable (or enable again) a user, or set a new password. Disabling and a
     * new password end every session of the user at once. Undefined when no user has this email.
     */
    async setDisabled(emailInput: string, disabled: boolean): Promise<UserRow | undefined> {
      const email = normaliseEmail(emailInput);
      const at = nowIso();
      return db.tx(async (trx) => {
        const user = await trx.selectFrom('dashboard_users').selectAll().where('email', '=', email).executeTakeFirst();
        if (!user) return undefined;
        await trx
          .updateTable('dashboard_users')
          .set({ disabled_at: disabled ? (user.disabled_at ?? at) : null, updated_at: at })
          .where('id', '=', user.id)
          .execute();
        if (disabled)
          await trx.updateTable('dashboard_sessions').set({ revoked_at: at }).where('user_id', '=', user.id).where('revoked_at', 'is', null).execute();
        return { ...user, disabled_at: disabled ? (user.disabled_at ?? at) : null, updated_at: at };
      });
    },

    async setPassword(emailInput: string, given?: string): Promise<{ user: UserRow; password: string; generated: boolean } | undefined> {
      const email = normaliseEmail(emailInput);
      const generated = given === undefined;
      const password = given ?? generatePassword();
      if (password.length < PASSWORD_MIN_LENGTH || password.length > PASSWORD_MAX_LENGTH) {
        throw invalidField('password', `must be ${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters`);
      }
      const hash = await hashPassword(password);
      const at = nowIso();
      const user = await db.tx(async (trx) => {
        const found = await trx.selectFrom('dashboard_users').selectAll().where('email', '=', email).executeTakeFirst();
        if (!found) return undefined;
        await trx
          .updateTable('dashboard_users')
          .set({ password_hash: hash, failed_attempts: 0, locked_until: null, updated_at: at })
          .where('id', '=', found.id)
          .execute();
        await trx.updateTable('dashboard_sessions').set({ revoked_at: at }).where('user_id', '=', found.id).where('revoked_at', 'is', null).execute();
        return { ...found, password_hash: hash, failed_attempts: 0, locked_until: null, updated_at: at };
      });
      return user ? { user, password, generated } : undefined;
    },

    async signOut(sessionId: string): Promise<void> {
      const at = nowIso();
      await db.tx((trx) => trx.updateTable('dashboard_sessions').set({ revoked_at: at }).where('id', '=', sessionId).where('revoked_at', 'is', null).execute());
    },

    async setEnvironment(sessionId: string, environment: Environment): Promise<void> {
      await db.tx((trx) => trx.updateTable('dashboard_sessions').set({ environment }).where('id', '=', sessionId).execute());
    },

    csrfToken: csrfTokenOf,

    csrfMatches(token: string, presented: string | undefined): boolean {
      if (!presented) return false;
      const expected = Buffer.from(csrfTokenOf(token));
      const given = Buffer.from(presented);
      return given.length === expected.length && timingSafeEqual(given, expected);
    },

    /** Who a session acts as on the API: its platform, its current environment, its role's permissions. */
    authContext({ session, user }: SignedIn): AuthContext {
      const environment = session.environment as Environment;
      return {
        platformId: session.platform_id,
        environment,
        tokenId: session.id,
        clientId: `dashboard:${user.id}`,
        permissions: permissionsOf(user.role as Role, environment),
      };
    },

    async platformName(platformId: string): Promise<string> {
      const row = await db.executor().selectFrom('platforms').select('name').where('id', '=', platformId).executeTakeFirst();
      return row?.name ?? '';
    },
  };
}

export type DashboardService = ReturnType<typeof createDashboardService>;
