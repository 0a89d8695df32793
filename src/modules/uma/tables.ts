/**
 * Row types of the UMA wire tables (migration 950), merged into the database's table map so
 * queries on them are typed like every other table.
 */
export type UmaKeyPurpose = 'SIGNING' | 'ENCRYPTION' | 'NODE';

export interface UmaKeysTable {
  platform_id: string;
  environment: string;
  purpose: UmaKeyPurpose;
  /** 1 for the first key; rotation adds the next. The highest is the one in use. */
  generation: number;
  /** uncompressed secp256k1 public key, hex (65 bytes) */
  public_key_hex: string;
  /** the 32-byte private key, hex, sealed under the KEK (src/secrets/envelope.ts); never shown */
  private_key: string;
  /** the published certificate (SIGNING and ENCRYPTION); null for the node key */
  certificate_pem: string | null;
  not_after: string;
  created_at: string;
}

export interface UmaNoncesTable {
  /** the counterparty's UMA domain (the signer) */
  domain: string;
  nonce: string;
  /** the timestamp the counterparty signed with the nonce */
  signed_at: string;
  seen_at: string;
}

/** One currency of a remote receiver, as its LNURLP answer offered it. */
export interface RemoteCurrency {
  code: string;
  /** msats per smallest unit, exact decimal text as published */
  multiplier: string;
  decimals: number;
  /** receiving minor units */
  min: number;
  max: number;
}

export interface UmaRemoteLookupsTable {
  lookup_id: string;
  platform_id: string;
  environment: string;
  domain: string;
  /** the pay request URL, on the receiver's own domain */
  callback: string;
  uma_version: string;
  /** JSON RemoteCurrency[] */
  currencies: string;
  /** JSON: the payerData options of the answer (UMA keys) */
  payer_data: string;
  /** the verified LNURLP answer, as received */
  response: string;
  created_at: string;
}

export interface UmaInvoicesTable {
  /** hex sha256 of the preimage */
  payment_hash: string;
  platform_id: string;
  environment: string;
  customer_id: string;
  receiver_address: string;
  /** the payer's UMA address, from the signed pay request */
  sender_address: string;
  /** the VASP that signed the pay request: only it may settle */
  sender_domain: string;
  currency: string;
  /** receiving minor units the customer gets */
  amount: bigint | number;
  amount_msats: bigint | number;
  fee_msats: bigint | number;
  multiplier: string;
  /** JSON: the payer data and decrypted travel-rule information, as Corridor field names */
  counterparty_information: string;
  bolt11: string;
  /** hex, sealed under the KEK until revealed by settlement */
  preimage: string;
  /** OPEN → SETTLED */
  status: 'OPEN' | 'SETTLED';
  /** the INCOMING transaction its settlement opened */
  transaction_id: string | null;
  expires_at: string;
  created_at: string;
  settled_at: string | null;
}

/** A payment sent to another UMA provider: the invoice its receiver issued for the quote, and its settlement. */
export interface UmaPaymentsTable {
  /** the OUTGOING transaction */
  transaction_id: string;
  quote_id: string;
  platform_id: string;
  environment: string;
  /** the payer's UMA identifier as the pay request named it */
  sender_address: string;
  receiver_address: string;
  /** the receiver's UMA domain: only it is paid and called back */
  domain: string;
  currency: string;
  /** receiving minor units the receiver credits */
  amount: bigint | number;
  amount_msats: bigint | number;
  fee_msats: bigint | number;
  /** msats per receiving minor unit, as agreed (num/den) */
  multiplier: string;
  bolt11: string;
  payment_hash: string;
  /** where the post-transaction callback goes (on the receiver's domain); null when none was named */
  post_tx_url: string | null;
  /** QUOTED → SETTLING → SETTLED | FAILED */
  status: 'QUOTED' | 'SETTLING' | 'SETTLED' | 'FAILED';
  /** hex proof of payment, once sha256(preimage) = payment_hash */
  preimage: string | null;
  /** the receiver's last answer to a settlement, for operators */
  last_answer: string | null;
  /** the invoice's expiry */
  expires_at: string;
  created_at: string;
  settled_at: string | null;
  /** when the receiver acknowledged the post-transaction callback */
  post_tx_at: string | null;
}

declare module '../../db/schema.js' {
  interface DB {
    uma_keys: UmaKeysTable;
    uma_nonces: UmaNoncesTable;
    uma_remote_lookups: UmaRemoteLookupsTable;
    uma_invoices: UmaInvoicesTable;
    uma_payments: UmaPaymentsTable;
  }
}
