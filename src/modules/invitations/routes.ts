import { Type } from 'typebox';
import type { Container } from '../../container.js';
import type { App } from '../../http/types.js';
import { escapeHtml, htmlPage, sendPage } from '../kyc-links/html.js';
import { InvitationClaimBody, InvitationCodeParams, InvitationCreateBody, InvitationSchema } from './schemas.js';
import { createInvitationService } from './service.js';

export function invitationRoutes(app: App, container: Container) {
  const invitations = createInvitationService({
    db: container.db,
    clock: container.clock,
    events: container.events,
    pageBase: `${container.config.publicUrl}${app.prefix}`,
    within: container.sandbox.clocks.within,
  });
  const tags = ['Invitations'];

  app.post(
    '/invitations',
    {
      config: { permission: 'MANAGE' },
      schema: { tags, summary: 'Create an UMA invitation from one of your customers', body: InvitationCreateBody, response: { 201: InvitationSchema } },
    },
    async (req, reply) => {
      reply.code(201);
      return invitations.create(req.auth, req.body);
    },
  );

  app.get(
    '/invitations/:invitationCode',
    {
      config: { permission: 'VIEW' },
      schema: {
        tags,
        summary: 'Retrieve an UMA invitation by its code (any platform of the environment holding the code)',
        params: InvitationCodeParams,
        response: { 200: InvitationSchema },
      },
    },
    async (req) => invitations.get(req.auth, req.params.invitationCode),
  );

  app.post(
    '/invitations/:invitationCode/claim',
    {
      config: { permission: 'MANAGE' },
      schema: {
        tags,
        summary: 'Claim a pending UMA invitation for one of your customers (the inviting platform gets an INVITATION webhook)',
        params: InvitationCodeParams,
        body: InvitationClaimBody,
        response: { 200: InvitationSchema },
      },
    },
    async (req) => invitations.claim(req.auth, req.params.invitationCode, req.body.inviteeUma),
  );

  app.post(
    '/invitations/:invitationCode/cancel',
    {
      config: { permission: 'MANAGE' },
      // The vendor's clients send no body: none reads as {}.
      preValidation: async (req) => {
        req.body ??= {};
      },
      schema: {
        tags,
        summary: 'Cancel a pending UMA invitation (only the platform that created it)',
        params: InvitationCodeParams,
        body: Type.Object({}, { additionalProperties: false, examples: [{}] }),
        response: { 200: InvitationSchema },
      },
    },
    async (req) => invitations.cancel(req.auth, req.params.invitationCode),
  );

  // The page the invitation's url opens: what the invited person sees. No credentials (the code
  // is the secret), read only; not an API operation, so not in the OpenAPI document.
  app.get(
    '/invitations/:invitationCode/page',
    { config: { permission: 'PUBLIC' }, schema: { hide: true, params: InvitationCodeParams } as object },
    async (req, reply) => {
      const { invitationCode } = req.params as { invitationCode: string };
      const invitation = await invitations.forPage(invitationCode);
      if (!invitation)
        return sendPage(reply, 404, htmlPage('Invitation not found', '<h1>Invitation not found</h1><p>This link does not name an invitation.</p>'));
      const amount = invitation.amountToSend
        ? `${(invitation.amountToSend.amount / 10 ** invitation.amountToSend.currency.decimals).toFixed(invitation.amountToSend.currency.decimals)} ${invitation.amountToSend.currency.code}`
        : undefined;
      const who = invitation.firstName ? `${escapeHtml(invitation.firstName)} (${escapeHtml(invitation.inviterUma)})` : escapeHtml(invitation.inviterUma);
      const state: Record<string, string> = {
        PENDING: 'Ask your UMA provider to claim this invitation with its code.',
        CLAIMED: 'This invitation has been claimed.',
        CANCELLED: 'This invitation was cancelled.',
        EXPIRED: 'This invitation has expired.',
      };
      return sendPage(
        reply,
        200,
        htmlPage(
          'UMA invitation',
          `<h1>${who} invited you to UMA</h1>
<dl><dt>Code</dt><dd>${escapeHtml(invitation.code)}</dd><dt>Status</dt><dd>${escapeHtml(invitation.status)}</dd>${amount ? `<dt>Amount</dt><dd>${escapeHtml(amount)}</dd>` : ''}${invitation.expiresAt ? `<dt>Expires</dt><dd>${escapeHtml(invitation.expiresAt)}</dd>` : ''}</dl>
<p>${state[invitation.status]}</p>`,
        ),
      );
    },
  );
}
