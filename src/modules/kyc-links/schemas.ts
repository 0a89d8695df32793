import { Type } from 'typebox';
import { idPattern } from '../../common/ids.js';
import { DateTime, Text } from '../../common/schemas.js';

export const KycLinkQuery = Type.Object(
  {
    platformCustomerId: Text(128, { description: 'Your id of the customer (platformCustomerId), who must exist', examples: ['user-42'] }),
    redirectUri: Type.Optional(
      Type.String({
        format: 'uri',
        pattern: '^https?://',
        maxLength: 2048,
        description: 'Where the page sends the tester once a decision is made (an http or https URL)',
        examples: ['https://app.example.com/onboarding/done'],
      }),
    ),
  },
  { additionalProperties: false },
);

const RedirectUri = Type.String({
  format: 'uri',
  pattern: '^https?://',
  maxLength: 2048,
  description: 'Where the page sends the tester once a decision is made (an http or https URL)',
});

/**
 * POST /customers/kyc-link, as the vendor's CLI sends it: the customer by `customerId` (or
 * `platformCustomerId`), `redirectUrl` (or `redirectUri`). The same link as the GET.
 */
export const KycLinkBody = Type.Object(
  {
    customerId: Type.Optional(Type.String({ pattern: idPattern('Customer'), description: 'The customer; or platformCustomerId' })),
    platformCustomerId: Type.Optional(Text(128, { description: 'Your id of the customer; or customerId' })),
    redirectUrl: Type.Optional(RedirectUri),
    redirectUri: Type.Optional(RedirectUri),
  },
  { additionalProperties: false },
);

export const KycLinkSchema = Type.Object(
  {
    kycUrl: Type.String({ description: 'The sandbox page where a tester approves or rejects the customer; single use' }),
    platformCustomerId: Type.String(),
    customerId: Type.String(),
    expiresAt: DateTime,
  },
  {
    examples: [
      {
        kycUrl: 'https://corridor.example.com/2025-10-13/sandbox/kyc/3q2-7wEXAMPLEtokenEXAMPLEtokenEXAMPLEtok',
        platformCustomerId: 'user-42',
        customerId: 'Customer:019a6f1e-8f3c-7cc1-9d6e-2b8f0c2a4e11',
        expiresAt: '2025-10-14T09:30:00.000Z',
      },
    ],
  },
);
