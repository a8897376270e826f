import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../lib/errors.ts';
import type { Actor, Scope } from '../lib/actor.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The scope a route needs; null for a public route. Every route must say (R6.2). */
    scope?: Scope | null;
    /** The scope a public route declares for tooling without requiring a credential (templates). */
    declaredScope?: Scope;
    /** 0.5 for routes that count as half a request against the rate limit. */
    rateCost?: 0.5 | 1;
    /**
     * The spec's "portal session only": a signed-in person's session, never an API key (403
     * `insufficient_scope` saying so). The route still names a scope, which sessions always hold.
     */
    portalOnly?: boolean;
    /** A public route that uses a credential when one is sent (support tickets): described as optional. */
    optionalCredential?: boolean;
    /**
     * The resource a route belongs to (RFC 8707): 'mcp' for the MCP endpoint, else the REST API.
     * An OAuth access token is accepted only where its audience allows (docs/agents.md).
     */
    audience?: Audience;
  }
  interface FastifyRequest {
    actor: Actor | null;
    authError: AppError | null;
  }
}

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/**
 * The route config of the spec's "portal session only" operations: a signed-in person's session,
 * never a key (403 `insufficient_scope` saying so). Sessions hold every scope, so the scope only
 * names one for the description.
 */
export const PORTAL_SESSION_ONLY = { scope: 'account:read', portalOnly: true } as const;

/**
 * The request header that chooses the account a portal session acts for (docs/api.md "Which
 * account a request acts for"); a key always acts for its own account and refuses another.
 */
export const ACCOUNT_HEADER = 'headcount-account';

/**
 * Turns a bearer credential into the actor it acts as, or throws an AppError (`unauthorized`, a
 * revoked key…). `account` is the Headcount-Account header, null when absent. app.ts hands in the
 * container's; http/ knows no feature.
 */
export type Authenticate = (credential: string, context: { account: string | null; audience: Audience }) => Promise<Actor>;

/** Which resource a request is for: the REST API or the MCP endpoint. */
export type Audience = 'api' | 'mcp';

/**
 * Resolves the credential on every request (before rate limiting, so limits are per key), but only
 * refuses it in preValidation on routes that need one: a bad key on a public route is ignored.
 */
export function registerAuth(app: FastifyInstance, authenticate: Authenticate): void {
  app.decorateRequest('actor', null);
  app.decorateRequest('authError', null);

  app.addHook('onRequest', async (request) => {
    const header = request.headers.authorization;
    if (header === undefined) return;
    const match = BEARER.exec(header);
    if (!match) {
      request.authError = new AppError('unauthorized', 'Send the API key or session token as "Authorization: Bearer <token>".');
      return;
    }
    const account = request.headers[ACCOUNT_HEADER];
    try {
      request.actor = await authenticate(match[1], {
        account: typeof account === 'string' && account !== '' ? account : null,
        audience: request.routeOptions.config?.audience ?? 'api',
      });
    } catch (error) {
      if (error instanceof AppError) request.authError = error;
      else throw error;
    }
  });

  app.addHook('preValidation', async (request) => {
    const { scope, portalOnly } = request.routeOptions.config;
    requireScope(request, scope);
    if (portalOnly && request.actor && !request.actor.session) {
      const used = request.actor.grant ? 'an app connection\'s (OAuth) access token' : 'an API key';
      throw new AppError('insufficient_scope', `This endpoint needs a portal session (a person signed in); ${used} cannot use it.`, { credential: 'portal_session' });
    }
  });
}

export function requireScope(request: FastifyRequest, scope: Scope | null | undefined): void {
  if (!scope) return;
  if (request.authError) throw request.authError;
  if (!request.actor) throw new AppError('unauthorized');
  if (!request.actor.scopes.includes(scope)) {
    throw new AppError('insufficient_scope', `This credential lacks the "${scope}" scope this request needs.`, { scope });
  }
}

/** The actor of an authenticated route (the preValidation hook guarantees it). */
export function actorOf(request: FastifyRequest): Actor {
  if (!request.actor) throw new AppError('unauthorized');
  return request.actor;
}
