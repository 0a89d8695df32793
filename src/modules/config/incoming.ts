/**
 * A platform's settings for money it receives (PATCH /config): the payer data senders must give
 * to pay its customers (receiver lookups list them as requiredPayerDataFields), and whether an
 * incoming payment waits for the platform's approval (POST /transactions/{id}/approve) and which
 * facts about the receiving customer that approval must supply. Stored as JSON in
 * platform_configs; read by src/modules/receiver and src/modules/incoming.
 */
import { Type } from 'typebox';
import type { PlatformConfigsTable } from '../../db/schema.js';

/** Facts about a person exchanged with a payment (UMA payer data and receiver information). */
export const CUSTOMER_INFO_FIELDS = [
  'FULL_NAME',
  'BIRTH_DATE',
  'NATIONALITY',
  'COUNTRY_OF_RESIDENCE',
  'POSTAL_ADDRESS',
  'EMAIL',
  'PHONE_NUMBER',
  'TAX_ID',
  'ACCOUNT_IDENTIFIER',
  'BUSINESS_NAME',
] as const;
export type CustomerInfoField = (typeof CUSTOMER_INFO_FIELDS)[number];

export const APPROVAL_WINDOW_MIN_SECONDS = 10;
export const APPROVAL_WINDOW_MAX_SECONDS = 86_400;
export const DEFAULT_APPROVAL_WINDOW_SECONDS = 600;

export interface IncomingApproval {
  /** Every incoming payment waits for approval (also true in effect when fields are requested). */
  required: boolean;
  requestedReceiverCustomerInfoFields: CustomerInfoField[];
  /** How long the platform has to approve or reject before the payment fails (PAYMENT_APPROVAL_TIMED_OUT). */
  windowSeconds: number;
}

const FieldList = Type.Array(Type.Enum(CUSTOMER_INFO_FIELDS), { uniqueItems: true, maxItems: CUSTOMER_INFO_FIELDS.length });

export const IncomingConfigPatch = {
  requiredPayerDataFields: Type.Optional(
    Type.Array(Type.Enum(CUSTOMER_INFO_FIELDS), {
      uniqueItems: true,
      maxItems: CUSTOMER_INFO_FIELDS.length,
      description: "Payer data a sender must give (quote senderCustomerInfo) to pay this platform's customers; replaces the list",
    }),
  ),
  incomingPaymentApproval: Type.Optional(
    Type.Object(
      {
        required: Type.Optional(Type.Boolean({ description: 'Incoming payments wait for POST /transactions/{id}/approve' })),
        requestedReceiverCustomerInfoFields: Type.Optional(FieldList),
        windowSeconds: Type.Optional(
          Type.Integer({
            minimum: APPROVAL_WINDOW_MIN_SECONDS,
            maximum: APPROVAL_WINDOW_MAX_SECONDS,
            description: 'Time to answer before the payment fails with PAYMENT_APPROVAL_TIMED_OUT',
          }),
        ),
      },
      { additionalProperties: false, description: 'Fields left out stay; requesting fields implies approval' },
    ),
  ),
};

export const IncomingConfigSchema = {
  requiredPayerDataFields: Type.Array(Type.String()),
  incomingPaymentApproval: Type.Object({
    required: Type.Boolean(),
    requestedReceiverCustomerInfoFields: Type.Array(Type.String()),
    windowSeconds: Type.Integer(),
  }),
};

type Row = Pick<PlatformConfigsTable, 'required_payer_data_fields' | 'incoming_payment_approval'>;

export function requiredPayerDataFields(config: Row): CustomerInfoField[] {
  return config.required_payer_data_fields ? (JSON.parse(config.required_payer_data_fields) as CustomerInfoField[]) : [];
}

export function incomingApproval(config: Row): IncomingApproval {
  const stored = config.incoming_payment_approval ? (JSON.parse(config.incoming_payment_approval) as Partial<IncomingApproval>) : {};
  return {
    required: stored.required ?? false,
    requestedReceiverCustomerInfoFields: stored.requestedReceiverCustomerInfoFields ?? [],
    windowSeconds: stored.windowSeconds ?? DEFAULT_APPROVAL_WINDOW_SECONDS,
  };
}

/** Whether an incoming payment waits for the platform's answer. */
export function approvalNeeded(a: IncomingApproval): boolean {
  return a.required || a.requestedReceiverCustomerInfoFields.length > 0;
}

/** The columns a PATCH changes (fields left out stay). */
export function mergeIncomingSettings(
  current: Row,
  patch: { requiredPayerDataFields?: CustomerInfoField[]; incomingPaymentApproval?: Partial<IncomingApproval> },
): Partial<Row> {
  const out: Partial<Row> = {};
  if (patch.requiredPayerDataFields) out.required_payer_data_fields = JSON.stringify(patch.requiredPayerDataFields);
  if (patch.incomingPaymentApproval) out.incoming_payment_approval = JSON.stringify({ ...incomingApproval(current), ...patch.incomingPaymentApproval });
  return out;
}

export function incomingSettingsView(config: Row) {
  return { requiredPayerDataFields: requiredPayerDataFields(config), incomingPaymentApproval: incomingApproval(config) };
}
