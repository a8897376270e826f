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
  return {
    enabled: true,
    async verify(token, remoteIp) {
      if (!token) return false;
      try {
        const response = await fetch(options.verifyUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ secret, response: token, remoteip: remoteIp }),
          signal: AbortSignal.timeout(options.timeoutMs ?? 5000),
          redirect: 'error',
        });
        if (!response.ok) return false;
        const body = (await response.json()) as { success?: boolean };
        return body.success === true;
      } catch {
        // Cloudflare unreachable: fail closed, the person can retry.
        return false;
      }
    },
  };
}
