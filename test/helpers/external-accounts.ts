import {
  sandboxIdentifier,
  sandboxVariants,
  SandboxSuffixImpossibleError,
  SANDBOX_ACCOUNT_TYPES,
  type SandboxIdentifier,
} from '../../src/identifiers/sandbox-fixtures.js';
import { call, type TestContext } from './context.js';

export const BENEFICIARY = {
  beneficiaryType: 'INDIVIDUAL',
  fullName: 'Ada Lovelace',
  address: { line1: '12 St James Square', postalCode: 'SW1Y 4JH', country: 'GB' },
};

/**
 * A valid create body for an account type, built from the published sandbox identifier ending in
 * `suffix` (docs/sandbox-test-identifiers.md). Wallets whose alphabet lacks the suffix's digits
 * fall back to the first suffix they can end in.
 */
export function accountBody(
  accountType: string,
  suffix = '000',
  variant?: string,
  extra: Record<string, unknown> = {},
): Record<string, any> & { fixture: SandboxIdentifier } {
  let fixture;
  try {
    fixture = sandboxIdentifier(accountType, suffix, variant);
  } catch (e) {
    if (!(e instanceof SandboxSuffixImpossibleError)) throw e;
    fixture = sandboxIdentifier(accountType, '222', variant);
  }
  const body: Record<string, any> = { currency: fixture.currency, accountInfo: { ...fixture.accountInfo, beneficiary: structuredClone(BENEFICIARY) } };
  if (fixture.cryptoNetwork) body.cryptoNetwork = fixture.cryptoNetwork;
  return { ...body, ...extra, fixture };
}

/** Every (accountType, variant) pair the fixtures know. */
export const TYPE_VARIANTS: Array<[string, string]> = SANDBOX_ACCOUNT_TYPES.flatMap((t) => sandboxVariants(t).map((v) => [t, v] as [string, string]));

export async function createAccount(ctx: TestContext, body: Record<string, unknown>, opts: { auth?: string; path?: string } = {}) {
  const { fixture: _fixture, ...payload } = body as Record<string, unknown> & { fixture?: unknown };
  return call(ctx, 'POST', opts.path ?? '/customers/external-accounts', { auth: opts.auth, body: payload });
}

export async function newCustomer(ctx: TestContext, auth?: string): Promise<string> {
  const res = await call(ctx, 'POST', '/customers', {
    auth,
    body: { platformCustomerId: `ext-${Math.random().toString(36).slice(2)}`, customerType: 'INDIVIDUAL', fullName: 'Ada Lovelace', currencies: ['USD'] },
  });
  if (res.status !== 201) throw new Error(`customer: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.id;
}

export async function countAccounts(ctx: TestContext): Promise<number> {
  const r = await ctx.container.db
    .executor()
    .selectFrom('external_accounts')
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  return Number(r.n);
}
