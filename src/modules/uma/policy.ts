/**
 * Who may talk to this Corridor over UMA, and when a signed message is fresh. In PRODUCTION the
 * operator may name the only counterparty domains it deals with (UMA_COUNTERPARTY_ALLOWLIST); the
 * sandbox deals with anyone. A message signed outside TIMESTAMP_WINDOW_MS of now is refused
 * before its keys are fetched.
 */
import type { Clock } from '../../common/clock.js';
import type { Environment } from '../../common/scope.js';
import { TIMESTAMP_WINDOW_MS } from './nonces.js';
import { UmaWireError } from './wire-errors.js';

export interface CounterpartyPolicy {
  /** lower-cased domains; undefined: anyone */
  productionAllowlist?: readonly string[];
}

export function counterpartyAllowed(policy: CounterpartyPolicy, environment: Environment, domain: string): boolean {
  if (environment !== 'PRODUCTION' || !policy.productionAllowlist) return true;
  return policy.productionAllowlist.includes(domain.toLowerCase());
}

export function checkCounterparty(policy: CounterpartyPolicy, environment: Environment, domain: string) {
  if (!counterpartyAllowed(policy, environment, domain)) throw new UmaWireError('COUNTERPARTY_NOT_ALLOWED', `${domain} is not an allowed counterparty`);
}

export function verifyTimestamp(clock: Clock, signedAtSeconds: number) {
  const age = clock.now().getTime() - signedAtSeconds * 1000;
  if (!Number.isFinite(age) || Math.abs(age) > TIMESTAMP_WINDOW_MS)
    throw new UmaWireError('INVALID_TIMESTAMP', `signed at ${signedAtSeconds}, more than ${TIMESTAMP_WINDOW_MS / 1000} s from now`);
}
