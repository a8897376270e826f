import type { Config } from '../config.ts';

/**
 * Response headers of the answer page's HTML (the 404 and error pages too).
 *
 * - `Cache-Control: no-store` and `X-Robots-Tag: noindex`: the page embeds the question's live
 *   state, and links are shared privately (spec "Answer-page endpoints": never cached, not indexed).
 * - `Referrer-Policy: no-referrer`: the link code is the only key to the question; it must not leak
 *   to image hosts or to Cloudflare in a Referer header.
 * - Content-Security-Policy: only this origin runs code or styles. Question images and audio are
 *   hosted anywhere on https (uploads, imports), so `img-src`/`media-src` allow `https:`. The
 *   Turnstile origin is allowed for its script and its iframe, and only when a site key is
 *   configured (Cloudflare's documented CSP: script-src and frame-src). Under NODE_ENV=test the
 *   browser tests serve fixture images from a local http server, so `http://127.0.0.1:*` is added
 *   there and nowhere else.
 */
export const TURNSTILE_ORIGIN = 'https://challenges.cloudflare.com';
export const TURNSTILE_SCRIPT = `${TURNSTILE_ORIGIN}/turnstile/v0/api.js?render=explicit`;

export function contentSecurityPolicy(config: Pick<Config, 'nodeEnv' | 'turnstile'>, options: PageOptions = {}): string {
  const scripts = options.scripts !== false;
  const turnstile = scripts && config.turnstile.siteKey ? ` ${TURNSTILE_ORIGIN}` : '';
  const media = `'self' https:${config.nodeEnv === 'test' ? ' http://127.0.0.1:*' : ''}`;
  return [
    "default-src 'none'",
    scripts ? `script-src 'self'${turnstile}` : "script-src 'none'",
    "style-src 'self'",
    `img-src ${media}`,
    `media-src ${media}`,
    scripts ? "connect-src 'self'" : "connect-src 'none'",
    ...(turnstile ? [`frame-src${turnstile}`] : []),
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/**
 * `scripts: false` for pages that run none (the public results page, docs/sharing.md): no script
 * and no request from script is allowed at all. `cacheControl` replaces `no-store` for pages that
 * show nothing private and may be cached (the same public results the JSON route caches).
 */
export interface PageOptions {
  scripts?: boolean;
  cacheControl?: string;
}

export function pageHeaders(config: Pick<Config, 'nodeEnv' | 'turnstile'>, options: PageOptions = {}): Record<string, string> {
  return {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': options.cacheControl ?? 'no-store',
    'x-robots-tag': 'noindex',
    'referrer-policy': 'no-referrer',
    'x-content-type-options': 'nosniff',
    'content-security-policy': contentSecurityPolicy(config, options),
  };
}
