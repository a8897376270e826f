import { preferredLanguage } from '../../lib/accept-language.ts';
import { QUESTION_LANGUAGES } from '../../modules/draft/question-types.ts';
import type { OauthPages, PageContext } from '../../oauth/oauth-provider.ts';
import type { AssetBundle } from '../shared/assets.ts';
import type { Config } from '../../config.ts';
import { pageHeaders } from '../../http/page-headers.ts';
import { escapeHtml, fill, signedOutPage } from './portal-html.ts';
import { PORTAL_STRINGS } from './strings/index.ts';

/**
 * The pages the authorization server draws itself (docs/agents.md "The device flow"): the device
 * page where a person types the code their terminal shows, its confirmation, the "connected" page,
 * and OAuth error pages, in the portal's look and the browser's language. The provider's own form
 * (with its CSRF field) is placed as given; the buttons submit it by its id.
 */
export function createOauthPages(assets: AssetBundle, config: Config): OauthPages {
  const words = (context: PageContext) => {
    const lang = preferredLanguage(context.acceptLanguage, QUESTION_LANGUAGES);
    return { lang, s: PORTAL_STRINGS[lang] };
  };
  const page = (context: PageContext, title: string, content: string) => {
    const { lang, s } = words(context);
    return signedOutPage({ assets, lang, title, content, s });
  };
  return {
    headers: { ...pageHeaders(config), 'x-frame-options': 'DENY' },
    deviceInput(context, form, problem) {
      const { s } = words(context);
      const message = problem === 'wrong_code' ? s.deviceWrongCode : problem === 'aborted' ? s.deviceAborted : problem === 'failed' ? s.deviceFailed : null;
      return page(context, s.deviceTitle, `${message ? `<p class="notice notice-error" role="alert">${escapeHtml(message)}</p>` : `<p class="lead">${escapeHtml(s.deviceLead)}</p>`}
<section class="card device-code">${form
  .replace('placeholder="Enter code"', `aria-label="${escapeHtml(s.deviceTitle)}" autocapitalize="characters"`)
  // The provider's inline onfocus handler (select the text) is refused by the page's CSP (no inline script).
  .replace(/\s+onfocus="[^"]*"/, '')}
<button type="submit" class="button" form="op.deviceInputForm">${escapeHtml(s.deviceContinue)}</button></section>`);
    },
    deviceConfirm(context, form, client, userCode) {
      const { s } = words(context);
      return page(context, s.deviceConfirmTitle, `<p class="device-user-code"><code data-testid="user-code">${escapeHtml(userCode)}</code></p>
<p>${fill(s.deviceConfirmBody, { app: client.name })}</p>
${client.verifiedDomain ? '' : `<p class="notice notice-error" role="note">${escapeHtml(s.oauthUnverified)}</p>`}
${form}
<div class="actions"><button type="submit" class="button" form="op.deviceConfirmForm">${escapeHtml(s.deviceContinue)}</button>
<button type="submit" class="button secondary" form="op.deviceConfirmForm" name="abort" value="yes">${escapeHtml(s.deviceAbort)}</button></div>`);
    },
    deviceDone(context, client) {
      const { s } = words(context);
      return page(context, s.deviceDoneTitle, `<p class="lead" data-testid="device-done">${fill(s.deviceDoneBody, { app: client.name })}</p>`);
    },
    error(context, error, description) {
      const { s } = words(context);
      const what = description ? `${error}: ${description}` : error;
      return page(context, s.oauthErrorTitle, `<p>${fill(s.oauthErrorBody, { error: what })}</p>\n<p><a class="button" href="/app">${escapeHtml(s.back)}</a></p>`);
    },
  };
}
