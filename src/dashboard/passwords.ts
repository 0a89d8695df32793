import { randomBytes } from 'node:crypto';
import { hash, verify, type Options } from '@node-rs/argon2';

/** argon2id with the library's defaults (19 MiB, 2 passes, OWASP's minimum): ~70-100 ms a hash. */
// Algorithm.Argon2id is 2 (a const enum, which isolatedModules cannot read from the typings).
const OPTIONS: Options = { algorithm: 2 as Options['algorithm'] };

export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 256;

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

let dummy: Promise<string> | undefined;

/**
 * Whether password matches the stored hash. Without a hash (unknown email) a dummy hash is
 * checked instead, so both answers take the same time.
 */
export async function verifyPassword(storedHash: string | undefined, password: string): Promise<boolean> {
  const target = storedHash ?? (await (dummy ??= hashPassword(randomBytes(16).toString('hex'))));
  try {
    return (await verify(target, password)) && storedHash !== undefined;
  } catch {
    return false;
  }
}

/** A password for a new user when none is given: 144 random bits, URL-safe. */
export function generatePassword(): string {
  return randomBytes(18).toString('base64url');
}
