import { secp256k1 } from '@noble/curves/secp256k1.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { base58, bech32m } from '@scure/base';
import { currency as currencyInfo } from '../../common/currencies.js';
import { randomView } from '../../common/random.js';
import type { Environment } from '../../common/scope.js';
import { sandboxIdentifier } from '../../identifiers/sandbox-fixtures.js';
import type { PaymentInstructionSchema } from './schemas.js';
import type { Static } from 'typebox';

/** A Payment instruction of the spec: how to send money so it lands in one account. */
export type PaymentInstruction = Static<typeof PaymentInstructionSchema>;
type WalletInfo = PaymentInstruction['accountOrWalletInfo'];

// Crockford base32: no I, L, O, U, so a reference read aloud or retyped from a bank memo survives.
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** A fresh funding reference, e.g. CRD7K2M9QX4TB: 50 random bits, unique per platform (indexed). */
export function newFundingReference(): string {
  const bytes = randomView(10);
  let out = 'CRD';
  for (let i = 0; i < 10; i++) out += CROCKFORD[bytes[i] & 31];
  return out;
}

/** The local account type the sandbox collects each fiat currency on (first variant: DE for EUR). */
const COLLECTION_TYPE: Record<string, string> = {
  USD: 'US_ACCOUNT',
  EUR: 'IBAN',
  GBP: 'GBP_ACCOUNT',
  CAD: 'CAD_ACCOUNT',
  MXN: 'CLABE',
  BRL: 'PIX',
  PHP: 'PHP_ACCOUNT',
  INR: 'UPI',
  NGN: 'NGN_ACCOUNT',
  ZAR: 'ZAR_ACCOUNT',
  KES: 'KES_ACCOUNT',
  TZS: 'TZS_ACCOUNT',
  ZMW: 'ZMW_ACCOUNT',
  RWF: 'RWF_ACCOUNT',
  MWK: 'MWK_ACCOUNT',
  UGX: 'UGX_ACCOUNT',
  XOF: 'XOF_ACCOUNT',
};

const collectionCache = new Map<string, WalletInfo>();

/**
 * The sandbox's pooled collection account for a fiat currency: a valid identifier of the currency's
 * local type (the published sandbox identifier ending in 000), under an obviously fake bank name.
 */
function sandboxCollectionAccount(code: string): WalletInfo | undefined {
  const type = COLLECTION_TYPE[code];
  if (!type) return undefined;
  let info = collectionCache.get(code);
  if (!info) {
    info = {
      ...sandboxIdentifier(type, '000').accountInfo,
      bankName: 'CORRIDOR SANDBOX BANK',
      accountHolderName: 'Corridor Sandbox Collections',
    } as WalletInfo;
    collectionCache.set(code, info);
  }
  return info;
}

/** A per-account Spark (Bitcoin layer 2) address: the public key k·G, k derived from the account id. */
function sparkDepositAddress(accountId: string): string {
  const n = secp256k1.Point.Fn.ORDER;
  const k = (BigInt(`0x${Buffer.from(sha256(new TextEncoder().encode(`corridor deposit ${accountId}`))).toString('hex')}`) % (n - 1n)) + 1n;
  const payload = new Uint8Array(35);
  payload[0] = 0x0a;
  payload[1] = 0x21;
  payload.set(secp256k1.Point.BASE.multiply(k).toBytes(true), 2);
  return bech32m.encode('sparkrt', bech32m.toWords(payload), false);
}

/** A per-account Solana address: 32 bytes derived from the account id, base58. */
function solanaDepositAddress(accountId: string): string {
  return base58.encode(sha256(new TextEncoder().encode(`corridor deposit ${accountId}`)));
}

/**
 * The operator's own accounts at its partner banks, by currency (PRODUCTION collection accounts,
 * from BANKS_FILE: src/rails/bank/collections.ts). Money paid there with a reference is matched to
 * its internal account or quote when the bank reports it.
 */
export type CollectionAccounts = ReadonlyMap<string, WalletInfo>;

/**
 * How to pay into an internal account. Fiat goes to a pooled collection account with the
 * account's unique reference in the memo; crypto goes to a deposit address of its own.
 * `isPlatformAccount` is true where the receiving account is the platform's own internal account.
 *
 * PRODUCTION: the operator's real collection account at the partner bank that carries the
 * currency (`collections`), with the same reference; none where no bank does, and no crypto
 * deposit addresses (no custody connector exists: the sandbox ones would be misleading there).
 */
export function fundingInstructions(
  a: { id: string; currency: string; funding_reference: string; customer_id: string | null },
  environment: Environment,
  collections: CollectionAccounts = new Map(),
): PaymentInstruction[] {
  if (environment !== 'SANDBOX') {
    const account = collections.get(a.currency);
    if (!account) return [];
    return [
      {
        instructionsNotes: `Pay by bank transfer to this account with the reference ${a.funding_reference} in the payment memo (remittance information); it routes the payment to this account.`,
        isPlatformAccount: a.customer_id === null,
        accountOrWalletInfo: { ...account, reference: a.funding_reference },
      },
    ];
  }
  const isPlatformAccount = a.customer_id === null;
  const sandboxNote = 'Sandbox: no real money moves. Fund this account with POST /sandbox/internal-accounts/{accountId}/fund.';
  if (currencyInfo(a.currency).kind === 'CRYPTO') {
    const info =
      a.currency === 'BTC'
        ? { accountType: 'LAYER2_WALLET', assetType: 'BTC', cryptoNetwork: 'LAYER2_TESTNET', address: sparkDepositAddress(a.id) }
        : { accountType: 'SOLANA_WALLET', assetType: a.currency, cryptoNetwork: 'SOLANA_DEVNET', address: solanaDepositAddress(a.id) };
    return [
      {
        instructionsNotes: `Send ${a.currency} to this address; it belongs to this account only. ${sandboxNote}`,
        isPlatformAccount,
        accountOrWalletInfo: info,
      },
    ];
  }
  const collection = sandboxCollectionAccount(a.currency);
  if (!collection) return [];
  return [
    {
      instructionsNotes: `Put the reference ${a.funding_reference} in the payment memo; it routes the payment to this account. ${sandboxNote}`,
      isPlatformAccount,
      accountOrWalletInfo: { ...collection, reference: a.funding_reference },
    },
  ];
}
