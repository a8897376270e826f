import { loadOnce } from '../../lib/load-once.ts';

/**
 * Server-side verification of a Cloudflare Turnstile token (RELIABILITY R5.6), as Cloudflare
 * documents it: POST secret, response and remote IP to siteverify; `success` decides. Without a
 * secret (development, tests) the check is off.
 */
export interface HumanCheck {
  readonly enabled: boolean;
  verify(token: string | undefined, remoteIp: string): Promise<boolean>;
}

export function createTurnstile(options: { secret: string | null; verifyUrl: string; timeoutMs?: number }): HumanCheck {
  if (!options.secret) return { enabled: false, verify: async () => true };
  const secret = options.secret;
  // undici's request with its own keep-alive connections, rather than the global fetch: every
  // answer through a link makes this call, and fetch's WHATWG streams cost it about three times
  // the CPU (bench link-answers). No redirects are followed (a 3xx is a failed check).
  // Loaded with the first check, not at start-up (~75 ms of every start; issue 15).
  const client = loadOnce(async () => {
    const { Agent, request } = await import('undici');
    return { request, connections: new Agent({ keepAliveTimeout: 30_000 }) };
  });
  return {
    enabled: true,
    async verify(token, remoteIp) {
      if (!token) return false;
      // The whole check (queueing for a connection, connecting, the answer) within timeoutMs. Not
      // AbortSignal.timeout: its timer outlives the check and, seconds later, aborts the spent
      // signal with a DOMException and its stack, which cost 30 µs a check against 8 for a timer
      // cleared when the check ends (every link answer makes one).
      const deadline = new AbortController();
      const timer = setTimeout(() => deadline.abort(), options.timeoutMs ?? 5000);
      try {
        const { request, connections } = await client();
        const response = await request(options.verifyUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ secret, response: token, remoteip: remoteIp }).toString(),
          signal: deadline.signal,
          dispatcher: connections,
        });
        if (response.statusCode < 200 || response.statusCode >= 300) {
          await response.body.dump();
          return false;
        }
        const body = (await response.body.json()) as { success?: boolean };
        return body.success === true;
      } catch {
        // Cloudflare unreachable or too slow: fail closed, the person can retry.
        return false;
      } finally {
        clearTimeout(timer);
      }
    },
  };
}
