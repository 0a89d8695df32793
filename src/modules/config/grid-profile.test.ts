import { describe, expect, it } from 'vitest';
import { gridAccountType, gridShape } from './grid-profile.js';

describe('gridShape', () => {
  it('renames rateDetails, account types (by network) and lookups; leaves the rest', () => {
    const answer = {
      data: [
        { id: 'ExternalAccount:1', cryptoNetwork: 'LAYER2_TESTNET', accountInfo: { accountType: 'LAYER2_WALLET', address: 'sparkrt1x' } },
        { id: 'ExternalAccount:4', cryptoNetwork: 'LAYER2_TESTNET', accountInfo: { accountType: 'LAYER2_WALLET', address: 'a@b.c' } },
        { id: 'ExternalAccount:2', cryptoNetwork: 'LIGHTNING_MAINNET', accountInfo: { accountType: 'LAYER2_WALLET', address: 'a@b.c' } },
        { id: 'ExternalAccount:3', accountInfo: { accountType: 'GBP_ACCOUNT' } },
      ],
      rateDetails: { counterpartyFixedFee: 1, serviceApiMultiplier: 2 },
      paymentInstructions: [{ accountOrWalletInfo: { accountType: 'EVM_WALLET', cryptoNetwork: 'BASE_MAINNET' } }],
    };
    expect(gridShape(answer)).toEqual({
      data: [
        { id: 'ExternalAccount:1', cryptoNetwork: 'LAYER2_TESTNET', accountInfo: { accountType: 'SPARK_WALLET', address: 'sparkrt1x' } },
        // A Lightning address on a layer-2 network is not a Spark wallet.
        { id: 'ExternalAccount:4', cryptoNetwork: 'LAYER2_TESTNET', accountInfo: { accountType: 'LAYER2_WALLET', address: 'a@b.c' } },
        { id: 'ExternalAccount:2', cryptoNetwork: 'LIGHTNING_MAINNET', accountInfo: { accountType: 'LAYER2_WALLET', address: 'a@b.c' } },
        { id: 'ExternalAccount:3', accountInfo: { accountType: 'GBP_ACCOUNT', countries: ['GB'], paymentRails: ['FASTER_PAYMENTS'] } },
      ],
      rateDetails: { counterpartyFixedFee: 1, gridApiMultiplier: 2 },
      paymentInstructions: [{ accountOrWalletInfo: { accountType: 'BASE_WALLET', cryptoNetwork: 'BASE_MAINNET' } }],
    });
  });

  it("fills in an account info's countries and rails only where left out, XOF's region, and a business's legalName", () => {
    const shaped = gridShape({
      data: [
        {
          accountInfo: {
            accountType: 'IBAN',
            iban: 'ES9121000418450200051332',
            beneficiary: { beneficiaryType: 'BUSINESS', fullName: 'Acme SL', taxId: 'B1' },
          },
        },
        { accountInfo: { accountType: 'IBAN', iban: 'DE89370400440532013000', countries: ['AT'], paymentRails: ['SEPA_INSTANT'] } },
        { accountInfo: { accountType: 'XOF_ACCOUNT', phoneNumber: '+2250701234000', provider: 'MTN' } },
        { accountInfo: { accountType: 'UPI', vpa: 'a@b', beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Ada' } } },
        { cryptoNetwork: 'SOLANA_DEVNET', accountInfo: { accountType: 'SOLANA_WALLET', address: 'x' } },
      ],
      hasMore: false,
    });
    expect(shaped).toEqual({
      data: [
        {
          accountInfo: {
            accountType: 'EUR_ACCOUNT',
            iban: 'ES9121000418450200051332',
            countries: ['ES'],
            paymentRails: ['SEPA'],
            beneficiary: { beneficiaryType: 'BUSINESS', legalName: 'Acme SL', taxId: 'B1' },
          },
        },
        { accountInfo: { accountType: 'EUR_ACCOUNT', iban: 'DE89370400440532013000', countries: ['AT'], paymentRails: ['SEPA_INSTANT'] } },
        {
          accountInfo: {
            accountType: 'XOF_ACCOUNT',
            phoneNumber: '+2250701234000',
            provider: 'MTN',
            countries: ['CI'],
            paymentRails: ['MOBILE_MONEY'],
            region: 'CI',
          },
        },
        {
          accountInfo: {
            accountType: 'INR_ACCOUNT',
            vpa: 'a@b',
            countries: ['IN'],
            paymentRails: ['UPI'],
            beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Ada' },
          },
        },
        { cryptoNetwork: 'SOLANA_DEVNET', accountInfo: { accountType: 'SOLANA_WALLET', address: 'x' } },
      ],
      hasMore: false,
      nextCursor: '',
    });
  });

  it('gives a lookup the vendor names: lookupId, min/max (numbers even without a limit), field definitions', () => {
    const lookup = {
      id: 'Lookup:1',
      supportedCurrencies: [{ currency: { code: 'EUR' }, estimatedExchangeRate: null, minAmount: null, maxAmount: 500 }],
      requiredPayerDataFields: ['FULL_NAME'],
      expiresAt: 't',
    };
    expect(gridShape(lookup)).toEqual({
      lookupId: 'Lookup:1',
      supportedCurrencies: [{ currency: { code: 'EUR' }, min: 1, max: 500 }],
      requiredPayerDataFields: [{ name: 'FULL_NAME', mandatory: true }],
      expiresAt: 't',
    });
  });

  it('maps the canonical types to the SDK union names', () => {
    expect(['US_ACCOUNT', 'IBAN', 'IBAN_ACCOUNT', 'CLABE', 'PIX'].map((t) => gridAccountType(t))).toEqual([
      'USD_ACCOUNT',
      'EUR_ACCOUNT',
      'EUR_ACCOUNT',
      'MXN_ACCOUNT',
      'BRL_ACCOUNT',
    ]);
    expect(gridAccountType('EVM_WALLET', 'ETHEREUM_MAINNET')).toBe('EVM_WALLET');
  });
});
