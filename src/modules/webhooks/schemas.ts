import { Type, type Static } from 'typebox';
import { idPattern } from '../../common/ids.js';
import { PageQuery, PageSchema } from '../../common/pagination.js';
import { DateTime } from '../../common/schemas.js';
import { DELIVERY_STATUSES, EVENT_TYPES } from '../../events/types.js';

export const WebhookTestBody = Type.Object(
  { url: Type.Optional(Type.String({ minLength: 1, maxLength: 2048, description: 'Where to send the TEST event; default: the configured webhookEndpoint' })) },
  { additionalProperties: false },
);
export type WebhookTest = Static<typeof WebhookTestBody>;

export const WebhookTestResult = Type.Object({
  deliveryId: Type.String(),
  webhookId: Type.String(),
  url: Type.String(),
  delivered: Type.Boolean({ description: 'true when the receiver answered 2xx' }),
  statusCode: Type.Optional(Type.Integer()),
  latencyMs: Type.Optional(Type.Integer()),
  error: Type.Optional(Type.String()),
  responseBody: Type.Optional(
    Type.String({ maxLength: 256, description: 'The first 256 characters of the answer when the receiver answered 2xx; absent otherwise' }),
  ),
});

/** POST /sandbox/webhooks/test (the vendor's route): the same result, plus the vendor's two names. */
export const SandboxWebhookTestResult = Type.Object({
  ...WebhookTestResult.properties,
  response_status: Type.Optional(Type.Integer({ description: "statusCode under the vendor's name; absent when the receiver did not answer" })),
  response_body: Type.Optional(Type.String({ description: "responseBody under the vendor's name; absent when there was none" })),
});

export const EmptyBody = Type.Object({}, { additionalProperties: false, description: 'No body: the configured webhookEndpoint is tested' });

const AttemptSchema = Type.Object({
  attemptNumber: Type.Integer(),
  attemptedAt: DateTime,
  url: Type.String(),
  statusCode: Type.Optional(Type.Integer()),
  latencyMs: Type.Optional(Type.Integer()),
  error: Type.Optional(Type.String()),
  responseBody: Type.Optional(
    Type.String({ maxLength: 256, description: 'The first 256 characters of the answer when the receiver answered 2xx; absent otherwise' }),
  ),
});

export const DeliverySchema = Type.Object({
  id: Type.String({ examples: ['Delivery:019a6f1e-8f3c-7cc1-9d6e-2b8f0c2a4e11'] }),
  webhookId: Type.String(),
  type: Type.String(),
  transactionId: Type.Optional(Type.String()),
  status: Type.Enum(DELIVERY_STATUSES),
  url: Type.Optional(Type.String({ description: 'Explicit target (test events); absent: the configured webhookEndpoint' })),
  attemptCount: Type.Integer(),
  nextAttemptAt: Type.Optional(Type.String()),
  deliveredAt: Type.Optional(Type.String()),
  resendOf: Type.Optional(Type.String()),
  createdAt: DateTime,
  updatedAt: DateTime,
  event: Type.Object({}, { additionalProperties: true, description: 'The webhook body, exactly what is sent' }),
  attempts: Type.Array(AttemptSchema),
});

export const DeliveryPage = PageSchema(DeliverySchema);

export const DeliveryListQuery = Type.Object(
  {
    type: Type.Optional(Type.Enum(EVENT_TYPES)),
    transactionId: Type.Optional(Type.String({ pattern: idPattern('Transaction') })),
    status: Type.Optional(Type.Enum(DELIVERY_STATUSES)),
    ...PageQuery,
  },
  { additionalProperties: false },
);

export const DeliveryIdParams = Type.Object({ deliveryId: Type.String({ pattern: idPattern('Delivery'), description: 'Delivery:<id>' }) });
