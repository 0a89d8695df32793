import { Type, type Static } from 'typebox';
import { idPattern } from '../../common/ids.js';
import { Text } from '../../common/schemas.js';
import { MAX_AMOUNT } from '../../fx/pricing.js';

const account = (type: 'InternalAccount' | 'ExternalAccount', description: string) =>
  Type.Object({ accountId: Type.String({ pattern: idPattern(type), description }) }, { additionalProperties: false });

const Amount = Type.Integer({ minimum: 1, maximum: Number(MAX_AMOUNT), description: 'Smallest unit of the accounts’ currency' });

export const TransferOutBody = Type.Object(
  {
    source: account('InternalAccount', 'The internal account debited'),
    destination: account('ExternalAccount', 'The external account paid; same currency'),
    amount: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: Number(MAX_AMOUNT),
        description: 'Smallest unit of the accounts’ currency; required unless sweepBalance is true',
      }),
    ),
    // A payout of everything must be asked for in so many words: a client that merely forgot
    // `amount` must not empty an account (docs/decisions.md, "Transfer-out of the whole balance").
    sweepBalance: Type.Optional(
      Type.Boolean({
        description: 'true, with no amount: move the whole available balance of the source (fees are taken from it)',
      }),
    ),
    description: Type.Optional(Text(500)),
  },
  { additionalProperties: false },
);
export type TransferOut = Static<typeof TransferOutBody>;

export const TransferInBody = Type.Object(
  {
    source: account('ExternalAccount', 'A pullable external account (US_ACCOUNT with ACH) of the same owner'),
    destination: account('InternalAccount', 'The internal account credited; same currency'),
    amount: Amount,
    description: Type.Optional(Text(500)),
  },
  { additionalProperties: false },
);
export type TransferIn = Static<typeof TransferInBody>;
