/**
 * Validation against the official ISO 20022 XSDs vendored in ./schemas (see schemas/ORIGIN.md), by
 * libxml2's xmllint compiled to WebAssembly: offline, no native addon, no JDK. Every file we write
 * passes through here before it is archived and uploaded ("strict out").
 *
 * Cost, measured on Node 20 (2 shared CPUs): ~0.2 s for any file (a worker thread starts and
 * compiles the XSD), and a 100,000-payment pain.001 (70 MB) takes ~6 s of CPU and ~1.2 GB of
 * memory at its peak (xmllint holds the whole document); a large file is best validated away from
 * a request, as the payout pipeline's jobs do.
 */
import fs from 'node:fs/promises';
import type * as Xmllint from 'xmllint-wasm';
import { projectPath } from '../../../common/paths.js';
import type { IsoMessageId } from './messages.js';

export interface XmlValidationResult {
  valid: boolean;
  /** xmllint's messages, each with the line it points at ("line 12: Element ... EndToEndId ..."). */
  errors: string[];
}

/** The folder of the vendored XSDs, found from the project root so the built bundle finds it too. */
export const SCHEMA_DIR = projectPath('src', 'rails', 'bank', 'iso20022', 'schemas');

export function schemaPath(schema: IsoMessageId): string {
  return `${SCHEMA_DIR}/${schema}.xsd`;
}

// Each XSD is read once per process; xmllint-wasm compiles it again on every call (its worker
// holds no state between calls), which is most of the fixed cost of a validation (~0.2 s).
const schemaTexts = new Map<IsoMessageId, Promise<string>>();

function schemaText(schema: IsoMessageId): Promise<string> {
  let text = schemaTexts.get(schema);
  if (!text) {
    text = fs.readFile(schemaPath(schema), 'utf8');
    text.catch(() => schemaTexts.delete(schema));
    schemaTexts.set(schema, text);
  }
  return text;
}

// xmllint-wasm starts its worker from a file beside its own module (__dirname), which a bundle in
// dist/ does not have. Imported by a name the bundler cannot follow, it stays in node_modules and
// is loaded from there, the first time a file is validated.
const XMLLINT_PACKAGE = 'xmllint-wasm';
let xmllint: Promise<typeof Xmllint> | undefined;

function loadXmllint(): Promise<typeof Xmllint> {
  xmllint ??= (import(XMLLINT_PACKAGE) as Promise<typeof Xmllint & { default?: typeof Xmllint }>).then((m) => m.default ?? m);
  return xmllint;
}

/**
 * Validates `xml` against the vendored XSD of `schema`. Resolves `{valid: false, errors}` for a file
 * that breaks the schema or is not well-formed XML (xmllint reports both the same way); rejects only
 * when validation itself fails (the schema does not compile, memory runs out), a fault of ours
 * rather than of the file.
 */
export async function validateXml(xml: string, schema: IsoMessageId): Promise<XmlValidationResult> {
  const [xsd, { validateXML, memoryPages }] = await Promise.all([schemaText(schema), loadXmllint()]);
  const result = await validateXML({
    xml: [{ fileName: 'file.xml', contents: xml }],
    schema: [{ fileName: `${schema}.xsd`, contents: xsd }],
    // A large payout file needs far more than the 32 MiB default; memory is only taken as used.
    maxMemoryPages: 4 * memoryPages.GiB - 1,
  });
  // A parser error comes with the offending source line and a caret as lines of their own.
  const located = result.errors.filter((e) => e.loc !== null);
  return { valid: result.valid, errors: (located.length > 0 ? located : result.errors).map(describe) };
}

function describe(error: { message: string; loc: null | { lineNumber: number } }): string {
  return error.loc ? `line ${error.loc.lineNumber}: ${error.message}` : error.message;
}
