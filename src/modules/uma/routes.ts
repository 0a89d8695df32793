/**
 * The UMA protocol's endpoints, outside the API's version prefix (the protocol fixes their paths)
 * and without API credentials: counterparties authenticate by signature. Hidden from the API's
 * OpenAPI document, which describes the integrator's API.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { UmaWireError } from './wire-errors.js';
import type { UmaWire } from './index.js';

async function answer(reply: FastifyReply, work: () => Promise<unknown>) {
  try {
    return await work();
  } catch (e) {
    if (e instanceof UmaWireError) {
      reply.code(e.status);
      return e.toBody();
    }
    throw e;
  }
}

export function umaWireRoutes(app: FastifyInstance, uma: UmaWire) {
  const route = { config: { permission: 'PUBLIC' as const }, schema: { hide: true } as object };
  const { receiving } = uma;

  app.get('/.well-known/lnurlpubkey', route, async (req, reply) => answer(reply, () => receiving.publishedKeys(req.headers.host)));
  app.get('/.well-known/uma-configuration', route, async (req, reply) => answer(reply, () => receiving.configuration(req.headers.host)));
  app.get('/.well-known/lnurlp/:user', route, async (req, reply) => answer(reply, () => receiving.lnurlp(req.headers.host, req.url)));
  // The callback of an LNURLP answer; the body is the SDK's JSON, read as text so nothing reshapes it.
  app.post<{ Params: { user: string } }>('/uma/payreq/:user', { ...route, bodyLimit: 64 * 1024 }, async (req, reply) =>
    answer(reply, () =>
      uma.payRequests.payRequest(req.headers.host, req.params.user, typeof req.body === 'string' ? req.body : JSON.stringify(req.body ?? null)),
    ),
  );
  app.post('/uma/post-transaction', { ...route, bodyLimit: 64 * 1024 }, async (req, reply) =>
    answer(reply, () => uma.payRequests.postTransaction(req.headers.host, typeof req.body === 'string' ? req.body : JSON.stringify(req.body ?? null))),
  );
  app.post('/uma/sandbox/settle', { ...route, bodyLimit: 16 * 1024 }, async (req, reply) =>
    answer(reply, () => uma.payRequests.settle(req.headers.host, req.body)),
  );
}
