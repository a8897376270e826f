import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { loadOnce } from '../lib/load-once.ts';

/**
 * `/docs`: the public API reference, rendered by Scalar from `/openapi.json` with request samples
 * (curl first). It is the reference in production too, so it loads nothing from other hosts:
 * the script is the copy inside the npm package (served at /docs/js/scalar.js), the default
 * fonts (a CDN) and telemetry are off, no request proxy is set, and a Content-Security-Policy
 * lets the page reach this origin only. The one inline script (the page's configuration) is
 * allowed by its hash, computed from the HTML actually sent; styles need 'unsafe-inline' (the
 * bundle injects its stylesheet and sets style attributes at run time).
 */
export const DOCS_PREFIX = '/docs';
const PAGE_ROUTE = `${DOCS_PREFIX}/`;
const SCRIPT_ROUTE = `${DOCS_PREFIX}/js/scalar.js`;
/** Every route the Scalar plugin makes for a `url` configuration, with this prefix. */
const SCALAR_ROUTES = [DOCS_PREFIX, PAGE_ROUTE, SCRIPT_ROUTE];

/** The answer page's colours and system fonts (src/web/shared/assets/answer.css), so both look like Headcount. */
const BRAND_CSS = `
:root, .light-mode {
  --scalar-color-accent: #3342c8;
  --scalar-font: system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", sans-serif;
  --scalar-font-code: ui-monospace, "SFMono-Regular", "DejaVu Sans Mono", Menlo, Consolas, monospace;
}
.dark-mode { --scalar-color-accent: #9aa6ff; }
/* The phone header shows the section in view on one line: a long operation summary ends in "…"
   instead of widening the page (sideways scrolling at 390 px). */
.t-doc__header header { overflow: hidden; }
.t-doc__header header > span { min-width: 0; overflow: hidden; text-overflow: ellipsis; }
`;

const ICON =
  'data:image/svg+xml,' +
  encodeURIComponent('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="8" fill="#3342c8"/><circle cx="16" cy="12" r="5" fill="#fff"/><path d="M7 26c1.5-5 5-7.5 9-7.5s7.5 2.5 9 7.5" fill="#fff"/></svg>');

/** The hashes of every inline `<script>` in a page, in CSP source form ('sha256-…'). */
export function inlineScriptHashes(html: string): string[] {
  const hashes: string[] = [];
  for (const match of html.matchAll(/<script\b(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/gi)) {
    hashes.push(`'sha256-${createHash('sha256').update(match[1], 'utf8').digest('base64')}'`);
  }
  return hashes;
}

export function docsContentSecurityPolicy(scriptHashes: readonly string[]): string {
  return [
    "default-src 'none'",
    `script-src 'self' ${scriptHashes.join(' ')}`.trim(),
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    // The reference fetches /openapi.json; its "Test request" client calls this same API.
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/**
 * The bundle is 4.3 MB as sent by the plugin, about 1 MB compressed: compressed once per
 * encoding on first use (off the event loop) and kept, so a phone downloads a quarter of it.
 */
function compressedScript() {
  const cache = new Map<string, Promise<Buffer>>();
  const brotli = promisify(zlib.brotliCompress);
  const gzip = promisify(zlib.gzip);
  return (encoding: 'br' | 'gzip', body: string): Promise<Buffer> => {
    let entry = cache.get(encoding);
    if (!entry) {
      const bytes = Buffer.from(body, 'utf8');
      entry = encoding === 'br' ? brotli(bytes, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 } }) : gzip(bytes, { level: 6 });
      cache.set(encoding, entry);
    }
    return entry;
  };
}

function preferredEncoding(request: FastifyRequest): 'br' | 'gzip' | null {
  const accepted = String(request.headers['accept-encoding'] ?? '');
  if (/\bbr\b/.test(accepted)) return 'br';
  if (/\bgzip\b/.test(accepted)) return 'gzip';
  return null;
}

export async function registerDocsPage(app: FastifyInstance): Promise<void> {
  const compress = compressedScript();
  let scriptEtag: string | null = null;

  // Own context: the onSend hook below sees only the docs routes (the plugin's routes join the
  // context they are registered in).
  await app.register(async (docs) => {
    docs.addHook('onSend', async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
      const route = request.routeOptions.url;
      if (route === PAGE_ROUTE && typeof payload === 'string') {
        // The plugin's page names no language; screen readers and translation need one.
        const html = payload.replace(/^<!doctype html>\s*<html>/i, '<!doctype html>\n<html lang="en">');
        reply.header('content-security-policy', docsContentSecurityPolicy(inlineScriptHashes(html)));
        reply.header('referrer-policy', 'no-referrer');
        reply.header('cache-control', 'no-cache');
        return html;
      }
      if (route === SCRIPT_ROUTE && typeof payload === 'string' && reply.statusCode === 200) {
        scriptEtag ??= `"${createHash('sha256').update(payload).digest('base64url').slice(0, 22)}"`;
        reply.header('etag', scriptEtag);
        // Revalidated on every visit (a 304 when unchanged): the URL does not change with the version.
        reply.header('cache-control', 'no-cache');
        reply.header('vary', 'accept-encoding');
        if (request.headers['if-none-match'] === scriptEtag) {
          reply.code(304);
          return '';
        }
        const encoding = preferredEncoding(request);
        if (!encoding) return payload;
        reply.header('content-encoding', encoding);
        return compress(encoding, payload);
      }
      return payload;
    });

    // The routes the plugin would make, each handing its request to the plugin's own server.
    for (const url of SCALAR_ROUTES) {
      docs.get(url, { schema: { hide: true }, logLevel: 'warn' }, async (request, reply) => {
        const answer = await (await scalarServer()).inject({ method: 'GET', url: request.url });
        for (const name of ['content-type', 'location'] as const) {
          const value = answer.headers[name];
          if (value !== undefined) reply.header(name, value);
        }
        return reply.code(answer.statusCode).send(answer.body);
      });
    }
  });
}

/**
 * Scalar's Fastify plugin, made on the first request for the reference, not at start-up: its
 * module holds the 4.3 MB page script as one string literal and brings an OpenAPI parser and a
 * YAML library, ~0.17 s of loading in every start (issue 15) for a page people open now and then.
 * Fastify takes no routes once the app is ready, so the plugin lives in a Fastify instance of its
 * own that never listens; the app's routes (above) pass it each request with `inject` and send
 * its answer on, through the app's own hooks (the headers and compression above, the security
 * headers of every page).
 */
const scalarServer = loadOnce(async () => {
  // Fastify itself is the app's, loaded already.
  const { default: scalar } = await import('@scalar/fastify-api-reference');
  const server = Fastify({ routerOptions: { ignoreTrailingSlash: false } });
  await server.register(scalar, {
    routePrefix: DOCS_PREFIX,
    logLevel: 'warn',
    configuration: {
      url: '/openapi.json',
      pageTitle: 'Headcount API reference',
      favicon: ICON,
      withDefaultFonts: false,
      telemetry: false,
      showDeveloperTools: 'never',
      // "Ask AI Agent" and "Generate MCP" send the document to Scalar's servers.
      agent: { disabled: true },
      mcp: { disabled: true },
      defaultHttpClient: { targetKey: 'shell', clientKey: 'curl' },
      customCss: BRAND_CSS,
    },
  });
  await server.ready();
  return server;
});
