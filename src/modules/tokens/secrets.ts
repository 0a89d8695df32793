import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Environment } from '../../common/scope.js';

/**
 * Client ids say which environment they belong to (like sk_test/sk_live) so a leaked one is easy
 * to recognise. Secrets carry 256 random bits, so a fast hash (SHA-256) is as safe to store as a
 * slow one and keeps authentication cheap.
 */
export function newClientId(environment: Environment): string {
  return `${environment === 'SANDBOX' ? 'corr_test_' : 'corr_live_'}${randomBytes(12).toString('hex')}`;
}

export function newClientSecret(): string {
  return `cs_${randomBytes(32).toString('base64url')}`;
}

export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** Constant-time comparison of a presented secret with a stored hash. */
export function secretMatches(secret: string, storedHashHex: string): boolean {
  const a = createHash('sha256').update(secret, 'utf8').digest();
  const b = Buffer.from(storedHashHex, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}
