/**
 * Proof that a platform controls a UMA domain it asks for in PRODUCTION. UMA addresses route
 * payments, so a domain must not be first come, first served: until it is proven (or approved by
 * the operator) the request stays a pending claim and the platform keeps its current domain.
 *
 * Two proofs, either is enough:
 * - HTTPS: `https://<domain>/.well-known/corridor-uma-domain.txt` answers 2xx with the token;
 * - DNS: a TXT record at `_corridor-uma-domain.<domain>` holds `corridor-uma-domain=<token>`.
 */
import { randomBytes } from 'node:crypto';
import { resolveTxt as systemResolveTxt } from 'node:dns/promises';
import type { Scope } from '../../common/scope.js';
import type { Executor } from '../../db/database.js';
import https from 'node:https';
import { pinnedLookup } from '../../events/http-delivery.js';
import { checkWebhookUrl } from '../../events/url-guard.js';

export const WELL_KNOWN_PATH = '/.well-known/corridor-uma-domain.txt';
export const DNS_TXT_PREFIX = '_corridor-uma-domain.';
export const DNS_TXT_VALUE_PREFIX = 'corridor-uma-domain=';
const FETCH_TIMEOUT_MS = 5_000;
const MAX_PROOF_BYTES = 1_024;

export interface DomainClaim {
  domain: string;
  token: string;
  requestedAt: string;
}

/** Network access of the proof, injected in tests (which never reach the network). */
export interface DomainProofNetwork {
  /** GET a URL; the status and at most the first KiB of the body. */
  fetchText(url: string): Promise<{ status: number; body: string }>;
  /** TXT records of a name, as node:dns returns them (each record in chunks). */
  resolveTxt(name: string): Promise<string[][]>;
}

export function newClaimToken(): string {
  return randomBytes(24).toString('base64url');
}

/** How to prove a claim, as the API shows it. */
export function claimView(claim: DomainClaim) {
  const host = claim.domain.replace(/:\d+$/, '');
  return {
    domain: claim.domain,
    status: 'PENDING' as const,
    token: claim.token,
    requestedAt: claim.requestedAt,
    wellKnownUrl: `https://${claim.domain}${WELL_KNOWN_PATH}`,
    dnsTxtName: `${DNS_TXT_PREFIX}${host}`,
    dnsTxtValue: `${DNS_TXT_VALUE_PREFIX}${claim.token}`,
  };
}

// Pending claims live in system_settings (one row per platform and environment), so no new table.
const claimKey = (scope: Scope) => `uma_domain_claim|${scope.platformId}|${scope.environment}`;

export const claims = {
  async get(ex: Executor, scope: Scope): Promise<DomainClaim | undefined> {
    const row = await ex.selectFrom('system_settings').select('value').where('key', '=', claimKey(scope)).executeTakeFirst();
    return row ? (JSON.parse(row.value) as DomainClaim) : undefined;
  },
  async put(ex: Executor, scope: Scope, claim: DomainClaim): Promise<void> {
    await ex.deleteFrom('system_settings').where('key', '=', claimKey(scope)).execute();
    await ex
      .insertInto('system_settings')
      .values({ key: claimKey(scope), value: JSON.stringify(claim) })
      .execute();
  },
  async remove(ex: Executor, scope: Scope): Promise<void> {
    await ex.deleteFrom('system_settings').where('key', '=', claimKey(scope)).execute();
  },
};

/** Whether a domain is in the operator's own namespace (UMA_BASE_DOMAIN or below it). */
export function underBaseDomain(domain: string, baseDomain: string): boolean {
  const host = domain.replace(/:\d+$/, '').toLowerCase();
  const base = baseDomain.toLowerCase();
  return host === base || host.endsWith(`.${base}`);
}

/**
 * The system network. The proof URL is the platform's choice, so the GET goes through the webhook
 * guard (public addresses only, in every environment) and connects to the address the guard
 * checked (no second DNS answer), follows no redirect, reads at most 1 KiB within 5 s.
 */
export const systemProofNetwork: DomainProofNetwork = {
  async fetchText(url) {
    const check = await checkWebhookUrl(url, { environment: 'PRODUCTION', allowPrivate: false });
    if (!check.ok) throw new Error(check.reason);
    return new Promise((resolve, reject) => {
      const req = https.get(
        check.url,
        {
          agent: false,
          lookup: pinnedLookup(check.addresses),
          signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
          headers: { 'user-agent': 'Corridor-UMA-domain-check/1' },
        },
        (res) => {
          const chunks: Buffer[] = [];
          let received = 0;
          const done = () => {
            req.destroy();
            resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).subarray(0, MAX_PROOF_BYTES).toString('utf8') });
          };
          res.on('data', (chunk: Buffer) => {
            chunks.push(chunk);
            received += chunk.length;
            if (received >= MAX_PROOF_BYTES) done();
          });
          res.on('end', done);
          res.on('error', (e) => reject(e));
        },
      );
      req.on('error', (e) => reject(new Error((e as NodeJS.ErrnoException).code ?? 'request failed')));
    });
  },
  resolveTxt: (name) => systemResolveTxt(name),
};

/**
 * Tries both proofs. Returns the method that proved the claim, or what each attempt found
 * (for the platform to fix its setup). Never throws.
 */
export async function proveClaim(
  net: DomainProofNetwork,
  claim: DomainClaim,
): Promise<{ proven: true; method: 'HTTPS' | 'DNS' } | { proven: false; tried: string[] }> {
  const how = claimView(claim);
  const tried: string[] = [];
  try {
    const res = await net.fetchText(how.wellKnownUrl);
    if (res.status >= 200 && res.status < 300 && res.body.trim() === claim.token) return { proven: true, method: 'HTTPS' };
    tried.push(`${how.wellKnownUrl}: ${res.status >= 200 && res.status < 300 ? 'the answer is not the token' : `HTTP ${res.status}`}`);
  } catch (e) {
    tried.push(`${how.wellKnownUrl}: ${(e as Error).message}`);
  }
  try {
    const records = (await net.resolveTxt(how.dnsTxtName)).map((chunks) => chunks.join(''));
    if (records.includes(how.dnsTxtValue)) return { proven: true, method: 'DNS' };
    tried.push(`TXT ${how.dnsTxtName}: no record "${how.dnsTxtValue}"`);
  } catch (e) {
    tried.push(`TXT ${how.dnsTxtName}: ${(e as Error & { code?: string }).code ?? (e as Error).message}`);
  }
  return { proven: false, tried };
}
