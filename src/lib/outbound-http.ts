import type { LookupFunction } from 'node:net';
import { isIP } from 'node:net';
import { lookup as dnsLookup } from 'node:dns/promises';
import { performance } from 'node:perf_hooks';
import { loadOnce } from './load-once.ts';
import { canonicalAddress, isPublicAddress } from './outbound-address.ts';
import { OutboundError, toOutboundError } from './outbound-error.ts';

export { isPublicAddress } from './outbound-address.ts';
export { OutboundError, type OutboundErrorCode } from './outbound-error.ts';

/**
 * The one outbound-fetch module for requests to URLs a user gave us: webhook deliveries and image
 * imports (ARCHITECTURE §2 "outbound HTTP to user URLs"; RELIABILITY R5.1, R5.2).
 *
 * Each hop: parse the URL (https only unless allowHttp) → resolve the name once → refuse if ANY
 * address is not public → connect with a lookup that can only answer those checked addresses
 * (the name is never resolved again, so DNS rebinding between check and connect cannot move the
 * connection; Host and TLS SNI stay the original name) → check the socket's actual peer again →
 * read the body up to maxBodyBytes. Redirects are followed here, by hand, each target going
 * through the same steps; one timer bounds the whole exchange, body and redirects included.
 */

/** A resolver: every address of a name (tests inject one; the default asks the system resolver). */
export type Lookup = (hostname: string) => Promise<ReadonlyArray<{ address: string; family: number }>>;

export interface OutboundOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  /** The whole exchange: resolve, connect, response, body and any redirects (default 10 s). */
  timeoutMs?: number;
  /** TCP (and TLS) connect of one hop (default 5 s, never more than timeoutMs). */
  connectTimeoutMs?: number;
  /** The body is cut here whatever Content-Length says, and `truncated` set (R5.2; default 64 KiB). */
  maxBodyBytes?: number;
  /** 0 (default, webhooks): a 3xx is returned as it is. 1–3 (imports): followed, each target re-checked. */
  redirects?: number;
  /** Reach any address: only outside production and in tests. */
  allowPrivate?: boolean;
  /** Allow http: as well as https: (webhooks in development). */
  allowHttp?: boolean;
  lookup?: Lookup;
  /** Test seam: replaces the address rule (default isPublicAddress, or anything with allowPrivate). */
  isAllowedAddress?: (ip: string) => boolean;
  /** Test seam: certificate authorities trusted instead of the system's (a local https stand-in's certificate). */
  ca?: string;
}

export interface OutboundResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  /** The body went on past maxBodyBytes and was cut there. */
  truncated: boolean;
  /** The peer actually connected to for the last hop. */
  remoteAddress: string;
  /** The URL of the last hop (after redirects). */
  url: string;
  durationMs: number;
}

export const MAX_REDIRECTS = 3;
const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_CONNECT_TIMEOUT_MS = 5_000;
const DEFAULT_MAX_BODY_BYTES = 64 * 1024;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/** Not carried to another origin on a redirect (as fetch does). */
const CREDENTIAL_HEADERS = new Set(['authorization', 'cookie', 'proxy-authorization']);

/** undici loads with the first outbound request (~75 ms of every start otherwise; issue 15). */
const undici = loadOnce(() => import('undici'));

const systemLookup: Lookup = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

interface Hop {
  url: URL;
  method: string;
  headers: Record<string, string>;
  body?: string | Uint8Array;
}

export async function outboundRequest(url: string, options: OutboundOptions = {}): Promise<OutboundResponse> {
  const redirects = options.redirects ?? 0;
  if (!Number.isInteger(redirects) || redirects < 0 || redirects > MAX_REDIRECTS) {
    throw new RangeError(`redirects must be an integer from 0 to ${MAX_REDIRECTS} (R5.2)`);
  }
  let hop: Hop = { url: parseTarget(url, options), method: options.method ?? 'GET', headers: { ...options.headers }, body: options.body };
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  // A duration, measured on the monotonic timer; not the injected wall clock of ARCHITECTURE §3.5.
  const started = performance.now();
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), timeoutMs);
  try {
    for (let followed = 0; ; followed++) {
      const response = await exchange(hop, options, deadline.signal);
      const location = response.headers.location;
      if (redirects === 0 || !REDIRECT_STATUSES.has(response.status) || typeof location !== 'string') {
        return { ...response, url: hop.url.href, durationMs: Math.round(performance.now() - started) };
      }
      if (followed === redirects) {
        throw new OutboundError('too_many_redirects', `More than ${redirects} redirect(s) from ${hop.url.host}.`);
      }
      hop = redirectedHop(hop, response.status, parseTarget(resolveLocation(location, hop.url), options));
    }
  } catch (error) {
    throw toOutboundError(error, { timedOut: deadline.signal.aborted, host: hop.url.host, timeoutMs });
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The checks a request to `url` would make before connecting (scheme, credentials, every address
 * the name resolves to), without connecting: for refusing a URL when it is registered (a webhook
 * endpoint) with the same words a delivery would fail with. Passing now proves nothing about
 * later: names move, so every request checks again (R5.1, DNS rebinding).
 */
export async function checkOutboundUrl(url: string, options: Pick<OutboundOptions, 'allowHttp' | 'allowPrivate' | 'lookup' | 'isAllowedAddress' | 'timeoutMs'> = {}): Promise<void> {
  const target = parseTarget(url, options);
  const allowed = options.isAllowedAddress ?? (options.allowPrivate ? () => true : isPublicAddress);
  const host = target.hostname.replace(/^\[(.*)\]$/, '$1');
  const deadline = AbortSignal.timeout(options.timeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS);
  try {
    const addresses = isIP(host) ? [{ address: host, family: isIP(host) }] : await resolve(host, options.lookup ?? systemLookup, deadline);
    const refused = addresses.find(({ address }) => !allowed(address));
    if (refused) throw notPublic(target.host, refused.address);
  } catch (error) {
    throw toOutboundError(error, { timedOut: deadline.aborted, host: target.host, timeoutMs: options.timeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS });
  }
}

/** R5.1: http(s) only, https unless allowed, no credentials in the URL (they would end in logs). */
function parseTarget(raw: string, options: OutboundOptions): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new OutboundError('bad_url', 'The URL is not valid.');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new OutboundError('bad_url', options.allowHttp ? 'The URL must start with https:// (or http://).' : 'The URL must start with https://.');
  if (url.username || url.password) throw new OutboundError('bad_url', 'The URL must not contain a user name or password.');
  if (url.protocol === 'http:' && !options.allowHttp) throw new OutboundError('https_required', `The URL for ${url.host} must use https.`);
  return url;
}

function resolveLocation(location: string, base: URL): string {
  try {
    return new URL(location, base).href;
  } catch {
    throw new OutboundError('bad_url', `${base.host} redirected to a URL that is not valid.`);
  }
}

/** 303 (and 301/302 after a POST) become a GET without a body, as browsers do (RFC 9110 §15.4). */
function redirectedHop(from: Hop, status: number, to: URL): Hop {
  const toGet = status === 303 ? from.method !== 'HEAD' : (status === 301 || status === 302) && from.method === 'POST';
  const headers = Object.fromEntries(Object.entries(from.headers).filter(([name]) => {
    const lower = name.toLowerCase();
    if (to.origin !== from.url.origin && CREDENTIAL_HEADERS.has(lower)) return false;
    return !(toGet && lower.startsWith('content-'));
  }));
  return toGet ? { url: to, method: 'GET', headers } : { ...from, url: to, headers };
}

/** One request to one URL, on its own connection pinned to the checked addresses. */
async function exchange(hop: Hop, options: OutboundOptions, signal: AbortSignal): Promise<Omit<OutboundResponse, 'url' | 'durationMs'>> {
  const allowed = options.isAllowedAddress ?? (options.allowPrivate ? () => true : isPublicAddress);
  const host = hop.url.hostname.replace(/^\[(.*)\]$/, '$1');
  // An IP literal is checked as it is, before connecting; a name is resolved exactly once.
  const addresses = isIP(host) ? [{ address: host, family: isIP(host) }] : await resolve(host, options.lookup ?? systemLookup, signal);
  const refused = addresses.find(({ address }) => !allowed(address));
  if (refused) throw notPublic(hop.url.host, refused.address);

  const checked = new Set(addresses.map(({ address }) => canonicalAddress(address)));
  let remoteAddress = '';
  const { Client, buildConnector } = await undici();
  const connect = buildConnector({
    timeout: Math.min(options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS, options.timeoutMs ?? DEFAULT_TIMEOUT_MS),
    lookup: pinnedLookup(addresses),
    ...(options.ca ? { ca: options.ca } : {}),
  });
  const client = new Client(hop.url.origin, {
    connect: (connectOptions, callback) => connect(connectOptions, (error, socket) => {
      if (error || !socket) return callback(error ?? new Error('no socket'), null);
      // Belt and braces: the peer must be one of the checked addresses, and still allowed.
      const peer = socket.remoteAddress ?? '';
      if (!checked.has(canonicalAddress(peer)) || !allowed(peer)) {
        socket.destroy();
        return callback(notPublic(hop.url.host, peer), null);
      }
      remoteAddress = peer;
      callback(null, socket);
    }),
  });
  try {
    const response = await client.request({ path: `${hop.url.pathname}${hop.url.search}`, method: hop.method, headers: hop.headers, body: hop.body, signal });
    const { body, truncated } = await readUpTo(response.body, options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES);
    return { status: response.statusCode, headers: response.headers, body, truncated, remoteAddress };
  } finally {
    await client.destroy().catch(() => undefined);
  }
}

async function resolve(host: string, lookup: Lookup, signal: AbortSignal): Promise<ReadonlyArray<{ address: string; family: number }>> {
  let addresses: ReadonlyArray<{ address: string; family: number }>;
  try {
    addresses = await untilAborted(lookup(host), signal);
  } catch (error) {
    if (signal.aborted) throw error;
    throw new OutboundError('dns_failed', `The host ${host} could not be resolved.`, { cause: error });
  }
  if (addresses.length === 0) throw new OutboundError('dns_failed', `The host ${host} has no address.`);
  return addresses;
}

/**
 * The lookup the socket uses instead of DNS: it answers only with addresses already checked, so
 * the connection goes exactly where the check looked (R5.1 "pinned"). With several (all checked)
 * addresses, Node's happy-eyeballs connect may pick among them, as it would for the name.
 */
function pinnedLookup(addresses: ReadonlyArray<{ address: string; family: number }>): LookupFunction {
  return (_hostname, lookupOptions, callback) => {
    if (lookupOptions.all) callback(null, addresses.map(({ address, family }) => ({ address, family })));
    else callback(null, addresses[0].address, addresses[0].family);
  };
}

/** R5.2: never more than `limit` bytes kept; the rest is not read (the connection is dropped). */
async function readUpTo(stream: AsyncIterable<Buffer> & { destroy(): void }, limit: number): Promise<{ body: Buffer; truncated: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    if (size + chunk.length > limit) {
      chunks.push(chunk.subarray(0, limit - size));
      stream.destroy();
      return { body: Buffer.concat(chunks), truncated: true };
    }
    chunks.push(chunk);
    size += chunk.length;
  }
  return { body: Buffer.concat(chunks), truncated: false };
}

function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise((resolvePromise, reject) => {
    const onAbort = () => reject(signal.reason);
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolvePromise, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** The address goes on the error for the log; the message names only the host the caller gave. */
function notPublic(host: string, address: string): OutboundError {
  return new OutboundError('not_public_address', `${host} resolves to an address that is not public (loopback, private, link-local or reserved); it cannot be reached.`, { address });
}
