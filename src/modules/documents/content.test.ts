import { afterEach, describe, expect, it, vi } from 'vitest';
import { capFileName, contentDisposition, detectKind, MAX_GIVEN_NAME_CHARS, safeFileName } from './content.js';

const png = detectKind(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]))!;

describe('detectKind', () => {
  it('knows PDF, JPEG and PNG by their first bytes only', () => {
    expect(detectKind(Buffer.from('%PDF-1.7\n'))?.contentType).toBe('application/pdf');
    expect(detectKind(Buffer.from([0xff, 0xd8, 0xff, 0xdb]))?.contentType).toBe('image/jpeg');
    expect(png.contentType).toBe('image/png');
    for (const bytes of [Buffer.from('%PDF'), Buffer.from([0xff, 0xd8]), Buffer.from('GIF89a'), Buffer.from('<svg/>'), Buffer.alloc(0)]) {
      expect(detectKind(bytes)).toBeUndefined();
    }
  });
});

describe('safeFileName', () => {
  it('keeps the last path segment without control or quoting characters', () => {
    expect(safeFileName('C:\\Users\\a\\id card.png', png)).toBe('id card.png');
    expect(safeFileName('../../x\u0000y"<z>.png', png)).toBe('xyz.png');
    expect(safeFileName('  .hidden.PNG ', png)).toBe('hidden.PNG');
  });

  it('ends in the extension of the detected type and has a name even when none was given', () => {
    expect(safeFileName('page.html', png)).toBe('page.html.png');
    expect(safeFileName(undefined, png)).toBe('document.png');
    expect(safeFileName('...', png)).toBe('document.png');
    const long = safeFileName(`${'a'.repeat(500)}.png`, png);
    expect(long).toHaveLength(200);
    expect(long.endsWith('.png')).toBe(true);
  });
});

describe('a huge file name', () => {
  // "a", 65,000 spaces, "b.png": a trailing-space pattern retried at every position took seconds.
  const huge = `a${' '.repeat(65_000)}b.png`;
  afterEach(() => vi.restoreAllMocks());

  it(`is cut to ${MAX_GIVEN_NAME_CHARS} characters before any regular expression reads it`, () => {
    // Every way a regular expression can read a string goes through one of these.
    const seen: number[] = [];
    const record = (key: typeof Symbol.replace | typeof Symbol.split | typeof Symbol.match | typeof Symbol.search | 'exec' | 'test') => {
      const original = RegExp.prototype[key] as (this: RegExp, s: string, ...rest: unknown[]) => unknown;
      vi.spyOn(RegExp.prototype, key as 'exec').mockImplementation(function (this: RegExp, s: string, ...rest: unknown[]) {
        seen.push(String(s).length);
        return original.call(this, s, ...rest) as ReturnType<RegExp['exec']>;
      });
    };
    for (const key of [Symbol.replace, Symbol.split, Symbol.match, Symbol.search, 'exec', 'test'] as const) record(key);
    const name = safeFileName(huge, png);
    vi.restoreAllMocks();
    expect(seen.length).toBeGreaterThan(0);
    expect(Math.max(...seen)).toBeLessThanOrEqual(MAX_GIVEN_NAME_CHARS);
    expect(name).toBe('a.png');
  });

  it('keeps the last path segment when cutting, and short names whole', () => {
    expect(capFileName(huge)).toHaveLength(MAX_GIVEN_NAME_CHARS);
    expect(capFileName(`${'d/'.repeat(40_000)}scan.png`)).toBe('scan.png');
    expect(capFileName('C:\\x\\id.png')).toBe('id.png');
    expect(capFileName(undefined)).toBe('');
  });
});

describe('contentDisposition', () => {
  it('gives an ASCII fallback and the exact name in RFC 5987 form', () => {
    expect(contentDisposition('a.pdf')).toBe(`attachment; filename="a.pdf"; filename*=UTF-8''a.pdf`);
    expect(contentDisposition('Zoë; 100%.pdf')).toBe(`attachment; filename="Zoe_ 100_.pdf"; filename*=UTF-8''Zo%C3%AB%3B%20100%25.pdf`);
    expect(contentDisposition('文件.png')).toBe(`attachment; filename="document.png"; filename*=UTF-8''%E6%96%87%E4%BB%B6.png`);
  });
});
