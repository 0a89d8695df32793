/**
 * The receiving side of a UMA payment. A pay request (POST to the callback of the LNURLP answer)
 * is verified like every signed message (signature against the sender's published keys, fresh
 * timestamp, unseen nonce), then checked against the customer's terms (currency, limits, the payer
 * data the platform requires, the payee data the sender requires); the travel-rule information is
 * decrypted with the platform's encryption key. It is answered with payee data, a signed compliance
 * section and a BOLT11 invoice for amount × multiplier + fee, signed by the platform's node key and
 * expiring with the quote.
 *
 * The sandbox's Lightning is the settlement endpoint: the sender's VASP presents the invoice, signed;
 * in one database transaction the invoice turns SETTLED and the INCOMING payment is opened through
 * the arrivals (its approval flow, the ledger's deposit legs). The preimage is revealed once the
 * payment has landed — at once, or when the platform approves it; a rejected or timed-out payment
 * never reveals it. Asking again answers the same, and credits nothing more.
 */
import { getPayReqResponse, getSignablePostTransactionCallback, parsePostTransactionCallback, PayRequest, UmaError } from '@uma-sdk/core';
import { decrypt } from 'eciesjs';
import type { Clock } from '../../common/clock.js';
import { currency } from '../../common/currencies.js';
import type { Database } from '../../db/database.js';
import type { Sealer } from '../../secrets/envelope.js';
import { requiredPayerDataFields, type CustomerInfoField } from '../config/incoming.js';
import type { Arrivals } from '../incoming/arrival.js';
import { incomingRepository } from '../incoming/repository.js';
import type { Fx } from '../quotes/pricing.js';
import { payerDataOf } from '../receiver/payer.js';
import { receivingCurrencies } from '../receiver/resolver.js';
import { transactionRepository } from '../transactions/repository.js';
import { fromUmaData, toUmaData, UMA_KEY_OF } from './counterparty-data.js';
import type { CounterpartyKeyCache } from './counterparty-keys.js';
import { readInvoice, type MadeInvoice } from './invoices.js';
import type { LightningBackend } from './lightning.js';
import type { UmaKeys } from './keys.js';
import { invoiceMsats, multiplierNumber, multiplierOf } from './multipliers.js';
import type { NonceStore } from './nonces.js';
import { checkCounterparty, verifyTimestamp, type CounterpartyPolicy } from './policy.js';
import type { Receiving } from './receiving.js';
import { verifySignature } from './signatures.js';
import type { UmaInvoicesTable } from './tables.js';
import { UmaWireError } from './wire-errors.js';

/** An invoice lives as long as a quote made from it may (QUOTE_TTL_MS of the quotes). */
export const INVOICE_TTL_MS = 5 * 60_000;
const PROTOCOL_KEYS = new Set(['identifier', 'compliance']);

export interface PayRequestDeps {
  db: Database;
  clock: Clock;
  fx: Fx;
  secrets: Sealer;
  keys: UmaKeys;
  nonces: NonceStore;
  counterparties: CounterpartyKeyCache;
  policy: CounterpartyPolicy;
  receiving: Receiving;
  lightning: LightningBackend;
  /** a getter: the arrivals are assembled after this module */
  arrivals: () => Arrivals;
}

const preimageContext = (paymentHash: string) => `uma_invoices|${paymentHash}`;
const compressed = (uncompressed: Buffer) => Buffer.concat([Buffer.from([2 + (uncompressed[64] & 1)]), uncompressed.subarray(1, 33)]).toString('hex');

/** Where a sender reports a finished payment (the post-transaction callback), on the receiver's own domain. */
export const postTransactionUrl = (domain: string) => `https://${domain}/uma/post-transaction`;

/** What a settlement signs: the invoice, a nonce and the time (Unix seconds). */
export const settlementPayload = (invoice: string, nonce: string, timestamp: number) => `${invoice}|${nonce}|${timestamp}`;

export function createPayRequests(deps: PayRequestDeps) {
  const { db, clock, keys, receiving } = deps;

  /** A signed message's sender, checked: allowed, fresh, signed by its published key, nonce unseen. */
  async function verifySigned(environment: 'SANDBOX' | 'PRODUCTION', domain: string, payload: string, signature: unknown, nonce: string, timestamp: number) {
    checkCounterparty(deps.policy, environment, domain);
    verifyTimestamp(clock, timestamp);
    const check = await deps.counterparties
      .verifyWith(environment, domain, (k) => verifySignature(payload, signature, k.signingKey))
      .catch((e: Error) => {
        throw new UmaWireError('COUNTERPARTY_PUBKEY_FETCH_ERROR', `the public keys of ${domain} could not be read: ${e.message}`);
      });
    if (!check.ok) throw new UmaWireError('INVALID_SIGNATURE', `not signed by ${domain}'s signing key`);
    const verdict = await deps.nonces.accept(domain, nonce, timestamp);
    if (verdict !== 'ACCEPTED')
      throw new UmaWireError(verdict === 'REPLAYED' ? 'INVALID_NONCE' : 'INVALID_TIMESTAMP', `nonce refused: ${verdict.toLowerCase()}`);
  }

  /** The travel-rule information, opened with the current or a recently rotated encryption key. */
  async function travelRuleInfo(scope: Parameters<UmaKeys['decryptionKeys']>[0], encrypted: string | undefined): Promise<Record<string, string>> {
    if (!encrypted) return {};
    for (const key of await keys.decryptionKeys(scope)) {
      let text: string;
      try {
        text = Buffer.from(decrypt(key, Buffer.from(encrypted, 'hex'))).toString('utf8');
      } catch {
        continue;
      }
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        return { TRAVEL_RULE_INFO: text.slice(0, 4000) };
      }
      if (typeof parsed !== 'object' || parsed === null) return {};
      // Corridor senders write Corridor field names; UMA keys are read too.
      const out: Record<string, string> = { ...fromUmaData(parsed as Record<string, unknown>) };
      for (const [k, v] of Object.entries(parsed)) if (k in UMA_KEY_OF && typeof v === 'string') out[k] = v;
      return out;
    }
    throw new UmaWireError('INVALID_REQUEST_FORMAT', 'the travel-rule information does not open with this platform’s encryption key');
  }

  /** The settlement state of an invoice, as answered to its payer. */
  async function stateOf(row: UmaInvoicesTable) {
    const scope = { platformId: row.platform_id, environment: row.environment as 'SANDBOX' };
    const tx = row.transaction_id ? await transactionRepository.find(db.executor(), scope, row.transaction_id) : undefined;
    if (!tx) return { status: 'OPEN' };
    if (tx.status === 'COMPLETED') return { status: 'COMPLETED', preimage: deps.secrets.openText(row.preimage, preimageContext(row.payment_hash)) };
    if (tx.status === 'PENDING') return { status: 'PENDING' };
    return { status: tx.status, failureReason: tx.failure_reason ?? undefined };
  }

  return {
    /** POST /uma/payreq/{user}: a verified pay request answered with a signed response and an invoice. */
    async payRequest(host: string | undefined, user: string, body: string) {
      const hosted = await receiving.platformOf(host);
      const { scope, config } = hosted;
      const customer = await receiving.customerOf(hosted, `${user.startsWith('$') ? user : `$${user}`}@${hosted.domain}`);
      let request: PayRequest;
      try {
        request = PayRequest.fromJson(body);
      } catch (e) {
        throw new UmaWireError('INVALID_REQUEST_FORMAT', e instanceof UmaError ? e.message.slice(0, 300) : 'not a pay request');
      }
      if (!request.isUma())
        throw new UmaWireError('MISSING_REQUIRED_UMA_PARAMETERS', 'a UMA pay request carries compliance payer data and a receiving currency');
      const identifier = request.payerData.identifier;
      const compliance = request.payerData.compliance;
      if (typeof identifier !== 'string' || !/^\$?[^@\s]+@[a-z0-9.:-]+$/i.test(identifier) || !compliance)
        throw new UmaWireError('MISSING_REQUIRED_UMA_PARAMETERS', 'payerData.identifier and payerData.compliance are required');
      const senderDomain = identifier.slice(identifier.lastIndexOf('@') + 1).toLowerCase();
      await verifySigned(
        scope.environment,
        senderDomain,
        request.signablePayload(),
        compliance.signature,
        compliance.signatureNonce,
        compliance.signatureTimestamp,
      );
      if (scope.environment === 'PRODUCTION')
        throw new UmaWireError('PAYMENT_REJECTED', 'this Corridor has no Lightning backend for PRODUCTION: it cannot be paid over UMA by other providers yet');

      const code = request.receivingCurrencyCode;
      const terms = receivingCurrencies(customer, config).find((c) => c.code === code);
      const multiplier = terms ? await multiplierOf(deps.fx.rates(scope.environment), code) : null;
      if (!terms || !multiplier) throw new UmaWireError('INVALID_CURRENCY', `${customer.uma_address} does not receive ${code}`);
      let amount: bigint;
      let msats: bigint;
      if (request.sendingAmountCurrencyCode === code) {
        amount = BigInt(request.amount);
        msats = invoiceMsats(amount, multiplier, 0n);
      } else if (request.sendingAmountCurrencyCode === undefined) {
        msats = BigInt(request.amount);
        amount = (msats * multiplier.den) / multiplier.num;
      } else throw new UmaWireError('INVALID_CURRENCY', `an amount in ${request.sendingAmountCurrencyCode} cannot be received in ${code}`);
      if (amount <= 0n || (terms.minAmount !== null && amount < terms.minAmount) || (terms.maxAmount !== null && amount > terms.maxAmount))
        throw new UmaWireError('AMOUNT_OUT_OF_RANGE', `${amount} ${code} is outside ${terms.minAmount ?? 1}..${terms.maxAmount ?? 'any'}`);

      const required = requiredPayerDataFields(config);
      const given = fromUmaData(request.payerData as Record<string, unknown>);
      const missing = required.filter((f) => !given[f]);
      if (missing.length)
        throw new UmaWireError('MISSING_PAYER_DATA', `payerData lacks ${missing.map((f) => UMA_KEY_OF[f]).join(', ')}`, { missingFields: missing });
      const info = { ...given, ...(await travelRuleInfo(scope, compliance.encryptedTravelRuleInfo ?? undefined)) };

      // The payee data the sender must have, from the customer's stored facts.
      const facts = toUmaData(payerDataOf(customer));
      const wanted = Object.entries(request.requestedPayeeData ?? {}).filter(([k]) => !PROTOCOL_KEYS.has(k));
      const lacking = wanted.filter(([k, o]) => o.mandatory && facts[k] === undefined).map(([k]) => k);
      if (lacking.length) throw new UmaWireError('MISSING_PAYEE_DATA', `the receiver cannot give ${lacking.join(', ')}`, { missingFields: lacking });
      const payeeData: Record<string, string> = { identifier: customer.uma_address };
      for (const [k] of wanted) if (facts[k] !== undefined) payeeData[k] = facts[k];

      const set = await keys.current(scope, hosted.domain);
      const now = clock.now();
      const expiresAt = new Date(now.getTime() + INVOICE_TTL_MS);
      const info3 = currency(code);
      let made: MadeInvoice | undefined;
      const response = await getPayReqResponse({
        request,
        conversionRate: multiplierNumber(multiplier),
        receivingCurrencyCode: code,
        receivingCurrencyDecimals: info3.decimals,
        invoiceCreator: {
          async createUmaInvoice(amountMsats, metadata) {
            // The SDK computes the amount in floating point; the invoice is for the exact one.
            if (BigInt(amountMsats) !== msats) return undefined;
            made = deps.lightning.createInvoice({
              environment: scope.environment,
              nodePrivateKey: set.node.privateKey,
              amountMsats: msats,
              metadata,
              createdAt: now,
              expiresAt,
            });
            return made.bolt11;
          },
        },
        metadata: JSON.stringify([
          ['text/plain', `Pay ${customer.uma_address}`],
          ['text/identifier', customer.uma_address],
        ]),
        receiverChannelUtxos: [],
        receiverFeesMillisats: 0,
        receiverNodePubKey: compressed(set.node.publicKey),
        utxoCallback: postTransactionUrl(hosted.domain),
        payeeData,
        receivingVaspPrivateKey: set.signing.privateKey,
        payeeIdentifier: customer.uma_address,
      }).catch((e: Error) => {
        throw new UmaWireError('INTERNAL_ERROR', `the invoice could not be made: ${e.message}`);
      });
      if (!made) throw new UmaWireError('INTERNAL_ERROR', 'the invoice could not be made');
      await db.tx((trx) =>
        trx
          .insertInto('uma_invoices')
          .values({
            payment_hash: made!.paymentHash,
            platform_id: scope.platformId,
            environment: scope.environment,
            customer_id: customer.id,
            receiver_address: customer.uma_address,
            sender_address: identifier.toLowerCase(),
            sender_domain: senderDomain,
            currency: code,
            amount,
            amount_msats: msats,
            fee_msats: 0n,
            multiplier: `${multiplier.num}/${multiplier.den}`,
            counterparty_information: JSON.stringify(info),
            bolt11: made!.bolt11,
            preimage: deps.secrets.sealText(made!.preimage, preimageContext(made!.paymentHash)),
            status: 'OPEN',
            transaction_id: null,
            expires_at: expiresAt.toISOString(),
            created_at: now.toISOString(),
            settled_at: null,
          })
          .execute(),
      );
      return JSON.parse(response.toJsonString()) as Record<string, unknown>;
    },

    /**
     * POST /uma/post-transaction: a sender's post-transaction callback, verified like every signed
     * message (its nonce and timestamp are what the signature covers) and acknowledged. Lightning
     * payments here use no channel of Corridor's own, so the UTXOs it reports are not screened.
     */
    async postTransaction(host: string | undefined, body: string) {
      const hosted = await receiving.platformOf(host);
      let callback;
      try {
        callback = parsePostTransactionCallback(body);
      } catch (e) {
        throw new UmaWireError('INVALID_REQUEST_FORMAT', e instanceof UmaError ? e.message.slice(0, 300) : 'not a post-transaction callback');
      }
      const domain = callback.vaspDomain.toLowerCase();
      await verifySigned(
        hosted.scope.environment,
        domain,
        getSignablePostTransactionCallback(callback),
        callback.signature,
        callback.signatureNonce,
        callback.signatureTimestamp,
      );
      return {};
    },

    /** POST /uma/sandbox/settle: the sandbox Lightning; see the module comment. */
    async settle(host: string | undefined, body: unknown) {
      const hosted = await receiving.platformOf(host);
      const { scope } = hosted;
      if (scope.environment !== 'SANDBOX') throw new UmaWireError('USER_NOT_FOUND', 'the sandbox settlement serves sandbox domains only');
      const b = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
      const { invoice, vaspDomain, nonce, timestamp, signature } = b;
      if (typeof invoice !== 'string' || typeof vaspDomain !== 'string' || typeof nonce !== 'string' || typeof timestamp !== 'number')
        throw new UmaWireError('INVALID_REQUEST_FORMAT', 'invoice, vaspDomain, nonce, timestamp and signature are required');
      let hash: string;
      try {
        hash = readInvoice(invoice).paymentHash;
      } catch (e) {
        throw new UmaWireError('INVALID_INVOICE', (e as Error).message);
      }
      const find = () =>
        db
          .executor()
          .selectFrom('uma_invoices')
          .selectAll()
          .where('payment_hash', '=', hash)
          .where('platform_id', '=', scope.platformId)
          .where('environment', '=', scope.environment)
          .executeTakeFirst();
      const row = await find();
      if (!row || row.bolt11 !== invoice) throw new UmaWireError('INVALID_INVOICE', 'not an invoice of this domain');
      const domain = vaspDomain.toLowerCase();
      if (domain !== row.sender_domain) throw new UmaWireError('COUNTERPARTY_NOT_ALLOWED', 'only the VASP that asked for the invoice settles it');
      await verifySigned(scope.environment, domain, settlementPayload(invoice, nonce, timestamp), signature, nonce, timestamp);
      if (row.status === 'SETTLED') return stateOf(row);
      if (clock.now().toISOString() >= row.expires_at) throw new UmaWireError('INVOICE_EXPIRED', `the invoice expired at ${row.expires_at}`);

      await db.tx(async (trx) => {
        // OPEN → SETTLED once: a concurrent settlement changes nothing and reads the outcome.
        const moved = await trx
          .updateTable('uma_invoices')
          .set({ status: 'SETTLED', settled_at: clock.now().toISOString() })
          .where('payment_hash', '=', hash)
          .where('status', '=', 'OPEN')
          .executeTakeFirst();
        if (BigInt(moved.numUpdatedRows) !== 1n) return;
        const customer = await trx.selectFrom('customers').selectAll().where('id', '=', row.customer_id).executeTakeFirstOrThrow();
        const account = await incomingRepository.receivingAccount(trx, scope, customer.id, row.currency);
        if (!account) throw new UmaWireError('INVALID_CURRENCY', `${row.receiver_address} no longer receives ${row.currency}`);
        const amount = BigInt(row.amount);
        const arrived = await deps.arrivals().arrive(trx, {
          origin: 'REMOTE',
          receiver: { scope, customer, config: hosted.config, address: row.receiver_address, internalAccountId: account.id },
          currency: row.currency,
          receivedAmount: amount,
          counterpartyFee: 0n,
          // The sender's own currency and price are not on the wire: the payment is shown in what arrived.
          sender: {
            umaAddress: row.sender_address,
            info: JSON.parse(row.counterparty_information) as Record<CustomerInfoField, string>,
            currency: row.currency,
            sentAmount: amount,
            convertedAmount: amount,
            exchangeRate: '1',
          },
          description: null,
        });
        await trx.updateTable('uma_invoices').set({ transaction_id: arrived.id }).where('payment_hash', '=', hash).execute();
      });
      return stateOf((await find())!);
    },
  };
}

export type PayRequests = ReturnType<typeof createPayRequests>;
