/**
 * The ISO 20022 messages this module writes and reads, and how a file says which one it is: the
 * namespace of its root `Document` element (urn:iso:std:iso:20022:tech:xsd:<message id>).
 */

export const ISO_MESSAGES = ['pain.001.001.09', 'pain.002.001.10', 'camt.053.001.08', 'camt.053.001.02', 'camt.054.001.08', 'camt.054.001.02'] as const;

export type IsoMessageId = (typeof ISO_MESSAGES)[number];

const NAMESPACE_PREFIX = 'urn:iso:std:iso:20022:tech:xsd:';

export function namespaceOf(message: IsoMessageId): string {
  return NAMESPACE_PREFIX + message;
}

/** The child of `Document` that carries each message. */
export const MESSAGE_ROOT: Readonly<Record<IsoMessageId, string>> = {
  'pain.001.001.09': 'CstmrCdtTrfInitn',
  'pain.002.001.10': 'CstmrPmtStsRpt',
  'camt.053.001.08': 'BkToCstmrStmt',
  'camt.053.001.02': 'BkToCstmrStmt',
  'camt.054.001.08': 'BkToCstmrDbtCdtNtfctn',
  'camt.054.001.02': 'BkToCstmrDbtCdtNtfctn',
};

export function isIsoMessageId(value: string): value is IsoMessageId {
  return (ISO_MESSAGES as readonly string[]).includes(value);
}

export interface RootElement {
  /** The local name, without a prefix. */
  name: string;
  /** The namespace the root element is in, if it declares one. */
  namespace?: string;
}

// The prolog before the root element: an XML declaration, processing instructions, comments,
// a byte-order mark and whitespace. A DOCTYPE is not skipped: ISO 20022 files never carry one.
const PROLOG = /^(?:\uFEFF|\s+|<\?[\s\S]*?\?>|<!--[\s\S]*?-->)*/;
const START_TAG = /^<([A-Za-z_][\w.-]*)(?::([A-Za-z_][\w.-]*))?((?:\s+[^\s=/>]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*\/?>/;
const ATTRIBUTE = /([^\s=/>]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;

/**
 * The root element's name and namespace, read from its start tag alone (a namespace prefix on the
 * root is resolved from the root's own declarations, as ISO 20022 files declare it there).
 * Undefined when the text does not start like an XML document.
 */
export function readRootElement(xml: string): RootElement | undefined {
  const rest = xml.slice(PROLOG.exec(xml)?.[0].length ?? 0);
  const tag = START_TAG.exec(rest);
  if (!tag) return undefined;
  const prefix = tag[2] === undefined ? undefined : tag[1];
  const name = tag[2] ?? tag[1]!;
  const wanted = prefix === undefined ? 'xmlns' : `xmlns:${prefix}`;
  for (const a of (tag[3] ?? '').matchAll(ATTRIBUTE)) {
    if (a[1] === wanted) return { name, namespace: a[2] ?? a[3] ?? '' };
  }
  return { name };
}

/** The message a root element is the `Document` of, if it is one of the messages above. */
export function messageOfRoot(root: RootElement | undefined): IsoMessageId | undefined {
  if (!root || root.name !== 'Document' || !root.namespace?.startsWith(NAMESPACE_PREFIX)) return undefined;
  const id = root.namespace.slice(NAMESPACE_PREFIX.length);
  return isIsoMessageId(id) ? id : undefined;
}

/**
 * Which ISO 20022 message a file holds, from its root's namespace; undefined when the text is not
 * a `Document` of one of the messages above. Cheap: the file is not parsed beyond its first tag.
 */
export function detectIsoMessage(xml: string): IsoMessageId | undefined {
  return messageOfRoot(readRootElement(xml));
}
