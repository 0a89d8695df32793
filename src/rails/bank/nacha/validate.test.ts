import { describe, expect, it } from 'vitest';
import { buildNachaFile } from './build.js';
import { NachaError } from './errors.js';
import { fixture, patch } from './fixtures/edit.js';
import { MIXED_DEBIT } from './fixtures/inputs.js';
import { parseNachaFile } from './parse.js';
import { validateNachaFile } from './validate.js';

describe('validateNachaFile', () => {
  it.each(['ppd-credit.ach', 'ccd-credit.ach', 'mixed-debit.ach', 'return.ach', 'noc.ach'])('finds nothing wrong in %s', (name) => {
    expect(validateNachaFile(fixture(name))).toEqual([]);
  });

  it('lists every problem with its line and rule, in file order', () => {
    let text = buildNachaFile(MIXED_DEBIT).text;
    text = patch(text, 3, 12, '5'); // routing check digit of the first entry
    text = patch(text, 7, 30, '0000000778'); // an amount without its totals (batch 2)
    text = patch(text, 8, 11, '0000000000'); // batch 2's entry hash
    text = patch(text, 10, 1, 'X'); // an unknown record type (batch 3's entry)
    const problems = validateNachaFile(text);
    expect(problems.map((p) => [p.line, p.rule])).toEqual([
      [3, 'routing-check-digit'],
      [8, 'entry-hash'],
      [8, 'batch-control'],
      [10, 'record-type'],
      [11, 'record-order'], // batch 3 lost its only entry…
      [11, 'batch-control'], // …which its control still counts
      [11, 'entry-hash'],
      // The file control is checked against the batch controls as written: only batch 2's hash differs.
      [12, 'entry-hash'],
    ]);
    expect(problems[2].message).toMatch(/total debit amount is 777 in the batch control record, 778 by the batch/);
    expect(problems.every((p) => p.message.length > 0)).toBe(true);
  });

  it('reports a short file header once, and still checks the records after it', () => {
    const text = fixture('ppd-credit.ach').replace(/ +\n/, '\n');
    expect(validateNachaFile(text)).toEqual([{ line: 1, rule: 'record-length', message: 'a record is 94 characters, this line has 84' }]);
    expect(validateNachaFile(patch(text, 6, 33, '000000000001')).map((p) => [p.line, p.rule])).toEqual([
      [1, 'record-length'],
      [6, 'batch-control'],
      [7, 'file-control'],
    ]);
  });

  it('reports what parse refuses on, first', () => {
    const text = patch(fixture('return.ach'), 4, 1, '8');
    const problems = validateNachaFile(text);
    expect(problems.length).toBeGreaterThan(0);
    try {
      parseNachaFile(text);
      expect.unreachable();
    } catch (err) {
      expect((err as NachaError).problem).toEqual(problems[0]);
    }
  });

  it('stops at a text that is not NACHA with one problem', () => {
    expect(validateNachaFile('<Document/>')).toEqual([{ line: 1, rule: 'not-nacha', message: expect.stringMatching(/XML/) }]);
    expect(validateNachaFile(42 as unknown as string)).toEqual([{ line: 0, rule: 'not-nacha', message: 'a NACHA file is text' }]);
  });
});
