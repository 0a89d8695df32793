/**
 * The columns of a bulk customer CSV (the vendor's, plus Corridor's own nationality, region and
 * currencies), and how a row becomes the body of POST /customers. Checking the body is left to
 * the same schema and service as POST /customers; here a row is only reshaped.
 */
import type { FieldProblem } from '../../common/errors.js';

/** Columns that become a member of the POST /customers body. */
const MAPPED = [
  'platformCustomerId',
  'customerType',
  'umaAddress',
  'fullName',
  'birthDate',
  'nationality',
  'region',
  'currencies',
  'addressLine1',
  'addressLine2',
  'city',
  'state',
  'postalCode',
  'country',
  'businessLegalName',
  'businessRegistrationNumber',
  'businessTaxId',
] as const;

/** The vendor's columns for facts Corridor's customers do not hold: accepted and not stored. */
export const IGNORED_COLUMNS = ['platformAccountId', 'description', 'email'] as const;
export const KNOWN_COLUMNS: readonly string[] = [...MAPPED, ...IGNORED_COLUMNS];
export const REQUIRED_COLUMNS = ['platformCustomerId', 'customerType'] as const;

const ADDRESS: Record<string, string> = {
  addressLine1: 'line1',
  addressLine2: 'line2',
  city: 'city',
  state: 'state',
  postalCode: 'postalCode',
  country: 'country',
};
const BUSINESS: Record<string, string> = { businessLegalName: 'legalName', businessRegistrationNumber: 'registrationNumber', businessTaxId: 'taxId' };

/** The column a field of the POST /customers body came from, for errors a person can find in the file. */
export function columnOf(field: string): string {
  const [head, sub] = field.split('.');
  if (head === 'address') return Object.keys(ADDRESS).find((c) => ADDRESS[c] === sub) ?? 'addressLine1';
  if (head === 'businessInfo') return Object.keys(BUSINESS).find((c) => BUSINESS[c] === sub) ?? 'businessLegalName';
  if (head === 'currencies') return 'currencies';
  return field;
}

/**
 * The widest header that can be valid: each known column at most once. A wider one is refused as
 * soon as the reader passes it, whatever follows.
 */
export const MAX_HEADER_COLUMNS = KNOWN_COLUMNS.length;
/** Names quoted in one problem, and characters of each: a problem is said once, in a few lines. */
const NAMES_SHOWN = 5;
const NAME_CHARS = 40;

const quoted = (name: string) => JSON.stringify(name.length > NAME_CHARS ? `${name.slice(0, NAME_CHARS - 1)}…` : name);

/** "a", "b" and 3 more */
function someNames(names: string[]): string {
  const shown = names.slice(0, NAMES_SHOWN).map(quoted).join(', ');
  return names.length > NAMES_SHOWN ? `${shown} and ${names.length - NAMES_SHOWN} more` : shown;
}

/**
 * Header problems, one line per kind (unknown, unnamed, repeated columns; each required one
 * missing), each naming a few columns: at most five lines of bounded length, whatever the header.
 */
export function checkHeader(header: string[]): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  const unknown = new Set<string>();
  const repeated = new Set<string>();
  let unnamed = 0;
  for (const name of header) {
    if (name === '') unnamed++;
    else if (!KNOWN_COLUMNS.includes(name)) unknown.add(name);
    else if (seen.has(name)) repeated.add(name);
    seen.add(name);
  }
  if (unknown.size)
    problems.push(
      `${unknown.size === 1 ? 'column' : 'columns'} ${someNames([...unknown])} ${unknown.size === 1 ? 'is' : 'are'} not known (known columns: ${KNOWN_COLUMNS.join(', ')})`,
    );
  if (unnamed) problems.push(`${unnamed === 1 ? 'a column has' : `${unnamed} columns have`} no name; every column of the header is named`);
  if (repeated.size)
    problems.push(`${repeated.size === 1 ? 'column' : 'columns'} ${someNames([...repeated])} ${repeated.size === 1 ? 'is' : 'are'} given twice`);
  for (const name of REQUIRED_COLUMNS) if (!seen.has(name)) problems.push(`column "${name}" is required`);
  return problems;
}

/**
 * A row as a POST /customers body: empty cells are left out; the address and business columns
 * become their objects; a UMA address without its leading $ gets one (the vendor's example file
 * writes them so); currencies are separated by spaces, commas or semicolons.
 */
export function rowToBody(header: string[], cells: string[], fieldCount = cells.length): { body: Record<string, unknown> } | { problem: FieldProblem } {
  if (fieldCount > header.length) return { problem: { field: '(row)', in: 'body', message: `has ${fieldCount} fields; the header has ${header.length}` } };
  const body: Record<string, unknown> = {};
  const address: Record<string, string> = {};
  const businessInfo: Record<string, string> = {};
  header.forEach((column, i) => {
    const value = cells[i] ?? '';
    if (value === '' || (IGNORED_COLUMNS as readonly string[]).includes(column)) return;
    if (column in ADDRESS) address[ADDRESS[column]] = value;
    else if (column in BUSINESS) businessInfo[BUSINESS[column]] = value;
    else if (column === 'umaAddress') body.umaAddress = value.startsWith('$') ? value : `$${value}`;
    else if (column === 'currencies') body.currencies = value.split(/[\s,;]+/).filter(Boolean);
    else body[column] = value;
  });
  if (Object.keys(address).length) body.address = address;
  if (Object.keys(businessInfo).length) body.businessInfo = businessInfo;
  return { body };
}
