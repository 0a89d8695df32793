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

declare module '../../db/schema.js' {
  interface DB {
    uma_keys: UmaKeysTable;
    uma_nonces: UmaNoncesTable;
    uma_remote_lookups: UmaRemoteLookupsTable;
  }
}
