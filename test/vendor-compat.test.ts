/**
 * Requests written as the vendor's SDK (@lightsparkdev/grid 0.7.0) and CLI (grid-api cli/) send
 * them, each accepted with the same effect as its spec twin, and the unhappy paths around them.
 * The shapes below are written from the vendor's public OpenAPI and SDK types.
 */
import { bech32m } from '@scure/base';
import { beforeAll, describe, expect, it } from 'vitest';
import { sandboxIdentifier } from '../src/identifiers/sandbox-fixtures.js';
import { call, expectError, testContext, type TestContext, type TestPlatform } from './helpers/context.js';
import { accountBody, createAccount, newCustomer } from './helpers/external-accounts.js';
import { customerWithAccounts } from './helpers/ledger.js';
import { balance, externalAccount, fundedCustomer, quoteFromAccount } from './helpers/payments.js';
import { startWebhookReceiver } from './helpers/webhook-receiver.js';

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
    expect(brl.body.accountInfo).toMatchObject({
      accountType: 'PIX',
      pixKey: '31416241000',
      pixKeyType: 'CPF',
      taxId: '31416241000',
      paymentRails: ['PIX'],
      countries: ['BR'],
    });
    const twin = await create('BRL', { ...brlAccount(), accountType: 'PIX' });
    expect(same(twin.body)).toEqual(same(brl.body));
  });

  it('USD_ACCOUNT as the SDK sends it (no accountCategory) is a CHECKING account', async () => {
    const res = await create('USD', {
      accountType: 'USD_ACCOUNT',
      accountNumber: '1234567000',
      routingNumber: '021000021',
      paymentRails: ['ACH'],
      countries: ['US'],
      beneficiary: person,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.accountInfo).toMatchObject({ accountType: 'US_ACCOUNT', accountCategory: 'CHECKING', countries: ['US'] });
    // The spec's own spelling still requires it.
    const spec = await create('USD', { accountType: 'US_ACCOUNT', accountNumber: '1234567000', routingNumber: '021000021', beneficiary: person });
    expect(fields(expectError(spec, 400, 'INVALID_INPUT') && spec)).toContain('accountInfo.accountCategory');
  });

  it("a business beneficiary may be named by the SDK's legalName", async () => {
    const res = await create('EUR', eurAccount({ beneficiary: company }));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.accountInfo.beneficiary).toEqual({
      beneficiaryType: 'BUSINESS',
      fullName: 'Analytical Engines GmbH',
      registrationNumber: 'HRB 12345',
      taxId: 'DE123456789',
    });
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
    expect(res.body).toMatchObject({
      cryptoNetwork: 'LAYER2_TESTNET',
      beneficiaryVerificationStatus: 'UNSUPPORTED',
      accountInfo: { accountType: 'LAYER2_WALLET', address: SPARK_TEST },
    });
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
    [
      'a Spark wallet whose checksum is broken',
      'BTC',
      { accountType: 'SPARK_WALLET', address: SPARK_TEST.slice(0, -1) + (SPARK_TEST.endsWith('q') ? 'p' : 'q') },
      undefined,
      'accountInfo.address',
    ],
    ['a test-network Spark address on the main network', 'BTC', { accountType: 'SPARK_WALLET', address: SPARK_TEST }, 'LAYER2_MAINNET', 'accountInfo.address'],
    ['a Spark wallet on a Solana network', 'BTC', { accountType: 'SPARK_WALLET', address: SPARK_TEST }, 'SOLANA_DEVNET', 'cryptoNetwork'],
    ['a Spark wallet in USDC', 'USDC', { accountType: 'SPARK_WALLET', address: SPARK_TEST }, undefined, 'currency'],
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
    const res = await createAccount(
      ctx,
      { currency: 'BTC', accountInfo: { accountType: 'SPARK_WALLET', address: SPARK_TEST } },
      { auth, path: '/platform/external-accounts' },
    );
    expectError(res, 400, 'INVALID_INPUT');
    expect(fields(res)).toEqual(['accountInfo.address']);
    const main = await createAccount(
      ctx,
      { currency: 'BTC', accountInfo: { accountType: 'SPARK_WALLET', address: SPARK_MAIN } },
      { auth, path: '/platform/external-accounts' },
    );
    expect(main.status, JSON.stringify(main.body)).toBe(201);
    expect(main.body).toMatchObject({ customerId: null, cryptoNetwork: 'LAYER2_MAINNET' });
  });
});

/** A platform of its own, so its lists hold only what a test made. */
async function platform(): Promise<TestPlatform> {
  return ctx.newPlatform('Vendor client platform');
}

describe('customers list: isIncludingDeleted', () => {
  it('is includeDeleted under the SDK name; both names must agree', async () => {
    const p = await platform();
    const kept = await call(ctx, 'POST', '/customers', {
      auth: p.auth,
      body: { platformCustomerId: 'kept', customerType: 'INDIVIDUAL', fullName: 'Ada Lovelace' },
    });
    const gone = await call(ctx, 'POST', '/customers', {
      auth: p.auth,
      body: { platformCustomerId: 'gone', customerType: 'INDIVIDUAL', fullName: 'Bea Gone' },
    });
    expect((await call(ctx, 'DELETE', `/customers/${gone.body.id}`, { auth: p.auth })).status).toBe(200);
    const ids = async (query: Record<string, string>) => (await call(ctx, 'GET', '/customers', { auth: p.auth, query })).body.data.map((c: any) => c.id);
    expect(await ids({ isIncludingDeleted: 'true' })).toEqual([gone.body.id, kept.body.id]);
    expect(await ids({ isIncludingDeleted: 'true' })).toEqual(await ids({ includeDeleted: 'true' }));
    expect(await ids({ isIncludingDeleted: 'false' })).toEqual([kept.body.id]);
    expect(await ids({ isIncludingDeleted: 'true', includeDeleted: 'true' })).toEqual([gone.body.id, kept.body.id]);
    const both = await call(ctx, 'GET', '/customers', { auth: p.auth, query: { isIncludingDeleted: 'true', includeDeleted: 'false' } });
    expect(fields(expectError(both, 400, 'INVALID_INPUT') && both)).toEqual(['isIncludingDeleted']);
    const typo = await call(ctx, 'GET', '/customers', { auth: p.auth, query: { isIncludingDeleted: 'yes' } });
    expect(fields(expectError(typo, 400, 'INVALID_INPUT') && typo)).toEqual(['isIncludingDeleted']);
  });
});

describe('transactions list: startDate, endDate, sortOrder, reference', () => {
  let p: TestPlatform;
  let txs: any[];
  beforeAll(async () => {
    p = await platform();
    const payer = await fundedCustomer(ctx, ['USD'], 100_000, p.auth);
    const dest = await externalAccount(ctx, 'US_ACCOUNT', '000', { customerId: payer.customer.id, auth: p.auth });
    txs = [];
    for (const amount of [1_000, 2_000, 3_000]) {
      const r = await call(ctx, 'POST', '/transfer-out', {
        auth: p.auth,
        body: { source: { accountId: payer.accounts.USD.id }, destination: { accountId: dest.id }, amount },
      });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      txs.push(r.body);
    }
  });
  const list = (query: Record<string, string | number>) => call(ctx, 'GET', '/transactions', { auth: p.auth, query });
  const idsOf = (res: any) => res.body.data.map((t: any) => t.id);

  it('sortOrder asc lists oldest first, page by page; desc is the default order', async () => {
    const all = txs.map((t) => t.id);
    expect(idsOf(await list({}))).toEqual([...all].reverse());
    expect(idsOf(await list({ sortOrder: 'desc' }))).toEqual([...all].reverse());
    const first = await list({ sortOrder: 'asc', limit: 2 });
    expect(idsOf(first)).toEqual(all.slice(0, 2));
    expect(first.body).toMatchObject({ hasMore: true, totalCount: 3 });
    const second = await list({ sortOrder: 'asc', limit: 2, cursor: first.body.nextCursor });
    expect(idsOf(second)).toEqual(all.slice(2));
    // A cursor belongs to its order.
    const mixed = await list({ sortOrder: 'desc', limit: 2, cursor: first.body.nextCursor });
    expect(fields(expectError(mixed, 400, 'INVALID_INPUT') && mixed)).toEqual(['cursor']);
    const bad = await list({ sortOrder: 'ASC' });
    expect(fields(expectError(bad, 400, 'INVALID_INPUT') && bad)).toEqual(['sortOrder']);
  });

  it('startDate and endDate are createdAfter and createdBefore (inclusive)', async () => {
    const [a, b, c] = txs;
    const vendor = await list({ startDate: b.createdAt, endDate: c.createdAt });
    const spec = await list({ createdAfter: b.createdAt, createdBefore: c.createdAt });
    expect(idsOf(vendor)).toEqual(idsOf(spec));
    expect(idsOf(vendor)).toEqual(expect.arrayContaining([b.id, c.id]));
    expect(idsOf(await list({ endDate: a.createdAt }))).toEqual(idsOf(await list({ createdBefore: a.createdAt })));
    expect(idsOf(await list({ endDate: a.createdAt }))).toContain(a.id);
    expect(idsOf(await list({ startDate: '2999-01-01T00:00:00Z' }))).toEqual([]);
    // The same instant written another way is no conflict; another instant is.
    expect((await list({ startDate: b.createdAt, createdAfter: b.createdAt.replace('Z', '+00:00') })).status).toBe(200);
    const differ = await list({ startDate: '2020-01-01T00:00:00Z', createdAfter: '2021-01-01T00:00:00Z' });
    expect(fields(expectError(differ, 400, 'INVALID_INPUT') && differ)).toEqual(['startDate']);
    const notADate = await list({ startDate: 'yesterday' });
    expect(fields(expectError(notADate, 400, 'INVALID_INPUT') && notADate)).toEqual(['startDate']);
  });

  it('reference finds the transaction of a reconciliation reference', async () => {
    const target = txs[1];
    const found = await list({ reference: target.reconciliationInstructions.reference });
    expect(idsOf(found)).toEqual([target.id]);
    expect(found.body.totalCount).toBe(1);
    expect((await list({ reference: 'CRD0000000000' })).body).toMatchObject({ data: [], totalCount: 0 });
    // Another platform's reference finds nothing.
    expect((await call(ctx, 'GET', '/transactions', { query: { reference: target.reconciliationInstructions.reference } })).body.totalCount).toBe(0);
  });
});

describe('quotes list: sendingAccountId and receivingAccountId', () => {
  it('filters by the source internal account and the destination external account', async () => {
    const p = await platform();
    const payer = await fundedCustomer(ctx, ['USD'], 100_000, p.auth);
    const one = await externalAccount(ctx, 'US_ACCOUNT', '000', { customerId: payer.customer.id, auth: p.auth });
    const two = await externalAccount(ctx, 'IBAN', '000', { customerId: payer.customer.id, auth: p.auth, variant: 'DE' });
    const q1 = await quoteFromAccount(ctx, payer.accounts.USD.id, one.id, 1_000, {}, p.auth);
    const q2 = await quoteFromAccount(ctx, payer.accounts.USD.id, two.id, 1_000, {}, p.auth);
    expect([q1.status, q2.status], JSON.stringify([q1.body, q2.body])).toEqual([201, 201]);
    const ids = async (query: Record<string, string>) => {
      const r = await call(ctx, 'GET', '/quotes', { auth: p.auth, query });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      return r.body.data.map((q: any) => q.id);
    };
    expect(await ids({ receivingAccountId: one.id })).toEqual([q1.body.id]);
    expect(await ids({ receivingAccountId: two.id })).toEqual([q2.body.id]);
    expect(await ids({ sendingAccountId: payer.accounts.USD.id })).toEqual([q2.body.id, q1.body.id]);
    expect(await ids({ sendingAccountId: payer.accounts.USD.id, receivingAccountId: two.id })).toEqual([q2.body.id]);
    // A quote pulling from an external account (ACH) is found by that account too.
    const pulled = await quoteFromAccount(ctx, one.id, two.id, 1_000, {}, p.auth);
    expect(pulled.status, JSON.stringify(pulled.body)).toBe(201);
    expect(await ids({ sendingAccountId: one.id })).toEqual([pulled.body.id]);
    expect(await ids({ sendingAccountId: payer.accounts.USD.id })).toEqual([q2.body.id, q1.body.id]);
    expect(await ids({ sendingAccountId: two.id })).toEqual([]);
    // Another platform sees none of them.
    expect((await call(ctx, 'GET', '/quotes', { query: { sendingAccountId: payer.accounts.USD.id } })).body.totalCount).toBe(0);
    const bad = await call(ctx, 'GET', '/quotes', { auth: p.auth, query: { receivingAccountId: payer.accounts.USD.id } });
    expect(fields(expectError(bad, 400, 'INVALID_INPUT') && bad)).toEqual(['receivingAccountId']);
    const notAnId = await call(ctx, 'GET', '/quotes', { auth: p.auth, query: { sendingAccountId: 'Customer:019a6f1e-8f3c-7cc1-9d6e-2b8f0c2a4e11' } });
    expect(fields(expectError(notAnId, 400, 'INVALID_INPUT') && notAnId)).toEqual(['sendingAccountId']);
  });
});

describe('receiver lookups name the paying customer', () => {
  let p: TestPlatform;
  let payer: any;
  let receiver: any;
  beforeAll(async () => {
    p = await platform();
    payer = (await customerWithAccounts(ctx, ['EUR', 'USD'], { auth: p.auth })).customer;
    receiver = (await customerWithAccounts(ctx, ['MXN'], { auth: p.auth })).customer;
  });
  const lookup = (query: Record<string, string>, auth = p.auth) => call(ctx, 'GET', `/receiver/uma/${receiver.umaAddress}`, { auth, query });
  const priced = (res: any) => ({ sending: res.body.sendingCurrency.code, currencies: res.body.supportedCurrencies });

  it("customerId or senderUmaAddress prices the lookup from the payer's currency", async () => {
    const byId = await lookup({ customerId: payer.id });
    expect(byId.status, JSON.stringify(byId.body)).toBe(200);
    expect(byId.body.sendingCurrency.code).toBe('EUR');
    expect(priced(await lookup({ senderUmaAddress: payer.umaAddress }))).toEqual(priced(byId));
    expect(priced(await lookup({ customerId: payer.id, senderUmaAddress: payer.umaAddress }))).toEqual(priced(byId));
    expect(priced(await lookup({ sendingCurrency: 'EUR' }))).toEqual(priced(byId));
    // The payer's other currency, asked for, prices from it.
    expect((await lookup({ customerId: payer.id, sendingCurrency: 'USD' })).body.sendingCurrency.code).toBe('USD');
    const account = await externalAccount(ctx, 'US_ACCOUNT', '000', { customerId: receiver.id, auth: p.auth });
    const toAccount = await call(ctx, 'GET', `/receiver/external-account/${account.id}`, { auth: p.auth, query: { customerId: payer.id } });
    expect(toAccount.status, JSON.stringify(toAccount.body)).toBe(200);
    expect(toAccount.body.sendingCurrency.code).toBe('EUR');
  });

  it("refuses a payer that is not the caller's, a deleted one, a mismatch and a currency the payer lacks", async () => {
    expectError(await lookup({ customerId: payer.id }, ctx.platform.auth), 404, 'CUSTOMER_NOT_FOUND');
    expectError(await lookup({ senderUmaAddress: payer.umaAddress }, ctx.platform.auth), 404, 'CUSTOMER_NOT_FOUND');
    expectError(await lookup({ customerId: 'Customer:019a6f1e-8f3c-7cc1-9d6e-2b8f0c2a4e11' }), 404, 'CUSTOMER_NOT_FOUND');
    const mismatch = await lookup({ customerId: payer.id, senderUmaAddress: receiver.umaAddress });
    expect(fields(expectError(mismatch, 400, 'INVALID_INPUT') && mismatch)).toEqual(['senderUmaAddress']);
    const lacks = await lookup({ customerId: payer.id, sendingCurrency: 'GBP' });
    expect(fields(expectError(lacks, 400, 'INVALID_INPUT') && lacks)).toEqual(['sendingCurrency']);
    const malformed = await lookup({ senderUmaAddress: 'alice' });
    expect(fields(expectError(malformed, 400, 'INVALID_INPUT') && malformed)).toEqual(['senderUmaAddress']);
    const gone = (await customerWithAccounts(ctx, ['USD'], { auth: p.auth })).customer;
    await call(ctx, 'DELETE', `/customers/${gone.id}`, { auth: p.auth });
    expectError(await lookup({ customerId: gone.id }), 410, 'CUSTOMER_DELETED');
    expectError(await lookup({ senderUmaAddress: gone.umaAddress }), 410, 'CUSTOMER_DELETED');
  });
});

describe('POST /sandbox/uma/receive in the SDK and CLI shapes', () => {
  let p: TestPlatform;
  let receiver: any;
  let account: string;
  beforeAll(async () => {
    p = await platform();
    const c = await customerWithAccounts(ctx, ['USD'], { auth: p.auth });
    receiver = c.customer;
    account = c.accounts.USD.id;
  });
  const receive = (body: Record<string, unknown>, auth = p.auth) => call(ctx, 'POST', '/sandbox/uma/receive', { auth, body });

  it('takes receivingCurrencyAmount/Code (SDK), amount/currency (CLI) and customerId, like the spec names', async () => {
    const before = await balance(ctx, account, p.auth);
    const spec = await receive({
      receiverUmaAddress: receiver.umaAddress,
      currencyCode: 'USD',
      currencyAmount: 1_000,
      senderUmaAddress: '$payer@vendor.example',
    });
    expect(spec.status, JSON.stringify(spec.body)).toBe(200);
    const sdk = await receive({
      senderUmaAddress: '$payer@vendor.example',
      receivingCurrencyAmount: 1_000,
      receivingCurrencyCode: 'USD',
      customerId: receiver.id,
    });
    expect(sdk.status, JSON.stringify(sdk.body)).toBe(200);
    const cli = await receive({ receiverUmaAddress: receiver.umaAddress, amount: 1_000, currency: 'USD' });
    expect(cli.status, JSON.stringify(cli.body)).toBe(200);
    for (const r of [spec, sdk, cli])
      expect(r.body).toMatchObject({ type: 'INCOMING', status: 'COMPLETED', receivedAmount: { amount: 1_000, currency: { code: 'USD' } } });
    expect(sdk.body.source).toEqual(spec.body.source);
    expect(await balance(ctx, account, p.auth)).toBe(before + 3_000);
    // Both names with the same value are one value.
    expect(
      (
        await receive({
          receiverUmaAddress: receiver.umaAddress,
          customerId: receiver.id,
          currencyCode: 'USD',
          receivingCurrencyCode: 'USD',
          currencyAmount: 5,
          receivingCurrencyAmount: 5,
        })
      ).status,
    ).toBe(200);
  });

  it.each([
    [
      'a different code under two names',
      { receiverUmaAddress: '@', currencyCode: 'USD', receivingCurrencyCode: 'EUR', currencyAmount: 5 },
      'receivingCurrencyCode',
    ],
    ['a different amount under two names', { receiverUmaAddress: '@', currencyCode: 'USD', amount: 6, receivingCurrencyAmount: 5 }, 'amount'],
    ['no amount at all', { receiverUmaAddress: '@', currencyCode: 'USD' }, 'currencyAmount'],
    ['no currency at all', { receiverUmaAddress: '@', receivingCurrencyAmount: 5 }, 'currencyCode'],
    ['no receiver at all', { receivingCurrencyCode: 'USD', receivingCurrencyAmount: 5 }, 'receiverUmaAddress'],
    ['an amount as text', { receiverUmaAddress: '@', receivingCurrencyCode: 'USD', receivingCurrencyAmount: '5' }, 'receivingCurrencyAmount'],
    ['a zero amount', { receiverUmaAddress: '@', currencyCode: 'USD', amount: 0 }, 'amount'],
    ['an unknown field', { receiverUmaAddress: '@', currencyCode: 'USD', currencyAmount: 5, receivingAmount: 5 }, 'receivingAmount'],
  ])('refuses %s, naming the field', async (_what, body, field) => {
    const b: Record<string, unknown> = { ...body };
    if (b.receiverUmaAddress === '@') b.receiverUmaAddress = receiver.umaAddress;
    const res = await receive(b);
    expect(fields(expectError(res, 400, 'INVALID_INPUT') && res)).toEqual([field]);
  });

  it("refuses another platform's customer (404) and a customerId that is not the address's customer", async () => {
    expectError(
      await receive({ customerId: receiver.id, receivingCurrencyCode: 'USD', receivingCurrencyAmount: 5 }, ctx.platform.auth),
      404,
      'CUSTOMER_NOT_FOUND',
    );
    const other = (await customerWithAccounts(ctx, ['USD'], { auth: p.auth })).customer;
    const mismatch = await receive({ customerId: other.id, receiverUmaAddress: receiver.umaAddress, receivingCurrencyCode: 'USD', receivingCurrencyAmount: 5 });
    expect(fields(expectError(mismatch, 400, 'INVALID_INPUT') && mismatch)).toEqual(['customerId']);
  });
});

describe('POST /transfer-out moves the whole balance only when asked to in so many words', () => {
  const transfers = async (p: TestPlatform, customerId: string) =>
    (await call(ctx, 'GET', '/transactions', { auth: p.auth, query: { customerId } })).body.data as unknown[];

  it.each(['CORRIDOR', 'GRID'])('%s: without amount it is refused naming amount, and nothing moves', async (profile) => {
    const p = await platform();
    expect((await call(ctx, 'PATCH', '/config', { auth: p.auth, body: { compatibility: profile } })).status).toBe(200);
    const a = await fundedCustomer(ctx, ['USD'], 12_345, p.auth);
    const dest = await externalAccount(ctx, 'US_ACCOUNT', '000', { customerId: a.customer.id, auth: p.auth });
    const route = { source: { accountId: a.accounts.USD.id }, destination: { accountId: dest.id } };
    for (const body of [route, { ...route, sweepBalance: false }, { ...route, description: 'forgot the amount' }]) {
      const res = await call(ctx, 'POST', '/transfer-out', { auth: p.auth, body });
      expect(fields(expectError(res, 400, 'INVALID_INPUT') && res)).toEqual(['amount']);
      expect(res.body.details.fields[0].message).toContain('sweepBalance');
    }
    expect(await balance(ctx, a.accounts.USD.id, p.auth)).toBe(12_345);
    expect(await transfers(p, a.customer.id)).toEqual([]);
  });

  it('sweepBalance: true pays out everything, as the same request with the balance as amount', async () => {
    const p = await platform();
    const a = await fundedCustomer(ctx, ['USD'], 12_345, p.auth);
    const b = await fundedCustomer(ctx, ['USD'], 12_345, p.auth);
    const destA = await externalAccount(ctx, 'US_ACCOUNT', '000', { customerId: a.customer.id, auth: p.auth });
    const destB = await externalAccount(ctx, 'US_ACCOUNT', '000', { customerId: b.customer.id, auth: p.auth });
    const whole = await call(ctx, 'POST', '/transfer-out', {
      auth: p.auth,
      body: { source: { accountId: a.accounts.USD.id }, destination: { accountId: destA.id }, sweepBalance: true },
    });
    expect(whole.status, JSON.stringify(whole.body)).toBe(201);
    const twin = await call(ctx, 'POST', '/transfer-out', {
      auth: p.auth,
      body: { source: { accountId: b.accounts.USD.id }, destination: { accountId: destB.id }, amount: 12_345 },
    });
    for (const k of ['sentAmount', 'receivedAmount', 'fees', 'status', 'type']) expect(whole.body[k], k).toEqual(twin.body[k]);
    expect(whole.body.sentAmount.amount).toBe(12_345);
    expect(await balance(ctx, a.accounts.USD.id, p.auth)).toBe(0);
    // Nothing left: nothing to move.
    const empty = await call(ctx, 'POST', '/transfer-out', {
      auth: p.auth,
      body: { source: { accountId: a.accounts.USD.id }, destination: { accountId: destA.id }, sweepBalance: true },
    });
    expect(expectError(empty, 400, 'INSUFFICIENT_FUNDS').details).toMatchObject({ accountId: a.accounts.USD.id, available: 0 });
  });

  it.each([
    ['an amount and a sweep at once', { amount: 5, sweepBalance: true }, 'sweepBalance'],
    ['a sweep spelled as text', { sweepBalance: 'true' }, 'sweepBalance'],
    ['an amount as text', { amount: '5' }, 'amount'],
    ['the word ALL as amount', { amount: 'ALL' }, 'amount'],
  ])('refuses %s, naming %s, and moves nothing', async (_what, extra, field) => {
    const p = await platform();
    const a = await fundedCustomer(ctx, ['USD'], 1_000, p.auth);
    const dest = await externalAccount(ctx, 'US_ACCOUNT', '000', { customerId: a.customer.id, auth: p.auth });
    const res = await call(ctx, 'POST', '/transfer-out', {
      auth: p.auth,
      body: { source: { accountId: a.accounts.USD.id }, destination: { accountId: dest.id }, ...extra },
    });
    expect(fields(expectError(res, 400, 'INVALID_INPUT') && res)).toEqual([field]);
    expect(await balance(ctx, a.accounts.USD.id, p.auth)).toBe(1_000);
    expect(await transfers(p, a.customer.id)).toEqual([]);
  });
});

describe('POST /sandbox/webhooks/test', () => {
  it('tests the configured endpoint without a body and answers the vendor names too', async () => {
    const p = await platform();
    const publicKeyPem = (await call(ctx, 'GET', '/config', { auth: p.auth })).body.webhookPublicKey;
    const hook = await startWebhookReceiver({ publicKeyPem });
    try {
      expect((await call(ctx, 'PATCH', '/config', { auth: p.auth, body: { webhookEndpoint: hook.url } })).status).toBe(200);
      const res = await call(ctx, 'POST', '/sandbox/webhooks/test', { auth: p.auth });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toMatchObject({ delivered: true, statusCode: 200, url: hook.url, response_status: 200 });
      expect(hook.requests).toHaveLength(1);
      expect(hook.requests[0].verified).toBe(true);
      expect(hook.requests[0].event).toMatchObject({ type: 'TEST', webhookId: res.body.webhookId });
      expect((await call(ctx, 'POST', '/sandbox/webhooks/test', { auth: p.auth, body: {} })).status).toBe(200);
      const withUrl = await call(ctx, 'POST', '/sandbox/webhooks/test', { auth: p.auth, body: { url: hook.url } });
      expect(fields(expectError(withUrl, 400, 'INVALID_INPUT') && withUrl)).toEqual(['url']);
      const production = await p.token(['VIEW', 'MANAGE'], 'PRODUCTION');
      expectError(await call(ctx, 'POST', '/sandbox/webhooks/test', { auth: production }), 403, 'FORBIDDEN');
      expectError(await call(ctx, 'POST', '/sandbox/webhooks/test', { auth: await p.token(['VIEW']) }), 403, 'FORBIDDEN');
    } finally {
      await hook.close();
    }
  });
});

describe('PATCH /config with supportedCurrencies', () => {
  const eur = (extra: Record<string, unknown> = {}) => ({
    currencyCode: 'EUR',
    enabledTransactionTypes: ['INCOMING', 'OUTGOING'],
    minAmount: 100,
    maxAmount: 500_000,
    requiredCounterpartyFields: [
      { name: 'FULL_NAME', mandatory: true },
      { name: 'EMAIL', mandatory: false },
    ],
    ...extra,
  });

  it('sets the per-currency settings and the required payer data, as currencies and requiredPayerDataFields do', async () => {
    const p = await platform();
    const twin = await platform();
    const vendor = await call(ctx, 'PATCH', '/config', {
      auth: p.auth,
      body: { supportedCurrencies: [eur(), { currencyCode: 'MXN', enabledTransactionTypes: [] }] },
    });
    expect(vendor.status, JSON.stringify(vendor.body)).toBe(200);
    const spec = await call(ctx, 'PATCH', '/config', {
      auth: twin.auth,
      body: {
        currencies: [
          { currencyCode: 'EUR', enabled: true, minAmount: 100, maxAmount: 500_000 },
          { currencyCode: 'MXN', enabled: false },
        ],
        requiredPayerDataFields: ['FULL_NAME'],
      },
    });
    const settings = (r: any) => ({ currencies: r.body.currencies, requiredPayerDataFields: r.body.requiredPayerDataFields });
    expect(settings(vendor)).toEqual(settings(spec));
    expect(vendor.body.currencies.find((c: any) => c.currencyCode === 'EUR')).toEqual({
      currencyCode: 'EUR',
      enabled: true,
      minAmount: 100,
      maxAmount: 500_000,
    });
    expect(vendor.body.currencies.find((c: any) => c.currencyCode === 'MXN').enabled).toBe(false);
    expect(vendor.body.requiredPayerDataFields).toEqual(['FULL_NAME']);
    // The SDK's read-only provider fields are accepted and change nothing.
    const again = await call(ctx, 'PATCH', '/config', {
      auth: p.auth,
      body: { supportedCurrencies: [eur({ providerRequiredCustomerFields: ['NATIONALITY'] })] },
    });
    expect(settings(again)).toEqual(settings(vendor));
  });

  it.each([
    ['one direction only', [eur({ enabledTransactionTypes: ['INCOMING'] })], 'supportedCurrencies.0.enabledTransactionTypes'],
    [
      'a field this API does not exchange',
      [eur({ requiredCounterpartyFields: [{ name: 'USER_TYPE', mandatory: true }] })],
      'supportedCurrencies.0.requiredCounterpartyFields.0.name',
    ],
    [
      'different mandatory fields per currency',
      [eur(), eur({ currencyCode: 'USD', requiredCounterpartyFields: [{ name: 'EMAIL', mandatory: true }] })],
      'supportedCurrencies.1.requiredCounterpartyFields',
    ],
    ['an unknown currency', [eur({ currencyCode: 'XYZ' })], 'supportedCurrencies.0.currencyCode'],
    ['a negative bound', [eur({ minAmount: -1 })], 'supportedCurrencies.0.minAmount'],
    ['an unknown member', [eur({ enabled: true })], 'supportedCurrencies.0.enabled'],
  ])('refuses %s, naming the field', async (_what, supportedCurrencies, field) => {
    const p = await platform();
    const res = await call(ctx, 'PATCH', '/config', { auth: p.auth, body: { supportedCurrencies } });
    expect(fields(expectError(res, 400, 'INVALID_INPUT') && res)).toEqual([field]);
  });

  it('refuses both forms when they say different things', async () => {
    const p = await platform();
    const currencies = await call(ctx, 'PATCH', '/config', {
      auth: p.auth,
      body: { supportedCurrencies: [eur()], currencies: [{ currencyCode: 'EUR', enabled: false }] },
    });
    expect(fields(expectError(currencies, 400, 'INVALID_INPUT') && currencies)).toEqual(['supportedCurrencies']);
    const payerData = await call(ctx, 'PATCH', '/config', { auth: p.auth, body: { supportedCurrencies: [eur()], requiredPayerDataFields: ['EMAIL'] } });
    expect(fields(expectError(payerData, 400, 'INVALID_INPUT') && payerData)).toEqual(['supportedCurrencies']);
    const agreeing = await call(ctx, 'PATCH', '/config', { auth: p.auth, body: { supportedCurrencies: [eur()], requiredPayerDataFields: ['FULL_NAME'] } });
    expect(agreeing.status).toBe(200);
  });
});

describe('GET /exchange-rates', () => {
  const rates = (query: Record<string, string | number | string[]>, auth?: string) => {
    const qs = new URLSearchParams();
    for (const [k, v] of Object.entries(query)) for (const one of Array.isArray(v) ? v : [v]) qs.append(k, String(one));
    return ctx.app
      .inject({ method: 'GET', url: `/2025-10-13/exchange-rates?${qs}`, headers: { authorization: auth ?? ctx.platform.auth } })
      .then((r) => ({ status: r.statusCode, body: JSON.parse(r.body) }));
  };

  it('prices a corridor exactly as a quote locking the same sending amount', async () => {
    const p = await platform();
    const payer = await fundedCustomer(ctx, ['USD'], 100_000, p.auth);
    const dest = await externalAccount(ctx, 'IBAN', '000', { customerId: payer.customer.id, auth: p.auth, variant: 'DE' });
    const quote = await quoteFromAccount(ctx, payer.accounts.USD.id, dest.id, 12_345, {}, p.auth);
    expect(quote.status, JSON.stringify(quote.body)).toBe(201);
    const res = await rates({ sourceCurrency: 'USD', destinationCurrency: 'EUR', sendingAmount: 12_345 }, p.auth);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toHaveLength(1);
    const [r] = res.body.data;
    expect(r).toMatchObject({
      sourceCurrency: { code: 'USD', decimals: 2 },
      destinationCurrency: { code: 'EUR', decimals: 2 },
      destinationPaymentRail: 'SEPA',
      sendingAmount: quote.body.totalSendingAmount,
      receivingAmount: quote.body.totalReceivingAmount,
      exchangeRate: quote.body.exchangeRate,
      fees: { total: quote.body.feesIncluded },
    });
    expect(r.fees.fixed + r.fees.variable).toBe(r.fees.total);
    expect(r.minSendingAmount).toBeGreaterThanOrEqual(1);
    expect(r.maxSendingAmount).toBeGreaterThan(r.minSendingAmount);
    expect(Number.isNaN(Date.parse(r.updatedAt))).toBe(false);
  });

  it('filters by source and by one or several destinations; defaults to 10000 minor units', async () => {
    const several = await rates({ sourceCurrency: 'USD', destinationCurrency: ['EUR', 'MXN'] });
    expect(several.body.data.map((r: any) => r.destinationCurrency.code)).toEqual(['EUR', 'MXN']);
    // The SDK sends arrays comma-separated.
    const withoutTime = (body: any) => body.data.map(({ updatedAt: _t, ...r }: any) => r);
    expect(withoutTime((await rates({ sourceCurrency: 'USD', destinationCurrency: 'EUR,MXN' })).body)).toEqual(withoutTime(several.body));
    expect(several.body.data.every((r: any) => r.sendingAmount === 10_000)).toBe(true);
    const fromUsd = await rates({ sourceCurrency: 'USD' });
    const codes = fromUsd.body.data.map((r: any) => r.destinationCurrency.code);
    expect(codes).toEqual(expect.arrayContaining(['EUR', 'GBP', 'MXN', 'BRL', 'BTC', 'USDC']));
    expect(codes).not.toContain('USD');
    const toMxn = await rates({ destinationCurrency: 'MXN' });
    expect(toMxn.body.data.every((r: any) => r.destinationCurrency.code === 'MXN' && r.sourceCurrency.code !== 'MXN')).toBe(true);
    expect(toMxn.body.data.map((r: any) => r.sourceCurrency.code)).toContain('USD');
  });

  it("follows this platform's currency settings", async () => {
    const p = await platform();
    expect(
      (
        await call(ctx, 'PATCH', '/config', {
          auth: p.auth,
          body: {
            currencies: [
              { currencyCode: 'MXN', enabled: false },
              { currencyCode: 'USD', minAmount: 5_000, maxAmount: 50_000 },
            ],
          },
        })
      ).status,
    ).toBe(200);
    const fromUsd = await rates({ sourceCurrency: 'USD' }, p.auth);
    expect(fromUsd.body.data.map((r: any) => r.destinationCurrency.code)).not.toContain('MXN');
    expect(fromUsd.body.data.every((r: any) => r.minSendingAmount === 5_000 && r.maxSendingAmount === 50_000)).toBe(true);
    const disabled = await rates({ sourceCurrency: 'USD', destinationCurrency: ['EUR', 'MXN'] }, p.auth);
    expect(fields(expectError(disabled, 400, 'INVALID_INPUT') && disabled)).toEqual(['destinationCurrency.1']);
    const below = await rates({ sourceCurrency: 'USD', destinationCurrency: 'EUR', sendingAmount: 1_000 }, p.auth);
    expect(fields(expectError(below, 400, 'INVALID_INPUT') && below)).toEqual(['sendingAmount']);
    // Among many corridors, one that cannot carry the amount is left out rather than failing all.
    expect((await rates({ sourceCurrency: 'USD', sendingAmount: 1_000 }, p.auth)).body.data).toEqual([]);
  });

  it.each([
    [{ sourceCurrency: 'XYZ' }, 'sourceCurrency'],
    [{ destinationCurrency: ['EUR', 'EUR'] }, 'destinationCurrency'],
    [{ destinationCurrency: 'EUR,,MXN' }, 'destinationCurrency.1'],
    [{ sendingAmount: 0 }, 'sendingAmount'],
    [{ sendingAmount: 'ten' }, 'sendingAmount'],
    [{ source: 'USD' }, 'source'],
  ])('refuses %j, naming %s', async (query, field) => {
    const res = await rates(query as Record<string, string>);
    expect(fields(expectError(res, 400, 'INVALID_INPUT') && res)).toEqual([field]);
  });

  it('answers 503 in PRODUCTION when no rate source is configured, as quotes do', async () => {
    const auth = await ctx.platform.token(['VIEW'], 'PRODUCTION');
    expectError(await rates({ sourceCurrency: 'USD', destinationCurrency: 'EUR' }, auth), 503, 'RATE_UNAVAILABLE');
    expectError(await call(ctx, 'GET', '/exchange-rates', { auth: null }), 401, 'UNAUTHORIZED');
  });
});

describe('GET /uma-providers', () => {
  it('lists the platforms of this environment with their UMA domain, currencies and regions', async () => {
    const p = await platform();
    expect((await call(ctx, 'PATCH', '/config', { auth: p.auth, body: { currencies: CURRENCIES_ONLY(['BRL', 'USD']) } })).status).toBe(200);
    const config = (await call(ctx, 'GET', '/config', { auth: p.auth })).body;
    const all = await call(ctx, 'GET', '/uma-providers', { auth: p.auth, query: { limit: 100 } });
    expect(all.status, JSON.stringify(all.body)).toBe(200);
    const mine = all.body.data.find((x: any) => x.domain === config.umaDomain);
    expect(mine).toEqual({
      name: 'Vendor client platform',
      domain: config.umaDomain,
      supportedCurrencies: [
        { code: 'USD', name: 'US Dollar', symbol: '$', decimals: 2 },
        { code: 'BRL', name: 'Brazilian Real', symbol: 'R$', decimals: 2 },
      ],
      supportedRegions: ['BR', 'US'],
      allowListStatus: true,
    });
    // The caller's own first platform is there too, and a payment to either settles here.
    const first = (await call(ctx, 'GET', '/config')).body.umaDomain;
    expect(all.body.data.map((x: any) => x.domain)).toContain(first);
    const brl = await call(ctx, 'GET', '/uma-providers', { auth: p.auth, query: { currencyCode: 'BRL', limit: 100 } });
    expect(brl.body.data.map((x: any) => x.domain)).toContain(config.umaDomain);
    const kes = await call(ctx, 'GET', '/uma-providers', { auth: p.auth, query: { currencyCode: 'KES', limit: 100 } });
    expect(kes.body.data.map((x: any) => x.domain)).not.toContain(config.umaDomain);
    const brazil = await call(ctx, 'GET', '/uma-providers', { auth: p.auth, query: { countryCode: 'BR', currencyCode: 'USD', limit: 100 } });
    expect(brazil.body.data.map((x: any) => x.domain)).toContain(config.umaDomain);
    const kenya = await call(ctx, 'GET', '/uma-providers', { auth: p.auth, query: { countryCode: 'KE', limit: 100 } });
    expect(kenya.body.data.map((x: any) => x.domain)).not.toContain(config.umaDomain);
    expect(kenya.body.totalCount).toBe(kenya.body.data.length);
  });

  it('pages in either order; the other environment sees its own domains only', async () => {
    const desc = await call(ctx, 'GET', '/uma-providers', { query: { limit: 100 } });
    const asc = await call(ctx, 'GET', '/uma-providers', { query: { limit: 100, sortOrder: 'asc' } });
    expect(asc.body.data.map((x: any) => x.domain)).toEqual([...desc.body.data.map((x: any) => x.domain)].reverse());
    const page1 = await call(ctx, 'GET', '/uma-providers', { query: { limit: 2, sortOrder: 'asc' } });
    const page2 = await call(ctx, 'GET', '/uma-providers', { query: { limit: 2, sortOrder: 'asc', cursor: page1.body.nextCursor } });
    expect([...page1.body.data, ...page2.body.data].map((x: any) => x.domain)).toEqual(asc.body.data.slice(0, 4).map((x: any) => x.domain));
    const wrongOrder = await call(ctx, 'GET', '/uma-providers', { query: { limit: 2, cursor: page1.body.nextCursor } });
    expect(fields(expectError(wrongOrder, 400, 'INVALID_INPUT') && wrongOrder)).toEqual(['cursor']);
    const production = await ctx.platform.token(['VIEW'], 'PRODUCTION');
    const prod = await call(ctx, 'GET', '/uma-providers', { auth: production, query: { limit: 100 } });
    const sandboxDomains = new Set(desc.body.data.map((x: any) => x.domain));
    expect(prod.body.data.length).toBeGreaterThan(0);
    expect(prod.body.data.some((x: any) => sandboxDomains.has(x.domain))).toBe(false);
    for (const [query, field] of [
      [{ countryCode: 'XX' }, 'countryCode'],
      [{ currencyCode: 'usd' }, 'currencyCode'],
      [{ sortOrder: 'up' }, 'sortOrder'],
      [{ hasBlockedProviders: 'maybe' }, 'hasBlockedProviders'],
    ] as const) {
      const res = await call(ctx, 'GET', '/uma-providers', { query });
      expect(fields(expectError(res, 400, 'INVALID_INPUT') && res)).toEqual([field]);
    }
    expect((await call(ctx, 'GET', '/uma-providers', { query: { hasBlockedProviders: 'true' } })).status).toBe(200);
  });
});

/** A currencies patch that enables exactly these and disables every other currency. */
function CURRENCIES_ONLY(codes: string[]) {
  const all = ['USD', 'EUR', 'GBP', 'CAD', 'MXN', 'BRL', 'PHP', 'INR', 'NGN', 'ZAR', 'KES', 'TZS', 'ZMW', 'RWF', 'MWK', 'UGX', 'XOF', 'BTC', 'USDC'];
  return all.map((currencyCode) => ({ currencyCode, enabled: codes.includes(currencyCode) }));
}

describe('payer data from the paying customer a lookup names', () => {
  it("completes a quote's senderCustomerInfo with the fields the receiver requires, and only those", async () => {
    const r = await platform();
    expect((await call(ctx, 'PATCH', '/config', { auth: r.auth, body: { requiredPayerDataFields: ['FULL_NAME', 'NATIONALITY', 'BIRTH_DATE'] } })).status).toBe(
      200,
    );
    const bea = (await customerWithAccounts(ctx, ['EUR'], { auth: r.auth })).customer;
    const p = await platform();
    const payer = await call(ctx, 'POST', '/customers', {
      auth: p.auth,
      body: {
        platformCustomerId: 'payer',
        customerType: 'INDIVIDUAL',
        fullName: 'Ada Lovelace',
        birthDate: '1990-12-10',
        nationality: 'GB',
        currencies: ['USD'],
        address: { line1: '12 St James Square', postalCode: 'SW1Y 4JH', country: 'GB' },
      },
    });
    expect(payer.status, JSON.stringify(payer.body)).toBe(201);
    const usd = (await call(ctx, 'GET', '/customers/internal-accounts', { auth: p.auth, query: { customerId: payer.body.id } })).body.data[0].id;
    expect((await call(ctx, 'POST', `/sandbox/internal-accounts/${usd}/fund`, { auth: p.auth, body: { amount: 100_000 } })).status).toBe(200);
    const quote = (lookupId: string, extra: Record<string, unknown> = {}, accountId = usd) =>
      call(ctx, 'POST', '/quotes', {
        auth: p.auth,
        body: {
          source: { sourceType: 'ACCOUNT', accountId },
          destination: { destinationType: 'UMA_ADDRESS', umaAddress: bea.umaAddress, currency: 'EUR' },
          lockedCurrencySide: 'SENDING',
          lockedCurrencyAmount: 1_000,
          lookupId,
          ...extra,
        },
      });

    // Without a payer the quote must carry the data itself.
    const anonymous = await call(ctx, 'GET', `/receiver/uma/${bea.umaAddress}`, { auth: p.auth });
    expectError(await quote(anonymous.body.id), 400, 'MISSING_MANDATORY_USER_INFO');

    const lookup = await call(ctx, 'GET', `/receiver/uma/${bea.umaAddress}`, { auth: p.auth, query: { senderUmaAddress: payer.body.umaAddress } });
    expect(lookup.body.requiredPayerDataFields).toEqual(['FULL_NAME', 'NATIONALITY', 'BIRTH_DATE']);
    const paid = await quote(lookup.body.id, { immediatelyExecute: true, senderCustomerInfo: { FULL_NAME: 'A. Lovelace' } });
    expect(paid.status, JSON.stringify(paid.body)).toBe(201);
    expect(paid.body.status).toBe('COMPLETED');
    const incoming = (await call(ctx, 'GET', '/transactions', { auth: r.auth, query: { customerId: bea.id, type: 'INCOMING' } })).body.data;
    expect(incoming).toHaveLength(1);
    // The quote's own value wins; the rest comes from the payer's record; nothing else is shared.
    expect(incoming[0].counterpartyInformation).toEqual({ FULL_NAME: 'A. Lovelace', NATIONALITY: 'GB', BIRTH_DATE: '1990-12-10' });

    // A lookup made for one payer does not serve a quote paid by another.
    const other = await fundedCustomer(ctx, ['USD'], 10_000, p.auth);
    const mismatch = await quote(lookup.body.id, {}, other.accounts.USD.id);
    expect(fields(expectError(mismatch, 400, 'INVALID_INPUT') && mismatch)).toEqual(['lookupId']);

    // The quotes list finds it by the SDK's UMA filters.
    const list = async (query: Record<string, string>) => (await call(ctx, 'GET', '/quotes', { auth: p.auth, query })).body.data.map((q: any) => q.id);
    expect(await list({ sendingUmaAddress: payer.body.umaAddress })).toEqual([paid.body.id]);
    expect(await list({ receivingUmaAddress: bea.umaAddress.toUpperCase() })).toEqual([paid.body.id]);
    expect(await list({ sendingUmaAddress: other.customer.umaAddress })).toEqual([]);
    expect(await list({ receivingUmaAddress: payer.body.umaAddress })).toEqual([]);
    const bad = await call(ctx, 'GET', '/quotes', { auth: p.auth, query: { receivingUmaAddress: 'bea' } });
    expect(fields(expectError(bad, 400, 'INVALID_INPUT') && bad)).toEqual(['receivingUmaAddress']);
  });
});

describe('an account registered in the vendor shape is paid like any other', () => {
  it('a quote to an EUR_ACCOUNT with SEPA_INSTANT executes on that rail', async () => {
    const p = await platform();
    const payer = await fundedCustomer(ctx, ['USD'], 100_000, p.auth);
    const account = await createAccount(
      ctx,
      { customerId: payer.customer.id, currency: 'EUR', accountInfo: eurAccount({ paymentRails: ['SEPA_INSTANT'] }) },
      { auth: p.auth },
    );
    expect(account.status, JSON.stringify(account.body)).toBe(201);
    const q = await quoteFromAccount(ctx, payer.accounts.USD.id, account.body.id, 10_000, { immediatelyExecute: true }, p.auth);
    expect(q.status, JSON.stringify(q.body)).toBe(201);
    expect(['PROCESSING', 'COMPLETED']).toContain(q.body.status);
    const tx = (await call(ctx, 'GET', `/transactions/${q.body.transactionId}`, { auth: p.auth })).body;
    expect(tx.destination).toMatchObject({ accountId: account.body.id, currency: 'EUR', paymentRail: 'SEPA_INSTANT' });
    expect(await balance(ctx, payer.accounts.USD.id, p.auth)).toBe(90_000);
  });
});

describe('requests the CLI sends', () => {
  it("PATCH /customers without customerType (the CLI's update) changes what it names; a customerType given must still match", async () => {
    const p = await platform();
    const c = await call(ctx, 'POST', '/customers', {
      auth: p.auth,
      body: { platformCustomerId: 'cli-patch', customerType: 'INDIVIDUAL', fullName: 'Ada Lovelace', currencies: ['USD'] },
    });
    const res = await call(ctx, 'PATCH', `/customers/${c.body.id}`, {
      auth: p.auth,
      body: { fullName: 'Ada King', birthDate: '1990-12-10', address: { line1: '1 Main St', city: 'London', postalCode: 'SW1Y 4JH', country: 'GB' } },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ customerType: 'INDIVIDUAL', fullName: 'Ada King', birthDate: '1990-12-10', address: { city: 'London' } });
    const other = await call(ctx, 'PATCH', `/customers/${c.body.id}`, { auth: p.auth, body: { customerType: 'BUSINESS', fullName: 'X' } });
    expect(fields(expectError(other, 400, 'INVALID_INPUT') && other)).toEqual(['customerType']);
    expect((await call(ctx, 'GET', `/customers/${c.body.id}`, { auth: p.auth })).body.fullName).toBe('Ada King');
  });

  it("a Solana wallet without cryptoNetwork (the CLI's) is on the environment's network: devnet in SANDBOX, mainnet in PRODUCTION", async () => {
    const sandbox = await create('USDC', { accountType: 'SOLANA_WALLET', address: SOLANA });
    expect(sandbox.status, JSON.stringify(sandbox.body)).toBe(201);
    expect(sandbox.body.cryptoNetwork).toBe('SOLANA_DEVNET');
    const auth = await ctx.platform.token(['VIEW', 'MANAGE'], 'PRODUCTION');
    const production = await createAccount(
      ctx,
      { currency: 'USDC', accountInfo: { accountType: 'SOLANA_WALLET', address: SOLANA } },
      { auth, path: '/platform/external-accounts' },
    );
    expect(production.status, JSON.stringify(production.body)).toBe(201);
    expect(production.body.cryptoNetwork).toBe('SOLANA_MAINNET');
    // An address that is not a Solana address is still refused, naming it.
    const bad = await create('USDC', { accountType: 'SOLANA_WALLET', address: EVM });
    expect(fields(expectError(bad, 400, 'INVALID_INPUT') && bad)).toEqual(['accountInfo.address']);
  });

  it("purposeOfPayment inside accountInfo (the CLI's, for NGN accounts) is stored and answered; an unknown purpose is refused", async () => {
    const ngn = (extra: Record<string, unknown>) => ({ ...accountBody('NGN_ACCOUNT', '000').accountInfo, beneficiary: person, ...extra });
    const res = await create('NGN', ngn({ purposeOfPayment: 'GOODS_OR_SERVICES' }));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.accountInfo.purposeOfPayment).toBe('GOODS_OR_SERVICES');
    expect((await call(ctx, 'GET', `/customers/external-accounts/${res.body.id}`)).body.accountInfo.purposeOfPayment).toBe('GOODS_OR_SERVICES');
    const bad = await create('NGN', ngn({ purposeOfPayment: 'BRIBE' }));
    expect(fields(expectError(bad, 400, 'INVALID_INPUT') && bad)).toEqual(['accountInfo.purposeOfPayment']);
  });

  it("POST /customers/kyc-link (the CLI's: customerId, redirectUrl) issues the same link as the GET", async () => {
    const p = await platform();
    const c = await call(ctx, 'POST', '/customers', {
      auth: p.auth,
      body: { platformCustomerId: 'cli-kyc', customerType: 'INDIVIDUAL', fullName: 'Ada Lovelace', currencies: ['USD'] },
    });
    const res = await call(ctx, 'POST', '/customers/kyc-link', { auth: p.auth, body: { customerId: c.body.id, redirectUrl: 'https://app.example.com/done' } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ customerId: c.body.id, platformCustomerId: 'cli-kyc' });
    const page = await ctx.app.inject({ method: 'GET', url: new URL(res.body.kycUrl).pathname });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('cli-kyc');
    const byPlatformId = await call(ctx, 'POST', '/customers/kyc-link', { auth: p.auth, body: { platformCustomerId: 'cli-kyc' } });
    expect(byPlatformId.status).toBe(200);
    for (const [body, field] of [
      [{}, 'customerId'],
      [{ customerId: c.body.id, redirectUrl: 'ftp://example.com' }, 'redirectUrl'],
      [{ customerId: c.body.id, platformCustomerId: 'someone-else' }, 'platformCustomerId'],
      [{ customerId: c.body.id, colour: 'red' }, 'colour'],
    ] as const) {
      const bad = await call(ctx, 'POST', '/customers/kyc-link', { auth: p.auth, body });
      expect(fields(expectError(bad, 400, 'INVALID_INPUT') && bad), JSON.stringify(body)).toEqual([field]);
    }
    expectError(await call(ctx, 'POST', '/customers/kyc-link', { body: { customerId: c.body.id } }), 404, 'CUSTOMER_NOT_FOUND');
  });
});

describe("a quote to EXTERNAL_ACCOUNT_DETAILS (the SDK's one-step destination)", () => {
  const accountsOf = async (p: TestPlatform, customerId: string) =>
    (await call(ctx, 'GET', '/customers/external-accounts', { auth: p.auth, query: { customerId, limit: 100 } })).body.data as any[];
  const quoteTo = (p: TestPlatform, from: string, externalAccountDetails: Record<string, unknown>, auth = p.auth) =>
    call(ctx, 'POST', '/quotes', {
      auth,
      body: {
        source: { sourceType: 'ACCOUNT', accountId: from },
        destination: { destinationType: 'EXTERNAL_ACCOUNT_DETAILS', externalAccountDetails },
        lockedCurrencySide: 'SENDING',
        lockedCurrencyAmount: 10_000,
      },
    });

  it('registers the account as POST /customers/external-accounts would, and quotes to it', async () => {
    const p = await platform();
    const payer = await fundedCustomer(ctx, ['USD'], 100_000, p.auth);
    const q = await quoteTo(p, payer.accounts.USD.id, { customerId: payer.customer.id, currency: 'EUR', accountInfo: eurAccount() });
    expect(q.status, JSON.stringify(q.body)).toBe(201);
    const [stored] = await accountsOf(p, payer.customer.id);
    expect(q.body.destination).toMatchObject({ destinationType: 'ACCOUNT', accountId: stored.id, currency: 'EUR' });
    const twin = await createAccount(ctx, { customerId: payer.customer.id, currency: 'EUR', accountInfo: eurAccount() }, { auth: p.auth });
    expect(same(stored)).toEqual(same(twin.body));
    const executed = await call(ctx, 'POST', `/quotes/${q.body.id}/execute`, { auth: p.auth });
    expect(executed.status, JSON.stringify(executed.body)).toBe(200);
  });

  it.each([
    ['a broken IBAN', { currency: 'EUR', accountInfo: eurAccount({ iban: 'DE88370400440532013000' }) }, 'destination.externalAccountDetails.accountInfo.iban'],
    ['an unknown member', { currency: 'EUR', accountInfo: eurAccount(), colour: 'red' }, 'destination.externalAccountDetails.colour'],
    ['no currency', { accountInfo: eurAccount() }, 'destination.externalAccountDetails.currency'],
  ])('refuses %s, naming it, and stores nothing', async (_what, details, field) => {
    const p = await platform();
    const payer = await fundedCustomer(ctx, ['USD'], 100_000, p.auth);
    const res = await quoteTo(p, payer.accounts.USD.id, { customerId: payer.customer.id, ...details });
    expect(fields(expectError(res, 400, 'INVALID_INPUT') && res)).toEqual([field]);
    expect(await accountsOf(p, payer.customer.id)).toEqual([]);
    expect((await call(ctx, 'GET', '/quotes', { auth: p.auth })).body.data).toEqual([]);
  });

  it('a quote refused after the account was checked stores no account either; details need destinationType and MANAGE', async () => {
    const p = await platform();
    const payer = await fundedCustomer(ctx, ['USD'], 100_000, p.auth);
    const other = await fundedCustomer(ctx, ['USD'], 100_000);
    const details = { customerId: payer.customer.id, currency: 'EUR', accountInfo: eurAccount() };
    expectError(await quoteTo(p, other.accounts.USD.id, details), 404, 'INTERNAL_ACCOUNT_NOT_FOUND');
    expect(await accountsOf(p, payer.customer.id)).toEqual([]);
    const transactOnly = await p.token(['VIEW', 'TRANSACT']);
    expectError(await quoteTo(p, payer.accounts.USD.id, details, transactOnly), 403, 'FORBIDDEN');
    expect(await accountsOf(p, payer.customer.id)).toEqual([]);
    const stray = await call(ctx, 'POST', '/quotes', {
      auth: p.auth,
      body: {
        source: { sourceType: 'ACCOUNT', accountId: payer.accounts.USD.id },
        destination: { accountId: 'ExternalAccount:019a6f1e-8f3c-7cc1-9d6e-2b8f0c2a4e11', externalAccountDetails: details },
        lockedCurrencySide: 'SENDING',
        lockedCurrencyAmount: 10_000,
      },
    });
    expect(fields(expectError(stray, 400, 'INVALID_INPUT') && stray)).toEqual(['destination.externalAccountDetails']);
  });
});

describe("the SDK's minimal customer: platformCustomerId and customerType", () => {
  it.each([
    ['INDIVIDUAL', 'fullName', { fullName: 'Ada Lovelace' }, 'APPROVED'],
    ['BUSINESS', 'businessInfo', { businessInfo: { legalName: 'Analytical Engines Ltd' } }, 'PENDING'],
  ])('%s: accepted UNVERIFIED, the missing %s named in the answer, verified as usual once it arrives', async (customerType, missing, data, after) => {
    const p = await platform();
    const c = await call(ctx, 'POST', '/customers', { auth: p.auth, body: { platformCustomerId: `min-${customerType}`, customerType } });
    expect(c.status, JSON.stringify(c.body)).toBe(201);
    expect(c.body).toMatchObject({ customerType, kycStatus: 'UNVERIFIED', missingFields: [missing] });
    expect(c.body.umaAddress).toMatch(/^\$.+@/);
    expect((await call(ctx, 'GET', `/customers/${c.body.id}`, { auth: p.auth })).body).toEqual(c.body);
    // Not approvable while the data is missing; other changes are fine.
    const approve = await call(ctx, 'PATCH', `/customers/${c.body.id}`, { auth: p.auth, body: { kycStatus: 'APPROVED' } });
    expect(fields(expectError(approve, 400, 'INVALID_INPUT') && approve)).toEqual(['kycStatus']);
    const currencies = await call(ctx, 'PATCH', `/customers/${c.body.id}`, { auth: p.auth, body: { currencies: ['USD', 'EUR'] } });
    expect(currencies.body).toMatchObject({ kycStatus: 'UNVERIFIED', missingFields: [missing] });
    // The data arrives: the sandbox's usual status at creation, and nothing missing.
    const filled = await call(ctx, 'PATCH', `/customers/${c.body.id}`, { auth: p.auth, body: data });
    expect(filled.body.kycStatus).toBe(after);
    expect(filled.body).not.toHaveProperty('missingFields');
  });

  it('a complete customer answers as before: no missingFields, the usual status', async () => {
    const p = await platform();
    const c = await call(ctx, 'POST', '/customers', { auth: p.auth, body: { platformCustomerId: 'full', customerType: 'INDIVIDUAL', fullName: 'Ada' } });
    expect(c.body.kycStatus).toBe('APPROVED');
    expect(c.body).not.toHaveProperty('missingFields');
    const bad = await call(ctx, 'POST', '/customers', {
      auth: p.auth,
      body: { platformCustomerId: 'ind', customerType: 'INDIVIDUAL', businessInfo: { legalName: 'X' } },
    });
    expect(fields(expectError(bad, 400, 'INVALID_INPUT') && bad)).toEqual(['businessInfo']);
  });
});
