/** Row types: UMA invitations, bulk customer imports and sandbox KYC links (conventions in db/schema.ts). */
export interface UmaInvitationsTable {
  /** the random code of the invitation link; unique on its own */
  code: string;
  platform_id: string;
  environment: string;
  inviter_customer_id: string;
  inviter_uma: string;
  first_name: string | null;
  /** minor units of amount_currency (the inviter's first currency) */
  amount_to_send: bigint | number | null;
  amount_currency: string | null;
  /** PENDING, CLAIMED or CANCELLED; EXPIRED is read from expires_at */
  status: string;
  invitee_uma: string | null;
  invitee_platform_id: string | null;
  invitee_customer_id: string | null;
  expires_at: string | null;
  claimed_at: string | null;
  cancelled_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface CustomerImportsTable {
  id: string;
  platform_id: string;
  environment: string;
  /** PENDING, PROCESSING, COMPLETED or FAILED */
  status: string;
  file_name: string | null;
  file_sha256: string;
  total_rows: bigint | number;
  created_at: string;
  updated_at: string;
  completed_at: string | null;
}

export interface CustomerImportRowsTable {
  import_id: string;
  /** 1 for the first data row (the line after the header) */
  row_number: bigint | number;
  /** platformCustomerId of the row, or row_<n> when it has none */
  correlation_id: string;
  /** the row as a POST /customers body (JSON) */
  input: string;
  /** PENDING, CREATED or FAILED */
  status: string;
  customer_id: string | null;
  /** the D2 error of a FAILED row (JSON) */
  error: string | null;
  updated_at: string;
}

export interface KycLinksTable {
  /** hex SHA-256 of the link's token; the token itself is never stored */
  token_hash: string;
  platform_id: string;
  environment: string;
  customer_id: string;
  redirect_uri: string | null;
  expires_at: string;
  used_at: string | null;
  /** APPROVED or REJECTED once used */
  decision: string | null;
  created_at: string;
}
