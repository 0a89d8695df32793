/**
 * Reading ISO 20022 files, "tolerant in": any namespace prefix, any element order fast-xml-parser
 * keeps, unknown elements ignored; but a file that is not well-formed, not a message we know, or
 * not the message asked for is refused as a whole with an IsoParseError, never half-read.
 */
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { parseAmount, currencyDecimals } from './amounts.js';
import { IsoParseError } from './errors.js';
import { MESSAGE_ROOT, messageOfRoot, readRootElement, type IsoMessageId } from './messages.js';

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  removeNSPrefix: true,
  // Every value stays a string: "00012" is an id, "1.10" an amount read exactly later.
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  ignoreDeclaration: true,
  ignorePiTags: true,
  htmlEntities: false,
});

type Raw = unknown;

/** An element of a parsed file with its path, so that every refusal says where. */
export class XmlNode {
  constructor(
    private readonly raw: Raw,
    readonly path: string,
  ) {}

  /** Every element at a path of child names ("NtryDtls/TxDtls"), in document order. */
  all(path: string): XmlNode[] {
    let nodes: XmlNode[] = [this];
    for (const name of path.split('/')) {
      nodes = nodes.flatMap((node) => {
        const value = isObject(node.raw) ? node.raw[name] : undefined;
        if (value === undefined) return [];
        const childPath = `${node.path}/${name}`;
        return Array.isArray(value) ? value.map((v: Raw, i) => new XmlNode(v, `${childPath}[${i + 1}]`)) : [new XmlNode(value, childPath)];
      });
    }
    return nodes;
  }

  first(path: string): XmlNode | undefined {
    return this.all(path)[0];
  }

  require(path: string): XmlNode {
    const node = this.first(path);
    if (!node) throw new IsoParseError('MISSING_ELEMENT', `${path} is missing`, this.path);
    return node;
  }

  /** The element's own text (trimmed), undefined when it has none. */
  get value(): string | undefined {
    const raw = isObject(this.raw) ? this.raw['#text'] : this.raw;
    if (typeof raw !== 'string' || raw === '') return undefined;
    return raw;
  }

  text(path: string): string | undefined {
    return this.first(path)?.value;
  }

  requireText(path: string): string {
    const text = this.text(path);
    if (text === undefined) throw new IsoParseError('MISSING_ELEMENT', `${path} is missing or empty`, this.path);
    return text;
  }

  attribute(name: string): string | undefined {
    const value = isObject(this.raw) ? this.raw[`@${name}`] : undefined;
    return typeof value === 'string' ? value : undefined;
  }
}

function isObject(value: Raw): value is Record<string, Raw> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export interface IsoDocument {
  message: IsoMessageId;
  /** The message element under `Document` (e.g. `BkToCstmrStmt`). */
  body: XmlNode;
}

/**
 * Checks a file is well-formed XML holding one of the `accepted` messages and returns its message
 * element. Throws IsoParseError: NOT_WELL_FORMED, UNKNOWN_NAMESPACE, WRONG_MESSAGE or MISSING_ELEMENT.
 */
export function readIsoDocument(xml: string, accepted: readonly IsoMessageId[]): IsoDocument {
  if (typeof xml !== 'string' || xml.trim() === '') throw new IsoParseError('NOT_WELL_FORMED', 'the file is empty');
  // A DOCTYPE can declare entities that expand without bound; no ISO 20022 file has one.
  if (/<!DOCTYPE/i.test(xml)) throw new IsoParseError('NOT_WELL_FORMED', 'a DOCTYPE is not accepted in an ISO 20022 file');
  const check = XMLValidator.validate(xml);
  if (check !== true) {
    throw new IsoParseError('NOT_WELL_FORMED', `not well-formed XML: ${check.err.msg} (line ${check.err.line}, column ${check.err.col})`);
  }
  const root = readRootElement(xml);
  const id = messageOfRoot(root);
  if (id === undefined) {
    const what = root
      ? `root element ${root.name} in namespace ${root.namespace === undefined ? '(none)' : JSON.stringify(root.namespace)}`
      : 'no root element';
    throw new IsoParseError('UNKNOWN_NAMESPACE', `not an ISO 20022 message this module reads: ${what}`);
  }
  if (!accepted.includes(id)) throw new IsoParseError('WRONG_MESSAGE', `expected ${accepted.join(' or ')}, the file is ${id}`);
  let parsed: Raw;
  try {
    parsed = parser.parse(xml);
  } catch (err) {
    throw new IsoParseError('NOT_WELL_FORMED', `not well-formed XML: ${(err as Error).message}`);
  }
  const document = new XmlNode(parsed, '').require('Document');
  return { message: id, body: document.require(MESSAGE_ROOT[id]) };
}

/** A currency attribute and decimal text, read exactly as minor units; BAD_VALUE when they cannot be. */
export function readAmount(node: XmlNode): { amount: bigint; currency: string } {
  const currency = node.attribute('Ccy');
  const text = node.value;
  if (currency === undefined) throw new IsoParseError('MISSING_ELEMENT', 'the amount has no Ccy attribute', node.path);
  if (text === undefined) throw new IsoParseError('MISSING_ELEMENT', 'the amount is empty', node.path);
  try {
    return { amount: parseAmount(text, currencyDecimals(currency)), currency };
  } catch (err) {
    throw new IsoParseError('BAD_VALUE', `amount ${JSON.stringify(text)} ${currency}: ${(err as Error).message}`, node.path);
  }
}

/** A DateAndDateTimeChoice (`Dt` or `DtTm`) as its calendar date, YYYY-MM-DD as the bank wrote it. */
export function readDate(node: XmlNode | undefined): string | undefined {
  if (!node) return undefined;
  const text = node.text('Dt') ?? node.text('DtTm') ?? node.value;
  if (text === undefined) return undefined;
  if (!/^\d{4}-\d{2}-\d{2}/.test(text)) throw new IsoParseError('BAD_VALUE', `not a date: ${JSON.stringify(text.slice(0, 40))}`, node.path);
  return text.slice(0, 10);
}
