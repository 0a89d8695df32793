import { beforeAll, describe, expect, it } from 'vitest';
import { call, expectError, testContext, type TestContext } from './helpers/context.js';
import { accountBody, countAccounts, createAccount, newCustomer, TYPE_VARIANTS } from './helpers/external-accounts.js';

let ctx: TestContext;
let customerId: string;
beforeAll(async () => {
  ctx = await testContext();
  customerId = await newCustomer(ctx);
});

describe('every account type accepts its published sandbox identifier', () => {
  it.each(TYPE_VARIANTS)('%s (%s)', async (type, variant) => {
    const body = accountBody(type, '000', variant);
    const res = await createAccount(ctx, { ...body, customerId });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({
      status: 'ACTIVE',
      currency: body.currency,
      customerId,
      beneficiaryVerificationStatus: 'MATCHED',
      defaultUmaDepositAccount: false,
    });
    expect(res.body.accountInfo.accountType).toBe(type);
    expect(res.body.accountInfo[body.fixture.primaryField]).toBe(body.fixture.primary);
    if (body.fixture.cryptoNetwork) expect(res.body.cryptoNetwork).toBe(body.fixture.cryptoNetwork);
    const got = await call(ctx, 'GET', `/customers/external-accounts/${res.body.id}`);
    expect(got.body).toEqual(res.body);
  });
});

type Mutation = (b: any) => void;
const info =
  (patch: Record<string, unknown>): Mutation =>
  (b) =>
    Object.assign(b.accountInfo, patch);

/** [account type, variant, what is wrong, mutation, the field the error must name] */
const BROKEN: Array<[string, string | undefined, string, Mutation, string]> = [
  ['US_ACCOUNT', undefined, 'routing checksum', info({ routingNumber: '021000022' }), 'accountInfo.routingNumber'],
  ['US_ACCOUNT', undefined, 'routing length', info({ routingNumber: '02100002' }), 'accountInfo.routingNumber'],
  ['US_ACCOUNT', undefined, 'account letters', info({ accountNumber: '12ab5678' }), 'accountInfo.accountNumber'],
  ['US_ACCOUNT', undefined, 'account length', info({ accountNumber: '123' }), 'accountInfo.accountNumber'],
  ['US_ACCOUNT', undefined, 'account category', info({ accountCategory: 'BROKERAGE' }), 'accountInfo.accountCategory'],
  ['US_ACCOUNT', undefined, 'rail', info({ paymentRails: ['PIX'] }), 'accountInfo.paymentRails.0'],
  ['US_ACCOUNT', undefined, 'currency', (b) => (b.currency = 'EUR'), 'currency'],
  ['US_ACCOUNT', undefined, 'no beneficiary', (b) => delete b.accountInfo.beneficiary, 'accountInfo.beneficiary'],
  ['US_ACCOUNT', undefined, 'beneficiary without name', (b) => delete b.accountInfo.beneficiary.fullName, 'accountInfo.beneficiary.fullName'],
  ['US_ACCOUNT', undefined, 'unknown field', info({ color: 'red' }), 'accountInfo.color'],
  ['US_ACCOUNT', undefined, 'network on a bank', (b) => (b.cryptoNetwork = 'BASE_TESTNET'), 'cryptoNetwork'],
  [
    'CLABE',
    undefined,
    'check digit',
    (b) => (b.accountInfo.clabeNumber = b.accountInfo.clabeNumber.slice(0, 17) + ((Number(b.accountInfo.clabeNumber[17]) + 1) % 10)),
    'accountInfo.clabeNumber',
  ],
  ['CLABE', undefined, 'length', info({ clabeNumber: '00218010000000600' }), 'accountInfo.clabeNumber'],
  // bank 004 is not assigned; its check digit is right (3-7-1 weights), so only the bank code is wrong
  ['CLABE', undefined, 'unknown bank code', info({ clabeNumber: '004010077777777771' }), 'accountInfo.clabeNumber'],
  [
    'PIX',
    'CPF',
    'CPF check digits',
    (b) => (b.accountInfo.pixKey = b.accountInfo.pixKey.slice(0, 10) + ((Number(b.accountInfo.pixKey[10]) + 1) % 10)),
    'accountInfo.pixKey',
  ],
  ['PIX', 'CPF', 'key type', info({ pixKeyType: 'IBAN' }), 'accountInfo.pixKeyType'],
  ['PIX', 'EMAIL', 'email form', info({ pixKey: 'not-an-email' }), 'accountInfo.pixKey'],
  ['PIX', 'EMAIL', 'no taxId', (b) => delete b.accountInfo.taxId, 'accountInfo.taxId'],
  ['PIX', 'EMAIL', 'bad taxId', info({ taxId: '29537995594' }), 'accountInfo.taxId'],
  ['PIX', 'EMAIL', 'phone key', info({ pixKeyType: 'PHONE', pixKey: '+55119876543' }), 'accountInfo.pixKey'],
  ['PIX', 'EMAIL', 'random key', info({ pixKeyType: 'RANDOM', pixKey: 'not-a-uuid' }), 'accountInfo.pixKey'],
  ['PIX', 'EMAIL', 'CNPJ key', info({ pixKeyType: 'CNPJ', pixKey: '11222333000180' }), 'accountInfo.pixKey'],
  ['IBAN', 'DE', 'mod-97', info({ iban: 'DE88370400440532013000' }), 'accountInfo.iban'],
  ['IBAN', 'DE', 'BIC form', info({ swiftBic: 'COBADEFF1' }), 'accountInfo.swiftBic'],
  ['IBAN', 'ES', 'national check digits', info({ iban: 'ES1121000418000200051000' }), 'accountInfo.iban'],
  ['PHP_ACCOUNT', undefined, 'account length', info({ accountNumber: '1234567' }), 'accountInfo.accountNumber'],
  ['PHP_ACCOUNT', undefined, 'bank not in catalogue', info({ bankName: 'BANK OF NOWHERE' }), 'accountInfo.bankName'],
  ['PHP_ACCOUNT', undefined, 'no bank name', (b) => delete b.accountInfo.bankName, 'accountInfo.bankName'],
  ['GBP_ACCOUNT', undefined, 'sort code', info({ sortCode: '60161' }), 'accountInfo.sortCode'],
  ['GBP_ACCOUNT', undefined, 'account length', info({ accountNumber: '3193800' }), 'accountInfo.accountNumber'],
  [
    'GBP_ACCOUNT',
    undefined,
    'modulus check',
    (b) =>
      (b.accountInfo.accountNumber =
        b.accountInfo.accountNumber.slice(0, 4) + ((Number(b.accountInfo.accountNumber[4]) + 1) % 10) + b.accountInfo.accountNumber.slice(5)),
    'accountInfo.accountNumber',
  ],
  ['GBP_ACCOUNT', undefined, 'individual without address', (b) => delete b.accountInfo.beneficiary.address, 'accountInfo.beneficiary.address'],
  ['UPI', undefined, 'VPA form', info({ vpa: 'sandbox000okaxis' }), 'accountInfo.vpa'],
  ['UPI', undefined, 'VPA handle', info({ vpa: 'sandbox000@ok4xis' }), 'accountInfo.vpa'],
  ['NGN_ACCOUNT', undefined, 'NUBAN length', info({ accountNumber: '123456789' }), 'accountInfo.accountNumber'],
  ['NGN_ACCOUNT', undefined, 'bank not in catalogue', info({ bankName: 'ACCESS' }), 'accountInfo.bankName'],
  ['ZAR_ACCOUNT', undefined, 'account length', info({ accountNumber: '12345678' }), 'accountInfo.accountNumber'],
  ['ZAR_ACCOUNT', undefined, 'bank not in catalogue', info({ bankName: 'standard bank' }), 'accountInfo.bankName'],
  ['KES_ACCOUNT', undefined, 'phone prefix', info({ phoneNumber: '+255712345000' }), 'accountInfo.phoneNumber'],
  ['KES_ACCOUNT', undefined, 'operator', info({ provider: 'AIRTEL' }), 'accountInfo.provider'],
  ['TZS_ACCOUNT', undefined, 'phone length', info({ phoneNumber: '+25575432100' }), 'accountInfo.phoneNumber'],
  ['TZS_ACCOUNT', undefined, 'operator', info({ provider: 'MPESA' }), 'accountInfo.provider'],
  ['ZMW_ACCOUNT', undefined, 'phone length', info({ phoneNumber: '+2609612340001' }), 'accountInfo.phoneNumber'],
  ['ZMW_ACCOUNT', undefined, 'operator', info({ provider: 'VODACOM' }), 'accountInfo.provider'],
  ['RWF_ACCOUNT', undefined, 'phone prefix', info({ phoneNumber: '+260781234000' }), 'accountInfo.phoneNumber'],
  ['RWF_ACCOUNT', undefined, 'operator', info({ provider: 'TIGO' }), 'accountInfo.provider'],
  ['MWK_ACCOUNT', undefined, 'phone form', info({ phoneNumber: '265991234000' }), 'accountInfo.phoneNumber'],
  ['MWK_ACCOUNT', undefined, 'operator', info({ provider: 'MTN' }), 'accountInfo.provider'],
  ['UGX_ACCOUNT', undefined, 'phone length', info({ phoneNumber: '+25677123400' }), 'accountInfo.phoneNumber'],
  ['UGX_ACCOUNT', undefined, 'operator', info({ provider: 'ZAMTEL' }), 'accountInfo.provider'],
  ['XOF_ACCOUNT', 'SN', 'operator of another country', info({ provider: 'MOOV' }), 'accountInfo.provider'],
  ['XOF_ACCOUNT', 'SN', 'Senegal length', info({ phoneNumber: '+2217712340001' }), 'accountInfo.phoneNumber'],
  ['XOF_ACCOUNT', 'SN', 'operator of no XOF country', info({ provider: 'MPESA' }), 'accountInfo.provider'],
  ['XOF_ACCOUNT', 'CI', 'Ivory Coast length', info({ phoneNumber: '+225071234500' }), 'accountInfo.phoneNumber'],
  ['XOF_ACCOUNT', 'BJ', 'Benin length', info({ phoneNumber: '+2291971230' }), 'accountInfo.phoneNumber'],
  ['CAD_ACCOUNT', undefined, 'institution', info({ bankCode: '01' }), 'accountInfo.bankCode'],
  ['CAD_ACCOUNT', undefined, 'transit', info({ branchCode: '0011' }), 'accountInfo.branchCode'],
  ['CAD_ACCOUNT', undefined, 'account length', info({ accountNumber: '123456' }), 'accountInfo.accountNumber'],
  ['LAYER2_WALLET', 'LIGHTNING_ADDRESS', 'no network', (b) => delete b.cryptoNetwork, 'cryptoNetwork'],
  ['LAYER2_WALLET', 'LIGHTNING_ADDRESS', 'network of another type', (b) => (b.cryptoNetwork = 'SOLANA_DEVNET'), 'cryptoNetwork'],
  ['LAYER2_WALLET', 'LIGHTNING_ADDRESS', 'address form', info({ address: 'Sandbox000@example' }), 'accountInfo.address'],
  ['LAYER2_WALLET', 'LIGHTNING_ADDRESS', 'currency', (b) => (b.currency = 'USDC'), 'currency'],
  ['LAYER2_WALLET', 'SPARK', 'Spark on mainnet network', (b) => (b.cryptoNetwork = 'LAYER2_MAINNET'), 'accountInfo.address'],
  ['SOLANA_WALLET', undefined, 'base58', info({ address: '0OIl' + 'A'.repeat(40) }), 'accountInfo.address'],
  // valid base58 of 43 characters, but 31 bytes (0xc8 × 31): not an ed25519 public key
  ['SOLANA_WALLET', undefined, 'key length', info({ address: '44aLB2AXRPXCkyeVpyU8kHr4p56Vhwfy8cdz1unGjHR' }), 'accountInfo.address'],
  // (A Solana wallet without a network is on the environment's: test/vendor-compat.test.ts.)
  ['SOLANA_WALLET', undefined, 'network of another type', (b) => (b.cryptoNetwork = 'BASE_TESTNET'), 'cryptoNetwork'],
  [
    'EVM_WALLET',
    undefined,
    'EIP-55 checksum',
    (b) => (b.accountInfo.address = b.accountInfo.address.replace(/[a-f]/, (c: string) => c.toUpperCase())),
    'accountInfo.address',
  ],
  ['EVM_WALLET', undefined, 'hex length', info({ address: '0x1234' }), 'accountInfo.address'],
  ['EVM_WALLET', undefined, 'no network', (b) => delete b.cryptoNetwork, 'cryptoNetwork'],
  ['EVM_WALLET', undefined, 'network of another type', (b) => (b.cryptoNetwork = 'SOLANA_DEVNET'), 'cryptoNetwork'],
];

describe('each rule broken once is refused with the field named, and nothing is stored', () => {
  it.each(BROKEN)('%s (%s): %s', async (type, variant, _what, mutate, field) => {
    const body: any = accountBody(type, '000', variant, { customerId });
    mutate(body);
    const before = await countAccounts(ctx);
    const res = await createAccount(ctx, body);
    const err = expectError(res, 400, 'INVALID_INPUT');
    expect(err.details.fields.map((f: any) => f.field)).toContain(field);
    expect(await countAccounts(ctx)).toBe(before);
  });

  it('refuses an unknown accountType', async () => {
    const err = expectError(await createAccount(ctx, { currency: 'USD', accountInfo: { accountType: 'SWIFT_ACCOUNT' } }), 400, 'INVALID_INPUT');
    expect(err.details.fields[0].field).toBe('accountInfo.accountType');
  });
});

describe('spellings and normal forms', () => {
  it('accepts USD_ACCOUNT and IBAN_ACCOUNT and answers US_ACCOUNT and IBAN', async () => {
    const us = accountBody('US_ACCOUNT');
    us.accountInfo.accountType = 'USD_ACCOUNT';
    expect((await createAccount(ctx, us)).body.accountInfo.accountType).toBe('US_ACCOUNT');
    const iban = accountBody('IBAN', '000', 'DE');
    iban.accountInfo.accountType = 'IBAN_ACCOUNT';
    iban.accountInfo.iban = 'de89 3704 0044 0532 0130 00';
    iban.accountInfo.swiftBic = 'cobadeffxxx';
    const res = await createAccount(ctx, iban);
    expect(res.body.accountInfo).toMatchObject({ accountType: 'IBAN', iban: 'DE89370400440532013000', swiftBic: 'COBADEFFXXX' });
  });

  it('strips sort code hyphens, fills default rails, a CPF key as taxId, and the beneficiary type', async () => {
    const gbp = accountBody('GBP_ACCOUNT');
    gbp.accountInfo.sortCode = '60-16-13';
    delete gbp.accountInfo.paymentRails;
    delete gbp.accountInfo.beneficiary.beneficiaryType;
    const res = await createAccount(ctx, gbp);
    expect(res.body.accountInfo).toMatchObject({ sortCode: '601613', paymentRails: ['FASTER_PAYMENTS'], beneficiary: { beneficiaryType: 'INDIVIDUAL' } });
    const pix = accountBody('PIX', '000', 'CPF');
    delete pix.accountInfo.taxId;
    expect((await createAccount(ctx, pix)).body.accountInfo.taxId).toBe(pix.accountInfo.pixKey);
  });

  it('accepts the other Pix key types and a business GBP beneficiary without address', async () => {
    const keys = [
      ['CNPJ', '11222333000181'],
      ['PHONE', '+5511987654321'],
      ['RANDOM', '123e4567-e89b-42d3-a456-426614174000'],
    ];
    for (const [pixKeyType, pixKey] of keys) {
      const body = accountBody('PIX', '000', 'EMAIL');
      Object.assign(body.accountInfo, { pixKeyType, pixKey });
      expect((await createAccount(ctx, body)).status).toBe(201);
    }
    const gbp = accountBody('GBP_ACCOUNT');
    gbp.accountInfo.beneficiary = { beneficiaryType: 'BUSINESS', fullName: 'Analytical Engines Ltd' };
    expect((await createAccount(ctx, gbp)).status).toBe(201);
  });

  it('needs no beneficiary for a layer-2 wallet', async () => {
    const body = accountBody('LAYER2_WALLET', '000', 'LIGHTNING_ADDRESS');
    delete body.accountInfo.beneficiary;
    const res = await createAccount(ctx, body);
    expect(res.status).toBe(201);
    expect(res.body.beneficiaryVerificationStatus).toBe('UNSUPPORTED');
  });
});
