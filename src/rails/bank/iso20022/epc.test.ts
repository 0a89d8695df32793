import { describe, expect, it } from 'vitest';
import { EPC_TEXT, toEpcText } from './epc.js';

describe('EPC character set', () => {
  it('drops accents and spells out special letters', () => {
    expect(toEpcText('Zoë Müller-Lüdenscheidt')).toBe('Zoe Muller-Ludenscheidt');
    expect(toEpcText('Straße')).toBe('Strasse');
    expect(toEpcText('Ærøskøbing Łódź')).toBe('AEroskobing Lodz');
    expect(toEpcText('François Çelik Ñandú')).toBe('Francois Celik Nandu');
    expect(toEpcText('Œuvre þing')).toBe('OEuvre thing');
  });

  it('maps punctuation to its closest EPC neighbour and replaces the rest', () => {
    expect(toEpcText('Smith & Sons "Ltd"')).toBe("Smith + Sons 'Ltd'");
    expect(toEpcText('a_b [c] {d} <e>')).toBe('a-b (c) (d) (e)');
    expect(toEpcText('user@example.com #12 €5 ½')).toBe('user.example.com .12 .5 .');
    expect(toEpcText('Москва 東京')).toBe('...... ..');
    expect(toEpcText('line\nbreak\ttab')).toBe('line break tab');
  });

  it('leaves EPC text as it is, and always returns EPC text', () => {
    const epc = "Invoice 2026/11 (final) - ref: A.B,C'D+E?";
    expect(toEpcText(epc)).toBe(epc);
    for (const text of ['Zoë', 'ß', '😀', '\u0301', 'a\u00A0b', '№ 5', 'ﬁne']) expect(toEpcText(text), text).toMatch(EPC_TEXT);
    expect(toEpcText('№ 5 ﬁne')).toBe('No 5 fine');
  });
});
