/**
 * pain.001.001.09 CustomerCreditTransferInitiation: the payout file Corridor sends its bank.
 *
 * Two profiles. SEPA follows the EPC SCT rulebook on top of the XSD: EUR only, amounts 0.01 to
 * 999,999,999.99, the EPC character set (free text transliterated, identifiers refused), names
 * of at most 70 characters, service level SEPA, charges SLEV. GENERIC is any currency to any
 * account (IBAN or another account number), UTF-8 text within the XSD's lengths, charges SHAR.
 */
import { formatAmount, formatControlSum } from './amounts.js';
import { EPC_TEXT } from './epc.js';
import { IsoInputError } from './errors.js';
import {
  checkAccountId,
  checkBic,
  checkCode,
  checkCountry,
  checkCurrency,
  checkDate,
  checkDateTime,
  checkIban,
  checkId,
  checkPositiveAmount,
  decimalsFor,
} from './fields.js';
import { fitText, startDocument, type TextProfile, type XmlWriter } from './xml-write.js';

export type Pain001Profile = 'SEPA' | 'GENERIC';

/** An account: an IBAN, or (GENERIC profile only) another account number of at most 34 characters. */
export type AccountIdentification = { iban: string; otherId?: never } | { otherId: string; iban?: never };

export interface Pain001Input {
  profile: Pain001Profile;
  /** GrpHdr/MsgId, unique per file. PmtInfIds are derived from it ("<messageId>-1", "-2"…), so at most 35 characters with that suffix. */
  messageId: string;
  /** GrpHdr/CreDtTm, with an offset: "2026-11-28T09:30:00Z". */
  createdAt: string;
  initiatingParty: { name: string; /** Our customer id at the bank (OrgId/Othr/Id). */ id?: string };
  /** When true, each payment group is booked as one debit on the statement; default false (one entry per payment, matched by EndToEndId). */
  batchBooking?: boolean;
  payments: readonly Pain001Payment[];
}

export interface Pain001Payment {
  /** PmtId/EndToEndId: the payment's reference, unique in the file; it comes back in pain.002 and camt. */
  endToEndId: string;
  instructionId?: string;
  /** Minor units of `currency`, > 0. */
  amount: bigint;
  currency: string;
  /** The currency's minor-unit digits, when not the ISO 4217 ones. */
  decimals?: number;
  /** ReqdExctnDt/Dt, YYYY-MM-DD. */
  requestedExecutionDate: string;
  /** SvcLvl/Cd: SEPA in the SEPA profile (the default there); optional in GENERIC (e.g. URGP, NURG). */
  serviceLevel?: string;
  debtor: { name: string; account: AccountIdentification; bic: string };
  creditor: { name: string; account: AccountIdentification; bic?: string; country?: string; addressLines?: readonly string[] };
  /** RmtInf/Ustrd, at most 140 characters. */
  remittanceInformation?: string;
}

// EPC SCT rulebook limits.
const SEPA_MAX_AMOUNT = 99_999_999_999n; // 999,999,999.99 EUR in cents
const SEPA_NAME_MAX = 70;
const XSD_NAME_MAX = 140;

interface Rules {
  profile: Pain001Profile;
  text: TextProfile;
  nameMax: number;
  addressLinesMax: number;
}

interface CheckedPayment {
  endToEndId: string;
  instructionId?: string;
  amount: string;
  minor: bigint;
  decimals: number;
  currency: string;
  date: string;
  serviceLevel?: string;
  debtorName: string;
  debtorAccount: AccountIdentification;
  debtorBic: string;
  creditorName: string;
  creditorAccount: AccountIdentification;
  creditorBic?: string;
  country?: string;
  addressLines: string[];
  remittance?: string;
}

interface Group {
  key: string;
  payments: CheckedPayment[];
  firstIndex: number;
}

/** Builds a pain.001.001.09 file. Throws IsoInputError naming the first field that cannot be written. */
export function buildPain001(input: Pain001Input): string {
  const rules = rulesFor(input.profile);
  const messageId = checkIdentifier(rules, 'messageId', input.messageId);
  const createdAt = checkDateTime('createdAt', input.createdAt);
  const initiatingName = fitText('initiatingParty.name', input.initiatingParty?.name, rules.nameMax, rules.text, true);
  const initiatingId = input.initiatingParty?.id === undefined ? undefined : checkIdentifier(rules, 'initiatingParty.id', input.initiatingParty.id);
  if (!Array.isArray(input.payments) || input.payments.length === 0) throw new IsoInputError('payments', 'at least one payment is needed');

  const payments = input.payments.map((p, i) => checkPayment(rules, p, `payments[${i}]`));
  const seen = new Map<string, number>();
  payments.forEach((p, i) => {
    const before = seen.get(p.endToEndId);
    if (before !== undefined) throw new IsoInputError(`payments[${i}].endToEndId`, `${p.endToEndId} is also the reference of payments[${before}]`);
    seen.set(p.endToEndId, i);
  });
  const groups = groupPayments(payments);
  const suffixLength = `-${groups.length}`.length;
  if (messageId.length + suffixLength > 35) {
    throw new IsoInputError('messageId', `at most ${35 - suffixLength} characters, to derive payment information ids for ${groups.length} group(s)`);
  }

  const w = startDocument('pain.001.001.09');
  w.open('GrpHdr').leaf('MsgId', messageId).leaf('CreDtTm', createdAt).leaf('NbOfTxs', String(payments.length)).leaf('CtrlSum', controlSum(payments));
  w.open('InitgPty').leaf('Nm', initiatingName);
  if (initiatingId !== undefined) w.path(['Id', 'OrgId', 'Othr', 'Id'], initiatingId);
  w.close().close();
  groups.forEach((group, g) => writePaymentInformation(w, rules, `${messageId}-${g + 1}`, group, input.batchBooking === true));
  return w.end();
}

function rulesFor(profile: Pain001Profile): Rules {
  if (profile === 'SEPA') return { profile, text: 'EPC', nameMax: SEPA_NAME_MAX, addressLinesMax: 2 };
  if (profile === 'GENERIC') return { profile, text: 'UNICODE', nameMax: XSD_NAME_MAX, addressLinesMax: 7 };
  throw new IsoInputError('profile', `SEPA or GENERIC, got ${JSON.stringify(profile)}`);
}

/** Identifiers are never altered: they must come back byte for byte in status reports and statements. */
function checkIdentifier(rules: Rules, field: string, value: unknown): string {
  const id = checkId(field, value, 35);
  if (rules.profile === 'SEPA') {
    if (!EPC_TEXT.test(id)) throw new IsoInputError(field, `only a-z A-Z 0-9 / - ? : ( ) . , ' + and space are allowed in SEPA: ${JSON.stringify(id)}`);
    // EPC rule for references: no leading slash and no double slash.
    if (id.startsWith('/') || id.includes('//')) throw new IsoInputError(field, `must not start with "/" or contain "//" in SEPA: ${JSON.stringify(id)}`);
  }
  return id;
}

function checkAccount(rules: Rules, field: string, account: AccountIdentification | undefined): AccountIdentification {
  if (account === undefined || account === null || typeof account !== 'object') throw new IsoInputError(field, 'required');
  if (account.iban !== undefined) return { iban: checkIban(`${field}.iban`, account.iban) };
  if (rules.profile === 'SEPA') throw new IsoInputError(`${field}.iban`, 'SEPA payments need an IBAN');
  return { otherId: checkAccountId(`${field}.otherId`, account.otherId) };
}

function checkPayment(rules: Rules, p: Pain001Payment, at: string): CheckedPayment {
  const currency = checkCurrency(`${at}.currency`, p.currency);
  const minor = checkPositiveAmount(`${at}.amount`, p.amount);
  const decimals = decimalsFor(`${at}.decimals`, currency, p.decimals);
  let serviceLevel = p.serviceLevel === undefined ? undefined : checkCode(`${at}.serviceLevel`, p.serviceLevel);
  if (rules.profile === 'SEPA') {
    if (currency !== 'EUR') throw new IsoInputError(`${at}.currency`, `SEPA payments are in EUR, got ${currency}`);
    if (decimals !== 2) throw new IsoInputError(`${at}.decimals`, 'EUR has 2 decimals');
    if (minor > SEPA_MAX_AMOUNT) throw new IsoInputError(`${at}.amount`, `at most 999999999.99 EUR in SEPA, got ${minor} cents`);
    if (serviceLevel !== undefined && serviceLevel !== 'SEPA')
      throw new IsoInputError(`${at}.serviceLevel`, `must be SEPA in the SEPA profile, got ${serviceLevel}`);
    serviceLevel = 'SEPA';
  }
  let amount: string;
  try {
    amount = formatAmount(minor, decimals);
  } catch (err) {
    throw new IsoInputError(`${at}.amount`, (err as Error).message);
  }
  const lines = p.creditor?.addressLines ?? [];
  if (lines.length > rules.addressLinesMax) throw new IsoInputError(`${at}.creditor.addressLines`, `at most ${rules.addressLinesMax} lines`);
  if (lines.length > 0 && p.creditor.country === undefined) throw new IsoInputError(`${at}.creditor.country`, 'required with address lines');
  return {
    endToEndId: checkIdentifier(rules, `${at}.endToEndId`, p.endToEndId),
    instructionId: p.instructionId === undefined ? undefined : checkIdentifier(rules, `${at}.instructionId`, p.instructionId),
    amount,
    minor,
    decimals,
    currency,
    date: checkDate(`${at}.requestedExecutionDate`, p.requestedExecutionDate),
    serviceLevel,
    debtorName: fitText(`${at}.debtor.name`, p.debtor?.name, rules.nameMax, rules.text, true),
    debtorAccount: checkAccount(rules, `${at}.debtor.account`, p.debtor?.account),
    debtorBic: checkBic(`${at}.debtor.bic`, p.debtor?.bic),
    creditorName: fitText(`${at}.creditor.name`, p.creditor?.name, rules.nameMax, rules.text, true),
    creditorAccount: checkAccount(rules, `${at}.creditor.account`, p.creditor?.account),
    creditorBic: p.creditor?.bic === undefined ? undefined : checkBic(`${at}.creditor.bic`, p.creditor.bic),
    country: p.creditor?.country === undefined ? undefined : checkCountry(`${at}.creditor.country`, p.creditor.country),
    addressLines: lines.map((line, l) => fitText(`${at}.creditor.addressLines[${l}]`, line, 70, rules.text, true)),
    remittance: p.remittanceInformation === undefined ? undefined : fitText(`${at}.remittanceInformation`, p.remittanceInformation, 140, rules.text, false),
  };
}

function accountKey(account: AccountIdentification): string {
  return account.iban !== undefined ? `IBAN:${account.iban}` : `OTHR:${account.otherId}`;
}

/** One group per (debtor account, execution date, currency, service level), in order of first appearance. */
function groupPayments(payments: CheckedPayment[]): Group[] {
  const groups = new Map<string, Group>();
  payments.forEach((p, i) => {
    const key = [accountKey(p.debtorAccount), p.date, p.currency, p.serviceLevel ?? ''].join('|');
    const group = groups.get(key);
    if (!group) {
      groups.set(key, { key, payments: [p], firstIndex: i });
      return;
    }
    const first = group.payments[0]!;
    // The debtor is stated once per group: payments from one account must agree on who and where it is.
    if (first.debtorBic !== p.debtorBic)
      throw new IsoInputError(`payments[${i}].debtor.bic`, `differs from payments[${group.firstIndex}] for the same account`);
    if (first.debtorName !== p.debtorName)
      throw new IsoInputError(`payments[${i}].debtor.name`, `differs from payments[${group.firstIndex}] for the same account`);
    group.payments.push(p);
  });
  return [...groups.values()];
}

function controlSum(payments: readonly CheckedPayment[]): string {
  try {
    return formatControlSum(payments.map((p) => ({ amount: p.minor, decimals: p.decimals })));
  } catch (err) {
    throw new IsoInputError('payments', (err as Error).message);
  }
}

function writeAccount(w: XmlWriter, name: string, account: AccountIdentification, currency?: string): void {
  w.open(name);
  if (account.iban !== undefined) w.path(['Id', 'IBAN'], account.iban);
  else w.path(['Id', 'Othr', 'Id'], account.otherId);
  if (currency !== undefined) w.leaf('Ccy', currency);
  w.close();
}

function writePaymentInformation(w: XmlWriter, rules: Rules, id: string, group: Group, batchBooking: boolean): void {
  const first = group.payments[0]!;
  w.open('PmtInf').leaf('PmtInfId', id).leaf('PmtMtd', 'TRF').leaf('BtchBookg', String(batchBooking));
  w.leaf('NbOfTxs', String(group.payments.length)).leaf('CtrlSum', controlSum(group.payments));
  if (first.serviceLevel !== undefined) w.path(['PmtTpInf', 'SvcLvl', 'Cd'], first.serviceLevel);
  w.path(['ReqdExctnDt', 'Dt'], first.date);
  w.path(['Dbtr', 'Nm'], first.debtorName);
  writeAccount(w, 'DbtrAcct', first.debtorAccount, first.currency);
  w.path(['DbtrAgt', 'FinInstnId', 'BICFI'], first.debtorBic);
  w.leaf('ChrgBr', rules.profile === 'SEPA' ? 'SLEV' : 'SHAR');
  for (const p of group.payments) {
    w.open('CdtTrfTxInf').open('PmtId');
    if (p.instructionId !== undefined) w.leaf('InstrId', p.instructionId);
    w.leaf('EndToEndId', p.endToEndId).close();
    w.path(['Amt', 'InstdAmt'], p.amount, { Ccy: p.currency });
    if (p.creditorBic !== undefined) w.path(['CdtrAgt', 'FinInstnId', 'BICFI'], p.creditorBic);
    w.open('Cdtr').leaf('Nm', p.creditorName);
    if (p.country !== undefined) {
      w.open('PstlAdr').leaf('Ctry', p.country);
      for (const line of p.addressLines) w.leaf('AdrLine', line);
      w.close();
    }
    w.close();
    writeAccount(w, 'CdtrAcct', p.creditorAccount);
    if (p.remittance !== undefined) w.path(['RmtInf', 'Ustrd'], p.remittance);
    w.close();
  }
  w.close();
}
