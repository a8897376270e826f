import http from 'node:http';
import { serveChild } from '../lib/serve-child.ts';
import { SITEVERIFY_PATH, SITEVERIFY_SECRET } from '../lib/protocol.ts';

/**
 * A stand-in for Cloudflare Turnstile's siteverify
 * (https://challenges.cloudflare.com/turnstile/v0/siteverify), for scenarios whose requests pass
 * the answer page's human check (Scenario.humanCheck): production requires the check, so the app
 * child verifies every link answer's token here, over HTTP, as it would with Cloudflare. It says
 * `success: true` to a POSTed form with the bench's secret and a non-empty token, and
 * `invalid-input-secret` / `missing-input-response` otherwise (unlike Cloudflare it does not
 * refuse a token used twice: every bench request sends the same one). Plain node:http, in its own
 * process so its work is neither the app's nor the load generator's. What it does not stand for:
 * Cloudflare's own latency (tens of ms over the internet), which caps what one connection can send.
 */

await serveChild(async () => {
  let requests = 0;
  const server = http.createServer((request, response) => {
    requests += 1;
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      const fields = new URLSearchParams(body);
      const errors =
        request.method !== 'POST' || request.url !== SITEVERIFY_PATH
          ? ['bad-request']
          : fields.get('secret') !== SITEVERIFY_SECRET
            ? ['invalid-input-secret']
            : !fields.get('response')
              ? ['missing-input-response']
              : [];
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ success: errors.length === 0, 'error-codes': errors, hostname: 'bench.invalid' }));
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('siteverify stand-in: no TCP address');
  return {
    port: address.port,
    info: { path: SITEVERIFY_PATH },
    requests: () => requests,
    queries: () => 0,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
});
