import { describe, expect, it } from 'vitest';
import { buildPain001 } from './pain001.js';
import { validateXml } from './validate.js';

const xml = buildPain001({
  profile: 'SEPA',
  messageId: 'PO-20261128-0001',
  createdAt: '2026-11-28T10:00:00Z',
  initiatingParty: { name: 'Corridor' },
  payments: [
    {
      endToEndId: 'E'.repeat(35),
      amount: 100n,
      currency: 'EUR',
      requestedExecutionDate: '2026-11-30',
      debtor: { name: 'Corridor Operations GmbH', account: { iban: 'DE89370400440532013000' }, bic: 'COBADEFFXXX' },
      creditor: { name: 'Ada Lovelace', account: { iban: 'FR1420041010050500013M02606' } },
    },
  ],
});

// The validator is only worth something if it refuses: each case breaks a file our checks would
// never let through, by hand, and the official schema must catch it.
describe('validateXml', () => {
  it('accepts the file as built', async () => {
    expect(await validateXml(xml, 'pain.001.001.09')).toEqual({ valid: true, errors: [] });
  });

  it.each([
    ['an EndToEndId of 36 characters', xml.replace('E'.repeat(35), 'E'.repeat(36)), /EndToEndId.*maxLength/],
    ['an amount with 6 decimals', xml.replace('>1.00</InstdAmt>', '>1.000001</InstdAmt>'), /InstdAmt.*fractionDigits/],
    ['an unknown charge bearer', xml.replace('<ChrgBr>SLEV</ChrgBr>', '<ChrgBr>OURS</ChrgBr>'), /ChrgBr.*enumeration/],
    ['a lower-case IBAN country', xml.replace('<IBAN>FR14', '<IBAN>fr14'), /IBAN.*pattern/],
    ['elements out of order', xml.replace(/(<PmtMtd>TRF<\/PmtMtd>)\s*(<BtchBookg>false<\/BtchBookg>)/, '$2$1'), /BtchBookg|PmtMtd/],
    ['a missing debtor agent', xml.replace(/<DbtrAgt>[\s\S]*?<\/DbtrAgt>/, ''), /DbtrAgt/],
  ])('refuses %s', async (_, broken, message) => {
    expect(broken).not.toBe(xml);
    const result = await validateXml(broken, 'pain.001.001.09');
    expect(result.valid).toBe(false);
    expect(result.errors.join('\n')).toMatch(message);
    expect(result.errors[0]).toMatch(/^line \d+: /);
  });

  it('refuses a file that is not well-formed, or of another message', async () => {
    const truncated = await validateXml(xml.slice(0, xml.length / 2), 'pain.001.001.09');
    expect(truncated.valid).toBe(false);
    expect(truncated.errors.join('\n')).toMatch(/parser error|Premature end/);
    const empty = await validateXml('', 'pain.001.001.09');
    expect(empty.valid).toBe(false);
    expect(empty.errors.join('\n')).toMatch(/Document is empty/);
    const other = await validateXml(xml, 'camt.053.001.08');
    expect(other.valid).toBe(false);
    expect(other.errors.join('\n')).toMatch(/No matching global declaration|not expected/);
  });

  it('rejects, rather than calling a file invalid, when it has no schema to validate with', async () => {
    await expect(validateXml(xml, 'pain.001.001.03' as never)).rejects.toThrow(/ENOENT/);
  });
});
