import { isIP } from 'node:net';
import proxyAddr from '@fastify/proxy-addr';

/**
 * TRUSTED_PROXIES (RELIABILITY R8.3): which hops in front of the service may say who the client
 * is with X-Forwarded-For. The value becomes Fastify's `trustProxy`, which reads the header with
 * @fastify/proxy-addr: the client address is the nearest address in the chain that is not trusted.
 *
 * - unset, blank or `0`: nobody is trusted; the header is ignored and the client is the socket's
 *   peer, in every NODE_ENV. A client-set header can then change no limit and no human check.
 * - a hop count (`1`, `2`…): that many hops nearest the service are proxies, whoever they are
 *   (for a load balancer whose addresses are not known in advance).
 * - a comma-separated list of addresses and ranges (`10.0.0.0/8,127.0.0.1`, `fd00::/8`, or
 *   proxy-addr's names `loopback`, `linklocal`, `uniquelocal`): only peers in it are believed.
 *
 * "Trust everyone" (`true`, `*`) is refused: it is exactly the hole this setting closes.
 */
export type TrustedProxies = false | number | readonly string[];

export const PROXY_NAMES = ['loopback', 'linklocal', 'uniquelocal'] as const;
const MAX_HOPS = 10;

export function parseTrustedProxies(raw: string | undefined): { value: TrustedProxies; problem?: string } {
  const text = raw?.trim() ?? '';
  if (text === '' || text === '0') return { value: false };
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    if (hops > MAX_HOPS) return { value: false, problem: `TRUSTED_PROXIES as a hop count must be from 0 to ${MAX_HOPS} (got "${text}")` };
    return { value: hops };
  }
  const entries = text.split(',').map((entry) => entry.trim());
  const bad = entries.filter((entry) => !validEntry(entry));
  if (bad.length > 0) {
    return {
      value: false,
      problem: `TRUSTED_PROXIES must be a hop count or a comma-separated list of IP addresses and CIDR ranges (e.g. 10.0.0.0/8,127.0.0.1) or ${PROXY_NAMES.join(', ')}; not valid: ${bad.map((b) => `"${b}"`).join(', ')}`,
    };
  }
  return { value: Object.freeze(entries) };
}

/**
 * One list entry. The address must be a plain IPv4 or IPv6 address (net.isIP: proxy-addr alone
 * would take shorthand like `10.1` as 10.0.0.1); the range and netmask are checked by proxy-addr
 * itself, so what passes here is exactly what Fastify will accept.
 */
function validEntry(entry: string): boolean {
  if ((PROXY_NAMES as readonly string[]).includes(entry)) return true;
  const slash = entry.indexOf('/');
  const address = slash === -1 ? entry : entry.slice(0, slash);
  if (isIP(address) === 0) return false;
  try {
    proxyAddr.compile(entry);
    return true;
  } catch {
    return false;
  }
}
