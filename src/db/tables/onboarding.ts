/** Row types: beneficial owners and documents (conventions in db/schema.ts). */
export interface BeneficialOwnersTable {
  id: string;
  platform_id: string;
  environment: string;
  /** the BUSINESS customer this person owns or controls */
  customer_id: string;
  /** roles as `,UBO,DIRECTOR,` so "has role X" is one LIKE on both dialects */
  roles: string;
  ownership_percentage: number | bigint;
  /** personalInfo as JSON text */
  personal_info: string;
  kyc_status: string;
  created_at: string;
  updated_at: string;
}

export interface DocumentsTable {
  id: string;
  platform_id: string;
  environment: string;
  /** a Customer or BeneficialOwner id */
  document_holder: string;
  /** the customer the holder is or belongs to */
  customer_id: string;
  document_type: string;
  country: string | null;
  side: string | null;
  document_number: string | null;
  file_name: string;
  /** detected from the bytes: application/pdf, image/jpeg or image/png */
  content_type: string;
  size_bytes: number | bigint;
  /** hex SHA-256 of content */
  sha256: string;
  /** the file itself (blob on SQLite, bytea on PostgreSQL), so one backup holds everything */
  content: Buffer;
  created_at: string;
  updated_at: string;
}
