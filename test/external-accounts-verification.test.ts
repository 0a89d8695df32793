import { beforeAll, describe, expect, it } from 'vitest';
import { expectError, testContext, type TestContext } from './helpers/context.js';
import { sandboxSuffixOf } from '../src/identifiers/sandbox-fixtures.js';
import { accountBody, countAccounts, createAccount } from './helpers/external-accounts.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await testContext();
});

/** Spec "Sandbox test patterns", beneficiary verification: suffix → status and verified name. */
const OUTCOMES: Array<[string, string, string | undefined]> = [
  ['102', 'NOT_MATCHED', 'SANDBOX OTHER HOLDER'],
  ['103', 'PARTIAL_MATCH', 'A. LOVELACE'],
  ['104', 'PENDING', undefined],
  ['106', 'UNSUPPORTED', undefined],
  ['107', 'CHECKED_BY_RECEIVING_FI', undefined],
  ['000', 'MATCHED', 'Ada Lovelace'],
  ['108', 'MATCHED', 'Ada Lovelace'],
  ['002', 'MATCHED', 'Ada Lovelace'],
];

// One type per identifier family whose suffix sits in a different place or form.
const TYPES: Array<[string, string | undefined]> = [
  ['US_ACCOUNT', undefined],
  ['IBAN', 'ES'],
  ['CLABE', undefined],
  ['GBP_ACCOUNT', undefined],
  ['PIX', 'CPF'],
  ['PIX', 'EMAIL'],
  ['UPI', undefined],
  ['KES_ACCOUNT', undefined],
  ['EVM_WALLET', undefined],
  // base58 has no '0': the sandbox reads 'o' as '0' in a Solana address (…1o5 is 105)
  ['SOLANA_WALLET', undefined],
];

describe('sandbox beneficiary verification follows the last 3 digits of the primary identifier', () => {
  for (const [type, variant] of TYPES) {
    it.each(OUTCOMES)(`${type}${variant ? ` (${variant})` : ''} …%s → %s`, async (suffix, status, verifiedName) => {
      const body = accountBody(type, suffix, variant);
      expect(sandboxSuffixOf(body.fixture.primary)).toBe(suffix);
      const res = await createAccount(ctx, body);
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect(res.body.beneficiaryVerificationStatus).toBe(status);
      if (verifiedName) expect(res.body.beneficiaryVerifiedData).toEqual({ fullName: verifiedName });
      else expect(res.body.beneficiaryVerifiedData).toBeUndefined();
    });

    it(`${type}${variant ? ` (${variant})` : ''} …105 → 400 invalid account, …109 → 500; nothing stored`, async () => {
      const before = await countAccounts(ctx);
      const invalid = accountBody(type, '105', variant);
      const err = expectError(await createAccount(ctx, invalid), 400, 'INVALID_INPUT');
      expect(err.details.fields[0].field).toBe(`accountInfo.${invalid.fixture.primaryField}`);
      expectError(await createAccount(ctx, accountBody(type, '109', variant)), 500, 'INTERNAL_ERROR');
      expect(await countAccounts(ctx)).toBe(before);
    });
  }

  it('a layer-2 wallet with a beneficiary follows the table too; without one it is UNSUPPORTED', async () => {
    const withName = accountBody('LAYER2_WALLET', '102', 'LIGHTNING_ADDRESS');
    expect((await createAccount(ctx, withName)).body.beneficiaryVerificationStatus).toBe('NOT_MATCHED');
    const without = accountBody('LAYER2_WALLET', '102', 'LIGHTNING_ADDRESS');
    delete without.accountInfo.beneficiary;
    expect((await createAccount(ctx, without)).body.beneficiaryVerificationStatus).toBe('UNSUPPORTED');
    const invalid = accountBody('LAYER2_WALLET', '105', 'LIGHTNING_ADDRESS');
    delete invalid.accountInfo.beneficiary;
    expectError(await createAccount(ctx, invalid), 400, 'INVALID_INPUT');
  });
});
