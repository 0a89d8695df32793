import { oneOfSpellings } from '../../common/aliases.js';
import { isoOrUndefined } from '../../common/schemas.js';
import { answersInGrid } from '../../http/profile.js';
import type { App } from '../../http/types.js';
import type { Container } from '../../container.js';
import { CustomerCreateBody, CustomerIdParams, CustomerListQuery, CustomerPage, CustomerPatchBody, CustomerSchema } from './schemas.js';

export function customerRoutes(app: App, { services, configs }: Container) {
  const customers = services.customers;
  const tags = ['Customers'];

  app.post(
    '/customers',
    {
      config: { permission: 'MANAGE' },
      schema: { tags, summary: 'Create a customer', body: CustomerCreateBody, response: { 201: CustomerSchema } },
    },
    async (req, reply) => {
      reply.code(201);
      return customers.create(req.auth, req.body);
    },
  );

  app.get(
    '/customers',
    {
      config: { permission: 'VIEW' },
      schema: { tags, summary: 'List customers, newest first', querystring: CustomerListQuery, response: { 200: CustomerPage } },
    },
    async (req) => {
      const { limit, cursor, createdAfter, createdBefore, updatedAfter, updatedBefore, isIncludingDeleted: _alias, ...rest } = req.query;
      const includeDeleted = oneOfSpellings<boolean>(req.query, 'includeDeleted', 'isIncludingDeleted', 'query') ?? false;
      return customers.list(
        req.auth,
        {
          ...rest,
          includeDeleted,
          createdAfter: isoOrUndefined(createdAfter),
          createdBefore: isoOrUndefined(createdBefore),
          updatedAfter: isoOrUndefined(updatedAfter),
          updatedBefore: isoOrUndefined(updatedBefore),
        },
        { limit, cursor },
      );
    },
  );

  app.get(
    '/customers/:customerId',
    {
      config: { permission: 'VIEW' },
      schema: { tags, summary: 'Retrieve a customer', params: CustomerIdParams, response: { 200: CustomerSchema } },
    },
    // The vendor documents this read as answering a deleted customer (isDeleted: true); the spec
    // answers 410. Only the read differs under GRID: every write still refuses a deleted customer.
    async (req) => customers.get(req.auth, req.params.customerId, { deleted: await answersInGrid(req, configs) }),
  );

  app.patch(
    '/customers/:customerId',
    {
      config: { permission: 'MANAGE' },
      schema: {
        tags,
        summary: 'Update a customer (currencies replaces the list)',
        params: CustomerIdParams,
        body: CustomerPatchBody,
        response: { 200: CustomerSchema },
      },
    },
    async (req) => customers.update(req.auth, req.params.customerId, req.body),
  );

  app.delete(
    '/customers/:customerId',
    {
      config: { permission: 'MANAGE' },
      schema: {
        tags,
        summary: 'Delete a customer (soft: isDeleted true; later reads answer 410)',
        params: CustomerIdParams,
        response: { 200: CustomerSchema },
      },
    },
    async (req) => customers.remove(req.auth, req.params.customerId),
  );
}
