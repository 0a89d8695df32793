/**
 * Requests written as the vendor's SDK (@lightsparkdev/grid 0.7.0) and CLI (grid-api cli/) send
 * them, each accepted with the same effect as its spec twin, and the unhappy paths around them.
 * The shapes below are written from the vendor's public OpenAPI and SDK types.
 */
import { bech32m } from '@scure/base';
import { beforeAll, describe, expect, it } from 'vitest';
import { sandboxIdentifier } from '../src/identifiers/sandbox-fixtures.js';
import { call, expectError, testContext, type TestContext } from './helpers/context.js';
import { createAccount, newCustomer } from './helpers/external-accounts.js';

let ctx: TestContext;
let customerId: string;
beforeAll(async () => {
  ctx = await testContext();
  customerId = await newCustomer(ctx);
});

const fields = (res: { body: any }) => (res.body.details?.fields ?? []).map((f: any) => f.field);
const person = { beneficiaryType: 'INDIVIDUAL', fullName: 'Ada Lovelace', nationality: 'GB' };
const company = { beneficiaryType: 'BUSINESS', legalName: 'Analytical Engines GmbH', registrationNumber: 'HRB 12345', taxId: 'DE123456789' };

// A Spark test-network address (sparkrt1…) and the same key on the main network (spark1…).
const SPARK_TEST = sandboxIdentifier('LAYER2_WALLET', '000', 'SPARK').primary;
const SPARK_MAIN = bech32m.encode('spark', bech32m.decode(SPARK_TEST as `${string}1${string}`).words, false);
const SOLANA = sandboxIdentifier('SOLANA_WALLET', '000').primary;
const EVM = sandboxIdentifier('EVM_WALLET', '000').primary;

/** The SDK's account infos (ExternalAccountInfoOneOf), with the sandbox identifiers ending in 000. */
const eurAccount = (extra: Record<string, unknown> = {}) => ({
  accountType: 'EUR_ACCOUNT',
  iban: 'DE89370400440532013000',
  swiftBic: 'COBADEFFXXX',
  paymentRails: ['SEPA', 'SEPA_INSTANT'],
  countries: ['DE'],
  beneficiary: { ...person },
  ...extra,
});
const mxnAccount = (extra: Record<string, unknown> = {}) => ({
  accountType: 'MXN_ACCOUNT',
  clabeNumber: '002180100000006000',
  paymentRails: ['SPEI'],
  countries: ['MX'],
  beneficiary: { ...person },
  ...extra,
});
const brlAccount = (extra: Record<string, unknown> = {}) => ({
  accountType: 'BRL_ACCOUNT',
  pixKey: '31416241000',
  pixKeyType: 'CPF',
  taxId: '31416241000',
  paymentRails: ['PIX'],
  countries: ['BR'],
  beneficiary: { ...person },
  ...extra,
});

async function create(currency: string, accountInfo: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  return createAccount(ctx, { customerId, currency, accountInfo, ...extra });
}

/** Removes what differs between two creations of the same account. */
const same = (a: any) => {
  const { id: _id, createdAt: _c, updatedAt: _u, ...rest } = a;
  return rest;
};

describe('the vendor account types are the spec types under another name', () => {
  it('EUR_ACCOUNT is an IBAN account: stored and answered as IBAN, with its rails and countries', async () => {
    const res = await create('EUR', eurAccount());
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.accountInfo).toEqual({
      accountType: 'IBAN',
      iban: 'DE89370400440532013000',
      swiftBic: 'COBADEFFXXX',
      paymentRails: ['SEPA', 'SEPA_INSTANT'],
      countries: ['DE'],
      beneficiary: person,
    });
    expect(res.body.beneficiaryVerificationStatus).toBe('MATCHED');
    // The spec's spelling of the same account has the same effect.
    const twin = await create('EUR', { ...eurAccount(), accountType: 'IBAN' });
    expect(same(twin.body)).toEqual(same(res.body));
    expect((await call(ctx, 'GET', `/customers/external-accounts/${res.body.id}`)).body).toEqual(res.body);
  });

  it("EUR_ACCOUNT accepts the OpenAPI's swiftCode for the BIC; both names with different values are refused", async () => {
    const info = eurAccount({ swiftCode: 'COBADEFFXXX' });
    delete (info as Record<string, unknown>).swiftBic;
    const res = await create('EUR', info);
    expect(res.status).toBe(201);
    expect(res.body.accountInfo.swiftBic).toBe('COBADEFFXXX');
    expect(res.body.accountInfo).not.toHaveProperty('swiftCode');
    expect((await create('EUR', eurAccount({ swiftCode: 'COBADEFFXXX' }))).status).toBe(201);
    const both = await create('EUR', eurAccount({ swiftCode: 'DEUTDEFFXXX' }));
    expectError(both, 400, 'INVALID_INPUT');
    expect(fields(both)).toEqual(['accountInfo.swiftCode']);
  });

  it('MXN_ACCOUNT is a CLABE account and BRL_ACCOUNT a Pix account', async () => {
    const mxn = await create('MXN', mxnAccount());
    expect(mxn.status, JSON.stringify(mxn.body)).toBe(201);
    expect(mxn.body.accountInfo).toMatchObject({ accountType: 'CLABE', clabeNumber: '002180100000006000', paymentRails: ['SPEI'], countries: ['MX'] });
    const brl = await create('BRL', brlAccount());
    expect(brl.status, JSON.stringify(brl.body)).toBe(201);
    expect(brl.body.accountInfo).toMatchObject({ accountType: 'PIX', pixKey: '31416241000', pixKeyType: 'CPF', taxId: '31416241000', paymentRails: ['PIX'], countries: ['BR'] });
    const twin = await create('BRL', { ...brlAccount(), accountType: 'PIX' });
    expect(same(twin.body)).toEqual(same(brl.body));
  });

  it("USD_ACCOUNT as the SDK sends it (no accountCategory) is a CHECKING account", async () => {
    const res = await create('USD', { accountType: 'USD_ACCOUNT', accountNumber: '1234567000', routingNumber: '021000021', paymentRails: ['ACH'], countries: ['US'], beneficiary: person });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.accountInfo).toMatchObject({ accountType: 'US_ACCOUNT', accountCategory: 'CHECKING', countries: ['US'] });
    // The spec's own spelling still requires it.
    const spec = await create('USD', { accountType: 'US_ACCOUNT', accountNumber: '1234567000', routingNumber: '021000021', beneficiary: person });
    expect(fields(expectError(spec, 400, 'INVALID_INPUT') && spec)).toContain('accountInfo.accountCategory');
  });

  it("a business beneficiary may be named by the SDK's legalName", async () => {
    const res = await create('EUR', eurAccount({ beneficiary: company }));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.accountInfo.beneficiary).toEqual({ beneficiaryType: 'BUSINESS', fullName: 'Analytical Engines GmbH', registrationNumber: 'HRB 12345', taxId: 'DE123456789' });
    const conflict = await create('EUR', eurAccount({ beneficiary: { ...company, fullName: 'Someone Else Ltd' } }));
    expectError(conflict, 400, 'INVALID_INPUT');
    expect(fields(conflict)).toEqual(['accountInfo.beneficiary.legalName']);
  });

  it.each([
    ['EUR', 'accountInfo.iban', eurAccount({ iban: 'DE88370400440532013000' })],
    ['EUR', 'accountInfo.swiftBic', eurAccount({ swiftBic: 'COBADEFF1' })],
    ['EUR', 'accountInfo.paymentRails.0', eurAccount({ paymentRails: ['SPEI'] })],
    ['USD', 'currency', eurAccount()],
    ['MXN', 'accountInfo.clabeNumber', mxnAccount({ clabeNumber: '002180100000006001' })],
    ['MXN', 'accountInfo.beneficiary', mxnAccount({ beneficiary: undefined })],
    ['BRL', 'accountInfo.pixKey', brlAccount({ pixKey: '31416241001' })],
    ['BRL', 'accountInfo.bankAccountColor', brlAccount({ bankAccountColor: 'red' })],
  ])('%s vendor account with one rule broken is refused like its twin, naming %s', async (currency, field, accountInfo) => {
    const res = await create(currency as string, JSON.parse(JSON.stringify(accountInfo)));
    expectError(res, 400, 'INVALID_INPUT');
    expect(fields(res)).toContain(field);
  });
});

describe('countries on bank account infos', () => {
  it('is stored and returned; wallets have none', async () => {
    const res = await create('EUR', eurAccount({ countries: ['DE', 'AT'] }));
    expect(res.status).toBe(201);
    expect((await call(ctx, 'GET', `/customers/external-accounts/${res.body.id}`)).body.accountInfo.countries).toEqual(['DE', 'AT']);
    const wallet = await create('USDC', { accountType: 'SOLANA_WALLET', address: SOLANA, countries: ['US'] }, { cryptoNetwork: 'SOLANA_DEVNET' });
    expect(fields(expectError(wallet, 400, 'INVALID_INPUT') && wallet)).toEqual(['accountInfo.countries']);
  });

  it.each([
    ['an unknown code', ['XX'], 'accountInfo.countries.0'],
    ['lower case', ['de'], 'accountInfo.countries.0'],
    ['a country name', ['Germany'], 'accountInfo.countries.0'],
    ['a string, not an array', 'DE', 'accountInfo.countries'],
    ['an empty array', [], 'accountInfo.countries'],
    ['the same country twice', ['DE', 'DE'], 'accountInfo.countries'],
  ])('refuses %s', async (_what, countries, field) => {
    const res = await create('EUR', eurAccount({ countries }));
    expectError(res, 400, 'INVALID_INPUT');
    expect(fields(res)).toContain(field);
  });

  it('refuses a country that a single-country account cannot serve', async () => {
    const res = await create('MXN', mxnAccount({ countries: ['MX', 'US'] }));
    expectError(res, 400, 'INVALID_INPUT');
    expect(fields(res)).toEqual(['accountInfo.countries.1']);
  });
});

describe('crypto wallets are self-custody and their network follows from what is given', () => {
  it('SPARK_WALLET needs no cryptoNetwork and no beneficiary: the address names the network', async () => {
    const res = await create('BTC', { accountType: 'SPARK_WALLET', address: SPARK_TEST });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ cryptoNetwork: 'LAYER2_TESTNET', beneficiaryVerificationStatus: 'UNSUPPORTED', accountInfo: { accountType: 'LAYER2_WALLET', address: SPARK_TEST } });
    const main = await create('BTC', { accountType: 'SPARK_WALLET', address: SPARK_MAIN });
    expect(main.status, JSON.stringify(main.body)).toBe(201);
    expect(main.body.cryptoNetwork).toBe('LAYER2_MAINNET');
    // The spec's spelling with a Spark address reads the network the same way.
    const twin = await create('BTC', { accountType: 'LAYER2_WALLET', address: SPARK_TEST });
    expect(same(twin.body)).toEqual(same(res.body));
  });

  it('Solana and EVM wallets need no beneficiary', async () => {
    const sol = await create('USDC', { accountType: 'SOLANA_WALLET', address: SOLANA }, { cryptoNetwork: 'SOLANA_DEVNET' });
    expect(sol.status, JSON.stringify(sol.body)).toBe(201);
    expect(sol.body.beneficiaryVerificationStatus).toBe('UNSUPPORTED');
    const base = await create('USDC', { accountType: 'BASE_WALLET', address: EVM }, { cryptoNetwork: 'BASE_TESTNET' });
    expect(base.status, JSON.stringify(base.body)).toBe(201);
    expect(base.body).toMatchObject({ cryptoNetwork: 'BASE_TESTNET', accountInfo: { accountType: 'EVM_WALLET', address: EVM } });
  });

  it.each([
    ['a Spark wallet with a Lightning address', 'BTC', { accountType: 'SPARK_WALLET', address: 'sandbox000@example.com' }, undefined, 'accountInfo.address'],
    ['a Spark wallet whose checksum is broken', 'BTC', { accountType: 'SPARK_WALLET', address: SPARK_TEST.slice(0, -1) + (SPARK_TEST.endsWith('q') ? 'p' : 'q') }, undefined, 'accountInfo.address'],
    ['a test-network Spark address on the main network', 'BTC', { accountType: 'SPARK_WALLET', address: SPARK_TEST }, 'LAYER2_MAINNET', 'accountInfo.address'],
    ['a Spark wallet on a Solana network', 'BTC', { accountType: 'SPARK_WALLET', address: SPARK_TEST }, 'SOLANA_DEVNET', 'cryptoNetwork'],
    ['a Spark wallet in USDC', 'USDC', { accountType: 'SPARK_WALLET', address: SPARK_TEST }, undefined, 'currency'],
    ['a Solana wallet without a network', 'USDC', { accountType: 'SOLANA_WALLET', address: SOLANA }, undefined, 'cryptoNetwork'],
    ['a Solana wallet with an EVM address', 'USDC', { accountType: 'SOLANA_WALLET', address: EVM }, 'SOLANA_DEVNET', 'accountInfo.address'],
    ['a Base wallet without a network', 'USDC', { accountType: 'BASE_WALLET', address: EVM }, undefined, 'cryptoNetwork'],
    ['a Base wallet on Ethereum', 'USDC', { accountType: 'BASE_WALLET', address: EVM }, 'ETHEREUM_TESTNET', 'cryptoNetwork'],
    ['a Base wallet with a Solana address', 'USDC', { accountType: 'BASE_WALLET', address: SOLANA }, 'BASE_TESTNET', 'accountInfo.address'],
    ['a Lightning address without a network', 'BTC', { accountType: 'LAYER2_WALLET', address: 'sandbox000@example.com' }, undefined, 'cryptoNetwork'],
  ])('refuses %s', async (_what, currency, accountInfo, cryptoNetwork, field) => {
    const res = await create(currency, accountInfo, cryptoNetwork ? { cryptoNetwork } : {});
    expectError(res, 400, 'INVALID_INPUT');
    expect(fields(res)).toEqual([field]);
  });

  it('PRODUCTION refuses a Spark address of a test network, naming the address', async () => {
    const auth = await ctx.platform.token(['VIEW', 'MANAGE'], 'PRODUCTION');
    const res = await createAccount(ctx, { currency: 'BTC', accountInfo: { accountType: 'SPARK_WALLET', address: SPARK_TEST } }, { auth, path: '/platform/external-accounts' });
    expectError(res, 400, 'INVALID_INPUT');
    expect(fields(res)).toEqual(['accountInfo.address']);
    const main = await createAccount(ctx, { currency: 'BTC', accountInfo: { accountType: 'SPARK_WALLET', address: SPARK_MAIN } }, { auth, path: '/platform/external-accounts' });
    expect(main.status, JSON.stringify(main.body)).toBe(201);
    expect(main.body).toMatchObject({ customerId: null, cryptoNetwork: 'LAYER2_MAINNET' });
  });
});
