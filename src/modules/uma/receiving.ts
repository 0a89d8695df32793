/**
 * The receiving side's discovery endpoints, for the platform that owns the request's Host:
 * `/.well-known/lnurlpubkey` (its signing and encryption certificates), `/.well-known/uma-configuration`
 * and `/.well-known/lnurlp/{user}`. An LNURLP request is answered only when it is a signed UMA
 * request whose signature verifies against the sender's published keys, whose timestamp is within
 * the window and whose nonce was never seen from that domain; the answer carries the customer's
 * receiving currencies (multipliers, limits), the payer data the platform requires and a signed
 * compliance section.
 */
import {
  Currency,
  getLnurlpResponse,
  getSignableLnurlpRequestPayload,
  isLnurlpRequestForUma,
  KycStatus,
  parseLnurlpRequest,
  UnsupportedVersionError,
  UmaError,
} from '@uma-sdk/core';
import type { Clock } from '../../common/clock.js';
import { currency } from '../../common/currencies.js';
import { divCeil } from '../../common/money.js';
import type { Database } from '../../db/database.js';
import type { CustomersTable } from '../../db/schema.js';
import { requiredPayerDataFields } from '../config/incoming.js';
import type { Fx } from '../quotes/pricing.js';
import { receivingCurrencies } from '../receiver/resolver.js';
import { dataOptions } from './counterparty-data.js';
import type { CounterpartyKeyCache } from './counterparty-keys.js';
import { hostedPlatform, type HostedPlatform } from './hosting.js';
import { PUBLISHED_KEYS_TTL_MS, type UmaKeys } from './keys.js';
import { invoiceMsats, multiplierNumber, multiplierOf } from './multipliers.js';
import type { NonceStore } from './nonces.js';
import { verifySignature } from './signatures.js';
import { UmaWireError } from './wire-errors.js';
import { checkCounterparty, verifyTimestamp, type CounterpartyPolicy } from './policy.js';

/** The largest amount offered when the platform sets no maximum (the API's largest amount). */
const NO_MAXIMUM = 9_000_000_000_000_000n;

export interface ReceivingDeps {
  db: Database;
  clock: Clock;
  fx: Fx;
  keys: UmaKeys;
  nonces: NonceStore;
  counterparties: CounterpartyKeyCache;
  policy: CounterpartyPolicy;
}

/** Where the pay request for `user` goes: on the platform's own domain. */
export const payRequestUrl = (domain: string, user: string) => `https://${domain}/uma/payreq/${encodeURIComponent(user)}`;

const KYC: Record<string, KycStatus> = {
  APPROVED: KycStatus.Verified,
  PENDING: KycStatus.Pending,
  UNVERIFIED: KycStatus.NotVerified,
  REJECTED: KycStatus.NotVerified,
};

export function createReceiving(deps: ReceivingDeps) {
  const { db, clock, keys } = deps;

  async function platformOf(host: string | undefined): Promise<HostedPlatform> {
    const hosted = await hostedPlatform(db.executor(), host);
    if (!hosted) throw new UmaWireError('USER_NOT_FOUND', `no UMA domain ${host ?? ''} here`);
    return hosted;
  }

  async function customerOf(hosted: HostedPlatform, address: string): Promise<CustomersTable> {
    const customer = await db
      .executor()
      .selectFrom('customers')
      .selectAll()
      .where('platform_id', '=', hosted.scope.platformId)
      .where('environment', '=', hosted.scope.environment)
      .where('uma_address', '=', address.toLowerCase())
      .where('is_deleted', '=', 0)
      .executeTakeFirst();
    if (!customer) throw new UmaWireError('USER_NOT_FOUND', `${address} does not exist`);
    return customer;
  }

  /** The customer's receiving currencies as UMA currencies, each with its multiplier and limits. */
  async function currencyOptions(hosted: HostedPlatform, customer: CustomersTable) {
    const rates = deps.fx.rates(hosted.scope.environment);
    const out: { currency: Currency; minMsats: bigint; maxMsats: bigint }[] = [];
    for (const c of receivingCurrencies(customer, hosted.config)) {
      const m = await multiplierOf(rates, c.code);
      if (!m) continue; // no rate now: cannot be priced, so not offered
      const info = currency(c.code);
      const min = c.minAmount ?? 1n;
      const max = c.maxAmount ?? NO_MAXIMUM;
      out.push({
        currency: new Currency(info.code, info.name, info.symbol, multiplierNumber(m), Number(min), Number(max), info.decimals),
        minMsats: invoiceMsats(min, m, 0n),
        maxMsats: invoiceMsats(max, m, 0n),
      });
    }
    return out;
  }

  return {
    platformOf,
    customerOf,

    /** `/.well-known/lnurlpubkey`: the certificate chains (hex DER, leaf first) and keys, with their expiry in seconds. */
    async publishedKeys(host: string | undefined) {
      const hosted = await platformOf(host);
      const set = await keys.current(hosted.scope, hosted.domain);
      const chain = (pem: string | null) => [Buffer.from(pem!.replace(/-----[^-]+-----|\s/g, ''), 'base64').toString('hex')];
      // The SDK's own serialiser writes the signing chain under both names; this one is written out.
      return {
        signingCertChain: chain(set.signing.certificatePem),
        encryptionCertChain: chain(set.encryption.certificatePem),
        signingPubKey: set.signing.publicKey.toString('hex'),
        encryptionPubKey: set.encryption.publicKey.toString('hex'),
        expirationTimestamp: Math.floor((clock.now().getTime() + PUBLISHED_KEYS_TTL_MS) / 1000),
      };
    },

    /** `/.well-known/uma-configuration`: the versions spoken. */
    async configuration(host: string | undefined) {
      await platformOf(host);
      return { uma_major_versions: [1, 0] };
    },

    /** `/.well-known/lnurlp/{user}`: a verified, signed LNURLP answer; throws UmaWireError otherwise. */
    async lnurlp(host: string | undefined, pathAndQuery: string) {
      const hosted = await platformOf(host);
      let request;
      try {
        // The user part may arrive percent-encoded (%24 for $); the SDK's parser reads it as written.
        const url = new URL(pathAndQuery, `https://${hosted.domain}`);
        url.pathname = decodeURIComponent(url.pathname);
        request = parseLnurlpRequest(url);
      } catch (e) {
        if (e instanceof UnsupportedVersionError)
          throw new UmaWireError('UNSUPPORTED_UMA_VERSION', e.message, {
            supportedMajorVersions: e.supportedMajorVersions,
            unsupportedVersion: e.unsupportedVersion,
          });
        if (e instanceof UmaError) throw new UmaWireError('INVALID_REQUEST_FORMAT', e.message);
        throw e;
      }
      // A regulated receiver answers only identified senders: a plain LNURL request carries no sender.
      if (!isLnurlpRequestForUma(request))
        throw new UmaWireError('MISSING_REQUIRED_UMA_PARAMETERS', 'a signed UMA request (signature, vaspDomain, nonce, timestamp, umaVersion) is required');
      const senderDomain = request.vaspDomain.toLowerCase();
      checkCounterparty(deps.policy, hosted.scope.environment, senderDomain);
      const signedAt = Math.floor(request.timestamp.getTime() / 1000);
      verifyTimestamp(clock, signedAt);
      const payload = getSignableLnurlpRequestPayload(request);
      const verified = await deps.counterparties
        .verifyWith(hosted.scope.environment, senderDomain, (k) => verifySignature(payload, request.signature, k.signingKey))
        .catch((e: Error) => {
          throw new UmaWireError('COUNTERPARTY_PUBKEY_FETCH_ERROR', `the public keys of ${senderDomain} could not be read: ${e.message}`);
        });
      if (!verified.ok) throw new UmaWireError('INVALID_SIGNATURE', `the request is not signed by ${senderDomain}'s signing key`);
      const verdict = await deps.nonces.accept(senderDomain, request.nonce, signedAt);
      if (verdict !== 'ACCEPTED')
        throw new UmaWireError(verdict === 'REPLAYED' ? 'INVALID_NONCE' : 'INVALID_TIMESTAMP', `nonce refused: ${verdict.toLowerCase().replace(/_/g, ' ')}`);

      const customer = await customerOf(hosted, request.receiverAddress.startsWith('$') ? request.receiverAddress : `$${request.receiverAddress}`);
      const options = await currencyOptions(hosted, customer);
      const set = await keys.current(hosted.scope, hosted.domain);
      const user = request.receiverAddress.slice(0, request.receiverAddress.lastIndexOf('@'));
      const minMsats = options.length ? options.reduce((a, o) => (o.minMsats < a ? o.minMsats : a), options[0].minMsats) : 1000n;
      const maxMsats = options.length ? options.reduce((a, o) => (o.maxMsats > a ? o.maxMsats : a), options[0].maxMsats) : 1000n;
      const response = await getLnurlpResponse({
        request,
        privateKeyBytes: set.signing.privateKey,
        requiresTravelRuleInfo: true,
        callback: payRequestUrl(hosted.domain, user),
        encodedMetadata: JSON.stringify([
          ['text/plain', `Pay ${customer.uma_address}`],
          ['text/identifier', customer.uma_address],
        ]),
        minSendableSats: Number(divCeil(minMsats, 1000n)),
        maxSendableSats: Number(maxMsats / 1000n),
        payerDataOptions: { identifier: { mandatory: true }, compliance: { mandatory: true }, ...dataOptions(requiredPayerDataFields(hosted.config)) },
        currencyOptions: options.map((o) => o.currency),
        receiverKycStatus: KYC[customer.kyc_status] ?? KycStatus.Unknown,
      });
      return JSON.parse(response.toJsonString()) as Record<string, unknown>;
    },
  };
}

export type Receiving = ReturnType<typeof createReceiving>;
