/**
 * The operator's partner banks (BANKS_FILE): a JSON document `{ "banks": [ … ] }` of BankProfile
 * (profile.ts), read once at start. A file with mistakes is refused as a whole, with every problem
 * and its JSON path in one error (`banks[0].sftp.hostKeySha256: must look like …`), so that an
 * operator fixes it in one go rather than one restart per mistake. docs/examples/banks.example.json
 * is a complete example.
 *
 * Two passes: the schema (shapes, formats, ranges; Ajv as for request bodies) and then the rules
 * that span fields and banks (which accounts a format needs, one bank per currency). The second
 * pass reads only values the first found well-formed, so a malformed field is reported once.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Ajv, type ErrorObject } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { Type } from 'typebox';
import { ConfigError } from '../../config.js';
import { currency, isSupportedCurrency } from '../../common/currencies.js';
import { customFormats, formatMessages } from '../../common/schemas.js';
import { validateAbaRoutingNumber, validateUsAccountNumber } from '../../identifiers/aba.js';
import { normalizeIban, validateBic, validateIban } from '../../identifiers/iban.js';
import type { BankProfile, BankSchedule, Cutoff, NachaSettings, OperatorAccount, PayoutFormat, SftpSettings } from './profile.js';

export const PAYOUT_FORMATS: readonly PayoutFormat[] = ['NACHA', 'PAIN001_SEPA', 'PAIN001'];
export const DEFAULT_POLL_INTERVAL_MS = 60_000;

/** A refused BANKS_FILE: `problems` holds one line per mistake, `path: message`. */
export class BankConfigError extends ConfigError {
  constructor(
    readonly file: string,
    readonly problems: string[],
  ) {
    super(`Invalid bank configuration ${file}:\n  - ${problems.join('\n  - ')}`);
    this.name = 'BankConfigError';
  }
}

/** Whether Intl knows the IANA zone (it throws a RangeError for an unknown one). */
export function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

// Formats with their messages: the schema names them, and a problem reads as the operator would fix it.
const bankFormats: Record<string, { check: (v: string) => boolean; message: string }> = {
  'bank-id': { check: (v) => /^[a-z0-9-]{1,32}$/.test(v), message: 'must be 1 to 32 lower-case letters, digits or dashes' },
  'time-of-day': { check: (v) => /^([01]\d|2[0-3]):[0-5]\d$/.test(v), message: 'must be a time HH:MM (24 h, e.g. 16:30)' },
  'time-zone': { check: isTimeZone, message: 'must be an IANA time zone such as America/New_York or Europe/Berlin' },
  'ssh-fingerprint': {
    check: (v) => /^SHA256:[A-Za-z0-9+/]{43}$/.test(v),
    message: 'must look like SHA256:<base64> (43 base64 characters, as `ssh-keygen -lf` prints the host key)',
  },
  'nacha-text': { check: (v) => /^[\x20-\x7e]+$/.test(v), message: 'must be printable ASCII (NACHA files hold nothing else)' },
  digits: { check: (v) => /^\d+$/.test(v), message: 'must be digits only' },
};

const comment = { $comment: Type.Optional(Type.String({ description: 'free text for the reader of the file; ignored' })) };
const text = (maxLength: number) => Type.String({ minLength: 1, maxLength });
const nachaText = (minLength: number, maxLength: number) => Type.String({ minLength, maxLength, format: 'nacha-text' });

const CutoffSchema = Type.Object(
  {
    ...comment,
    time: Type.String({ format: 'time-of-day' }),
    sameDay: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

const AccountSchema = Type.Object(
  {
    ...comment,
    currency: Type.String({ format: 'currency' }),
    holderName: text(140),
    bankName: text(140),
    iban: Type.Optional(Type.String()),
    bic: Type.Optional(Type.String()),
    routingNumber: Type.Optional(Type.String()),
    accountNumber: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);

const SftpSchema = Type.Object(
  {
    ...comment,
    host: text(253),
    port: Type.Integer({ minimum: 1, maximum: 65535 }),
    username: text(128),
    privateKeyFile: Type.Optional(text(4096)),
    hostKeySha256: Type.String({ format: 'ssh-fingerprint' }),
    outboundDir: text(1024),
    inboundDir: text(1024),
  },
  { additionalProperties: false },
);

const ScheduleSchema = Type.Object(
  {
    ...comment,
    timeZone: Type.String({ format: 'time-zone' }),
    cutoffs: Type.Object(
      {
        ...comment,
        NACHA: Type.Optional(Type.Array(CutoffSchema)),
        PAIN001_SEPA: Type.Optional(Type.Array(CutoffSchema)),
        PAIN001: Type.Optional(Type.Array(CutoffSchema)),
      },
      { additionalProperties: false },
    ),
    holidays: Type.Array(Type.String({ format: 'date' })),
  },
  { additionalProperties: false },
);

const NachaSchema = Type.Object(
  {
    ...comment,
    immediateDestination: Type.String(),
    immediateDestinationName: nachaText(1, 23),
    // A 9-digit routing number (written with a leading space) or exactly 10 characters, as the bank assigns.
    immediateOrigin: nachaText(9, 10),
    immediateOriginName: nachaText(1, 23),
    companyId: nachaText(1, 10),
    companyName: nachaText(1, 16),
    originatingDfi: Type.String({ format: 'digits', minLength: 8, maxLength: 8 }),
  },
  { additionalProperties: false },
);

const BankSchema = Type.Object(
  {
    ...comment,
    id: Type.String({ format: 'bank-id' }),
    name: text(140),
    formats: Type.Array(Type.Union(PAYOUT_FORMATS.map((f) => Type.Literal(f))), { minItems: 1, uniqueItems: true }),
    accounts: Type.Array(AccountSchema, { minItems: 1 }),
    sftp: SftpSchema,
    schedule: ScheduleSchema,
    nacha: Type.Optional(NachaSchema),
    pollIntervalMs: Type.Optional(Type.Integer({ minimum: 1000, maximum: 86_400_000, default: DEFAULT_POLL_INTERVAL_MS })),
  },
  { additionalProperties: false },
);

export const BanksFileSchema = Type.Object({ ...comment, banks: Type.Array(BankSchema, { minItems: 1 }) }, { additionalProperties: false });

const addFormats = (addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule;
const ajv = new Ajv({ allErrors: true, useDefaults: true, strict: false });
(addFormats as unknown as (a: Ajv) => void)(ajv);
for (const [name, check] of Object.entries(customFormats)) ajv.addFormat(name, { type: 'string', validate: check });
for (const [name, f] of Object.entries(bankFormats)) ajv.addFormat(name, { type: 'string', validate: f.check });
let compiled: ReturnType<Ajv['compile']> | undefined;

/** `/banks/0/sftp/port` → `banks[0].sftp.port`: the way a reader of the JSON names the field. */
function jsonPath(pointer: string, extra?: string): string {
  const parts = pointer
    .split('/')
    .slice(1)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (extra !== undefined) parts.push(extra);
  let out = '';
  for (const p of parts) out += /^\d+$/.test(p) ? `[${p}]` : out ? `.${p}` : p;
  return out || '(root)';
}

function schemaProblems(errors: ErrorObject[]): string[] {
  const out: string[] = [];
  // A union's own errors are one per branch; its summary alone is clearer.
  const unions = new Set(errors.filter((e) => e.keyword === 'anyOf').map((e) => e.instancePath));
  for (const e of errors) {
    if (e.keyword !== 'anyOf' && unions.has(e.instancePath)) continue;
    let at = jsonPath(e.instancePath);
    let message: string;
    switch (e.keyword) {
      case 'required':
        at = jsonPath(e.instancePath, String(e.params.missingProperty));
        message = 'is required';
        break;
      case 'additionalProperties':
        at = jsonPath(e.instancePath, String(e.params.additionalProperty));
        message = 'is not a known field';
        break;
      case 'format': {
        const name = String(e.params.format);
        message = bankFormats[name]?.message ?? formatMessages[name] ?? `must be a valid ${name}`;
        break;
      }
      case 'anyOf':
        message = at.includes('formats') ? `must be one of ${PAYOUT_FORMATS.join(', ')}` : 'does not match any allowed form';
        break;
      case 'type':
        message = `must be ${e.params.type === 'integer' ? 'an integer' : `of type ${e.params.type}`}`;
        break;
      case 'uniqueItems':
        message = 'must not list the same value twice';
        break;
      default:
        message = e.message ?? 'is invalid';
    }
    const line = `${at}: ${message}`;
    if (!out.includes(line)) out.push(line);
  }
  return out;
}

// Loose views of the parsed document for the second pass: any field may be missing or malformed there.
type Loose<T> = { [K in keyof T]?: unknown };
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const obj = <T>(v: unknown): Loose<T> => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Loose<T>) : {});

function accountProblems(a: Loose<OperatorAccount>, at: string, problems: string[]): void {
  const cur = str(a.currency);
  if (cur && isSupportedCurrency(cur) && currency(cur).kind !== 'FIAT') problems.push(`${at}.currency: ${cur} is not held at a bank; use a fiat currency`);
  const hasIban = a.iban !== undefined || a.bic !== undefined;
  const hasUs = a.routingNumber !== undefined || a.accountNumber !== undefined;
  if (hasIban && hasUs) {
    problems.push(`${at}: give either iban and bic (an IBAN account) or routingNumber and accountNumber (a US account), not both`);
    return;
  }
  if (!hasIban && !hasUs) {
    problems.push(`${at}: needs iban and bic (an IBAN account) or routingNumber and accountNumber (a US account)`);
    return;
  }
  const check = (field: keyof OperatorAccount, validate: (v: string) => string | null) => {
    const v = a[field];
    if (v === undefined) problems.push(`${at}.${field}: is required`);
    else if (typeof v !== 'string') problems.push(`${at}.${field}: must be of type string`);
    else {
      const wrong = validate(v);
      if (wrong) problems.push(`${at}.${field}: ${wrong}`);
    }
  };
  if (hasIban) {
    check('iban', validateIban);
    check('bic', validateBic);
  } else {
    check('routingNumber', validateAbaRoutingNumber);
    check('accountNumber', validateUsAccountNumber);
  }
}

function isUsAccount(a: Loose<OperatorAccount>): boolean {
  return typeof a.routingNumber === 'string' && validateAbaRoutingNumber(a.routingNumber) === null && typeof a.accountNumber === 'string';
}

/** The rules that span fields and banks; every value is checked for its type first (the schema pass reported it). */
function crossProblems(doc: unknown, baseDir: string): string[] {
  const problems: string[] = [];
  const ids = new Map<string, number>();
  // The ledger keeps one bank-cash account per currency, so one account (at one bank) per currency.
  const servedBy = new Map<string, { bank: string; at: string }>();

  arr(obj<{ banks: unknown }>(doc).banks).forEach((raw, i) => {
    const bank = obj<BankProfile>(raw);
    const at = `banks[${i}]`;
    const id = str(bank.id);
    const name = id ?? at;
    if (id !== undefined) {
      const first = ids.get(id);
      if (first !== undefined) problems.push(`${at}.id: "${id}" is already the id of banks[${first}]; bank ids must be unique`);
      else ids.set(id, i);
    }

    const accounts = arr(bank.accounts).map((a) => obj<OperatorAccount>(a));
    accounts.forEach((a, j) => {
      const where = `${at}.accounts[${j}]`;
      accountProblems(a, where, problems);
      const cur = str(a.currency);
      if (!cur || !isSupportedCurrency(cur)) return;
      const other = servedBy.get(cur);
      if (other)
        problems.push(
          `${where}.currency: ${cur} is already served by bank "${other.bank}" (${other.at}); Corridor keeps one bank cash account per currency, so only one account of one bank may hold ${cur}`,
        );
      else servedBy.set(cur, { bank: name, at: where });
    });

    const formats = arr(bank.formats).filter((f): f is PayoutFormat => PAYOUT_FORMATS.includes(f as PayoutFormat));
    if (formats.includes('NACHA')) {
      if (bank.nacha === undefined) problems.push(`${at}.nacha: is required when formats lists NACHA (the file and batch header identities the bank gave)`);
      if (!accounts.some((a) => a.currency === 'USD' && isUsAccount(a)))
        problems.push(`${at}.accounts: NACHA needs a USD account with routingNumber and accountNumber (the originator's account)`);
    }
    if (formats.includes('PAIN001_SEPA') && !accounts.some((a) => a.currency === 'EUR' && typeof a.iban === 'string' && validateIban(a.iban) === null))
      problems.push(`${at}.accounts: PAIN001_SEPA needs a EUR account with an iban (the debtor account of SEPA credit transfers)`);
    if (formats.includes('PAIN001') && !accounts.some((a) => typeof a.currency === 'string' && a.currency !== 'USD'))
      problems.push(`${at}.accounts: PAIN001 carries payouts in currencies other than USD, and this bank has no account in one`);

    const nacha = obj<NachaSettings>(bank.nacha);
    const destination = str(nacha.immediateDestination);
    if (destination !== undefined) {
      const wrong = validateAbaRoutingNumber(destination);
      if (wrong) problems.push(`${at}.nacha.immediateDestination: ${wrong}`);
    }
    const origin = str(nacha.immediateOrigin);
    if (origin !== undefined && origin.length === 9 && !/^\d{9}$/.test(origin))
      problems.push(`${at}.nacha.immediateOrigin: must be a 9-digit routing number or exactly 10 characters`);

    const sftp = obj<SftpSettings>(bank.sftp);
    const keyFile = str(sftp.privateKeyFile);
    if (keyFile) {
      const resolved = path.resolve(baseDir, keyFile);
      try {
        if (!fs.statSync(resolved).isFile()) problems.push(`${at}.sftp.privateKeyFile: ${resolved} is not a file`);
        else fs.accessSync(resolved, fs.constants.R_OK);
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        problems.push(
          `${at}.sftp.privateKeyFile: ${resolved} ${code === 'ENOENT' ? 'does not exist' : code === 'EACCES' ? 'cannot be read by this process' : `cannot be read (${code})`}`,
        );
      }
    }

    const schedule = obj<BankSchedule>(bank.schedule);
    const cutoffs = obj<BankSchedule['cutoffs']>(schedule.cutoffs);
    for (const format of formats)
      if (arr(cutoffs[format]).length === 0) problems.push(`${at}.schedule.cutoffs.${format}: needs at least one cut-off, since formats lists ${format}`);
    for (const format of PAYOUT_FORMATS) {
      const seen = new Set<string>();
      arr(cutoffs[format]).forEach((c, k) => {
        const cutoff = obj<Cutoff>(c);
        const time = str(cutoff.time);
        if (time !== undefined && seen.has(time)) problems.push(`${at}.schedule.cutoffs.${format}[${k}].time: ${time} is listed twice`);
        if (time !== undefined) seen.add(time);
        if (cutoff.sameDay === true && format !== 'NACHA')
          problems.push(`${at}.schedule.cutoffs.${format}[${k}].sameDay: only NACHA has same-day windows (an ISO 20022 file asks for its execution date)`);
      });
    }
  });
  return problems;
}

/** Sorted by time, so the calendar reads a day's windows in order. */
function sortedCutoffs(list: Cutoff[] | undefined): Cutoff[] | undefined {
  return list?.map((c) => ({ time: c.time, ...(c.sameDay ? { sameDay: true } : {}) })).sort((a, b) => a.time.localeCompare(b.time));
}

/** The validated document as profiles: comments dropped, paths absolute, identifiers in their electronic form. */
function toProfile(bank: BankProfile & { pollIntervalMs: number }, baseDir: string): BankProfile {
  const cutoffs: BankSchedule['cutoffs'] = {};
  for (const format of PAYOUT_FORMATS) {
    const list = sortedCutoffs(bank.schedule.cutoffs[format]);
    if (list) cutoffs[format] = list;
  }
  const { sftp, nacha } = bank;
  return {
    id: bank.id,
    name: bank.name,
    formats: [...bank.formats],
    accounts: bank.accounts.map((a) => ({
      currency: a.currency,
      holderName: a.holderName,
      bankName: a.bankName,
      ...(a.iban !== undefined ? { iban: normalizeIban(a.iban), bic: a.bic!.trim().toUpperCase() } : {}),
      ...(a.routingNumber !== undefined ? { routingNumber: a.routingNumber, accountNumber: a.accountNumber } : {}),
    })),
    sftp: {
      host: sftp.host,
      port: sftp.port,
      username: sftp.username,
      ...(sftp.privateKeyFile !== undefined ? { privateKeyFile: path.resolve(baseDir, sftp.privateKeyFile) } : {}),
      hostKeySha256: sftp.hostKeySha256,
      outboundDir: sftp.outboundDir,
      inboundDir: sftp.inboundDir,
    },
    schedule: {
      // Intl's own spelling of the zone: `america/new_york` and `America/New_York` are one zone.
      timeZone: new Intl.DateTimeFormat('en-US', { timeZone: bank.schedule.timeZone }).resolvedOptions().timeZone,
      cutoffs,
      holidays: [...new Set(bank.schedule.holidays)].sort(),
    },
    ...(nacha
      ? {
          nacha: {
            immediateDestination: nacha.immediateDestination,
            immediateDestinationName: nacha.immediateDestinationName,
            immediateOrigin: nacha.immediateOrigin,
            immediateOriginName: nacha.immediateOriginName,
            companyId: nacha.companyId,
            companyName: nacha.companyName,
            originatingDfi: nacha.originatingDfi,
          },
        }
      : {}),
    pollIntervalMs: bank.pollIntervalMs,
  };
}

/** Validates a parsed BANKS_FILE document; `baseDir` is the folder relative paths in it start from. */
export function parseBankProfiles(doc: unknown, baseDir: string, file = '(bank configuration)'): BankProfile[] {
  compiled ??= ajv.compile(BanksFileSchema);
  // Ajv fills defaults (pollIntervalMs) in place: a copy keeps the caller's value as it was.
  const data: unknown = structuredClone(doc);
  const valid = compiled(data);
  // A value of the wrong type is seen by both passes: one line for it is enough.
  const problems = [...new Set([...(valid ? [] : schemaProblems(compiled.errors ?? [])), ...crossProblems(data, baseDir)])];
  if (problems.length) throw new BankConfigError(file, problems);
  return (data as { banks: Array<BankProfile & { pollIntervalMs: number }> }).banks.map((b) => toProfile(b, baseDir));
}

/**
 * Reads and validates the operator's BANKS_FILE. Relative paths in it (sftp.privateKeyFile) are
 * resolved against the file's own folder, so the file and its keys can move together.
 */
export function loadBankProfiles(file: string): BankProfile[] {
  const absolute = path.resolve(file);
  let raw: string;
  try {
    raw = fs.readFileSync(absolute, 'utf8');
  } catch (e) {
    throw new BankConfigError(absolute, [`the file cannot be read: ${(e as Error).message}`]);
  }
  let doc: unknown;
  try {
    doc = JSON.parse(raw);
  } catch (e) {
    throw new BankConfigError(absolute, [`the file is not valid JSON: ${(e as Error).message}`]);
  }
  return parseBankProfiles(doc, path.dirname(absolute), absolute);
}
