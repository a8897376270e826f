import { createTestApp, type TestApp, type TestAppOptions } from './test-app.ts';
import { freePort } from './service-process.ts';
import { signInMailOf } from './people.ts';

/**
 * The app listening on a real port of 127.0.0.1, with PUBLIC_BASE_URL naming that address: what OAuth
 * and MCP clients discover (issuer, resource, metadata URLs) must be where they can reach it.
 */
export async function createListeningApp(options: TestAppOptions = {}): Promise<TestApp & { baseUrl: string }> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const t = await createTestApp({ ...options, env: { ...options.env, PUBLIC_BASE_URL: baseUrl } });
  await t.app.listen({ port, host: '127.0.0.1' });
  return Object.assign(t, { baseUrl });
}

export interface Page {
  status: number;
  location: string | null;
  headers: Headers;
  body: string;
}

/**
 * A small browser over real HTTP (fetch): a path-scoped cookie jar, redirects followed by hand
 * within the service's origin (so a test sees where a flow leaves it, e.g. for an app's redirect
 * URI), and forms posted url-encoded with the page's CSRF token, as a person's browser would.
 */
export class HttpBrowser {
  readonly jar = new Map<string, { value: string; path: string }>();
  constructor(readonly baseUrl: string, readonly headers: Record<string, string> = {}) {}

  private cookieHeader(url: URL): string {
    return [...this.jar.entries()]
      .filter(([, c]) => url.pathname === c.path || url.pathname.startsWith(c.path.endsWith('/') ? c.path : `${c.path}/`))
      .map(([key, c]) => `${key.split('\u0000')[0]}=${c.value}`)
      .join('; ');
  }

  private keep(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const path = attributes.map((a) => a.trim()).find((a) => a.toLowerCase().startsWith('path='))?.slice(5) ?? '/';
      const gone = value === '' || attributes.some((a) => /^\s*max-age=0\s*$/i.test(a)) || attributes.some((a) => /^\s*expires=Thu, 01 Jan 1970/i.test(a));
      const key = `${name}\u0000${path}`;
      if (gone) this.jar.delete(key);
      else this.jar.set(key, { value, path });
    }
  }

  async request(method: 'GET' | 'POST', target: string, body?: URLSearchParams, headers: Record<string, string> = {}): Promise<Page> {
    const url = new URL(target, this.baseUrl);
    const cookie = this.cookieHeader(url);
    const response = await fetch(url, {
      method,
      redirect: 'manual',
      body,
      headers: { ...this.headers, ...(cookie ? { cookie } : {}), ...(body ? { 'content-type': 'application/x-www-form-urlencoded', origin: this.baseUrl } : {}), ...headers },
    });
    this.keep(response);
    const location = response.headers.get('location');
    return { status: response.status, location: location ? new URL(location, url).toString() : null, headers: response.headers, body: await response.text() };
  }

  /** GET, then follows redirects while they stay on the service; returns the last page (or the redirect that leaves). */
  async open(target: string, max = 10): Promise<Page> {
    let page = await this.request('GET', target);
    for (let i = 0; i < max && page.location && page.location.startsWith(this.baseUrl); i++) page = await this.request('GET', page.location);
    return page;
  }

  /** POSTs a form, then follows redirects as `open` does. */
  async post(target: string, fields: Record<string, string | string[]>): Promise<Page> {
    const body = new URLSearchParams();
    for (const [k, v] of Object.entries(fields)) for (const one of ([] as string[]).concat(v)) body.append(k, one);
    const page = await this.request('POST', target, body);
    return page.location && page.location.startsWith(this.baseUrl) ? this.open(page.location) : page;
  }
}

export function csrfIn(html: string): string {
  const match = /name="_csrf" value="([^"]+)"/.exec(html);
  if (!match) throw new Error(`no CSRF token in the page:\n${html.slice(0, 500)}`);
  return match[1];
}

/**
 * On the portal's sign-in page a flow sent the browser to: sign in with `email` (the code from
 * the dev mailbox) and follow `next` back; returns the page it comes back to.
 */
export async function signInThere(t: TestApp, browser: HttpBrowser, page: Page, email: string): Promise<Page> {
  if (!page.body.includes('name="email"')) throw new Error(`not the sign-in page:\n${page.body.slice(0, 400)}`);
  const next = /name="next" value="([^"]+)"/.exec(page.body)?.[1].replace(/&amp;/g, '&') ?? '/app';
  const asked = await browser.post('/app/sign-in', { _csrf: csrfIn(page.body), email, next });
  return browser.post('/app/sign-in/code', { _csrf: csrfIn(asked.body), code: signInMailOf(t, email).code, next });
}
