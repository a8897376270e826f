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
  }
  interface FastifyRequest {
    actor: Actor | null;
    authError: AppError | null;
  }
}

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/**
 * Turns a bearer credential into the actor it acts as, or throws an AppError (`unauthorized`, a
 * revoked key…). app.ts hands in the accounts service's; http/ knows no feature.
 */
export type Authenticate = (credential: string) => Promise<Actor>;

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
      request.authError = new AppError('unauthorized', 'Send the API key as "Authorization: Bearer <key>".');
      return;
    }
    try {
      request.actor = await authenticate(match[1]);
    } catch (error) {
      if (error instanceof AppError) request.authError = error;
      else throw error;
    }
  });

  app.addHook('preValidation', async (request) => {
    requireScope(request, request.routeOptions.config.scope);
  });
}

export function requireScope(request: FastifyRequest, scope: Scope | null | undefined): void {
  if (!scope) return;
  if (request.authError) throw request.authError;
  if (!request.actor) throw new AppError('unauthorized');
  if (!request.actor.scopes.includes(scope)) {
    throw new AppError('insufficient_scope', `This key lacks the "${scope}" scope this request needs.`, { scope });
  }
}

/** The actor of an authenticated route (the preValidation hook guarantees it). */
export function actorOf(request: FastifyRequest): Actor {
  if (!request.actor) throw new AppError('unauthorized');
  return request.actor;
}
