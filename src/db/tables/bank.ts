/** Row types: partner-bank credentials (conventions in db/schema.ts). */
export interface BankCredentialsTable {
  /** The bank's id in BANKS_FILE (profile.ts), e.g. `first-example-us`. */
  bank_id: string;
  /** The SFTP client's private key (OpenSSH or PEM text), sealed under the KEK (`bank_credentials|<bank id>`). */
  private_key: string;
  /** The public half's fingerprint as `ssh-keygen -lf` prints it (SHA256:…): what the bank was given. */
  public_key_sha256: string;
  created_at: string;
  updated_at: string;
}
