import type { Container } from '../../container.js';
import type { App } from '../../http/types.js';
import {
  CustomerExternalAccountBody,
  CustomerExternalAccountQuery,
  ExternalAccountIdParams,
  ExternalAccountPage,
  ExternalAccountSchema,
  PlatformExternalAccountBody,
  PlatformExternalAccountQuery,
} from './schemas.js';

export function externalAccountRoutes(app: App, { services }: Container) {
  const accounts = services.externalAccounts;
  const tags = ['External accounts'];

  app.post(
    '/customers/external-accounts',
    {
      config: { permission: 'MANAGE' },
      schema: {
        tags,
        summary: 'Register an external account of a customer (or, without customerId, of the platform)',
        body: CustomerExternalAccountBody,
        response: { 201: ExternalAccountSchema },
      },
    },
    async (req, reply) => {
      reply.code(201);
      return accounts.create(req.auth, req.body);
    },
  );

  app.get(
    '/customers/external-accounts',
    {
      config: { permission: 'VIEW' },
      schema: {
        tags,
        summary: "List customers' external accounts, newest first",
        querystring: CustomerExternalAccountQuery,
        response: { 200: ExternalAccountPage },
      },
    },
    async (req) => {
      const { limit, cursor, ...filters } = req.query;
      return accounts.listOfCustomers(req.auth, filters, { limit, cursor });
    },
  );

  app.get(
    '/customers/external-accounts/:externalAccountId',
    {
      config: { permission: 'VIEW' },
      schema: { tags, summary: "Retrieve a customer's external account", params: ExternalAccountIdParams, response: { 200: ExternalAccountSchema } },
    },
    async (req) => accounts.get(req.auth, req.params.externalAccountId, true),
  );

  app.delete(
    '/customers/external-accounts/:externalAccountId',
    {
      config: { permission: 'MANAGE' },
      schema: {
        tags,
        summary: "Deactivate a customer's external account (status INACTIVE)",
        params: ExternalAccountIdParams,
        response: { 200: ExternalAccountSchema },
      },
    },
    async (req) => accounts.deactivate(req.auth, req.params.externalAccountId, true),
  );

  app.post(
    '/platform/external-accounts',
    {
      config: { permission: 'MANAGE' },
      schema: { tags, summary: 'Register an external account of the platform', body: PlatformExternalAccountBody, response: { 201: ExternalAccountSchema } },
    },
    async (req, reply) => {
      reply.code(201);
      return accounts.create(req.auth, req.body);
    },
  );

  app.get(
    '/platform/external-accounts',
    {
      config: { permission: 'VIEW' },
      schema: {
        tags,
        summary: "List the platform's external accounts, newest first",
        querystring: PlatformExternalAccountQuery,
        response: { 200: ExternalAccountPage },
      },
    },
    async (req) => {
      const { limit, cursor, ...filters } = req.query;
      return accounts.listOfPlatform(req.auth, filters, { limit, cursor });
    },
  );

  app.get(
    '/platform/external-accounts/:externalAccountId',
    {
      config: { permission: 'VIEW' },
      schema: { tags, summary: "Retrieve a platform's external account", params: ExternalAccountIdParams, response: { 200: ExternalAccountSchema } },
    },
    async (req) => accounts.get(req.auth, req.params.externalAccountId, false),
  );

  app.delete(
    '/platform/external-accounts/:externalAccountId',
    {
      config: { permission: 'MANAGE' },
      schema: {
        tags,
        summary: "Deactivate a platform's external account (status INACTIVE)",
        params: ExternalAccountIdParams,
        response: { 200: ExternalAccountSchema },
      },
    },
    async (req) => accounts.deactivate(req.auth, req.params.externalAccountId, false),
  );
}
