import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Actor } from '../../lib/actor.ts';
import { AppError } from '../../lib/errors.ts';
import { preferredLanguage } from '../../lib/accept-language.ts';
import { QUESTION_LANGUAGES, type QuestionLanguage } from '../../modules/draft/question-types.ts';
import type { Membership, Person } from '../../modules/people/people.schemas.ts';
import type { SessionsService } from '../../modules/people/sessions.service.ts';
import type { PeopleService } from '../../modules/people/people.service.ts';
import { PORTAL_STRINGS, type PortalStrings } from './strings/index.ts';
import type { SignedInFrame } from './portal-html.ts';
import type { AssetBundle } from '../shared/assets.ts';

/**
 * Who is using the portal, worked out once per request (docs/portal.md "Sessions"): the session
 * in the `hc_session` cookie (HttpOnly, SameSite=Lax, Secure in production, Path=/app: never sent
 * to the API or any other page), the person, their accounts and the one the pages act for (the
 * switcher's choice, else the personal account), their language and a CSRF token bound to the
 * session. A missing, ended or unknown session cookie is simply "signed out" (and cleared).
 */
export const SESSION_COOKIE = 'hc_session';
export const PORTAL_PATH = '/app';

export interface PortalContext {
  actor: Actor;
  sessionId: string;
  person: Person;
  accounts: Membership[];
  acting: Membership;
  lang: QuestionLanguage;
  s: PortalStrings;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in person of a portal page, or null (portal routes only). */
    portal: PortalContext | null;
  }
}

export function cookieOptions(secure: boolean, expires?: Date) {
  return { path: PORTAL_PATH, httpOnly: true, sameSite: 'lax' as const, secure, ...(expires ? { expires } : {}) };
}

/** The language of a page before signing in: the browser's. */
export function signedOutLanguage(request: FastifyRequest): QuestionLanguage {
  return preferredLanguage(request.headers['accept-language'], QUESTION_LANGUAGES);
}

export async function loadPortalContext(request: FastifyRequest, reply: FastifyReply, deps: { sessions: SessionsService; people: PeopleService; secureCookies: boolean }): Promise<PortalContext | null> {
  const token = request.cookies[SESSION_COOKIE];
  if (!token) return null;
  let actor: Actor;
  try {
    actor = await deps.sessions.authenticate(token, { portal: true });
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    reply.clearCookie(SESSION_COOKIE, cookieOptions(deps.secureCookies));
    return null;
  }
  const me = await deps.people.me(actor);
  const acting = me.accounts.find((a) => a.accountId === actor.accountId);
  if (!acting || !actor.session) return null;
  const lang = me.person.language;
  return { actor, sessionId: actor.session.id, person: me.person, accounts: me.accounts, acting, lang, s: PORTAL_STRINGS[lang] };
}

/** What every signed-in page's frame needs, from the context. */
export function frameOf(ctx: PortalContext, assets: AssetBundle, csrf: string, path: string): SignedInFrame {
  return { assets, lang: ctx.lang, s: ctx.s, csrf, accounts: ctx.accounts, acting: ctx.acting, personLabel: ctx.person.name ?? ctx.person.email, path };
}

/** Only paths of the portal itself are followed after signing in (no open redirect). */
export function safeNext(next: unknown): string {
  return typeof next === 'string' && /^\/app(\/[\w\-/]*)?(\?[\w=&%.-]*)?$/.test(next) && !next.startsWith('//') ? next : PORTAL_PATH;
}
