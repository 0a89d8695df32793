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

declare module '../../db/schema.js' {
  interface DB {
    uma_keys: UmaKeysTable;
    uma_nonces: UmaNoncesTable;
  }
}
