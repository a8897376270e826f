import type { FastifyRequest } from 'fastify';

/**
 * The caller's country as the CDN in front says it (Cloudflare's `CF-IPCountry`), believed only
 * when the request came through a trusted proxy (TRUSTED_PROXIES: Fastify then fills
 * `request.ips` with the chain); a client talking to the service directly could send any value.
 * Null when unknown, or when Cloudflare says XX (unknown) or T1 (Tor).
 */
export function clientCountry(request: FastifyRequest): string | null {
  if (!request.ips || request.ips.length < 2) return null;
  const value = request.headers['cf-ipcountry'];
  return typeof value === 'string' && /^[A-Z]{2}$/.test(value) && value !== 'XX' && value !== 'T1' ? value : null;
}
