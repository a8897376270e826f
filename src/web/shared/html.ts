import type { LinkView } from '../../modules/links/links.schemas.ts';
import type { AssetBundle } from './assets.ts';
import { TURNSTILE_SCRIPT } from '../../http/page-headers.ts';
import type { Strings } from './strings/index.ts';

/**
 * The HTML documents of the answer page. The server renders a small shell (language, title, the
 * question text as a heading so the page says something before and without JavaScript) and embeds
 * what the script needs as JSON: the link view (saves a round-trip on a slow phone network), the
 * page's strings and the Turnstile site key. Everything the script shows is built with DOM calls
 * from that JSON, never parsed as HTML.
 */
const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => ESCAPES[c]);

/**
 * JSON inside `<script type="application/json">`: `<` is escaped so no string (a question text
 * such as "</script>") can close the element early; U+2028/2029 for old JavaScript parsers.
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

export const truncate = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);

/**
 * The document's start: language, viewport, no indexing, the referrer policy, the icon and
 * answer.css (the results page and the portal use it too). Pages whose address is a secret (the
 * answer link, a share link) send no referrer at all; the portal sends it to its own origin only,
 * so its forms carry an Origin the server can check.
 */
export function head(assets: AssetBundle, lang: string, title: string, extra = '', referrer: 'no-referrer' | 'same-origin' = 'no-referrer'): string {
  const base = `/a/assets/${assets.version}`;
  return `<!doctype html>
<html lang="${escapeHtml(lang)}" dir="ltr">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">
<meta name="robots" content="noindex, nofollow">
<meta name="referrer" content="${referrer}">
<meta name="color-scheme" content="light dark">
<title>${escapeHtml(title)}</title>
<link rel="icon" href="${base}/icon.svg" type="image/svg+xml">
<link rel="stylesheet" href="${base}/answer.css">
${extra}</head>`;
}

export interface PageInput {
  code: string;
  view: LinkView;
  lang: string;
  strings: Strings;
  assets: AssetBundle;
  turnstileSiteKey: string | null;
}

export function answerPage(input: PageInput): string {
  const { assets, view, strings } = input;
  const base = `/a/assets/${assets.version}`;
  // The answer page's own modules (the portal's script is not one of them).
  const preload = assets.modules.filter((m) => m !== 'answer.js' && m !== 'portal.js').map((m) => `<link rel="modulepreload" href="${base}/${m}">\n`).join('');
  const turnstile = input.turnstileSiteKey ? `<script src="${TURNSTILE_SCRIPT}" async defer id="turnstile-script"></script>\n` : '';
  // The results page's words (results*) are rendered on the server; the script never needs them.
  const scriptStrings = Object.fromEntries(Object.entries(strings).filter(([key]) => !key.startsWith('results')));
  const boot = { code: input.code, view, lang: input.lang, strings: scriptStrings, turnstileSiteKey: input.turnstileSiteKey };
  const title = view.state === 'live' ? truncate(view.question.text, 70) : strings.pageTitle;
  return `${head(assets, input.lang, title, `${preload}<script type="module" src="${base}/answer.js"></script>\n${turnstile}`)}
<body>
<main id="app" class="page" tabindex="-1">
<h1 class="question-text">${escapeHtml(view.question.text)}</h1>
<noscript><p class="notice">${escapeHtml(strings.noscript)}</p></noscript>
</main>
<div id="announcer" class="visually-hidden" aria-live="polite" aria-atomic="true"></div>
<script type="application/json" id="boot">${jsonForScript(boot)}</script>
</body>
</html>
`;
}

/** A page with a message and no script: the unknown-link 404 and the generic error page. */
export function messagePage(input: { assets: AssetBundle; lang: string; title: string; body: string; icon: string }): string {
  return `${head(input.assets, input.lang, input.title)}
<body>
<main id="app" class="page">
<div class="state">
<div class="state-icon" aria-hidden="true">${escapeHtml(input.icon)}</div>
<h1>${escapeHtml(input.title)}</h1>
<p>${escapeHtml(input.body)}</p>
</div>
</main>
</body>
</html>
`;
}
