import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local http server for what the questions point at: images (SVG, drawn here) and a stand-in
 * for Cloudflare's siteverify. The answer page's CSP allows `http://127.0.0.1:*` images under
 * NODE_ENV=test only, so the browser loads them as it would https ones in production.
 */
const svg = (fill: string, text: string, w = 400, h = 300) =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}">` +
  `<rect width="${w}" height="${h}" fill="${fill}"/>` +
  `<text x="50%" y="50%" font-family="sans-serif" font-size="${Math.round(h / 5)}" fill="#fff" text-anchor="middle" dominant-baseline="middle">${text}</text></svg>`;

/** A grid, so a screenshot shows where taps landed. */
const grid = () => {
  const lines = Array.from({ length: 9 }, (_, i) => {
    const at = (i + 1) * 40;
    return `<line x1="${at}" y1="0" x2="${at}" y2="400" stroke="#fff" stroke-opacity=".5"/><line x1="0" y1="${at}" x2="400" y2="${at}" stroke="#fff" stroke-opacity=".5"/>`;
  }).join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="400" viewBox="0 0 400 400"><rect width="400" height="400" fill="#2b6f77"/>${lines}<rect x="140" y="170" width="120" height="60" rx="12" fill="#f4b400"/><text x="200" y="207" font-family="sans-serif" font-size="22" text-anchor="middle">Buy now</text></svg>`;
};

const IMAGES: Record<string, string> = {
  '/a.svg': svg('#c0392b', 'A'),
  '/b.svg': svg('#2471a3', 'B'),
  '/grid.svg': grid(),
  '/stimulus.svg': svg('#7d3c98', 'Logo', 400, 400),
};

export interface Fixtures {
  origin: string;
  url(path: string): string;
  /** Every siteverify call (form fields). */
  verifications: Array<Record<string, string>>;
  close(): Promise<void>;
}

/** The token the fake Turnstile widget hands out and the fake siteverify accepts. */
export const GOOD_TOKEN = 'XXXX.DUMMY.TOKEN.XXXX';

export async function startFixtures(): Promise<Fixtures> {
  const verifications: Array<Record<string, string>> = [];
  const server = http.createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    if (request.method === 'POST' && path === '/siteverify') {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        const fields = Object.fromEntries(new URLSearchParams(body));
        verifications.push(fields);
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ success: fields.response === GOOD_TOKEN }));
      });
      return;
    }
    const image = IMAGES[path];
    if (!image) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-type': 'image/svg+xml', 'cache-control': 'no-store' });
    response.end(image);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    url: (path) => `${origin}${path}`,
    verifications,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** What the page loads from challenges.cloudflare.com in the tests: a widget that passes at once. */
export const FAKE_TURNSTILE = `
window.turnstile = {
  render(element, options) {
    element.textContent = 'Human check (test stand-in)';
    window.__turnstileOptions = { sitekey: options.sitekey };
    setTimeout(() => options.callback(${JSON.stringify(GOOD_TOKEN)}), 20);
    return 'widget-1';
  },
  reset() { window.__turnstileResets = (window.__turnstileResets || 0) + 1; },
  getResponse() { return ${JSON.stringify(GOOD_TOKEN)}; },
};
`;
