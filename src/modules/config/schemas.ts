import { Type, type Static } from 'typebox';
import { CurrencyCode, DateTime } from '../../common/schemas.js';
import { IncomingConfigPatch, IncomingConfigSchema } from './incoming.js';
import { SupportedCurrencyInput } from './vendor.js';
import { COMPATIBILITY_PROFILES } from './grid-profile.js';

const Compatibility = (description: string) => Type.Enum(COMPATIBILITY_PROFILES, { description });

// A DNS name (labels of letters, digits and hyphens), optionally with a port, as UMA addresses allow.
export const UMA_DOMAIN_PATTERN = '^(?=.{1,253}$)[a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(\\.[a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)+(:[0-9]{1,5})?$';

/** Amount bound in minor units; the same ceiling as a quote's lockedCurrencyAmount. */
const AmountBound = Type.Union([Type.Integer({ minimum: 0, maximum: 9_000_000_000_000_000 }), Type.Null()]);

const CurrencySettingInput = Type.Object(
  {
    currencyCode: CurrencyCode,
    enabled: Type.Optional(Type.Boolean()),
    minAmount: Type.Optional(AmountBound),
    maxAmount: Type.Optional(AmountBound),
  },
  { additionalProperties: false },
);

export const ConfigPatchBody = Type.Object(
  {
    webhookEndpoint: Type.Optional(
      Type.Union([Type.String({ minLength: 1, maxLength: 2048 }), Type.Null()], {
        description: 'Where webhooks are POSTed; null stops sending. https is required in PRODUCTION.',
      }),
    ),
    umaDomain: Type.Optional(
      Type.String({
        pattern: UMA_DOMAIN_PATTERN,
        maxLength: 253,
        description:
          "Domain of the customers' UMA addresses; changing it moves every existing address to the new domain. A domain under the service's base domain applies at once; in PRODUCTION another domain waits as umaDomainClaim until proven (POST /config/uma-domain/verify) or approved by the operator; the sandbox accepts only domains under the base domain",
      }),
    ),
    currencies: Type.Optional(
      Type.Array(CurrencySettingInput, { maxItems: 50, description: 'Settings of the listed currencies; unlisted currencies keep theirs' }),
    ),
    ...IncomingConfigPatch,
    compatibility: Type.Optional(
      Compatibility(
        "Names of this platform's answers and webhooks: CORRIDOR (the spec's) or GRID (the vendor SDK's names, its webhook body and X-Grid-Signature); requests are read in either naming under both",
      ),
    ),
    supportedCurrencies: Type.Optional(
      Type.Array(SupportedCurrencyInput, {
        maxItems: 50,
        description: "The vendor SDK's form of currencies (and of requiredPayerDataFields, from the mandatory requiredCounterpartyFields)",
      }),
    ),
  },
  { additionalProperties: false },
);
export type ConfigPatch = Static<typeof ConfigPatchBody>;

const CurrencySettingSchema = Type.Object({
  currencyCode: Type.String(),
  enabled: Type.Boolean(),
  minAmount: Type.Optional(Type.Integer({ description: 'minor units, inclusive; absent: no minimum' })),
  maxAmount: Type.Optional(Type.Integer({ description: 'minor units, inclusive; absent: no maximum' })),
});

export const ConfigSchema = Type.Object({
  environment: Type.Enum(['SANDBOX', 'PRODUCTION']),
  webhookEndpoint: Type.Optional(Type.String({ description: 'absent: none configured' })),
  webhookPublicKey: Type.String({ description: 'Ed25519 public key (PEM) that verifies X-Corridor-Signature; read-only' }),
  compatibility: Compatibility('CORRIDOR (default) or GRID: see PATCH /config'),
  gridWebhookPublicKey: Type.Optional(
    Type.String({ description: 'Under the GRID profile: the P-256 public key (PEM, SPKI) that verifies X-Grid-Signature; read-only' }),
  ),
  umaDomain: Type.String(),
  umaDomainClaim: Type.Optional(
    Type.Object(
      {
        domain: Type.String(),
        status: Type.Literal('PENDING'),
        token: Type.String({ description: 'Publish it at wellKnownUrl, or as dnsTxtValue in a TXT record at dnsTxtName' }),
        requestedAt: DateTime,
        wellKnownUrl: Type.String(),
        dnsTxtName: Type.String(),
        dnsTxtValue: Type.String(),
      },
      { description: 'A PRODUCTION umaDomain waiting for proof; umaDomain stays the one in use until then; absent: none' },
    ),
  ),
  currencies: Type.Array(CurrencySettingSchema, { description: 'Every supported currency with its settings' }),
  ...IncomingConfigSchema,
  updatedAt: DateTime,
});
