import { Type, type Static } from 'typebox';
import { AmountSchema, DateTime, Text } from '../../common/schemas.js';
import { UMA_ADDRESS_PATTERN } from '../customers/schemas.js';

export const INVITATION_STATUSES = ['PENDING', 'CLAIMED', 'EXPIRED', 'CANCELLED'] as const;

const UmaAddress = (description: string, example: string) => Type.String({ pattern: UMA_ADDRESS_PATTERN, maxLength: 320, description, examples: [example] });

export const InvitationCreateBody = Type.Object(
  {
    inviterUma: UmaAddress('The UMA address of one of your customers: the inviter', '$ada@acme.uma.localhost'),
    firstName: Type.Optional(
      Text(100, { description: "A first name to show with the invitation (the vendor's OpenAPI calls it the invitee's, then the inviter's)" }),
    ),
    amountToSend: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: Number.MAX_SAFE_INTEGER,
        description:
          "An amount in minor units of the inviter's first currency, shown to the invitee. Nothing is sent by Corridor: the inviting platform pays once the INVITATION webhook reports the claim.",
      }),
    ),
    expiresAt: Type.Optional(
      Type.String({ format: 'date-time', description: 'When the invitation expires: in the future, at most 365 days ahead. None: it never expires.' }),
    ),
  },
  {
    additionalProperties: false,
    examples: [{ inviterUma: '$ada@acme.uma.localhost', firstName: 'Ada', amountToSend: 12550, expiresAt: '2030-09-01T14:30:00Z' }],
  },
);
export type InvitationCreate = Static<typeof InvitationCreateBody>;

export const InvitationClaimBody = Type.Object(
  { inviteeUma: UmaAddress('The UMA address of one of your customers: the invitee', '$grace@other.uma.localhost') },
  { additionalProperties: false, examples: [{ inviteeUma: '$grace@other.uma.localhost' }] },
);

export const InvitationCodeParams = Type.Object({
  invitationCode: Type.String({ pattern: '^[A-Za-z0-9_-]{1,64}$', description: 'The code of the invitation', examples: ['k3Jq9TzW2xYb7LmN'] }),
});

const EXAMPLE = {
  code: 'k3Jq9TzW2xYb7LmN',
  createdAt: '2025-10-13T09:30:00.000Z',
  url: 'https://corridor.example.com/2025-10-13/invitations/k3Jq9TzW2xYb7LmN/page',
  expiresAt: '2030-09-01T14:30:00.000Z',
  inviterUma: '$ada@acme.uma.localhost',
  status: 'PENDING',
  firstName: 'Ada',
  amountToSend: { amount: 12550, currency: { code: 'USD', name: 'US Dollar', symbol: '$', decimals: 2 } },
};

export const InvitationSchema = Type.Object(
  {
    code: Type.String(),
    createdAt: DateTime,
    claimedAt: Type.Optional(DateTime),
    cancelledAt: Type.Optional(DateTime),
    url: Type.String({ description: 'A page that shows the invitation to the person invited' }),
    expiresAt: Type.Optional(DateTime),
    inviterUma: Type.String(),
    inviteeUma: Type.Optional(Type.String()),
    status: Type.Enum(INVITATION_STATUSES),
    firstName: Type.Optional(Type.String()),
    amountToSend: Type.Optional(AmountSchema),
  },
  { examples: [EXAMPLE] },
);
export type Invitation = Static<typeof InvitationSchema>;
