import type { Container } from '../../container.js';
import type { App } from '../../http/types.js';
import { ConfigPatchBody, ConfigSchema } from './schemas.js';
import { fromSupportedCurrencies } from './vendor.js';

export function configRoutes(app: App, { services }: Container) {
  const config = services.config;
  const tags = ['Configuration'];

  app.get('/config', {
    config: { permission: 'VIEW' },
    schema: { tags, summary: "The platform's settings in the token's environment, with the webhook public key", response: { 200: ConfigSchema } },
  }, async (req) => config.get(req.auth));

  app.patch('/config', {
    config: { permission: 'MANAGE' },
    schema: { tags, summary: 'Change webhookEndpoint, umaDomain or per-currency settings; fields left out stay', body: ConfigPatchBody, response: { 200: ConfigSchema } },
  }, async (req) => config.update(req.auth, fromSupportedCurrencies(req.body)));
}
