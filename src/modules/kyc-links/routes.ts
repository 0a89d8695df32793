import { timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Container } from '../../container.js';
import { oneOfNames } from '../../common/aliases.js';
import { ApiError, invalidField } from '../../common/errors.js';
import type { App } from '../../http/types.js';
import { escapeHtml, htmlPage, sendPage } from './html.js';
import { KycLinkBody, KycLinkQuery, KycLinkSchema } from './schemas.js';
import { createKycLinkService, KYC_DECISIONS, type LinkState } from './service.js';

const FORM_MAX_BYTES = 1024;

function sameToken(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function customerFacts(customer: Extract<LinkState, { state: 'OPEN' }>['customer']): string {
  const name = customer.fullName ?? customer.businessInfo?.legalName ?? '—';
  return `<dl><dt>Customer</dt><dd>${escapeHtml(name)}</dd><dt>Type</dt><dd>${escapeHtml(customer.customerType)}</dd><dt>Your id</dt><dd>${escapeHtml(customer.platformCustomerId)}</dd><dt>kycStatus</dt><dd>${escapeHtml(customer.kycStatus)}</dd></dl>`;
}

function continueLink(state: Extract<LinkState, { link: unknown }>): string {
  const uri = state.link.redirect_uri;
  return uri ? `<p><a href="${escapeHtml(uri)}" rel="noreferrer">Continue</a></p>` : '';
}

/** The page for a link in each state. */
function render(reply: FastifyReply, token: string, state: LinkState, problem?: string) {
  if (state.state === 'UNKNOWN') return sendPage(reply, 404, htmlPage('KYC link not found', '<h1>KYC link not found</h1><p>This link is not valid.</p>'));
  if (state.state === 'EXPIRED')
    return sendPage(reply, 410, htmlPage('KYC link expired', '<h1>This KYC link has expired</h1><p>Ask the platform for a new link.</p>'));
  if (state.state === 'USED')
    return sendPage(reply, 200, htmlPage('KYC link used', '<h1>This link has been used</h1><p class="note">It cannot decide again.</p>'));
  // The answer to the decision just sent: that decision, nothing of the customer.
  if (state.state === 'DECIDED')
    return sendPage(
      reply,
      200,
      htmlPage(
        'KYC decision recorded',
        `<h1>KYC decision: ${escapeHtml(state.link.decision ?? '')}</h1><p class="note">This link has been used; it cannot decide again.</p>${continueLink(state)}`,
      ),
    );
  const customer = state.customer;
  return sendPage(
    reply,
    problem ? 400 : 200,
    htmlPage(
      'Sandbox KYC review',
      `<h1>Sandbox KYC review</h1>
<p class="note">A test page of the sandbox: no documents are checked. Your decision sets the customer's kycStatus.</p>
${customerFacts(customer)}
${problem ? `<p><strong>${escapeHtml(problem)}</strong></p>` : ''}
<form method="post">
<input type="hidden" name="token" value="${escapeHtml(token)}">
<button class="approve" type="submit" name="decision" value="APPROVED">Approve</button>
<button class="reject" type="submit" name="decision" value="REJECTED">Reject</button>
</form>
<p class="note">Link valid until ${escapeHtml(state.link.expires_at)}; it can be used once.</p>`,
    ),
  );
}

export function kycLinkRoutes(app: App, container: Container) {
  const links = createKycLinkService({
    db: container.db,
    clock: container.clock,
    customers: container.services.customers,
    within: container.sandbox.clocks.within,
    pageBase: `${container.config.publicUrl}${app.prefix}`,
  });
  const publicOrigin = new URL(container.config.publicUrl).origin;

  app.get(
    '/customers/kyc-link',
    {
      config: { permission: 'MANAGE' },
      schema: {
        tags: ['Customers'],
        summary: 'A link to the sandbox page where a tester approves or rejects a customer (sandbox only; PRODUCTION answers HOSTED_KYC_NOT_AVAILABLE)',
        querystring: KycLinkQuery,
        response: { 200: KycLinkSchema },
      },
    },
    async (req) => links.issue(req.auth, req.query),
  );

  // The vendor CLI's request for the same link: a POST naming the customer by its id.
  app.post(
    '/customers/kyc-link',
    {
      config: { permission: 'MANAGE' },
      schema: {
        tags: ['Customers'],
        summary: 'The same link as GET /customers/kyc-link, for a customer named by customerId or platformCustomerId (the vendor CLI sends this)',
        body: KycLinkBody,
        response: { 200: KycLinkSchema },
      },
    },
    async (req) => {
      const redirectUri = oneOfNames<string>(req.body, 'redirectUri', ['redirectUrl'], 'body');
      let platformCustomerId = req.body.platformCustomerId;
      if (req.body.customerId !== undefined) {
        const customer = await container.services.customers.getLive(req.auth, req.body.customerId);
        if (platformCustomerId !== undefined && platformCustomerId !== customer.platform_customer_id)
          throw invalidField('platformCustomerId', 'is not the platformCustomerId of customerId; give one');
        platformCustomerId = customer.platform_customer_id;
      }
      if (platformCustomerId === undefined) throw invalidField('customerId', 'is required (or platformCustomerId)');
      return links.issue(req.auth, { platformCustomerId, redirectUri });
    },
  );

  // The page itself: no credentials (the link's token is the credential), not an API operation,
  // so not in the OpenAPI document. The form posts back with the token in its body.
  app.register(async (scope) => {
    const pages = scope as unknown as App;
    pages.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: FORM_MAX_BYTES }, (_req, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    });

    pages.get('/sandbox/kyc/:token', { config: { permission: 'PUBLIC' }, schema: { hide: true } as object }, async (req, reply) => {
      const { token } = req.params as { token: string };
      return render(reply, token, await links.inspect(token));
    });

    pages.post(
      '/sandbox/kyc/:token',
      {
        config: { permission: 'PUBLIC' },
        schema: { hide: true } as object,
        // Not an API call: the single-use token makes a repeat harmless, and there is no platform to key a replay on.
        onRequest: async (req: FastifyRequest) => {
          delete req.headers['idempotency-key'];
        },
      },
      async (req, reply) => {
        const { token } = req.params as { token: string };
        if (!String(req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded'))
          return sendPage(reply, 415, htmlPage('Refused', '<h1>Refused</h1><p>Send the page’s form.</p>'));
        const form = (req.body ?? {}) as Record<string, unknown>;
        // A cross-site form cannot know the token; a browser that names another origin is refused all the same.
        const origin = req.headers.origin;
        if (origin !== undefined && origin !== publicOrigin && origin !== `${req.protocol}://${req.host}`) {
          return sendPage(reply, 403, htmlPage('Refused', '<h1>Refused</h1><p>This form must be sent from its own page.</p>'));
        }
        if (typeof form.token !== 'string' || !sameToken(form.token, token)) {
          return sendPage(reply, 403, htmlPage('Refused', '<h1>Refused</h1><p>The form does not carry this link’s token.</p>'));
        }
        const decision = form.decision;
        if (!(KYC_DECISIONS as readonly unknown[]).includes(decision)) return render(reply, token, await links.inspect(token), 'Choose Approve or Reject.');
        try {
          return render(reply, token, await links.decide(token, decision as (typeof KYC_DECISIONS)[number]));
        } catch (e) {
          // A change the customer service refuses (e.g. a business whose KYB is not complete) leaves the link usable.
          if (e instanceof ApiError && e.status < 500) return render(reply, token, await links.inspect(token), e.message);
          throw e;
        }
      },
    );
  });
}
