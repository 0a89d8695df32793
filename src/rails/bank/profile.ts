/**
 * A partner bank as the operator describes it (BANKS_FILE, docs/production.md): which payouts it
 * carries and in which file format, the operator's own accounts there (the debtor of every payout,
 * and the collection account shown in payment instructions), how to reach its SFTP server, and
 * when its windows close. Loaded and validated once at start (bank/config.ts); nothing here does I/O.
 */

/** The file formats Corridor writes to a bank and the payouts each carries. */
export type PayoutFormat =
  /** NACHA ACH credits (PPD to individuals, CCD to businesses) and debits (transfer-in pulls); USD to US_ACCOUNT. */
  | 'NACHA'
  /** ISO 20022 pain.001.001.09 SEPA credit transfer (EPC rules, SLEV); EUR to IBAN. */
  | 'PAIN001_SEPA'
  /** ISO 20022 pain.001.001.09 generic credit transfer; any other currency the bank serves. */
  | 'PAIN001';

/** One of the operator's own accounts at the bank, in one currency. */
export interface OperatorAccount {
  currency: string;
  /** The account's holder name as the bank knows it (the debtor of payouts, the beneficiary of collections). */
  holderName: string;
  /** IBAN accounts (EUR and others). */
  iban?: string;
  bic?: string;
  /** US accounts: ABA routing number (9 digits) and account number. */
  routingNumber?: string;
  accountNumber?: string;
  /** What the operator's customers are told the bank is called. */
  bankName: string;
}

/** A cut-off: payouts queued before it leave in that window's file. */
export interface Cutoff {
  /** Local time at the bank, HH:MM (24 h). */
  time: string;
  /** NACHA: the window is a same-day ACH window (the effective entry date is the same day). */
  sameDay?: boolean;
}

export interface BankSchedule {
  /** IANA time zone of the bank's cut-offs and business days, e.g. America/New_York, Europe/Berlin. */
  timeZone: string;
  /** Cut-offs of each business day, per format. */
  cutoffs: Partial<Record<PayoutFormat, Cutoff[]>>;
  /** Days the bank does not process (YYYY-MM-DD, in its time zone); Saturdays and Sundays never are business days. */
  holidays: string[];
}

export interface SftpSettings {
  host: string;
  port: number;
  username: string;
  /**
   * The client key's file (OpenSSH or PEM, not passphrase-protected), as an absolute path once loaded
   * (the file names it relative to its own folder). Used only while the database holds no key for the
   * bank: `npx corridor bank key import <bankId> <file>` stores the key sealed under the KEK
   * (bank/credentials.ts), after which the file can be deleted and this setting left out.
   */
  privateKeyFile?: string;
  /** The server's host key, pinned: SHA256:… as `ssh-keygen -lf` prints it. */
  hostKeySha256: string;
  /** Where Corridor uploads files for the bank, and where the bank leaves its reports. */
  outboundDir: string;
  inboundDir: string;
}

/** NACHA file and batch header identities (given by the bank when the operator signs up). */
export interface NachaSettings {
  /** The bank's routing number (the file's immediate destination, 9 digits). */
  immediateDestination: string;
  immediateDestinationName: string;
  /** The operator's identity at the bank (immediate origin, 10 characters). */
  immediateOrigin: string;
  immediateOriginName: string;
  /** Company identification of the batches (10 characters) and name (16). */
  companyId: string;
  companyName: string;
  /** The originating DFI: the first 8 digits of the bank's routing number. */
  originatingDfi: string;
}

export interface BankProfile {
  /** The operator's short name for the bank: letters, digits and dashes; it names files and archives. */
  id: string;
  name: string;
  formats: PayoutFormat[];
  accounts: OperatorAccount[];
  sftp: SftpSettings;
  schedule: BankSchedule;
  nacha?: NachaSettings;
  /** How often the inbound folder is read (ms). */
  pollIntervalMs: number;
}

/** What a configured bank can carry: format for (currency, account type), or why not. */
export function formatFor(bank: BankProfile, currency: string, accountType: string): PayoutFormat | undefined {
  if (!bank.accounts.some((a) => a.currency === currency)) return undefined;
  if (currency === 'USD' && accountType === 'US_ACCOUNT' && bank.formats.includes('NACHA')) return 'NACHA';
  if (currency === 'EUR' && accountType === 'IBAN' && bank.formats.includes('PAIN001_SEPA')) return 'PAIN001_SEPA';
  if (bank.formats.includes('PAIN001') && currency !== 'USD') return 'PAIN001';
  return undefined;
}
