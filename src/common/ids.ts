import { validate as uuidValidate } from 'uuid';
import { uuidv7 } from './uuid7.js';

/** Ids are `<Type>:<uuid v7>`: time-ordered, so newest-first pagination walks the primary key. */
export type IdType =
  | 'Platform'
  | 'Customer'
  | 'ExternalAccount'
  | 'InternalAccount'
  | 'Quote'
  | 'Transaction'
  | 'BeneficialOwner'
  | 'Document'
  | 'Token'
  | 'Webhook'
  | 'Lookup'
  | 'Job'
  | 'Delivery'
  | 'LedgerAccount'
  | 'Journal'
  | 'Posting'
  | 'LedgerTransfer'
  | 'User'
  | 'Session'
  | 'TransactionEvent'
  | 'Audit'
  | 'BankFile'
  | 'BankInbound'
  | 'BankEntry'
  | 'BankBalance'
  | 'BankException';

export function newId(type: IdType): string {
  return `${type}:${uuidv7()}`;
}

/** Whether value is a well-formed id of this type (says nothing about existence). */
export function isId(type: IdType, value: string): boolean {
  const prefix = `${type}:`;
  return value.startsWith(prefix) && value.length === prefix.length + 36 && uuidValidate(value.slice(prefix.length));
}

/** The JSON-schema pattern of an id of this type, for route schemas. */
export function idPattern(type: IdType): string {
  return `^${type}:[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`;
}
