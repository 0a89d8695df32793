import { Type } from 'typebox';
import { idPattern } from '../../common/ids.js';
import { PageQuery, PageSchema } from '../../common/pagination.js';
import { DateTime, Text, TimeRangeQuery, isoOrUndefined } from '../../common/schemas.js';
import { PERMISSIONS } from '../../common/scope.js';
import type { Container } from '../../container.js';
import type { App } from '../../http/types.js';

const TOKEN_EXAMPLE = {
  id: 'Token:019a6f1e-8f3c-7cc1-9d6e-2b8f0c2a4e11',
  name: 'Reporting backend',
  permissions: ['VIEW'],
  environment: 'SANDBOX',
  clientId: 'corr_test_5f0c9a1b2c3d4e5f60718293',
  createdAt: '2025-10-13T09:30:00.000Z',
  updatedAt: '2025-10-13T09:30:00.000Z',
};

const tokenFields = {
  id: Type.String(),
  name: Type.String(),
  permissions: Type.Array(Type.Enum(PERMISSIONS)),
  environment: Type.Enum(['SANDBOX', 'PRODUCTION']),
  clientId: Type.String(),
  createdAt: DateTime,
  updatedAt: DateTime,
  expiresAt: Type.Optional({ ...DateTime, description: 'The token stops authenticating at this time (401); absent: it never expires' }),
};
/** A token as read later: never its secret. */
const TokenSchema = Type.Object(tokenFields, { examples: [TOKEN_EXAMPLE] });
/** The answer to POST /tokens, the only one that carries the secret. */
const TokenCreated = Type.Object(
  { ...tokenFields, clientSecret: Type.String({ description: 'Returned once, when the token is created' }) },
  { examples: [{ ...TOKEN_EXAMPLE, clientSecret: 'cs_Vq3xN7c0k2d9Rz4W8bT1yL6mP5sH0jF3aQ8eU2gK7nC' }] },
);

const TokenCreateBody = Type.Object(
  {
    name: Text(100),
    permissions: Type.Array(Type.Enum(PERMISSIONS), { minItems: 1, maxItems: 3, uniqueItems: true }),
    expiresAt: Type.Optional({ ...DateTime, description: 'Optional: a future time after which the token answers 401; absent: it never expires' }),
  },
  { additionalProperties: false, examples: [{ name: 'Reporting backend', permissions: ['VIEW'] }] },
);

const TokenListQuery = Type.Object({ name: Type.Optional(Text(100)), ...TimeRangeQuery, ...PageQuery }, { additionalProperties: false });
const TokenIdParams = Type.Object({ tokenId: Type.String({ pattern: idPattern('Token') }) });

export function tokenRoutes(app: App, { services }: Container) {
  const tokens = services.tokens;
  const tags = ['Tokens'];

  // An authenticated no-op: integrators check their credentials with it; benchmarks use it as the baseline.
  app.get(
    '/ping',
    {
      config: { permission: 'VIEW' },
      schema: {
        tags,
        summary: 'Check credentials: who is calling, in which environment',
        response: {
          200: Type.Object(
            { ok: Type.Boolean(), platformId: Type.String(), environment: Type.String(), permissions: Type.Array(Type.String()) },
            {
              examples: [
                { ok: true, platformId: 'Platform:019a6f1e-8f3c-7cc1-9d6e-2b8f0c2a4e11', environment: 'SANDBOX', permissions: ['VIEW', 'TRANSACT', 'MANAGE'] },
              ],
            },
          ),
        },
      },
    },
    async (req) => ({ ok: true, platformId: req.auth.platformId, environment: req.auth.environment, permissions: [...req.auth.permissions] }),
  );

  app.post(
    '/tokens',
    {
      config: { permission: 'MANAGE' },
      schema: {
        tags,
        summary: "Create an API token in the caller's environment; the secret is shown once",
        body: TokenCreateBody,
        response: { 201: TokenCreated },
      },
    },
    async (req, reply) => {
      reply.code(201);
      return tokens.create(req.auth, req.body);
    },
  );

  app.get(
    '/tokens',
    {
      config: { permission: 'MANAGE' },
      schema: { tags, summary: 'List active API tokens', querystring: TokenListQuery, response: { 200: PageSchema(TokenSchema) } },
    },
    async (req) => {
      const q = req.query;
      return tokens.list(
        req.auth,
        {
          name: q.name,
          createdAfter: isoOrUndefined(q.createdAfter),
          createdBefore: isoOrUndefined(q.createdBefore),
          updatedAfter: isoOrUndefined(q.updatedAfter),
          updatedBefore: isoOrUndefined(q.updatedBefore),
        },
        { limit: q.limit, cursor: q.cursor },
      );
    },
  );

  app.get(
    '/tokens/:tokenId',
    {
      config: { permission: 'MANAGE' },
      schema: { tags, summary: 'Retrieve an API token (without its secret)', params: TokenIdParams, response: { 200: TokenSchema } },
    },
    async (req) => tokens.get(req.auth, req.params.tokenId),
  );

  app.delete(
    '/tokens/:tokenId',
    {
      config: { permission: 'MANAGE' },
      schema: { tags, summary: 'Revoke an API token; it stops working at once', params: TokenIdParams, response: { 200: TokenSchema } },
    },
    async (req) => tokens.revoke(req.auth, req.params.tokenId),
  );
}
