import { createHmac, createPrivateKey, type JsonWebKey } from 'node:crypto';

// PKCS #8 DER of an Ed25519 private key is this fixed header followed by the 32-byte seed (RFC 8410).
const ED25519_PKCS8_HEADER = Buffer.from('302e020100300506032b657004220420', 'hex');

/**
 * The authorization server's keys, from configuration (issue 11: never generated per process in
 * production): an Ed25519 signing key and the cookie keys are derived from SESSION_SECRET, which
 * production requires and every process shares, each under its own label so one never doubles as
 * another. Access tokens are opaque (stored, revocable at once), so the signing key only signs what
 * oidc-provider signs itself; rotating SESSION_SECRET rotates these too (docs/agents.md).
 */
export function oauthKeys(secret: string): { jwks: { keys: JsonWebKey[] }; cookieKeys: string[] } {
  const derive = (label: string) => createHmac('sha256', secret).update(`headcount oauth ${label}`).digest();
  const seed = derive('signing key ed25519');
  const signing = createPrivateKey({ key: Buffer.concat([ED25519_PKCS8_HEADER, seed]), format: 'der', type: 'pkcs8' });
  const jwk = signing.export({ format: 'jwk' });
  const kid = derive('signing key id').toString('base64url').slice(0, 16);
  return { jwks: { keys: [{ ...jwk, kid, alg: 'EdDSA', use: 'sig' }] }, cookieKeys: [derive('cookie key').toString('base64url')] };
}
