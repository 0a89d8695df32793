import { isoOrUndefined } from '../../common/schemas.js';
import type { Container } from '../../container.js';
import type { ValidateFunction } from 'ajv';
import { ApiError, commonErrors, invalidField, invalidInput, type FieldProblem } from '../../common/errors.js';
import { allows } from '../../common/scope.js';
import type { App } from '../../http/types.js';
import { fieldProblems, validatorCompiler } from '../../http/validation.js';
import { CustomerExternalAccountBody, type ExternalAccountCreate } from '../external-accounts/schemas.js';
import { QuoteCreateBody, QuoteIdParams, QuoteListQuery, QuotePage, QuoteSchema } from './schemas.js';

/** POST /customers/external-accounts' body schema, for a quote's externalAccountDetails. */
const checkDetails = validatorCompiler({ schema: CustomerExternalAccountBody, httpPart: 'body', method: 'POST', url: '' }) as unknown as ValidateFunction;

/** Field problems of the account's body, named where they are in the quote's body. */
const under = (fields: FieldProblem[]): FieldProblem[] =>
  fields.map((f) => ({ ...f, field: f.field === '(root)' ? 'destination.externalAccountDetails' : `destination.externalAccountDetails.${f.field}` }));

async function underDetails<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    const fields = e instanceof ApiError && e.code === 'INVALID_INPUT' ? (e.details?.fields as FieldProblem[] | undefined) : undefined;
    if (fields) throw invalidInput(under(fields));
    throw e;
  }
}

export function quoteRoutes(app: App, container: Container) {
  const { services } = container;
  const quotes = services.quotes;
  const tags = ['Quotes'];

  app.post(
    '/quotes',
    {
      config: { permission: 'TRANSACT' },
      schema: {
        tags,
        summary: 'Create a quote: lock the rate, fees and amounts (and execute at once with immediatelyExecute)',
        body: QuoteCreateBody,
        response: { 201: QuoteSchema },
      },
    },
    async (req, reply) => {
      reply.code(201);
      const { destinationType, externalAccountDetails, ...rest } = req.body.destination;
      if (destinationType !== 'EXTERNAL_ACCOUNT_DETAILS') {
        if (externalAccountDetails !== undefined)
          throw invalidField('destination.externalAccountDetails', 'is only for destinationType EXTERNAL_ACCOUNT_DETAILS');
        return quotes.create(req.auth, req.body);
      }
      // Registering an account needs what POST /customers/external-accounts needs.
      if (!allows(req.auth.permissions, 'MANAGE')) throw commonErrors.FORBIDDEN({ permission: 'MANAGE', field: 'destination.externalAccountDetails' });
      if (externalAccountDetails === undefined)
        throw invalidField('destination.externalAccountDetails', 'is required for destinationType EXTERNAL_ACCOUNT_DETAILS');
      if (rest.accountId !== undefined || rest.umaAddress !== undefined)
        throw invalidField(
          rest.accountId !== undefined ? 'destination.accountId' : 'destination.umaAddress',
          'is not for destinationType EXTERNAL_ACCOUNT_DETAILS',
        );
      const details = structuredClone(externalAccountDetails);
      if (!checkDetails(details)) throw invalidInput(under(fieldProblems((checkDetails.errors ?? []) as never, 'body')));
      // One transaction: the account is kept only with its quote, so a refused quote leaves nothing.
      return container.db.tx(async () => {
        const account = await underDetails(() => services.externalAccounts.create(req.auth, details as ExternalAccountCreate));
        return quotes.create(req.auth, { ...req.body, destination: { destinationType: 'ACCOUNT', accountId: account.id, currency: rest.currency } });
      });
    },
  );

  app.get(
    '/quotes',
    {
      config: { permission: 'VIEW' },
      schema: { tags, summary: 'List quotes, newest first', querystring: QuoteListQuery, response: { 200: QuotePage } },
    },
    async (req) => {
      const { limit, cursor, createdAfter, createdBefore, ...rest } = req.query;
      return quotes.list(req.auth, { ...rest, createdAfter: isoOrUndefined(createdAfter), createdBefore: isoOrUndefined(createdBefore) }, { limit, cursor });
    },
  );

  app.get(
    '/quotes/:quoteId',
    {
      config: { permission: 'VIEW' },
      schema: { tags, summary: 'Retrieve a quote', params: QuoteIdParams, response: { 200: QuoteSchema } },
    },
    async (req) => quotes.get(req.auth, req.params.quoteId),
  );

  app.post(
    '/quotes/:quoteId/execute',
    {
      config: { permission: 'TRANSACT' },
      schema: {
        tags,
        summary: 'Execute a prefunded or pullable quote: funds are debited at once (not for REALTIME_FUNDING quotes)',
        params: QuoteIdParams,
        response: { 200: QuoteSchema },
      },
    },
    async (req) => quotes.execute(req.auth, req.params.quoteId),
  );
}
