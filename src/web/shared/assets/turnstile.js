import { h } from './dom.js';

/**
 * Cloudflare Turnstile (only when the server has a site key; its script is the page's only
 * external resource, added by the server with `render=explicit`). The widget is rendered into the
 * form; its token goes to the server as `humanCheckToken`. Tokens are single-use, so after any
 * failed send the widget is reset for a new one.
 */
export function humanCheck(siteKey) {
  let token = null;
  let widgetId = null;
  const element = h('div', { class: 'human-check' });

  const render = () => {
    widgetId = window.turnstile.render(element, {
      sitekey: siteKey,
      language: 'auto',
      callback: (value) => (token = value),
      'expired-callback': () => (token = null),
      'error-callback': () => (token = null),
    });
  };
  const whenLoaded = () => {
    if (window.turnstile) return render();
    document.getElementById('turnstile-script')?.addEventListener('load', () => window.turnstile && render(), { once: true });
  };

  return {
    element,
    mount: whenLoaded,
    token: () => token ?? (widgetId !== null ? window.turnstile?.getResponse(widgetId) || null : null),
    reset: () => {
      token = null;
      if (widgetId !== null) window.turnstile?.reset(widgetId);
    },
  };
}
