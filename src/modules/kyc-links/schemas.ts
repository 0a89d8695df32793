import { Type } from 'typebox';
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
