import { describe, expect, it } from 'vitest';
import { IsoInputError } from './errors.js';
import { parsePain001 } from './parse-pain001.js';
import { buildPain001, type Pain001Input, type Pain001Payment } from './pain001.js';
import { validateXml } from './validate.js';

const debtor = { name: 'Corridor Operations GmbH', account: { iban: 'DE89370400440532013000' }, bic: 'COBADEFFXXX' };

function payment(overrides: Partial<Pain001Payment> = {}): Pain001Payment {
  return {
    endToEndId: 'Transaction:019a7c1e0001',
    amount: 123_45n,
    currency: 'EUR',
    requestedExecutionDate: '2026-11-30',
    debtor,
    creditor: { name: 'Ada Lovelace', account: { iban: 'FR1420041010050500013M02606' }, bic: 'BNPAFRPPXXX', country: 'FR' },
    remittanceInformation: 'Payout Transaction:019a7c1e0001',
    ...overrides,
  };
}

function sepa(payments: Pain001Payment[], overrides: Partial<Pain001Input> = {}): Pain001Input {
  return {
    profile: 'SEPA',
    messageId: 'PO-20261128-0001',
    createdAt: '2026-11-28T10:00:00Z',
    initiatingParty: { name: 'Corridor', id: 'CORRIDOR-01' },
    payments,
    ...overrides,
  };
}

function refusal(input: Pain001Input): IsoInputError {
  try {
    buildPain001(input);
  } catch (err) {
    expect(err).toBeInstanceOf(IsoInputError);
    return err as IsoInputError;
  }
  throw new Error('buildPain001 accepted the input');
}

describe('buildPain001', () => {
  it('writes a SEPA file the official XSD accepts, grouped by debtor account, date, currency and service level', async () => {
    const input = sepa([
      payment(),
      payment({ endToEndId: 'Transaction:019a7c1e0002', amount: 1n, creditor: { name: 'Zoë Müßig & Søn', account: { iban: 'NL91ABNA0417164300' } } }),
      payment({ endToEndId: 'Transaction:019a7c1e0003', amount: 99_999_999_999n, requestedExecutionDate: '2026-12-01', instructionId: 'I-3' }),
    ]);
    const xml = buildPain001(input);
    expect(await validateXml(xml, 'pain.001.001.09')).toEqual({ valid: true, errors: [] });

    const file = parsePain001(xml);
    expect(file.messageId).toBe('PO-20261128-0001');
    expect(file.declaredNumberOfTransactions).toBe(3);
    expect(file.declaredControlSum).toBe('1000000123.45');
    expect(file.paymentInformation.map((p) => [p.id, p.requestedExecutionDate, p.transactions.length, p.declaredControlSum])).toEqual([
      ['PO-20261128-0001-1', '2026-11-30', 2, '123.46'],
      ['PO-20261128-0001-2', '2026-12-01', 1, '999999999.99'],
    ]);
    const first = file.paymentInformation[0]!;
    expect(first).toMatchObject({ method: 'TRF', serviceLevel: 'SEPA', chargeBearer: 'SLEV', debtorBic: 'COBADEFFXXX', batchBooking: false });
    expect(first.debtorAccount).toEqual({ iban: 'DE89370400440532013000', currency: 'EUR' });
    expect(first.transactions[1]).toMatchObject({ endToEndId: 'Transaction:019a7c1e0002', amount: 1n, currency: 'EUR', creditorName: 'Zoe Mussig + Son' });
    expect(first.transactions[1]!.creditorBic).toBeUndefined();
    expect(file.paymentInformation[1]!.transactions[0]).toMatchObject({ instructionId: 'I-3', amount: 99_999_999_999n });
  });

  it('writes a GENERIC file in any currency, to non-IBAN accounts, with UTF-8 names', async () => {
    const xml = buildPain001({
      profile: 'GENERIC',
      messageId: 'PO-20261128-0002',
      createdAt: '2026-11-28T10:00:00+09:00',
      initiatingParty: { name: 'Corridor KK' },
      payments: [
        payment({
          endToEndId: 'Transaction:019a7c1e0010',
          amount: 5000n,
          currency: 'JPY',
          serviceLevel: 'URGP',
          creditor: {
            name: '山田 太郎',
            account: { otherId: '1234567' },
            bic: 'MHCBJPJTXXX',
            country: 'JP',
            addressLines: ['1-2-3 Marunouchi', 'Chiyoda-ku, Tokyo'],
          },
          remittanceInformation: 'お支払い 19a7c1e',
        }),
        payment({
          endToEndId: 'Transaction:019a7c1e0011',
          amount: 9_000_000_000_000_000n,
          currency: 'USD',
          creditor: { name: 'Grace Hopper', account: { otherId: '000123456789' } },
        }),
      ],
    });
    expect(await validateXml(xml, 'pain.001.001.09')).toEqual({ valid: true, errors: [] });
    expect(xml).toContain('<InstdAmt Ccy="JPY">5000</InstdAmt>');
    expect(xml).toContain('<InstdAmt Ccy="USD">90000000000000.00</InstdAmt>');
    expect(xml).toContain('<ChrgBr>SHAR</ChrgBr>');
    const file = parsePain001(xml);
    const yen = file.paymentInformation[0]!.transactions[0]!;
    expect(yen).toMatchObject({
      amount: 5000n,
      currency: 'JPY',
      creditorName: '山田 太郎',
      creditorAccount: { otherId: '1234567' },
      remittanceInformation: 'お支払い 19a7c1e',
    });
    expect(file.paymentInformation[1]!.transactions[0]!.amount).toBe(9_000_000_000_000_000n);
    expect(file.declaredControlSum).toBe('90000000005000.00');
  });

  it('gives the same bytes for the same input', () => {
    const input = sepa([payment(), payment({ endToEndId: 'E2', amount: 7n })]);
    const a = buildPain001(input);
    const b = buildPain001(structuredClone(input));
    expect(b).toBe(a);
    expect(buildPain001(sepa([payment({ endToEndId: 'E2', amount: 7n }), payment()]))).not.toBe(a);
  });

  it('transliterates SEPA free text to the EPC character set and keeps names within 70 characters', () => {
    const xml = buildPain001(
      sepa([
        payment({
          creditor: { name: `Señor José Ñúñez & Cía ${'x'.repeat(80)}`, account: { iban: 'ES9121000418450200051332' } },
          remittanceInformation: 'Rechnung Nr. 5 – Grüße «Müller»',
        }),
      ]),
    );
    const name = /<Cdtr>\s*<Nm>([^<]*)<\/Nm>/.exec(xml)![1]!;
    expect(name.startsWith('Senor Jose Nunez + Cia xxx')).toBe(true);
    expect(name).toHaveLength(70);
    expect(xml).toContain('<Ustrd>Rechnung Nr. 5 - Grusse .Muller.</Ustrd>');
  });

  it.each<[string, (p: Pain001Payment) => Pain001Payment, string, RegExp]>([
    ['a zero amount', (p) => ({ ...p, amount: 0n }), 'payments[0].amount', /positive/],
    ['a negative amount', (p) => ({ ...p, amount: -5n }), 'payments[0].amount', /positive/],
    ['a number instead of a bigint', (p) => ({ ...p, amount: 12 as unknown as bigint }), 'payments[0].amount', /bigint/],
    ['more than the SEPA maximum', (p) => ({ ...p, amount: 100_000_000_000n }), 'payments[0].amount', /999999999\.99/],
    [
      'a bad creditor IBAN',
      (p) => ({ ...p, creditor: { ...p.creditor, account: { iban: 'FR1420041010050500013M02607' } } }),
      'payments[0].creditor.account.iban',
      /IBAN/,
    ],
    ['a bad debtor BIC', (p) => ({ ...p, debtor: { ...debtor, bic: 'COBADEFF1' } }), 'payments[0].debtor.bic', /BIC/],
    ['a lower-case BIC', (p) => ({ ...p, creditor: { ...p.creditor, bic: 'bnpafrppxxx' } }), 'payments[0].creditor.bic', /BIC/],
    ['an EndToEndId of 36 characters', (p) => ({ ...p, endToEndId: 'E'.repeat(36) }), 'payments[0].endToEndId', /36 characters, at most 35/],
    ['an EndToEndId outside the EPC set', (p) => ({ ...p, endToEndId: 'Payout_1' }), 'payments[0].endToEndId', /only a-z/],
    ['an EndToEndId starting with a slash', (p) => ({ ...p, endToEndId: '/P1' }), 'payments[0].endToEndId', /must not start/],
    ['a non-EUR currency', (p) => ({ ...p, currency: 'USD' }), 'payments[0].currency', /EUR/],
    ['a non-IBAN creditor account', (p) => ({ ...p, creditor: { ...p.creditor, account: { otherId: '12345' } } }), 'payments[0].creditor.account.iban', /IBAN/],
    ['a remittance of 141 characters', (p) => ({ ...p, remittanceInformation: 'r'.repeat(141) }), 'payments[0].remittanceInformation', /at most 140/],
    ['an impossible date', (p) => ({ ...p, requestedExecutionDate: '2026-02-30x' }), 'payments[0].requestedExecutionDate', /YYYY-MM-DD/],
    ['an empty creditor name', (p) => ({ ...p, creditor: { ...p.creditor, name: ' ' } }), 'payments[0].creditor.name', /empty/],
  ])('refuses %s, naming the field', (_, change, field, reason) => {
    const error = refusal(sepa([change(payment())]));
    expect(error.field).toBe(field);
    expect(error.reason).toMatch(reason);
  });

  it('refuses an empty list, a duplicate reference and a message id too long to derive group ids', () => {
    expect(refusal(sepa([])).field).toBe('payments');
    expect(refusal(sepa([payment(), payment({ amount: 1n })])).field).toBe('payments[1].endToEndId');
    expect(refusal(sepa([payment()], { messageId: 'M'.repeat(34) })).field).toBe('messageId');
    expect(refusal(sepa([payment()], { createdAt: '2026-11-28 10:00' })).field).toBe('createdAt');
    expect(refusal(sepa([payment(), payment({ endToEndId: 'E2', debtor: { ...debtor, bic: 'DEUTDEFFXXX' } })])).field).toBe('payments[1].debtor.bic');
  });
});
