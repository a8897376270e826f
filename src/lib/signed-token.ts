import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';

/**
 * A payload carried in a URL and signed, so the server keeps no row for it and nobody can make or
 * change one (export links, docs/exports.md "Export links"): `base64url(JSON).base64url(HMAC)`.
 * The HMAC-SHA256 key is derived from a secret every process shares (SESSION_SECRET) and a
 * `purpose`, so a token made for one purpose is never accepted for another. Node's crypto has
 * everything this needs; a JWT library would add algorithm negotiation we do not want.
 */
export interface TokenSigner<T> {
  sign(payload: T): string;
  /** The payload, or null for anything not made by `sign` with this secret and purpose. */
  verify(token: string): T | null;
}

/** 32 bytes of HMAC-SHA256, base64url. */
const SIGNATURE_CHARS = 43;
/** Longer than any payload this project signs: refused before any work. */
const MAX_TOKEN_CHARS = 1024;

export function tokenSigner<T>(secret: string, purpose: string): TokenSigner<T> {
  const key = Buffer.from(hkdfSync('sha256', secret, 'headcount', `signed token: ${purpose}`, 32));
  const mac = (body: string) => createHmac('sha256', key).update(body).digest();
  return {
    sign(payload) {
      const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
      return `${body}.${mac(body).toString('base64url')}`;
    },
    verify(token) {
      if (token.length > MAX_TOKEN_CHARS) return null;
      const dot = token.indexOf('.');
      if (dot <= 0 || token.length - dot - 1 !== SIGNATURE_CHARS) return null;
      const body = token.slice(0, dot);
      const given = Buffer.from(token.slice(dot + 1), 'base64url');
      if (given.length !== 32 || !timingSafeEqual(given, mac(body))) return null;
      try {
        return JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as T;
      } catch {
        return null;
      }
    },
  };
}
