/**
 * What a document file is, decided from its first bytes (never from its name or the declared
 * part type, which the client controls), and how its name is made safe to store and send back.
 */
export const MAX_FILE_BYTES = 10 * 1024 * 1024;

export interface FileKind {
  contentType: 'application/pdf' | 'image/jpeg' | 'image/png';
  extensions: readonly string[];
}

const KINDS: ReadonlyArray<FileKind & { magic: readonly number[] }> = [
  // "%PDF-"
  { contentType: 'application/pdf', extensions: ['.pdf'], magic: [0x25, 0x50, 0x44, 0x46, 0x2d] },
  // SOI marker followed by the first marker's 0xFF
  { contentType: 'image/jpeg', extensions: ['.jpg', '.jpeg'], magic: [0xff, 0xd8, 0xff] },
  // the 8-byte PNG signature
  { contentType: 'image/png', extensions: ['.png'], magic: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] },
];

export function detectKind(bytes: Buffer): FileKind | undefined {
  const found = KINDS.find((k) => bytes.length >= k.magic.length && k.magic.every((b, i) => bytes[i] === b));
  return found && { contentType: found.contentType, extensions: found.extensions };
}

const MAX_NAME_CHARS = 200;
/**
 * Characters of a client's file name that are looked at at all. Multipart part headers may carry
 * names of tens of KiB; every step below is linear, but nothing past this bound is even read.
 */
export const MAX_GIVEN_NAME_CHARS = 1024;

/**
 * The last path segment of the given name, cut to MAX_GIVEN_NAME_CHARS, with plain string
 * operations only: this runs before any regular expression sees the name.
 */
export function capFileName(given: string | undefined): string {
  const name = given ?? '';
  const segment = name.slice(Math.max(name.lastIndexOf('/'), name.lastIndexOf('\\')) + 1);
  return segment.length > MAX_GIVEN_NAME_CHARS ? segment.slice(0, MAX_GIVEN_NAME_CHARS) : segment;
}

/**
 * The file name to keep: the last path segment of what the client sent (its first
 * MAX_GIVEN_NAME_CHARS characters), without control or quoting characters, bounded, and ending in
 * the extension of the detected type (so a PNG uploaded as "x.html" is kept as "x.html.png" and
 * never saved by a browser as a page).
 */
export function safeFileName(given: string | undefined, kind: FileKind): string {
  // Capped first; then only linear steps: one character class, a prefix anchored at the start
  // (no alternation retried at every position), and trimEnd for the trailing spaces.
  let name = capFileName(given)
    .normalize('NFC')
    .replace(/[\u0000-\u001f\u007f-\u009f"*:<>?|]/g, '')
    .replace(/^[\s.]+/, '')
    .trimEnd();
  if (!name) name = 'document';
  const lower = name.toLowerCase();
  if (!kind.extensions.some((ext) => lower.endsWith(ext))) name = `${name}${kind.extensions[0]}`;
  if (name.length > MAX_NAME_CHARS) {
    const ext = kind.extensions.find((e) => name.toLowerCase().endsWith(e)) ?? kind.extensions[0];
    name = `${name.slice(0, MAX_NAME_CHARS - ext.length)}${ext}`;
  }
  return name;
}

/** `attachment` with an ASCII fallback name and the exact name in RFC 5987 form. */
export function contentDisposition(fileName: string): string {
  let ascii = fileName
    .normalize('NFKD')
    .replace(/[^\x20-\x7e]/g, '')
    .replace(/["\\;%]/g, '_')
    .trim();
  // A name that was all non-ASCII must not fall back to a bare ".png".
  if (!ascii || ascii.startsWith('.')) ascii = `document${ascii}`;
  const encoded = encodeURIComponent(fileName).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
