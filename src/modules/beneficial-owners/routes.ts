import type { App } from '../../http/types.js';
import type { Container } from '../../container.js';
import { OwnerCreateBody, OwnerIdParams, OwnerListQuery, OwnerPage, OwnerPatchBody, OwnerSchema } from './schemas.js';

export function beneficialOwnerRoutes(app: App, { services }: Container) {
  const owners = services.beneficialOwners;
  const tags = ['Beneficial owners'];

  app.post(
    '/beneficial-owners',
    {
      config: { permission: 'MANAGE' },
      schema: {
        tags,
        summary: 'Add a beneficial owner to a BUSINESS customer',
        description:
          'UBO percentages of one business add up to at most 100. In the sandbox the owner is APPROVED at once, and a PENDING business becomes APPROVED with its first UBO or CONTROL_PERSON.',
        body: OwnerCreateBody,
        response: { 201: OwnerSchema },
      },
    },
    async (req, reply) => {
      reply.code(201);
      return owners.create(req.auth, req.body);
    },
  );

  app.get(
    '/beneficial-owners',
    {
      config: { permission: 'VIEW' },
      schema: { tags, summary: 'List the beneficial owners of a business customer, newest first', querystring: OwnerListQuery, response: { 200: OwnerPage } },
    },
    async (req) => {
      const { customerId, limit, cursor } = req.query;
      return owners.list(req.auth, customerId, { limit, cursor });
    },
  );

  app.get(
    '/beneficial-owners/:beneficialOwnerId',
    {
      config: { permission: 'VIEW' },
      schema: { tags, summary: 'Retrieve a beneficial owner', params: OwnerIdParams, response: { 200: OwnerSchema } },
    },
    async (req) => owners.get(req.auth, req.params.beneficialOwnerId),
  );

  app.patch(
    '/beneficial-owners/:beneficialOwnerId',
    {
      config: { permission: 'MANAGE' },
      schema: {
        tags,
        summary: 'Update a beneficial owner (only the fields given change; personalInfo is merged field by field)',
        params: OwnerIdParams,
        body: OwnerPatchBody,
        response: { 200: OwnerSchema },
      },
    },
    async (req) => owners.update(req.auth, req.params.beneficialOwnerId, req.body),
  );
}
