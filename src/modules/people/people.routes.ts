import type { FastifyInstance, FastifyPluginAsync, FastifyRequest } from 'fastify';
import { AppError } from '../../lib/errors.ts';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { Closed, IdParams, RefOf } from '../../lib/typebox.ts';
import { actorOf, PORTAL_SESSION_ONLY } from '../../http/auth.ts';
import { notCached } from '../../http/responses.ts';
import { firstLanguageTag, preferredLanguage } from '../../lib/accept-language.ts';
import { currencyForLocale } from '../../lib/currencies.ts';
import { QUESTION_LANGUAGES, type QuestionLanguage } from '../draft/question-types.ts';
import type { SignInService, SignInClient } from './sign-in.service.ts';
import type { SessionsService } from './sessions.service.ts';
import type { PeopleService } from './people.service.ts';
import { MeSchema, PersonSchema, ProfileBodySchema, SessionSchema, SignedInSchema, SignInBodySchema, SignInStartedSchema, VerifyBodySchema } from './people.schemas.ts';

const TAG = ['People and sessions'];
const Ok = Closed({ ok: Type.Literal(true) });
/**
 * Typing codes is limited per IP address on top of each code's own five attempts (docs/portal.md
 * "Signing in"), whether on the API or the portal's form: one counter under one key. Checked in
 * preHandler with its own limiter: a route's `config.rateLimit` would replace the per-IP limit of
 * every public request instead of adding to it.
 */
export const SIGN_IN_VERIFY_LIMIT = { max: 20, timeWindow: 10 * 60_000, keyGenerator: (request: FastifyRequest) => `sign-in-verify:${request.ip}` };

/** The preHandler that applies SIGN_IN_VERIFY_LIMIT: a 429 with Retry-After once it is used up. */
export function signInVerifyLimit(app: FastifyInstance): (request: FastifyRequest) => Promise<void> {
  const limit = app.createRateLimit(SIGN_IN_VERIFY_LIMIT);
  return async (request) => {
    const result = await limit(request);
    if (!result.isAllowed && result.isExceeded) {
      throw new AppError('rate_limited', `Too many sign-in codes typed from this address; retry after ${result.ttlInSeconds} s.`, undefined, { 'retry-after': String(result.ttlInSeconds) });
    }
  };
}

/** Who is signing in, from the request: address, browser, and the guesses a first sign-in starts from. */
export function signInClient(request: FastifyRequest, language?: QuestionLanguage): SignInClient {
  const acceptLanguage = request.headers['accept-language'];
  const userAgent = request.headers['user-agent'];
  return {
    ip: request.ip ?? null,
    userAgent: typeof userAgent === 'string' ? userAgent : null,
    language: language ?? preferredLanguage(acceptLanguage, QUESTION_LANGUAGES),
    currency: currencyForLocale(firstLanguageTag(acceptLanguage)),
  };
}

/**
 * Signing in and portal sessions over the API (docs/portal.md; extensions: the spec shows the
 * session only as "Portal session"). The portal pages use the same services with a cookie.
 */
export function peopleRoutes(deps: { signIn: SignInService; sessions: SessionsService; people: PeopleService }): FastifyPluginAsync {
  const { signIn, sessions, people } = deps;
  return async (base) => {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();

    app.post('/v1/auth/sign-in', {
      config: { scope: null },
      schema: {
        operationId: 'startSignIn',
        tags: TAG,
        summary: 'Email a one-time sign-in code (and a link) to an address',
        description:
          'The answer is the same whether or not the address has signed in before. The code works once, for 10 minutes, with 5 tries; a new code ends older ones. ' +
          'At most 5 codes an hour go to one address and 20 to one IP address (429 `rate_limited` with `Retry-After`). The first sign-in makes the person and their personal account.',
        body: SignInBodySchema,
        response: { 202: SignInStartedSchema },
      },
    }, async (request, reply) => {
      const client = signInClient(request, request.body.language);
      const { expiresInSeconds } = await signIn.requestCode({ email: request.body.email, ip: client.ip, language: client.language });
      notCached(reply);
      return reply.status(202).send({ ok: true as const, expiresInSeconds });
    });

    app.post('/v1/auth/sign-in/verify', {
      config: { scope: null },
      preHandler: signInVerifyLimit(app),
      schema: {
        operationId: 'verifySignIn',
        tags: TAG,
        summary: 'Trade the emailed code for a portal session',
        description:
          'A wrong, used or expired code is 400 `sign_in_failed` (the same answer for every address). The session token in the response is shown once: send it as ' +
          '`Authorization: Bearer <token>`. It acts with every scope for the accounts the person belongs to (the personal account unless the `Headcount-Account` header names another).',
        body: VerifyBodySchema,
        response: { 200: SignedInSchema },
      },
    }, async (request, reply) => {
      notCached(reply);
      return signIn.verifyCode(request.body, signInClient(request));
    });

    app.post('/v1/auth/sign-out', {
      config: PORTAL_SESSION_ONLY,
      schema: { operationId: 'signOut', tags: TAG, summary: 'End the session this request came with', response: { 200: Ok } },
    }, async (request) => {
      await sessions.signOut(actorOf(request));
      return { ok: true as const };
    });

    app.get('/v1/auth/sessions', {
      config: PORTAL_SESSION_ONLY,
      schema: {
        operationId: 'listSessions',
        tags: TAG,
        summary: "The signed-in person's sessions that have not ended, newest first",
        response: { 200: Closed({ sessions: Type.Array(RefOf(SessionSchema)) }) },
      },
    }, async (request) => ({ sessions: await sessions.list(actorOf(request)) }));

    app.delete('/v1/auth/sessions/:id', {
      config: PORTAL_SESSION_ONLY,
      schema: { operationId: 'revokeSession', tags: TAG, summary: 'End one of the person\'s sessions (another device\'s, or this one)', params: IdParams, response: { 200: Ok } },
    }, async (request) => {
      await sessions.revoke(actorOf(request), request.params.id);
      return { ok: true as const };
    });

    app.get('/v1/me', {
      config: PORTAL_SESSION_ONLY,
      schema: { operationId: 'getMe', tags: TAG, summary: 'The signed-in person and the accounts they belong to', response: { 200: MeSchema } },
    }, async (request) => people.me(actorOf(request)));

    app.patch('/v1/me', {
      config: PORTAL_SESSION_ONLY,
      schema: { operationId: 'updateMe', tags: TAG, summary: "Change the person's name or language", body: ProfileBodySchema, response: { 200: Closed({ person: RefOf(PersonSchema) }) } },
    }, async (request) => ({ person: await people.updateProfile(actorOf(request), request.body) }));
  };
}
