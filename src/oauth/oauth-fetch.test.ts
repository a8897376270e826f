import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OutboundError } from '../lib/outbound-http.ts';
import { createOauthFetch } from './oauth-fetch.ts';

/** The provider's outbound fetch: the SSRF-safe client behind a fetch-shaped function (R5.1, R5.2). */
describe('createOauthFetch', () => {
  let server: http.Server;
  let base: string;
  beforeAll(async () => {
    server = http.createServer((request, response) => {
      if (request.url === '/big') return void response.writeHead(200, { 'content-type': 'application/json' }).end('x'.repeat(200 * 1024));
      if (request.url === '/moved') return void response.writeHead(302, { location: '/client.json' }).end();
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ client_id: 'https://agent.example/client.json', client_name: 'Agent' }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it('as in production: an address of this machine is refused before any connection', async () => {
    const error = await createOauthFetch()(`https://127.0.0.1:${new URL(base).port}/client.json`).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OutboundError);
    expect((error as OutboundError).code).toBe('not_public_address');
  });

  it('as in production: plain http is refused', async () => {
    const error = await createOauthFetch()(`${base}/client.json`).catch((e: unknown) => e);
    expect((error as OutboundError).code).toBe('https_required');
  });

  it('where allowed: a Response the provider can read, headers and JSON body as sent', async () => {
    const response = await createOauthFetch({ allowPrivate: true, allowHttp: true })(`${base}/client.json`, { headers: { accept: 'application/json' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.json()).toEqual({ client_id: 'https://agent.example/client.json', client_name: 'Agent' });
  });

  it('follows no redirect, and cuts a huge body at its limit', async () => {
    const fetchIt = createOauthFetch({ allowPrivate: true, allowHttp: true });
    const moved = await fetchIt(`${base}/moved`);
    expect(moved.status).toBe(302);
    expect(moved.headers.get('location')).toBe('/client.json');
    const big = await fetchIt(`${base}/big`);
    expect((await big.arrayBuffer()).byteLength).toBe(64 * 1024);
  });
});
