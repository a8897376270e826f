import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestKey } from '../helpers/test-app.ts';
import { sleep, type Json } from '../helpers/questions.ts';
import { jpegWithGps, pathOf, png, webp } from '../helpers/media.ts';
import { redirect, serve, startImageHost, testCertificate, type ImageHost } from '../helpers/image-host.ts';
import { isPublicAddress } from '../../src/lib/outbound-http.ts';

/**
 * POST /v1/uploads/import (issue 13 point 7; spec "Drafts and uploads", "Limits": import; R5.1,
 * R5.2, R5.3) on a production-configured app. The image host is a local https server on
 * 127.0.0.2 with a certificate the app trusts through the test seam `importCa`, and
 * `importAllowedAddress` lets 127.0.0.2 alone stand in for a public address: every other address
 * goes through the production rule unchanged. A second server on 127.0.0.1 plays the internal
 * service an attacker aims at; it must never see a connection.
 */
let t: TestApp;
let key: TestKey;
let host: ImageHost;
let internal: ImageHost;
let big: Buffer;

const NAMES: Record<string, string[]> = {
  'images.example.com': ['127.0.0.2'],
  'internal.example.com': ['127.0.0.1'],
  'metadata.example.com': ['169.254.169.254'],
  'mapped.example.com': ['::ffff:127.0.0.1'],
  'cgnat.example.com': ['100.64.0.9'],
  'mixed.example.com': ['127.0.0.2', '10.1.2.3'],
  localhost: ['127.0.0.1'],
};

beforeAll(async () => {
  const [photo, picture, still, gif] = await Promise.all([
    jpegWithGps(1200, 800),
    png(300, 100),
    webp(100, 300),
    sharp({ create: { width: 8, height: 8, channels: 3, background: 'blue' } }).gif().toBuffer(),
  ]);
  big = Buffer.concat([picture, Buffer.alloc(6 * 1024 * 1024)]);
  internal = await startImageHost({ '/secret.png': serve(picture, 'image/png') }, '127.0.0.1');
  const images = () => `https://images.example.com:${host.port}`;
  host = await startImageHost({
    '/photo.jpg': serve(photo, 'image/jpeg'),
    '/picture.png': serve(picture, 'image/png'),
    '/still.webp': serve(still, 'image/webp'),
    '/named-wrong': serve(picture, 'text/html'),
    '/page.png': serve('<!doctype html><html><script>alert(1)</script></html>', 'image/png'),
    '/drawing.svg': serve('<svg xmlns="http://www.w3.org/2000/svg"><rect width="5" height="5"/></svg>', 'image/svg+xml'),
    '/animation.gif': serve(gif, 'image/gif'),
    '/big.png': serve(big, 'image/png'),
    '/empty.png': serve(Buffer.alloc(0), 'image/png'),
    '/gone.png': (_req, res) => res.writeHead(410).end(),
    '/hop1': redirect(() => `${images()}/hop2`),
    '/hop2': redirect(() => `${images()}/hop3`),
    '/hop3': redirect(() => `${images()}/picture.png`),
    '/hop0': redirect(() => `${images()}/hop1`),
    '/to-internal': redirect(() => `https://internal.example.com:${internal.port}/secret.png`),
    '/to-loopback': redirect(() => `https://127.0.0.1:${internal.port}/secret.png`),
    '/to-metadata': redirect('https://169.254.169.254/latest/meta-data/iam/security-credentials/'),
    '/to-metadata-name': redirect('https://metadata.example.com/latest/meta-data/'),
    '/to-mapped': redirect(() => `https://[::ffff:127.0.0.1]:${internal.port}/secret.png`),
    '/to-http': redirect(() => `http://images.example.com:${host.port}/picture.png`),
    '/to-file': redirect('file:///etc/passwd'),
  });
  t = await createTestApp({
    env: {
      NODE_ENV: 'production',
      TURNSTILE_SECRET: 'uploads-import-test',
      TURNSTILE_SITE_KEY: '0x4AAAAAAAuploads',
      SMTP_URL: 'smtp://127.0.0.1:2525',
      MAIL_FROM: 'no-reply@localhost',
      SESSION_SECRET: 'uploads-import-test-session-secret-32+chars',
      STRIPE_SECRET_KEY: 'sk_test_uploadsimport',
      STRIPE_WEBHOOK_SECRET: 'whsec_uploadsimport',
      RATE_LIMIT_PER_KEY: '100000',
      // Bytes in a table, so "nothing was stored" can be counted.
      UPLOAD_STORAGE: 'postgres',
    },
    outboundLookup: async (name) => {
      const addresses = NAMES[name];
      if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${name}`), { code: 'ENOTFOUND' });
      return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
    },
    importCa: testCertificate().cert,
    // The image host's address stands in for a public one; every other address meets the production rule.
    importAllowedAddress: (ip) => ip === '127.0.0.2' || isPublicAddress(ip),
  });
  expect(t.config.nodeEnv).toBe('production');
  key = await t.makeKey();
}, 60_000);
afterAll(async () => {
  await Promise.race([Promise.all([t?.close(), host?.stop(), internal?.stop()]), sleep(5_000)]);
});

const importUrl = (url: string) => t.inject({ method: 'POST', url: '/v1/uploads/import', headers: key.auth, payload: { url } });
const at = (path: string) => `https://images.example.com:${host.port}${path}`;
const blobs = async () => Number((await t.db.selectFrom('upload_blobs').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

async function failedImport(url: string, reason: string): Promise<Json> {
  const response = await importUrl(url);
  expect(response.statusCode, response.body).toBe(422);
  const { error } = response.json();
  expect(error.code).toBe('import_failed');
  expect(error.details.reason).toBe(reason);
  expect(error.message).toMatch(/Nothing was stored\.$/);
  return error;
}

describe('POST /v1/uploads/import: images', () => {
  it('imports a JPEG: 201 with its size; served like an upload, GPS EXIF gone', async () => {
    const response = await importUrl(at('/photo.jpg'));
    expect(response.statusCode, response.body).toBe(201);
    const body = response.json();
    expect(body).toEqual({ publicUrl: expect.stringMatching(/\/v1\/files\/upl_[0-9A-Za-z]{20}\.jpg$/), width: 1200, height: 800 });
    const served = await t.inject({ method: 'GET', url: pathOf(body.publicUrl) });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/jpeg');
    expect(served.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const meta = await sharp(served.rawPayload).metadata();
    expect(meta.exif).toBeUndefined();
    expect([meta.width, meta.height]).toEqual([1200, 800]);
    expect(host.requests.at(-1)).toBe('/photo.jpg');
  });

  it('imports PNG and WebP, typed by their bytes (not the Content-Type the host sends)', async () => {
    expect((await importUrl(at('/picture.png'))).json()).toMatchObject({ publicUrl: expect.stringMatching(/\.png$/), width: 300, height: 100 });
    expect((await importUrl(at('/still.webp'))).json()).toMatchObject({ publicUrl: expect.stringMatching(/\.webp$/), width: 100, height: 300 });
    expect((await importUrl(at('/named-wrong'))).json()).toMatchObject({ publicUrl: expect.stringMatching(/\.png$/) });
  });

  it('follows up to 3 redirects, and refuses a 4th', async () => {
    expect((await importUrl(at('/hop1'))).statusCode).toBe(201);
    await failedImport(at('/hop0'), 'too_many_redirects');
  });

  it.each([
    ['an HTML page served as image/png', '/page.png', 'not_accepted'],
    ['an SVG', '/drawing.svg', 'not_accepted'],
    ['a GIF', '/animation.gif', 'not_accepted'],
    ['a body over 5 MB', '/big.png', 'too_large'],
    ['an empty body', '/empty.png', 'empty'],
    ['a 410', '/gone.png', 'http_status'],
    ['a 404', '/nothing-here.png', 'http_status'],
  ])('refuses %s, storing nothing', async (_name, path, reason) => {
    const stored = await blobs();
    await failedImport(at(path), reason);
    expect(await blobs()).toBe(stored);
  });
});

describe('POST /v1/uploads/import: production address rules (R5.1, R5.2)', () => {
  it.each([
    ['a name resolving to 127.0.0.1', () => `https://internal.example.com:${internal.port}/secret.png`, 'not_public_address'],
    ['localhost', () => `https://localhost:${internal.port}/secret.png`, 'not_public_address'],
    ['a name resolving to 169.254.169.254', () => 'https://metadata.example.com/latest/meta-data/', 'not_public_address'],
    ['169.254.169.254 itself', () => 'https://169.254.169.254/latest/meta-data/', 'not_public_address'],
    ['127.0.0.1 itself', () => `https://127.0.0.1:${internal.port}/secret.png`, 'not_public_address'],
    ['[::1]', () => `https://[::1]:${internal.port}/secret.png`, 'not_public_address'],
    ['an IPv4-mapped IPv6 loopback', () => `https://[::ffff:127.0.0.1]:${internal.port}/secret.png`, 'not_public_address'],
    ['a name resolving to an IPv4-mapped loopback', () => `https://mapped.example.com:${internal.port}/secret.png`, 'not_public_address'],
    ['a CGNAT address (100.64.0.0/10)', () => 'https://cgnat.example.com/a.png', 'not_public_address'],
    ['a private address', () => 'https://10.1.2.3/a.png', 'not_public_address'],
    ['a name with one private address among public ones', () => `https://mixed.example.com:${host.port}/picture.png`, 'not_public_address'],
    ['http', () => `http://images.example.com:${host.port}/picture.png`, 'https_required'],
    ['a URL with credentials', () => `https://user:pw@images.example.com:${host.port}/picture.png`, 'bad_url'],
    ['a name that does not resolve', () => 'https://nowhere.example.com/a.png', 'dns_failed'],
  ])('refuses %s without connecting to it', async (_name, url, reason) => {
    const before = internal.connections;
    const error = await failedImport(url(), reason);
    expect(internal.connections).toBe(before);
    // The message names the host given, never the internal address it resolved to.
    if (!/127\.0\.0\.1|::1|169\.254|10\.1\.2\.3/.test(url())) expect(error.message).not.toMatch(/127\.0\.0\.1|169\.254|10\.1\.2\.3/);
  });

  it.each([
    ['a name resolving to 127.0.0.1', '/to-internal', 'not_public_address'],
    ['127.0.0.1 itself', '/to-loopback', 'not_public_address'],
    ['169.254.169.254', '/to-metadata', 'not_public_address'],
    ['a name resolving to 169.254.169.254', '/to-metadata-name', 'not_public_address'],
    ['an IPv4-mapped loopback', '/to-mapped', 'not_public_address'],
    ['http', '/to-http', 'https_required'],
    ['file:', '/to-file', 'bad_url'],
  ])('refuses a redirect to %s, checked again before connecting', async (_name, path, reason) => {
    const before = internal.connections;
    await failedImport(at(path), reason);
    // The first hop was fetched; the target never connected to.
    expect(host.requests.at(-1)).toBe(path);
    expect(internal.connections).toBe(before);
  });

  it('the internal server never saw a connection', () => {
    expect(internal.connections).toBe(0);
    expect(internal.requests).toEqual([]);
  });

  it('answers 400 for a body that is not a URL, 401 without a key, 403 without questions:write', async () => {
    expect((await importUrl('not a url')).statusCode).toBe(400);
    expect((await t.inject({ method: 'POST', url: '/v1/uploads/import', payload: { url: at('/photo.jpg') } })).statusCode).toBe(401);
    const reader = await t.makeKey(['questions:read']);
    expect((await t.inject({ method: 'POST', url: '/v1/uploads/import', headers: reader.auth, payload: { url: at('/photo.jpg') } })).statusCode).toBe(403);
  });
});
