import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type NachaEntryInput, type NachaFileInput, buildNachaFile } from './build.js';
import { NachaError } from './errors.js';
import { PPD_CREDIT } from './fixtures/inputs.js';
import { parseNachaFile } from './parse.js';
import { validateNachaFile } from './validate.js';

const ROUTING = ['231380104', '091000019', '026009593', '021000021', '011000015', '121042882'];
const CREDIT = [22, 32] as const;
const DEBIT = [27, 37] as const;

const entry: fc.Arbitrary<NachaEntryInput> = fc.record({
  transactionCode: fc.constantFrom(...CREDIT, ...DEBIT),
  receivingDFIRoutingNumber: fc.constantFrom(...ROUTING),
  dfiAccountNumber: fc.stringMatching(/^[0-9A-Z-]{1,17}$/),
  amount: fc.bigInt({ min: 1n, max: 9_999_999_999n }),
  individualIdentificationNumber: fc.stringMatching(/^[A-Z0-9]{0,15}$/),
  // Any text, accents and scripts NACHA cannot carry included; at least one writable letter.
  individualName: fc.tuple(fc.constantFrom('A', 'é', 'Ø', 'z'), fc.string({ unit: 'grapheme', maxLength: 40 })).map(([a, b]) => a + b),
  addenda: fc.option(fc.record({ paymentRelatedInformation: fc.stringMatching(/^[A-Za-z0-9 .,*-]{1,80}$/).filter((s) => s.trim() !== '') }), {
    nil: undefined,
  }),
});

const file: fc.Arbitrary<NachaFileInput> = fc
  .array(fc.array(entry, { minLength: 1, maxLength: 8 }), { minLength: 1, maxLength: 4 })
  .map((batches) => ({ ...PPD_CREDIT, batches: batches.map((entries) => ({ ...PPD_CREDIT.batches[0], entries })) }));

describe('build → parse round trip on generated files', () => {
  it('writes valid files that read back with the same amounts, accounts, references and traces', () => {
    fc.assert(
      fc.property(file, (input) => {
        const built = buildNachaFile(input);
        const lines = built.text.split('\n').slice(0, -1);
        expect(lines.every((l) => l.length === 94 && /^[\x20-\x7e]+$/.test(l))).toBe(true);
        expect(lines.length % 10).toBe(0);
        expect(validateNachaFile(built.text)).toEqual([]);
        const parsed = parseNachaFile(built.text);
        const entries = parsed.batches.flatMap((b) => b.entries);
        const inputs = input.batches.flatMap((b) => b.entries);
        expect(entries.map((e) => [e.transactionCode, e.receivingDFIRoutingNumber, e.dfiAccountNumber, e.amount, e.individualIdentificationNumber])).toEqual(
          inputs.map((e) => [e.transactionCode, e.receivingDFIRoutingNumber, e.dfiAccountNumber, e.amount, e.individualIdentificationNumber]),
        );
        expect(entries.map((e) => e.paymentRelatedInformation)).toEqual(inputs.map((e) => e.addenda?.paymentRelatedInformation.toUpperCase().trim()));
        expect(parsed.batches.map((b) => b.entries.map((e) => e.traceNumber))).toEqual(built.traceNumbers);
        const debit = inputs.filter((e) => e.transactionCode % 10 === 7).reduce((s, e) => s + e.amount, 0n);
        const credit = inputs.filter((e) => e.transactionCode % 10 === 2).reduce((s, e) => s + e.amount, 0n);
        expect([parsed.control.totalDebit, parsed.control.totalCredit]).toEqual([debit, credit]);
        expect(built.totals).toMatchObject({ totalDebit: debit, totalCredit: credit });
      }),
      { numRuns: 150 },
    );
  });

  it('refuses with a NachaError, never a partial or broken file, when a field cannot be written', () => {
    fc.assert(
      fc.property(entry, fc.string({ maxLength: 30 }), (e, account) => {
        let result: string | undefined;
        try {
          result = buildNachaFile({ ...PPD_CREDIT, batches: [{ ...PPD_CREDIT.batches[0], entries: [{ ...e, dfiAccountNumber: account }] }] }).text;
        } catch (err) {
          expect(err).toBeInstanceOf(NachaError);
          expect((err as NachaError).field).toBe('batches[0].entries[0].dfiAccountNumber');
          return;
        }
        expect(account).toMatch(/^[0-9A-Z-]{1,17}$/);
        expect(validateNachaFile(result)).toEqual([]);
      }),
      { numRuns: 200 },
    );
  });
});
