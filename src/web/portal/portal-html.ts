import type { AssetBundle } from '../shared/assets.ts';
import { escapeHtml, head } from '../shared/html.ts';
import type { Membership } from '../../modules/people/people.schemas.ts';
import type { PortalStrings } from './strings/index.ts';
import { QUESTION_LANGUAGES } from '../../modules/draft/question-types.ts';

/**
 * The portal's HTML (docs/portal.md "Pages"): server-rendered, phone first, the answer page's
 * stylesheet plus portal.css, one small script of our own (copy buttons; everything works
 * without it). Every value is escaped here or by the caller; templates are escaped before values
 * go in. Every form that changes something posts a CSRF token (`csrfField`).
 */
export { escapeHtml };

/** A template with `{name}` placeholders: the template is escaped, then the values (escaped too unless marked safe). */
export function fill(template: string, values: Record<string, string | number>, safe: readonly string[] = []): string {
  return escapeHtml(template).replace(/\{(\w+)\}/g, (m, k: string) => (k in values ? (safe.includes(k) ? String(values[k]) : escapeHtml(String(values[k]))) : m));
}

export const csrfField = (token: string) => `<input type="hidden" name="_csrf" value="${escapeHtml(token)}">`;

/** A small form with one button (revoke, remove, accept…): POST with the CSRF token and hidden values. */
export function buttonForm(input: { action: string; csrf: string; label: string; hidden?: Record<string, string>; style?: 'primary' | 'secondary' | 'danger' }): string {
  const hidden = Object.entries(input.hidden ?? {}).map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`).join('');
  return `<form method="post" action="${escapeHtml(input.action)}" class="inline-form">${csrfField(input.csrf)}${hidden}<button type="submit" class="button ${input.style ?? 'secondary'}">${escapeHtml(input.label)}</button></form>`;
}

export function notice(kind: 'ok' | 'error', text: string): string {
  return `<p class="notice ${kind === 'error' ? 'notice-error' : 'notice-ok'}" role="${kind === 'error' ? 'alert' : 'status'}">${escapeHtml(text)}</p>`;
}

export interface SignedInFrame {
  assets: AssetBundle;
  lang: string;
  s: PortalStrings;
  csrf: string;
  accounts: Membership[];
  acting: Membership;
  personLabel: string;
  path: string;
}

const NAV: Array<{ href: string; key: keyof PortalStrings }> = [
  { href: '/app', key: 'navOverview' },
  { href: '/app/credits', key: 'navCredits' },
  { href: '/app/ledger', key: 'navLedger' },
  { href: '/app/developers', key: 'navDevelopers' },
  { href: '/app/connections', key: 'navConnections' },
  { href: '/app/webhooks', key: 'navWebhooks' },
  { href: '/app/team', key: 'navTeam' },
  { href: '/app/support', key: 'navSupport' },
  { href: '/app/account', key: 'navAccount' },
];

function documentStart(assets: AssetBundle, lang: string, title: string): string {
  const base = `/a/assets/${assets.version}`;
  return head(assets, lang, title, `<link rel="stylesheet" href="${base}/portal.css">\n<script type="module" src="${base}/portal.js"></script>\n`, 'same-origin');
}

function accountLabel(account: Membership, s: PortalStrings): string {
  return account.personal ? `${s.personalAccount} · ${account.name}` : account.name;
}

/** A page for a signed-in person: the header (who, which account, the switcher, navigation), the content, sign-out. */
export function signedInPage(frame: SignedInFrame, title: string, content: string): string {
  const { s } = frame;
  // Invitations belong with the team; every other page with the item its address starts with.
  const path = frame.path === '/app/invitations' ? '/app/team' : frame.path;
  const nav = NAV.map(
    (item) => `<a href="${item.href}"${item.href === path || (item.href !== '/app' && path.startsWith(`${item.href}/`)) ? ' aria-current="page"' : ''}>${escapeHtml(s[item.key])}</a>`,
  ).join('');
  const switcher =
    frame.accounts.length > 1
      ? `<form method="post" action="/app/switch" class="switcher">${csrfField(frame.csrf)}<label for="account-switch">${escapeHtml(s.actingFor)}</label>
<select id="account-switch" name="account">${frame.accounts
          .map((a) => `<option value="${escapeHtml(a.accountId)}"${a.accountId === frame.acting.accountId ? ' selected' : ''}>${escapeHtml(accountLabel(a, s))}</option>`)
          .join('')}</select><button type="submit" class="button secondary small">${escapeHtml(s.switchAccount)}</button></form>`
      : `<p class="switcher">${escapeHtml(s.actingFor)} <strong>${escapeHtml(accountLabel(frame.acting, s))}</strong></p>`;
  return `${documentStart(frame.assets, frame.lang, `${title} · ${s.brand}`)}
<body>
<a class="skip-link" href="#content">${escapeHtml(s.skipToContent)}</a>
<header class="portal-header">
<div class="portal-bar">
<a class="portal-brand" href="/app"><img src="/a/assets/${frame.assets.version}/icon.svg" alt="" width="28" height="28"> ${escapeHtml(s.brand)}</a>
<form method="post" action="/app/sign-out" class="inline-form">${csrfField(frame.csrf)}<button type="submit" class="button secondary small">${escapeHtml(s.signOut)}</button></form>
<span class="portal-person">${escapeHtml(frame.personLabel)}</span>
</div>
${switcher}
<nav class="portal-nav" aria-label="${escapeHtml(s.brand)}">${nav}</nav>
</header>
<main id="content" class="page portal" tabindex="-1">
<h1>${escapeHtml(title)}</h1>
${content}
</main>
</body>
</html>
`;
}

/** A page before signing in (sign-in, the link's confirmation, the dev mailbox, errors). */
export function signedOutPage(input: { assets: AssetBundle; lang: string; title: string; content: string; s: PortalStrings }): string {
  return `${documentStart(input.assets, input.lang, `${input.title} · ${input.s.brand}`)}
<body>
<main id="content" class="page portal narrow">
<a class="portal-brand" href="/app"><img src="/a/assets/${input.assets.version}/icon.svg" alt="" width="32" height="32"> ${escapeHtml(input.s.brand)}</a>
<h1>${escapeHtml(input.title)}</h1>
${input.content}
</main>
</body>
</html>
`;
}

/** The language choice under "Your account": the eight languages, each named in itself. */
export const LANGUAGE_NAMES: Record<(typeof QUESTION_LANGUAGES)[number], string> = {
  en: 'English',
  es: 'Español',
  pt: 'Português',
  hi: 'हिन्दी',
  fr: 'Français',
  de: 'Deutsch',
  id: 'Bahasa Indonesia',
  tl: 'Tagalog',
};

/** Dates as a person reads them in their language (UTC: the service's days are UTC days). */
export function formatters(lang: string) {
  const date = new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeZone: 'UTC' });
  const dateTime = new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });
  const number = new Intl.NumberFormat(lang);
  return {
    date: (iso: string) => date.format(new Date(iso)),
    dateTime: (iso: string) => `${dateTime.format(new Date(iso))} UTC`,
    int: (n: number) => number.format(n),
    money: (minor: number, currency: string) => new Intl.NumberFormat(lang, { style: 'currency', currency }).format(minor / 100),
  };
}
export type Formatters = ReturnType<typeof formatters>;
