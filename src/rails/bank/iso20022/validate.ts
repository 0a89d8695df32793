/**
 * Validation against the official ISO 20022 XSDs vendored in ./schemas (see schemas/ORIGIN.md), by
 * libxml2's xmllint compiled to WebAssembly: offline, no native addon, no JDK. Every file we write
 * passes through here before it is archived and uploaded ("strict out").
 */
import fs from 'node:fs/promises';
import { memoryPages, validateXML } from 'xmllint-wasm';
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

// xmllint's exit status 1: the document could not be parsed (not well-formed); 3 and 4 (schema
// validity errors) resolve as invalid inside xmllint-wasm. Anything else (5: the schema did not
// compile, 9: out of memory) is a fault of ours, not of the file, and is thrown.
const NOT_WELL_FORMED = 1;

/**
 * Validates `xml` against the vendored XSD of `schema`. Resolves `{valid: false, errors}` for a file
 * that breaks the schema or is not well-formed XML; rejects only when validation itself fails.
 */
export async function validateXml(xml: string, schema: IsoMessageId): Promise<XmlValidationResult> {
  const xsd = await schemaText(schema);
  try {
    const result = await validateXML({
      xml: [{ fileName: 'file.xml', contents: xml }],
      schema: [{ fileName: `${schema}.xsd`, contents: xsd }],
      // A large payout file needs far more than the 32 MiB default; memory is only taken as used.
      maxMemoryPages: 4 * memoryPages.GiB - 1,
    });
    // A parser error comes with the offending source line and a caret as lines of their own.
    const located = result.errors.filter((e) => e.loc !== null);
    return { valid: result.valid, errors: (located.length > 0 ? located : result.errors).map(describe) };
  } catch (err) {
    if ((err as { code?: unknown }).code === NOT_WELL_FORMED) {
      const lines = String((err as Error).message)
        .split('\n')
        .filter((line) => line.trim() !== '');
      return { valid: false, errors: lines.length > 0 ? lines : ['the file is not well-formed XML'] };
    }
    throw err;
  }
}

function describe(error: { message: string; loc: null | { lineNumber: number } }): string {
  return error.loc ? `line ${error.loc.lineNumber}: ${error.message}` : error.message;
}
