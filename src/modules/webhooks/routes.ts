import type { Container } from '../../container.js';
import type { App } from '../../http/types.js';
import {
  DeliveryIdParams,
  DeliveryListQuery,
  DeliveryPage,
  DeliverySchema,
  EmptyBody,
  SandboxWebhookTestResult,
  WebhookTestBody,
  WebhookTestResult,
} from './schemas.js';

export function webhookRoutes(app: App, { services }: Container) {
  const webhooks = services.webhooks;
  const tags = ['Webhooks'];

  app.post(
    '/webhooks/test',
    {
      // Waits on the receiver (up to 10 s): outside a transaction, only its answer is recorded.
      config: { permission: 'MANAGE', idempotency: 'record' },
      schema: {
        tags,
        summary: 'Send a signed TEST event now (to url, or the configured webhookEndpoint) and report what the receiver answered',
        body: WebhookTestBody,
        response: { 200: WebhookTestResult },
      },
      // No body at all means {}: every field is optional, so a bare POST tests the configured endpoint.
      preValidation: async (req) => {
        if (req.body === undefined) req.body = {};
      },
    },
    async (req) => webhooks.sendTest(req.auth, req.body),
  );

  // The vendor OpenAPI's route: no body, the configured endpoint, sandbox tokens only.
  app.post(
    '/sandbox/webhooks/test',
    {
      config: { permission: 'MANAGE', idempotency: 'record', sandboxOnly: true },
      schema: {
        tags: ['Sandbox'],
        summary: 'Send a signed TEST event now to the configured webhookEndpoint (as POST /webhooks/test without a body; sandbox only)',
        body: EmptyBody,
        response: { 200: SandboxWebhookTestResult },
      },
      preValidation: async (req) => {
        if (req.body === undefined) req.body = {};
      },
    },
    async (req) => {
      const result = await webhooks.sendTest(req.auth, {});
      return {
        ...result,
        ...(result.statusCode === undefined ? {} : { response_status: result.statusCode }),
        ...(result.responseBody === undefined ? {} : { response_body: result.responseBody }),
      };
    },
  );

  app.get(
    '/webhooks/deliveries',
    {
      config: { permission: 'VIEW' },
      schema: { tags, summary: 'The webhook delivery log, newest first, with every attempt', querystring: DeliveryListQuery, response: { 200: DeliveryPage } },
    },
    async (req) => {
      const { limit, cursor, ...filters } = req.query;
      return webhooks.list(req.auth, filters, { limit, cursor });
    },
  );

  app.get(
    '/webhooks/deliveries/:deliveryId',
    {
      config: { permission: 'VIEW' },
      schema: { tags, summary: 'One webhook delivery with every attempt', params: DeliveryIdParams, response: { 200: DeliverySchema } },
    },
    async (req) => webhooks.get(req.auth, req.params.deliveryId),
  );

  app.post(
    '/webhooks/deliveries/:deliveryId/resend',
    {
      config: { permission: 'MANAGE' },
      schema: {
        tags,
        summary: 'Send the event of a finished delivery again (same webhookId and body) as a new delivery with its own retries',
        params: DeliveryIdParams,
        response: { 202: DeliverySchema },
      },
    },
    async (req, reply) => {
      reply.code(202);
      return webhooks.resend(req.auth, req.params.deliveryId);
    },
  );
}
