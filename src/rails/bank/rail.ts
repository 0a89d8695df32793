/**
 * The PRODUCTION rail over partner banks. Asked inside the payment's transaction, it answers no
 * timed events: a payout waits in PROCESSING, its funds reserved, while it is queued here for its
 * bank's next cut-off (a bank_payouts row written in the same transaction). The file, the upload
 * and the bank's answers happen later, in the bank worker (worker.ts), which reports the outcome
 * through the same lifecycle transitions the sandbox's timed events use.
 */
import { invalidField } from '../../common/errors.js';
import { randomView } from '../../common/random.js';
import type { Database } from '../../db/database.js';
import { rowInsert, columnsOf } from '../../db/statements.js';
import type { BankPayoutsTable } from '../../db/tables/bank-rails.js';
import type { ExternalAccountRow } from '../../modules/external-accounts/repository.js';
import type { TransactionRow } from '../../modules/transactions/repository.js';
import type { Rail } from '../types.js';
import { formatFor, type BankProfile, type PayoutFormat } from './profile.js';

// Crockford base32: no I, L, O, U, so a reference read from a bank's report survives retyping.
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/**
 * A payout's reference at the bank: "CP" + 13 random characters (65 bits), 15 in all, so it fits
 * a NACHA individual id as well as an ISO EndToEndId, and comes back in every report.
 */
export function newPayoutReference(): string {
  const bytes = randomView(13);
  let out = 'CP';
  for (let i = 0; i < 13; i++) out += CROCKFORD[bytes[i] & 31];
  return out;
}

/** Who and where, as the bank file states them (a snapshot: a later edit of the account does not change a queued payout). */
export interface Counterparty {
  name: string;
  kind: 'INDIVIDUAL' | 'BUSINESS';
  accountType: string;
  iban?: string;
  bic?: string;
  routingNumber?: string;
  accountNumber?: string;
  accountCategory?: 'CHECKING' | 'SAVINGS';
  country?: string;
}

export function counterpartyOf(account: ExternalAccountRow): Counterparty {
  const info = JSON.parse(account.account_info) as Record<string, unknown> & {
    beneficiary?: { beneficiaryType?: string; fullName?: string; legalName?: string; address?: { country?: string } };
  };
  const b = info.beneficiary ?? {};
  const text = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);
  return {
    name: b.fullName ?? b.legalName ?? text(info.accountHolderName) ?? 'UNKNOWN',
    kind: b.beneficiaryType === 'BUSINESS' ? 'BUSINESS' : 'INDIVIDUAL',
    accountType: account.account_type,
    iban: text(info.iban),
    bic: text(info.swiftBic) ?? text(info.bic),
    routingNumber: text(info.routingNumber),
    accountNumber: text(info.accountNumber),
    accountCategory: info.accountCategory === 'SAVINGS' ? 'SAVINGS' : info.accountCategory === 'CHECKING' ? 'CHECKING' : undefined,
    country: text(b.address?.country),
  };
}

const insertPayout = rowInsert<BankPayoutsTable, 'append'>(
  'bank_payouts',
  columnsOf<BankPayoutsTable>({
    transaction_id: true,
    platform_id: true,
    environment: true,
    bank_id: true,
    format: true,
    direction: true,
    currency: true,
    amount: true,
    reference: true,
    counterparty: true,
    status: true,
    file_id: true,
    trace_number: true,
    reason_code: true,
    queued_at: true,
    updated_at: true,
  }),
  'append',
);

/** The bank (and format) that carries a payment to or from `account`, or undefined. */
export function carrierOf(
  banks: readonly BankProfile[],
  account: Pick<ExternalAccountRow, 'currency' | 'account_type'>,
): { bank: BankProfile; format: PayoutFormat } | undefined {
  for (const bank of banks) {
    const format = formatFor(bank, account.currency, account.account_type);
    if (format) return { bank, format };
  }
  return undefined;
}

/**
 * `manualFallback`: what no bank carries waits for an operator's `payout settle|fail` (the manual
 * rail), only when the operator asked for it (PRODUCTION_MANUAL_RAIL=true); otherwise it is refused.
 */
export function createBankRail(deps: { db: Database; banks: readonly BankProfile[]; now: () => Date; manualFallback: boolean }): Rail {
  const { db, banks, manualFallback } = deps;
  const describeServed = () =>
    banks.length === 0
      ? 'no partner bank is configured (BANKS_FILE, docs/production.md)'
      : `the configured banks carry ${banks.flatMap((b) => b.formats.map((f) => `${b.id}: ${f} (${b.accounts.map((a) => a.currency).join(', ')})`)).join('; ')}`;
  return {
    name: 'bank',
    planPayout: () => [],
    planPull: () => [],
    checkCarried(account, field, direction) {
      if (direction === 'QUOTE_PULL') {
        if (manualFallback) return;
        // A pull and a payout in one payment would be two files whose outcomes must agree; the bank
        // rails carry them as two payments instead.
        throw invalidField(
          field,
          'a quote funded by pulling from an external account is not carried by the bank rails in PRODUCTION; pull the money into an internal account first (POST /transfer-in), then quote from that account',
        );
      }
      const carrier = carrierOf(banks, account);
      // A pull is a NACHA debit: only US accounts at a bank that sends NACHA files.
      if ((carrier && (direction === 'PAYOUT' || carrier.format === 'NACHA')) || manualFallback) return;
      throw invalidField(
        field,
        `no partner bank carries ${direction === 'PAYOUT' ? 'payouts' : 'pulls'} in ${account.currency} to ${account.account_type} accounts in PRODUCTION; ${describeServed()}`,
      );
    },
    async started(row: TransactionRow, account: ExternalAccountRow) {
      const carrier = carrierOf(banks, account);
      if (!carrier && manualFallback) return; // an operator settles it (rails/cli.ts)
      // checkCarried refused it when the quote or transfer was made; a configuration changed since
      // (a bank removed) must not leave the money reserved with nobody to send it.
      if (!carrier) throw new Error(`no bank carries ${account.currency} ${account.account_type} (configuration changed?)`);
      const now = deps.now().toISOString();
      const outgoing = row.type !== 'INCOMING';
      await insertPayout(db, {
        transaction_id: row.id,
        platform_id: row.platform_id,
        environment: row.environment,
        bank_id: carrier.bank.id,
        format: carrier.format,
        direction: outgoing ? 'CREDIT' : 'DEBIT',
        currency: account.currency,
        // What leaves (or is pulled) at the bank: the amount received plus the counterparty's fee.
        amount: outgoing ? BigInt(row.received_amount) + BigInt(row.counterparty_fee) : BigInt(row.sent_amount),
        reference: newPayoutReference(),
        counterparty: JSON.stringify(counterpartyOf(account)),
        status: 'QUEUED',
        file_id: null,
        trace_number: null,
        reason_code: null,
        queued_at: now,
        updated_at: now,
      });
    },
  };
}
