/**
 * The vendor SDK's form of the per-currency settings (`supportedCurrencies` of PATCH /config),
 * turned into this API's: `currencies` and `requiredPayerDataFields` (docs/vendor-clients.md).
 */
import { Type, type Static } from 'typebox';
import { invalidInput, type FieldProblem } from '../../common/errors.js';
import { CurrencyCode } from '../../common/schemas.js';
import { CUSTOMER_INFO_FIELDS, type CustomerInfoField } from './incoming.js';
import type { ConfigPatch } from './schemas.js';

const Bound = Type.Integer({ minimum: 0, maximum: 9_000_000_000_000_000 });
const FieldName = Type.String({ minLength: 1, maxLength: 64 });

export const SupportedCurrencyInput = Type.Object(
  {
    currencyCode: CurrencyCode,
    enabledTransactionTypes: Type.Optional(
      Type.Array(Type.Enum(['INCOMING', 'OUTGOING']), {
        uniqueItems: true,
        description: 'Both: enabled; none: disabled (a currency is enabled for both directions or neither)',
      }),
    ),
    minAmount: Type.Optional(Bound),
    maxAmount: Type.Optional(Bound),
    requiredCounterpartyFields: Type.Optional(
      Type.Array(Type.Object({ name: FieldName, mandatory: Type.Boolean() }, { additionalProperties: false }), {
        maxItems: 50,
        description: 'Mandatory names become requiredPayerDataFields, which apply to every currency: every entry must list the same ones',
      }),
    ),
    // Set by the vendor's UMA provider, answered by its GET /config; accepted and ignored here.
    providerRequiredCustomerFields: Type.Optional(Type.Array(FieldName, { maxItems: 50, description: 'Read-only at the vendor; ignored' })),
    providerRequiredCounterpartyCustomerFields: Type.Optional(Type.Array(FieldName, { maxItems: 50, description: 'Read-only at the vendor; ignored' })),
  },
  { additionalProperties: false },
);
type SupportedCurrency = Static<typeof SupportedCurrencyInput>;

type CurrencySetting = NonNullable<ConfigPatch['currencies']>[number];

/** The patch in this API's names; the vendor's form, when given, must agree with the spec's. */
export function fromSupportedCurrencies(patch: ConfigPatch & { supportedCurrencies?: SupportedCurrency[] }): ConfigPatch {
  const { supportedCurrencies, ...rest } = patch;
  if (supportedCurrencies === undefined) return rest;
  const problems: FieldProblem[] = [];
  const bad = (field: string, message: string) => problems.push({ field: `supportedCurrencies.${field}`, in: 'body', message });
  const currencies: CurrencySetting[] = [];
  let mandatory: string[] | undefined;
  supportedCurrencies.forEach((c, i) => {
    const setting: CurrencySetting = { currencyCode: c.currencyCode };
    if (c.enabledTransactionTypes !== undefined) {
      const n = c.enabledTransactionTypes.length;
      if (n === 1)
        bad(`${i}.enabledTransactionTypes`, 'must list both INCOMING and OUTGOING, or neither: a currency is enabled for both directions or disabled');
      else setting.enabled = n === 2;
    }
    if (c.minAmount !== undefined) setting.minAmount = c.minAmount;
    if (c.maxAmount !== undefined) setting.maxAmount = c.maxAmount;
    currencies.push(setting);
    if (c.requiredCounterpartyFields !== undefined) {
      const names = c.requiredCounterpartyFields.filter((f) => f.mandatory).map((f) => f.name);
      names.forEach((name, j) => {
        if (!(CUSTOMER_INFO_FIELDS as readonly string[]).includes(name))
          bad(`${i}.requiredCounterpartyFields.${j}.name`, `must be one of ${CUSTOMER_INFO_FIELDS.join(', ')}`);
      });
      const sorted = [...new Set(names)].sort();
      if (mandatory === undefined) mandatory = sorted;
      else if (JSON.stringify(mandatory) !== JSON.stringify(sorted))
        bad(`${i}.requiredCounterpartyFields`, 'lists other mandatory fields than an earlier currency; required payer data applies to every currency alike');
    }
  });
  if (rest.currencies !== undefined && JSON.stringify(rest.currencies) !== JSON.stringify(currencies)) {
    problems.push({ field: 'supportedCurrencies', in: 'body', message: 'differs from currencies, which names the same settings; give one' });
  }
  if (
    mandatory !== undefined &&
    rest.requiredPayerDataFields !== undefined &&
    JSON.stringify([...rest.requiredPayerDataFields].sort()) !== JSON.stringify(mandatory)
  ) {
    problems.push({
      field: 'supportedCurrencies',
      in: 'body',
      message: 'its mandatory requiredCounterpartyFields differ from requiredPayerDataFields; give one',
    });
  }
  if (problems.length) throw invalidInput(problems);
  return { ...rest, currencies, ...(mandatory === undefined ? {} : { requiredPayerDataFields: mandatory as CustomerInfoField[] }) };
}
