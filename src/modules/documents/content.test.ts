import { describe, expect, it } from 'vitest';
import { contentDisposition, detectKind, safeFileName } from './content.js';

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

describe('contentDisposition', () => {
  it('gives an ASCII fallback and the exact name in RFC 5987 form', () => {
    expect(contentDisposition('a.pdf')).toBe(`attachment; filename="a.pdf"; filename*=UTF-8''a.pdf`);
    expect(contentDisposition('Zoë; 100%.pdf')).toBe(`attachment; filename="Zoe_ 100_.pdf"; filename*=UTF-8''Zo%C3%AB%3B%20100%25.pdf`);
    expect(contentDisposition('文件.png')).toBe(`attachment; filename="document.png"; filename*=UTF-8''%E6%96%87%E4%BB%B6.png`);
  });
});
