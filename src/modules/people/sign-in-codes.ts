import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';

/**
 * The secrets of a sign-in (docs/portal.md "Signing in"; RELIABILITY R8.1): a six-digit code a
 * person types, and a link token (32 random bytes) for the same sign-in by one click. Only hashes
 * are stored. A code has 10⁶ values, so it is bound to its challenge (the hash covers the
 * challenge id) and guarded by the attempt limit, not by the hash.
 */
export const CODE_DIGITS = 6;

export function newCode(): string {
  return String(randomInt(0, 10 ** CODE_DIGITS)).padStart(CODE_DIGITS, '0');
}

export function newLinkToken(): string {
  return randomBytes(32).toString('base64url');
}

export function hashCode(challengeId: string, code: string): Buffer {
  return createHash('sha256').update(`${challengeId}:${code}`, 'utf8').digest();
}

export function hashLinkToken(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}

/** A link token has exactly the shape newLinkToken makes; anything else is refused before a lookup. */
export const LINK_TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** Compares a typed code with the stored hash in constant time (R8.1): no timing tells how much of it was right. */
export function codeMatches(challengeId: string, typed: string, stored: Buffer): boolean {
  const digits = typed.replace(/\s+/g, '');
  if (!/^\d{6}$/.test(digits)) return false;
  const candidate = hashCode(challengeId, digits);
  return candidate.length === stored.length && timingSafeEqual(candidate, stored);
}

/** Addresses are compared lower-cased and trimmed; the local part's case is not kept (nobody relies on it). */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** One plain address, nothing around it (the same rule the mailer holds to). */
export const PLAIN_EMAIL = /^[^\s@,;<>"()]{1,64}@[^\s@,;<>"().]+(\.[^\s@,;<>"().]+)+$/;
