import { describe, expect, it } from 'vitest';
import { gridAccountType, gridShape } from './grid-profile.js';

describe('gridShape', () => {
  it('renames rateDetails, account types (by network) and lookups; leaves the rest', () => {
    const answer = {
      data: [
        { id: 'ExternalAccount:1', cryptoNetwork: 'LAYER2_TESTNET', accountInfo: { accountType: 'LAYER2_WALLET', address: 'x' } },
        { id: 'ExternalAccount:2', cryptoNetwork: 'LIGHTNING_MAINNET', accountInfo: { accountType: 'LAYER2_WALLET', address: 'a@b.c' } },
        { id: 'ExternalAccount:3', accountInfo: { accountType: 'GBP_ACCOUNT' } },
      ],
      rateDetails: { counterpartyFixedFee: 1, serviceApiMultiplier: 2 },
      paymentInstructions: [{ accountOrWalletInfo: { accountType: 'EVM_WALLET', cryptoNetwork: 'BASE_MAINNET' } }],
    };
    expect(gridShape(answer)).toEqual({
      data: [
        { id: 'ExternalAccount:1', cryptoNetwork: 'LAYER2_TESTNET', accountInfo: { accountType: 'SPARK_WALLET', address: 'x' } },
        { id: 'ExternalAccount:2', cryptoNetwork: 'LIGHTNING_MAINNET', accountInfo: { accountType: 'LAYER2_WALLET', address: 'a@b.c' } },
        { id: 'ExternalAccount:3', accountInfo: { accountType: 'GBP_ACCOUNT' } },
      ],
      rateDetails: { counterpartyFixedFee: 1, gridApiMultiplier: 2 },
      paymentInstructions: [{ accountOrWalletInfo: { accountType: 'BASE_WALLET', cryptoNetwork: 'BASE_MAINNET' } }],
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
