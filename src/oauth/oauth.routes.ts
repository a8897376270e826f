import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { OAUTH_PATH } from './oauth-urls.ts';
import type { LazyProvider } from './oidc-provider-module.ts';

/**
 * Dynamic registration is open to anyone (RFC 7591, as MCP clients need), so it has a budget of
 * its own besides the per-IP request limit: a client registers once, not 120 times a minute.
 */
const registrationLimit = (perHour: number) => ({ max: perHour, timeWindow: 60 * 60_000, keyGenerator: (request: FastifyRequest) => `oauth-register:${request.ip}` });

/**
 * Mounts the authorization server at {auth_url} = `/oauth` (docs/agents.md "Addresses"), and its
 * RFC 8414 metadata at `/.well-known/oauth-authorization-server/oauth` (the RFC's place for an
 * issuer with a path) and at `/.well-known/oauth-authorization-server` (where clients that only
 * know the host look first). oidc-provider is a Koa application that reads its own request bodies,
 * so these routes take the body unparsed and hand the raw request over (reply.hijack: the provider
 * writes the response). They stay behind the per-IP rate limit like every route.
 */
export function oauthRoutes(provider: LazyProvider, limits: { registrationsPerHour: number }): FastifyPluginAsync {
  let callback: ReturnType<Awaited<ReturnType<LazyProvider>>['callback']> | null = null;
  const handOver = (path: (url: string) => string) => async (request: FastifyRequest, reply: FastifyReply) => {
    // (The body stays unread meanwhile: the provider reads it itself.)
    callback ??= (await provider()).callback();
    reply.hijack();
    const url = path(request.raw.url ?? '/');
    // The provider builds its endpoints' URLs from the mount path, which it reads (as under
    // Express) from originalUrl minus url: always /oauth, the well-known routes included.
    Object.assign(request.raw, { originalUrl: `${OAUTH_PATH}${url}`, url });
    callback(request.raw, reply.raw);
  };
  const route = { schema: { hide: true }, config: { scope: null } } as const;
  return async (app) => {
    // The provider parses bodies itself (forms and JSON); leave the stream unread.
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', (_request, _payload, done) => done(null));
    const withinIssuer = handOver((url) => url.slice(OAUTH_PATH.length) || '/');
    const registrations = app.createRateLimit(registrationLimit(limits.registrationsPerHour));
    app.post(`${OAUTH_PATH}/register`, {
      ...route,
      preHandler: async (request, reply) => {
        const result = await registrations(request);
        if (!result.isAllowed && result.isExceeded) {
          // In OAuth's error shape, as the provider's own answers at this address are (RFC 7591
          // §3.2.2: `error` a string), so an OAuth library reads it; not the REST envelope.
          return reply
            .code(429)
            .header('retry-after', String(result.ttlInSeconds))
            .header('cache-control', 'no-store')
            .send({ error: 'rate_limited', error_description: `Too many client registrations from this address; retry after ${result.ttlInSeconds} s.` });
        }
      },
    }, withinIssuer);
    app.all(OAUTH_PATH, route, withinIssuer);
    app.all(`${OAUTH_PATH}/*`, route, withinIssuer);
    const metadata = handOver((url) => `/.well-known/oauth-authorization-server${url.includes('?') ? url.slice(url.indexOf('?')) : ''}`);
    app.get('/.well-known/oauth-authorization-server', route, metadata);
    app.get(`/.well-known/oauth-authorization-server${OAUTH_PATH}`, route, metadata);
    app.get(`/.well-known/openid-configuration${OAUTH_PATH}`, route, handOver(() => '/.well-known/openid-configuration'));
  };
}
