import type { FastifyError, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import cookie from '@fastify/cookie';
import formBody from '@fastify/formbody';
import csrfProtection from '@fastify/csrf-protection';
import { AppError } from '../../lib/errors.ts';
import { pageHeaders } from '../../http/page-headers.ts';
import { isCrossSite } from '../../http/cross-site.ts';
import type { AssetBundle } from '../shared/assets.ts';
import { PORTAL_STRINGS } from './strings/index.ts';
import { escapeHtml, signedInPage, signedOutPage } from './portal-html.ts';
import { frameOf, loadPortalContext, signedOutLanguage } from './portal-context.ts';
import { PAGE, type PageRequest, type PortalDeps, type PortalKit, type SignedInHandler } from './portal-kit.ts';
import { signInPages } from './pages/sign-in.routes.ts';
import { overviewPages } from './pages/overview.routes.ts';
import { creditsPages } from './pages/credits.routes.ts';
import { developersPages } from './pages/developers.routes.ts';
import { teamPages } from './pages/team.routes.ts';
import { supportPages } from './pages/support.routes.ts';
import { accountPages } from './pages/account.routes.ts';
import { connectionsPages } from './pages/connections.routes.ts';
import { webhooksPages } from './pages/webhooks.routes.ts';

/**
 * The portal for people (`/app`, issue 10 point 7; docs/portal.md): sign-in, overview, buying
 * credits, the ledger, Developers (keys), connected apps, webhooks, the team, support and the
 * person's own account. Pages, not API: hidden from /openapi.json, with the answer page's headers
 * (no-store, noindex, no-referrer, a CSP allowing this origin's scripts and styles only). Forms post
 * `application/x-www-form-urlencoded` (parsed here only: the API stays JSON-only), and every post
 * must carry the CSRF token of @fastify/csrf-protection (a signed secret cookie `hc_csrf` plus a
 * token bound to the session, so a token from before signing in does not work after) and, when the
 * browser says where it comes from, come from this site (Origin, Sec-Fetch-Site).
 */
export function portalRoutes(deps: PortalDeps, assets: AssetBundle): FastifyPluginAsync {
  const { config } = deps;
  const secure = config.sessions.secureCookies;
  // The answer page's headers, but the referrer goes to this origin (and only to it): a form's
  // Origin header is then this site's, which the check below compares.
  const headers = { ...pageHeaders(config), 'referrer-policy': 'same-origin' };

  return async (app) => {
    await app.register(cookie, { secret: config.sessions.secret });
    // Forms are read as URLSearchParams: a field is one string or none, however a crafted form repeats it.
    await app.register(formBody, { bodyLimit: 64 * 1024, parser: (text) => new URLSearchParams(text) as unknown as Record<string, unknown> });
    await app.register(csrfProtection, {
      sessionPlugin: '@fastify/cookie',
      cookieKey: 'hc_csrf',
      cookieOpts: { path: '/app', sameSite: 'lax', httpOnly: true, secure, signed: true },
      getToken: (request) => (request.body instanceof URLSearchParams ? (request.body.get('_csrf') ?? undefined) : undefined),
      getUserInfo: (request) => request.portal?.sessionId ?? 'signed-out',
      csrfOpts: { hmacKey: config.sessions.secret },
    });
    app.decorateRequest('portal', null);

    app.addHook('onRequest', async (_request, reply) => {
      reply.headers(headers);
    });
    app.addHook('preHandler', async (request, reply) => {
      request.portal = await loadPortalContext(request, reply, { sessions: deps.sessions, people: deps.people, secureCookies: secure });
    });
    // Every post: from this site, with a valid token. Answered with a page, never acted on.
    app.addHook('preHandler', (request, reply, done) => {
      if (request.method !== 'POST') return done();
      // Without the headers (or with a withheld origin) the token decides.
      if (isCrossSite(request, config.publicBaseUrl)) {
        return done(Object.assign(new Error('cross-site form'), { code: 'FST_CSRF_INVALID_TOKEN', statusCode: 403 }));
      }
      app.csrfProtection(request, reply, done);
    });

    const strings = (request: FastifyRequest) => request.portal?.s ?? PORTAL_STRINGS[signedOutLanguage(request)];
    const kit: PortalKit = {
      deps,
      assets,
      csrf: (reply) => reply.generateCsrf({ userInfo: reply.request.portal?.sessionId ?? 'signed-out' }),
      signedIn(request, reply) {
        if (request.portal) return request.portal;
        const next = request.method === 'GET' ? `?next=${encodeURIComponent(request.url)}` : '';
        void reply.redirect(`/app/sign-in${next}`, 303);
        return null;
      },
      page: (request, reply, ctx, title, content) => signedInPage(frameOf(ctx, assets, kit.csrf(reply), request.url.split('?')[0].replace(/\/$/, '') || '/app'), title, content),
      signedOut: (request, title, content) => signedOutPage({ assets, lang: request.portal?.lang ?? signedOutLanguage(request), title, content, s: strings(request) }),
      routes(on) {
        const signedIn = (handler: SignedInHandler) => async (request: PageRequest, reply: FastifyReply) => {
          const ctx = kit.signedIn(request, reply);
          return ctx ? handler(request, reply, ctx) : reply;
        };
        return {
          get: (path, handler) => on.get(path, PAGE, signedIn(handler)),
          post: (path, handler) => on.post(path, PAGE, signedIn(handler)),
        };
      },
    };

    const message = (request: FastifyRequest, reply: FastifyReply, status: number, title: string, body: string) =>
      reply.status(status).type('text/html; charset=utf-8').send(kit.signedOut(request, title, `<p>${escapeHtml(body)}</p>\n<p><a class="button" href="/app">${escapeHtml(strings(request).back)}</a></p>`));

    app.setErrorHandler((error: FastifyError, request, reply) => {
      const s = strings(request);
      if (error.code === 'FST_CSRF_INVALID_TOKEN' || error.code === 'FST_CSRF_MISSING_SECRET') return message(request, reply, 403, s.formExpiredTitle, s.formExpiredBody);
      if (error instanceof AppError && error.code === 'not_found') return message(request, reply, 404, s.notFoundTitle, s.notFoundBody);
      if ((error instanceof AppError && error.status < 500) || (error.statusCode !== undefined && error.statusCode < 500)) {
        return message(request, reply, error instanceof AppError ? error.status : (error.statusCode ?? 400), s.errorTitle, error.message);
      }
      request.log.error({ err: error }, 'portal page failed');
      return message(request, reply, 500, s.errorTitle, s.errorBody);
    });
    app.setNotFoundHandler((request, reply) => message(request, reply, 404, strings(request).notFoundTitle, strings(request).notFoundBody));

    for (const pages of [signInPages, overviewPages, creditsPages, developersPages, connectionsPages, webhooksPages, teamPages, supportPages, accountPages]) pages(app, kit);
  };
}
