import type { LightMyRequestResponse } from 'fastify';
import type { TestApp } from './test-app.ts';
import { signInMailOf } from './people.ts';

/**
 * A small browser over `app.inject` for the portal's HTML forms (docs/portal.md): a cookie jar
 * that keeps what Set-Cookie says (path-scoped, cleared by Max-Age=0), the CSRF token read from
 * the page as a person's browser would post it back, and forms posted url-encoded. The real
 * browser tests (test/e2e/portal.test.ts) do the same in Chromium.
 */
export interface SetCookie {
  name: string;
  value: string;
  attributes: Record<string, string | true>;
  raw: string;
}

export function parseSetCookies(response: LightMyRequestResponse): SetCookie[] {
  const header = response.headers['set-cookie'];
  const lines = header === undefined ? [] : Array.isArray(header) ? header : [header];
  return lines.map((raw) => {
    const [pair, ...rest] = raw.split(';');
    const eq = pair.indexOf('=');
    const attributes: Record<string, string | true> = {};
    for (const part of rest) {
      const [k, ...v] = part.trim().split('=');
      attributes[k.toLowerCase()] = v.length ? v.join('=') : true;
    }
    return { name: pair.slice(0, eq).trim(), value: pair.slice(eq + 1).trim(), attributes, raw };
  });
}

export const csrfOf = (html: string): string => {
  const match = /name="_csrf" value="([^"]+)"/.exec(html);
  if (!match) throw new Error(`no CSRF token in the page:\n${html.slice(0, 500)}`);
  return match[1];
};

export class PortalBrowser {
  readonly jar = new Map<string, { value: string; path: string }>();
  constructor(private readonly t: TestApp, readonly ip = '10.200.0.1', readonly headers: Record<string, string> = {}) {}

  private cookieHeader(url: string): string {
    const path = url.split('?')[0];
    return [...this.jar.entries()].filter(([, c]) => path === c.path || path.startsWith(c.path.endsWith('/') ? c.path : `${c.path}/`)).map(([name, c]) => `${name}=${c.value}`).join('; ');
  }

  private keep(response: LightMyRequestResponse): LightMyRequestResponse {
    for (const c of parseSetCookies(response)) {
      if (c.attributes['max-age'] === '0' || c.value === '') this.jar.delete(c.name);
      else this.jar.set(c.name, { value: c.value, path: String(c.attributes.path ?? '/') });
    }
    return response;
  }

  async get(url: string, headers: Record<string, string> = {}): Promise<LightMyRequestResponse> {
    return this.keep(await this.t.app.inject({ method: 'GET', url, remoteAddress: this.ip, headers: { ...this.headers, cookie: this.cookieHeader(url), ...headers } }));
  }

  async post(url: string, fields: Record<string, string | string[]>, headers: Record<string, string> = {}): Promise<LightMyRequestResponse> {
    const body = new URLSearchParams();
    for (const [k, v] of Object.entries(fields)) for (const one of ([] as string[]).concat(v)) body.append(k, one);
    return this.keep(
      await this.t.app.inject({
        method: 'POST',
        url,
        remoteAddress: this.ip,
        payload: body.toString(),
        headers: { ...this.headers, 'content-type': 'application/x-www-form-urlencoded', cookie: this.cookieHeader(url), ...headers },
      }),
    );
  }

  /** Opens `page`, fills its form (the first with a CSRF token) and posts it to `action`. */
  async submit(page: string, action: string, fields: Record<string, string | string[]>): Promise<LightMyRequestResponse> {
    const html = (await this.get(page)).body;
    return this.post(action, { _csrf: csrfOf(html), ...fields });
  }

  /** Signs in through the pages: address, then the code from the dev mailbox. */
  async signIn(email: string): Promise<LightMyRequestResponse> {
    const asked = await this.submit('/app/sign-in', '/app/sign-in', { email, next: '/app' });
    if (asked.statusCode !== 303) throw new Error(`sign-in answered ${asked.statusCode}: ${asked.body.slice(0, 300)}`);
    return this.submit('/app/sign-in/code', '/app/sign-in/code', { code: signInMailOf(this.t, email).code, next: '/app' });
  }
}
