import { describe, expect, it } from 'vitest';
import { CHANGE_CODE_LIST, RETURN_CODE_LIST, changeCodeInfo, returnCodeInfo } from './codes.js';

describe('return codes', () => {
  it('describes every code it lists, each once, R01 to R85', () => {
    const codes = RETURN_CODE_LIST.map((c) => c.code);
    expect(new Set(codes).size).toBe(codes.length);
    for (const info of RETURN_CODE_LIST) {
      expect(info.code).toMatch(/^R[0-8][0-9]$/);
      expect(info.description.trim().length).toBeGreaterThan(5);
      expect(returnCodeInfo(info.code)).toEqual(info);
    }
  });

  it('covers R01–R39, R40–R47, R50–R53, R61, R62, R67–R77, R80–R85', () => {
    const range = (a: number, b: number) => Array.from({ length: b - a + 1 }, (_, i) => `R${String(a + i).padStart(2, '0')}`);
    const expected = [...range(1, 47), ...range(50, 53), 'R61', 'R62', ...range(67, 77), ...range(80, 85)];
    expect(RETURN_CODE_LIST.map((c) => c.code)).toEqual(expected);
  });

  it('says which codes make the account unusable', () => {
    for (const code of ['R02', 'R03', 'R04', 'R05', 'R07', 'R10', 'R12', 'R14', 'R15', 'R16', 'R20', 'R29'])
      expect(returnCodeInfo(code)?.accountUnusable).toBe(true);
    for (const code of ['R01', 'R06', 'R08', 'R09', 'R11', 'R24', 'R61', 'R69', 'R80']) expect(returnCodeInfo(code)?.accountUnusable).toBe(false);
    expect(returnCodeInfo('R01')).toEqual({ code: 'R01', description: 'Insufficient Funds', accountUnusable: false });
  });

  it('does not know codes outside the Rules', () => {
    for (const code of ['R00', 'R48', 'R49', 'R63', 'R90', 'r01', 'C01', '']) expect(returnCodeInfo(code)).toBeUndefined();
  });

  it('hands out copies, so the table cannot be changed by a caller', () => {
    returnCodeInfo('R02')!.accountUnusable = false;
    expect(returnCodeInfo('R02')!.accountUnusable).toBe(true);
  });
});

describe('change codes', () => {
  it('describes C01 to C14 with what they correct', () => {
    expect(CHANGE_CODE_LIST.map((c) => c.code)).toEqual(Array.from({ length: 14 }, (_, i) => `C${String(i + 1).padStart(2, '0')}`));
    expect(changeCodeInfo('C03')?.corrects).toEqual(['routingNumber', 'accountNumber']);
    expect(changeCodeInfo('C07')?.corrects).toEqual(['routingNumber', 'accountNumber', 'transactionCode']);
    for (const c of CHANGE_CODE_LIST) expect(c.description.length).toBeGreaterThan(5);
    expect(changeCodeInfo('C15')).toBeUndefined();
    expect(changeCodeInfo('R01')).toBeUndefined();
  });
});
