import type { Container } from '../../container.js';
import type { App } from '../../http/types.js';
import { Type } from 'typebox';
import { ConfigPatchBody, ConfigSchema } from './schemas.js';
import { fromSupportedCurrencies } from './vendor.js';

const VerifyBody = Type.Object({}, { additionalProperties: false, description: 'Empty: the pending umaDomainClaim is verified' });

export function configRoutes(app: App, { services }: Container) {
  const config = services.config;
  const tags = ['Configuration'];

  app.get(
    '/config',
    {
      config: { permission: 'VIEW' },
      schema: { tags, summary: "The platform's settings in the token's environment, with the webhook public key", response: { 200: ConfigSchema } },
    },
    async (req) => config.get(req.auth),
  );

  app.patch(
    '/config',
    {
      config: { permission: 'MANAGE' },
      schema: {
        tags,
        summary: 'Change webhookEndpoint, umaDomain or per-currency settings; fields left out stay',
        body: ConfigPatchBody,
        response: { 200: ConfigSchema },
      },
    },
    async (req) => config.update(req.auth, fromSupportedCurrencies(req.body)),
  );

  app.post(
    '/config/uma-domain/verify',
    {
      // Fetches the proof over the network: outside a transaction, only its answer is recorded.
      config: { permission: 'MANAGE', idempotency: 'record' },
      schema: {
        tags,
        summary: 'Prove the pending umaDomainClaim (HTTPS well-known file or DNS TXT record); on success it becomes umaDomain',
        body: VerifyBody,
        response: { 200: ConfigSchema },
      },
      // No body at all means {}: there is nothing to send, the claim is the platform's pending one.
      preValidation: async (req) => {
        if (req.body === undefined) req.body = {};
      },
    },
    async (req) => config.verifyUmaDomain(req.auth),
  );
}
