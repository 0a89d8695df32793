/**
 * The sending side: lookups of addresses this Corridor does not host. A lookup is the signed
 * LNURLP request of the sending platform (its UMA domain as vaspDomain, signed with its signing
 * key) to the receiver's domain; the answer is accepted only when its compliance section names the
 * address asked for, is signed by the receiver's published signing key, carries a fresh timestamp
 * and a nonce never seen from that domain, and sends pay requests to the receiver's own domain.
 * What it offers is kept with the lookup (uma_remote_lookups), so the quote's pay request is made
 * from the verified answer only.
 */
import {
  getMajorVersion,
  getSignedLnurlpRequestUrl,
  isVersionSupported,
  LnurlpResponse,
  selectHighestSupportedVersion,
  UmaError,
  UmaProtocolVersion,
} from '@uma-sdk/core';
import type { Clock } from '../../common/clock.js';
import { isSupportedCurrency } from '../../common/currencies.js';
import type { Environment, Scope } from '../../common/scope.js';
import type { Database, Executor } from '../../db/database.js';
import { readConfig } from '../platforms/config-cache.js';
import type { CustomerInfoField } from '../config/incoming.js';
import { receiverErrors } from '../receiver/errors.js';
import { domainOf, type UmaReceiver } from '../receiver/resolver.js';
import { fieldOfUmaKey } from './counterparty-data.js';
import type { CounterpartyKeyCache } from './counterparty-keys.js';
import type { UmaKeys } from './keys.js';
import { parseMultiplier } from './multipliers.js';
import type { NonceStore } from './nonces.js';
import { counterpartyAllowed, type CounterpartyPolicy } from './policy.js';
import { verifySignature } from './signatures.js';
import type { RemoteCurrency, UmaRemoteLookupsTable } from './tables.js';
import { WireError, type WireClient } from './wire-client.js';
import { TIMESTAMP_WINDOW_MS } from './nonces.js';

/** Payer data every UMA sender gives by the protocol itself, not from senderCustomerInfo. */
const PROTOCOL_PAYER_DATA = new Set(['identifier', 'compliance']);

export interface SendingDeps {
  db: Database;
  clock: Clock;
  wire: WireClient;
  keys: UmaKeys;
  nonces: NonceStore;
  counterparties: CounterpartyKeyCache;
  policy: CounterpartyPolicy;
}

export interface RemoteTerms {
  domain: string;
  callback: string;
  umaVersion: string;
  currencies: RemoteCurrency[];
  payerData: Record<string, { mandatory: boolean }>;
  requiredPayerDataFields: CustomerInfoField[];
  response: string;
}

class LookupRefused extends Error {}

/** The sending platform's UMA domain and keys: its identity towards receivers. */
export async function senderIdentity(deps: Pick<SendingDeps, 'db' | 'keys'>, scope: Scope) {
  const config = await readConfig(deps.db, scope);
  return { domain: config.uma_domain, keys: await deps.keys.current(scope, config.uma_domain) };
}

export function createSending(deps: SendingDeps) {
  const { clock, wire } = deps;

  function refused(address: string, reason: string) {
    return receiverErrors.LOOKUP_REQUEST_FAILED({ umaAddress: address, domain: domainOf(address), reason });
  }

  /** One signed LNURLP request in `version`; the raw answer. */
  async function ask(environment: Environment, address: string, sender: { domain: string; signingKey: Buffer }, version: string) {
    const url = await getSignedLnurlpRequestUrl({
      isSubjectToTravelRule: true,
      receiverAddress: address,
      senderVaspDomain: sender.domain,
      signingPrivateKey: sender.signingKey,
      umaVersionOverride: version,
    });
    // The SDK builds http:// for a few local names; the wire client decides the scheme from the domain map.
    url.protocol = 'https:';
    return wire.request({ environment, method: 'GET', url: url.toString() });
  }

  /** Reads, checks and verifies an LNURLP answer; throws LookupRefused saying why not. */
  async function verified(environment: Environment, address: string, body: string): Promise<RemoteTerms> {
    const domain = domainOf(address);
    let response: LnurlpResponse;
    try {
      response = LnurlpResponse.fromJson(body);
    } catch (e) {
      throw new LookupRefused(`the answer is not an LNURLP response (${(e as Error).message.slice(0, 200)})`);
    }
    if (!response.isUma()) throw new LookupRefused('the answer is not a UMA answer (no compliance section, version, currencies or payer data)');
    const c = response.compliance;
    if (c.receiverIdentifier.toLowerCase() !== address) throw new LookupRefused(`the answer is about ${c.receiverIdentifier}, not ${address}`);
    if (!isVersionSupported(response.umaVersion)) throw new LookupRefused(`the answer speaks UMA ${response.umaVersion}`);
    const age = clock.now().getTime() - c.signatureTimestamp * 1000;
    if (!(Math.abs(age) <= TIMESTAMP_WINDOW_MS)) throw new LookupRefused('the answer was not signed now');
    const payload = response.signablePayload();
    let check;
    try {
      check = await deps.counterparties.verifyWith(environment, domain, (k) => verifySignature(payload, c.signature, k.signingKey));
    } catch (e) {
      throw new LookupRefused(`the public keys of ${domain} could not be read: ${(e as Error).message}`);
    }
    if (!check.ok) throw new LookupRefused(`the answer is not signed by ${domain}'s signing key`);
    const verdict = await deps.nonces.accept(domain, c.signatureNonce, c.signatureTimestamp);
    if (verdict !== 'ACCEPTED') throw new LookupRefused(`the answer's nonce was refused (${verdict.toLowerCase()})`);
    let callback: URL;
    try {
      callback = new URL(response.callback);
    } catch {
      throw new LookupRefused('the callback is not a URL');
    }
    // Pay requests carry the payer's data: they go to the receiver's own domain, nowhere else.
    if (callback.host.toLowerCase() !== domain || callback.username || callback.password)
      throw new LookupRefused(`the callback ${response.callback} is not on ${domain}`);
    if (callback.protocol !== 'https:') throw new LookupRefused('the callback is not https');
    const currencies: RemoteCurrency[] = [];
    for (const cur of response.currencies) {
      const m = parseMultiplier(cur.multiplier);
      // Currencies Corridor does not hold, or without a usable price, cannot be paid: left out.
      if (!m || !isSupportedCurrency(cur.code) || !Number.isSafeInteger(cur.minSendable) || !Number.isSafeInteger(cur.maxSendable)) continue;
      currencies.push({ code: cur.code, multiplier: String(cur.multiplier), decimals: cur.decimals, min: cur.minSendable, max: cur.maxSendable });
    }
    const required: CustomerInfoField[] = [];
    for (const [key, option] of Object.entries(response.payerData)) {
      if (!option.mandatory || PROTOCOL_PAYER_DATA.has(key)) continue;
      const field = fieldOfUmaKey(key);
      if (!field) throw new LookupRefused(`the receiver requires payer data Corridor cannot give: ${key}`);
      required.push(field);
    }
    return {
      domain,
      callback: callback.toString(),
      umaVersion: response.umaVersion,
      currencies,
      payerData: response.payerData,
      requiredPayerDataFields: required,
      response: body,
    };
  }

  return {
    /**
     * Looks up `address` at its own provider for the platform `scope`. Answers the receiver as the
     * lookup service stores it, with `persist` storing the verified terms next to the lookup.
     */
    async lookup(scope: Scope, address: string): Promise<UmaReceiver> {
      const domain = domainOf(address);
      if (scope.environment === 'PRODUCTION')
        throw refused(address, 'paying other UMA providers in PRODUCTION needs a Lightning backend, and none is configured');
      if (!counterpartyAllowed(deps.policy, scope.environment, domain)) throw refused(address, `${domain} is not an allowed counterparty`);
      const me = await senderIdentity(deps, scope);
      const sender = { domain: me.domain, signingKey: me.keys.signing.privateKey };
      let terms: RemoteTerms;
      try {
        let res = await ask(scope.environment, address, sender, UmaProtocolVersion);
        if (res.status === 412) {
          // Version negotiation: ask again in the highest version both sides speak.
          const offered = (JSON.parse(res.body) as { supportedMajorVersions?: unknown }).supportedMajorVersions;
          if (!Array.isArray(offered) || !offered.every((v) => Number.isInteger(v))) throw new LookupRefused('UMA version refused, with no versions offered');
          const version = selectHighestSupportedVersion(offered as number[]);
          if (getMajorVersion(version) === getMajorVersion(UmaProtocolVersion)) throw new LookupRefused('UMA version refused');
          res = await ask(scope.environment, address, sender, version);
        }
        if (res.status === 404) throw receiverErrors.UMA_ADDRESS_NOT_FOUND({ umaAddress: address });
        if (res.status !== 200) throw new LookupRefused(`${domain} answered ${res.status}: ${res.body.slice(0, 300)}`);
        terms = await verified(scope.environment, address, res.body);
      } catch (e) {
        if (e instanceof LookupRefused || e instanceof WireError || e instanceof SyntaxError || e instanceof UmaError) throw refused(address, e.message);
        throw e;
      }
      return {
        address,
        currencies: terms.currencies.map((c) => ({ code: c.code, minAmount: BigInt(c.min), maxAmount: BigInt(c.max) })),
        requiredPayerDataFields: terms.requiredPayerDataFields,
        persist: (trx: Executor, lookupId: string) => storeTerms(trx, scope, lookupId, terms, clock.now().toISOString()),
      };
    },

    /** The verified terms of a remote lookup of this scope, if it is one. */
    async terms(ex: Executor, scope: Scope, lookupId: string): Promise<UmaRemoteLookupsTable | undefined> {
      return ex
        .selectFrom('uma_remote_lookups')
        .selectAll()
        .where('lookup_id', '=', lookupId)
        .where('platform_id', '=', scope.platformId)
        .where('environment', '=', scope.environment)
        .executeTakeFirst();
    },
  };
}

function storeTerms(trx: Executor, scope: Scope, lookupId: string, t: RemoteTerms, now: string) {
  return trx
    .insertInto('uma_remote_lookups')
    .values({
      lookup_id: lookupId,
      platform_id: scope.platformId,
      environment: scope.environment,
      domain: t.domain,
      callback: t.callback,
      uma_version: t.umaVersion,
      currencies: JSON.stringify(t.currencies),
      payer_data: JSON.stringify(t.payerData),
      response: t.response,
      created_at: now,
    })
    .execute();
}

export type Sending = ReturnType<typeof createSending>;
