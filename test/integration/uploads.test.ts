import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestKey } from '../helpers/test-app.ts';
import { errorOf, sleep, type Json } from '../helpers/questions.ts';
import { jpeg, jpegWithGps, pathOf, png, put, ticket, upload, wav, webp } from '../helpers/media.ts';
import { UPLOAD_LIMITS } from '../../src/modules/uploads/uploads.schemas.ts';

/**
 * Uploads (issue 13 point 6; spec "Drafts and uploads"; docs/uploads.md), every response checked
 * against /openapi.json: the upload URL and its PUT (declared type and size enforced, the bytes
 * checked, metadata stripped, one PUT), the files as served (headers, ETag, ranges), audio by its
 * duration, the URL's 15 minutes on the fake clock, and the sweep of uploads never finished. Each
 * refusal is a 4xx in the error envelope and stores nothing. The same on the filesystem storage.
 */
let t: TestApp;
let key: TestKey;

beforeAll(async () => {
  t = await createTestApp({ env: { UPLOAD_STORAGE: 'postgres', RATE_LIMIT_PER_KEY: '100000', RATE_LIMIT_PER_IP: '100000' } });
  key = await t.makeKey();
}, 60_000);
afterAll(async () => {
  await Promise.race([t?.close(), sleep(5_000)]);
});

const get = (url: string, headers: Record<string, string> = {}) => t.inject({ method: 'GET', url: pathOf(url), headers });
const blobs = async () => Number((await t.db.selectFrom('upload_blobs').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

/** A refusal: the status, the code, in the envelope with a request id. */
function refused(response: { statusCode: number; json(): Json }, status: number, code: string): Json {
  expect(response.statusCode, JSON.stringify(response.json())).toBe(status);
  const error = response.json().error;
  expect(error.code).toBe(code);
  expect(error.requestId).toEqual(expect.any(String));
  return error;
}

describe('POST /v1/uploads', () => {
  it('gives an upload URL, the publicUrl, the headers to send, and when the URL ends', async () => {
    const response = await t.inject({ method: 'POST', url: '/v1/uploads', headers: key.auth, payload: { kind: 'image', contentType: 'image/jpeg', bytes: 1234 } });
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(body.uploadUrl).toMatch(new RegExp(`^${t.config.publicBaseUrl}/v1/uploads/upt_[0-9A-Za-z]{43}$`));
    expect(body.publicUrl).toMatch(new RegExp(`^${t.config.publicBaseUrl}/v1/files/upl_[0-9A-Za-z]{20}\\.jpg$`));
    expect(body.headers).toEqual({ 'Content-Type': 'image/jpeg' });
    expect(new Date(body.expiresAt).getTime() - t.clock.now().getTime()).toBe(15 * 60_000);
    // The token is the credential: only its hash is stored.
    const row = await t.db.selectFrom('uploads').selectAll().where('id', '=', body.publicUrl.split('/').pop().split('.')[0]).executeTakeFirstOrThrow();
    expect(row.token_hash).not.toBeNull();
    expect(JSON.stringify(row)).not.toContain(body.uploadUrl.split('/').pop());
  });

  it('refuses a type that does not go with the kind, and a size over the limit (400 on the field)', async () => {
    const post = (payload: Json) => t.inject({ method: 'POST', url: '/v1/uploads', headers: key.auth, payload });
    const mismatch = refused(await post({ kind: 'image', contentType: 'audio/wav', bytes: 100 }), 400, 'validation_failed');
    expect(mismatch.details.validation[0]).toMatchObject({ field: 'contentType', code: 'not_allowed' });
    const tooBig = refused(await post({ kind: 'image', contentType: 'image/png', bytes: UPLOAD_LIMITS.imageBytes + 1 }), 400, 'validation_failed');
    expect(tooBig.details.validation[0].field).toBe('bytes');
    refused(await post({ kind: 'image', contentType: 'image/gif', bytes: 100 }), 400, 'validation_failed');
    refused(await post({ kind: 'image', contentType: 'image/png', bytes: 0 }), 400, 'validation_failed');
    refused(await post({ kind: 'image', contentType: 'image/png' }), 400, 'validation_failed');
    refused(await post({ kind: 'image', contentType: 'image/png', bytes: 10, extra: true }), 400, 'validation_failed');
  });

  it('needs a credential with questions:write', async () => {
    const payload = { kind: 'image', contentType: 'image/png', bytes: 10 };
    refused(await t.inject({ method: 'POST', url: '/v1/uploads', payload }), 401, 'unauthorized');
    const reader = await t.makeKey(['questions:read']);
    refused(await t.inject({ method: 'POST', url: '/v1/uploads', headers: reader.auth, payload }), 403, 'insufficient_scope');
  });
});

describe('PUT to the upload URL, and the file served', () => {
  it('strips EXIF (GPS included) from a JPEG, keeps it upright, and serves it with safe headers', async () => {
    const original = await jpegWithGps(80, 40, 6);
    const before = await sharp(original).metadata();
    expect(before.exif?.length).toBeGreaterThan(0);
    expect(before.orientation).toBe(6);

    const made = await ticket(t, key, 'image', 'image/jpeg', original.length);
    // Nothing is served until the PUT succeeds.
    refused(await get(made.publicUrl), 404, 'not_found');
    const response = await put(t, made.uploadUrl, original, made.headers);
    expect(response.statusCode, response.body).toBe(200);
    // Orientation 6 is a quarter turn: the 80 × 40 stored pixels are shown 40 × 80.
    expect(response.json()).toMatchObject({ publicUrl: made.publicUrl, kind: 'image', contentType: 'image/jpeg', width: 40, height: 80, durationMs: null });

    const served = await get(made.publicUrl);
    expect(served.statusCode).toBe(200);
    expect(served.headers).toMatchObject({
      'content-type': 'image/jpeg',
      'cache-control': 'public, max-age=31536000, immutable',
      'x-content-type-options': 'nosniff',
      'content-disposition': expect.stringMatching(/^inline; filename="upl_[0-9A-Za-z]{20}\.jpg"$/),
      'content-security-policy': expect.stringContaining("default-src 'none'"),
      etag: expect.stringMatching(/^"[A-Za-z0-9_-]+"$/),
    });
    const meta = await sharp(served.rawPayload).metadata();
    expect(meta.format).toBe('jpeg');
    expect(meta.exif).toBeUndefined();
    expect(meta.xmp).toBeUndefined();
    expect(meta.iptc).toBeUndefined();
    expect(meta.orientation).toBeUndefined();
    expect([meta.width, meta.height]).toEqual([40, 80]);
    expect(served.rawPayload.includes(Buffer.from('HeadcountPhone'))).toBe(false);
    expect(served.rawPayload.length).toBe(response.json().bytes);

    // A second PUT to the same URL: 409, the file unchanged.
    const again = refused(await put(t, made.uploadUrl, original, made.headers), 409, 'conflict');
    expect(again.details.publicUrl).toBe(made.publicUrl);
    expect((await get(made.publicUrl)).rawPayload.equals(served.rawPayload)).toBe(true);
  });

  it('of two PUTs at once, one stores and the other is told 409', async () => {
    const body = await png(120, 80);
    const made = await ticket(t, key, 'image', 'image/png', body.length);
    const answers = await Promise.all([put(t, made.uploadUrl, body, made.headers), put(t, made.uploadUrl, body, made.headers)]);
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect(answers.find((r) => r.statusCode === 409)!.json().error.code).toBe('conflict');
  });

  it('answers If-None-Match with 304, a HEAD without the body, and a byte range with 206', async () => {
    const { publicUrl } = await upload(t, key, 'image', 'image/png', await png(30, 20));
    const full = await get(publicUrl);
    expect((await get(publicUrl, { 'if-none-match': full.headers.etag as string })).statusCode).toBe(304);
    const head = await t.inject({ method: 'HEAD', url: pathOf(publicUrl) });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-type']).toBe('image/png');
    expect(head.rawPayload.length).toBe(0);
    const part = await get(publicUrl, { range: 'bytes=0-9' });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 0-9/${full.rawPayload.length}`);
    expect(part.rawPayload.equals(full.rawPayload.subarray(0, 10))).toBe(true);
    // A range past the end is ignored: the whole file.
    expect((await get(publicUrl, { range: `bytes=${full.rawPayload.length + 5}-` })).statusCode).toBe(200);
  });

  it('keeps PNG and WebP in their format, re-encoded', async () => {
    const p = await upload(t, key, 'image', 'image/png', await png(50, 25));
    expect(p.file).toMatchObject({ contentType: 'image/png', width: 50, height: 25 });
    expect(p.publicUrl).toMatch(/\.png$/);
    const w = await upload(t, key, 'image', 'image/webp', await webp(25, 50));
    expect(w.file).toMatchObject({ contentType: 'image/webp', width: 25, height: 50 });
    expect((await sharp((await get(w.publicUrl)).rawPayload).metadata()).format).toBe('webp');
  });

  it('scales a large image down to 2048 px on its longer side', async () => {
    const big = await jpeg(3000, 1000);
    const { file } = await upload(t, key, 'image', 'image/jpeg', big);
    expect(file).toMatchObject({ width: 2048, height: 683 });
  });

  it.each([
    ['a PNG declared as JPEG', 'image/jpeg', () => png(), 'type_mismatch'],
    ['a JPEG declared as WebP', 'image/webp', () => jpeg(), 'type_mismatch'],
    ['an HTML page declared as PNG', 'image/png', async () => Buffer.from('<!doctype html><html><body><script>alert(document.cookie)</script></body></html>'), 'not_accepted'],
    ['an SVG declared as PNG', 'image/png', async () => Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><rect width="10" height="10"/></svg>'), 'not_accepted'],
    ['a GIF declared as PNG', 'image/png', () => sharp({ create: { width: 8, height: 8, channels: 3, background: 'red' } }).gif().toBuffer(), 'not_accepted'],
    ['a truncated PNG', 'image/png', async () => (await png(200, 200)).subarray(0, 400), 'unreadable'],
    ['a decompression bomb (10000 × 10000 of white in 300 KB)', 'image/png', () => sharp({ create: { width: 10_000, height: 10_000, channels: 3, background: 'white' } }).png({ compressionLevel: 9 }).toBuffer(), 'too_many_pixels'],
  ] as const)('refuses %s with 422 upload_refused, and stores nothing', async (_name, declared, make, reason) => {
    const body = await make();
    const made = await ticket(t, key, 'image', declared, body.length);
    const stored = await blobs();
    const error = refused(await put(t, made.uploadUrl, body, made.headers), 422, 'upload_refused');
    expect(error.details.reason).toBe(reason);
    expect(error.message).toMatch(/Nothing was stored\.$/);
    expect(await blobs()).toBe(stored);
    refused(await get(made.publicUrl), 404, 'not_found');
  });

  it('lets a corrected PUT follow a refused one while the URL works', async () => {
    const good = await png(20, 20);
    const made = await ticket(t, key, 'image', 'image/png', good.length);
    const html = Buffer.alloc(good.length, '<p>hi</p>');
    refused(await put(t, made.uploadUrl, html, made.headers), 422, 'upload_refused');
    expect((await put(t, made.uploadUrl, good, made.headers)).statusCode).toBe(200);
    expect((await get(made.publicUrl)).statusCode).toBe(200);
  });

  it('refuses the wrong Content-Type (415), more bytes than declared (413) and fewer (400)', async () => {
    const body = await png(20, 20);
    const made = await ticket(t, key, 'image', 'image/png', body.length);
    const wrongType = refused(await put(t, made.uploadUrl, body, { 'content-type': 'image/jpeg' }), 415, 'unsupported_media_type');
    expect(wrongType.details.expected).toBe('image/png');
    expect(wrongType.message).toContain('Content-Type: image/png');
    refused(await put(t, made.uploadUrl, body, { 'content-type': 'application/octet-stream' }), 415, 'unsupported_media_type');
    refused(await t.inject({ method: 'PUT', url: pathOf(made.uploadUrl), payload: body }), 415, 'unsupported_media_type');
    const longer = refused(await put(t, made.uploadUrl, Buffer.concat([body, Buffer.alloc(10)]), made.headers), 413, 'payload_too_large');
    expect(longer.details).toEqual({ declared: body.length, received: body.length + 10 });
    const shorter = refused(await put(t, made.uploadUrl, body.subarray(0, body.length - 1), made.headers), 400, 'validation_failed');
    expect(shorter.details.validation[0]).toMatchObject({ field: 'body', code: 'too_short' });
    // Still usable: none of those stored anything.
    expect((await put(t, made.uploadUrl, body, { 'content-type': 'image/png; charset=binary' })).statusCode).toBe(200);
  });

  it('refuses a PUT on its headers, before any of its body is sent (over real HTTP)', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as net.AddressInfo;
    const made = await ticket(t, key, 'image', 'image/png', 1000);
    /** Sends only the request head, then reads the answer's status line. */
    const statusOf = (headers: string) => new Promise<string>((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1', () => socket.write(`PUT ${pathOf(made.uploadUrl)} HTTP/1.1\r\nHost: localhost\r\n${headers}\r\n`));
      let answer = '';
      socket.on('data', (chunk) => {
        answer += chunk.toString('latin1');
        if (answer.includes('\r\n')) {
          socket.destroy();
          resolve(answer.split('\r\n')[0]);
        }
      });
      socket.on('error', reject);
    });
    expect(await statusOf('Content-Type: image/jpeg\r\nContent-Length: 1000\r\n')).toBe('HTTP/1.1 415 Unsupported Media Type');
    expect(await statusOf('Content-Type: image/png\r\nContent-Length: 5000000\r\n')).toBe('HTTP/1.1 413 Payload Too Large');
  });

  it('refuses a body over the largest upload before reading it all (413)', async () => {
    const made = await ticket(t, key, 'image', 'image/png', 1000);
    const error = refused(await put(t, made.uploadUrl, Buffer.alloc(UPLOAD_LIMITS.imageBytes + 1), made.headers), 413, 'payload_too_large');
    expect(error.details).toEqual({ declared: 1000, received: UPLOAD_LIMITS.imageBytes + 1 });
  });

  it('refuses an expired upload URL (404), and an unknown or malformed one', async () => {
    const body = await png(20, 20);
    const made = await ticket(t, key, 'image', 'image/png', body.length);
    t.clock.advance(15 * 60_000 + 1);
    const expired = refused(await put(t, made.uploadUrl, body, made.headers), 404, 'not_found');
    expect(expired.message).toMatch(/expired/);
    refused(await get(made.publicUrl), 404, 'not_found');
    refused(await t.inject({ method: 'PUT', url: `/v1/uploads/upt_${'A'.repeat(43)}`, headers: made.headers, payload: body }), 404, 'not_found');
    refused(await t.inject({ method: 'PUT', url: '/v1/uploads/nonsense', headers: made.headers, payload: body }), 404, 'not_found');
    refused(await get(`${t.config.publicBaseUrl}/v1/files/upl_${'A'.repeat(20)}.png`), 404, 'not_found');
    refused(await get(`${t.config.publicBaseUrl}/v1/files/../../etc/passwd`), 404, 'not_found');
  });

  it('serves a file only under its own extension', async () => {
    const { publicUrl } = await upload(t, key, 'image', 'image/png', await png(20, 20));
    refused(await get(publicUrl.replace(/\.png$/, '.jpg')), 404, 'not_found');
    refused(await get(publicUrl.replace(/\.png$/, '.html')), 404, 'not_found');
  });
});

describe('audio', () => {
  it('accepts a WAV of 3 s, with its duration, served as audio/wav', async () => {
    const { publicUrl, file } = await upload(t, key, 'audio', 'audio/wav', wav(3));
    expect(file).toMatchObject({ kind: 'audio', contentType: 'audio/wav', durationMs: 3000, width: null, height: null });
    expect(publicUrl).toMatch(/\.wav$/);
    const served = await get(publicUrl);
    expect(served.headers['content-type']).toBe('audio/wav');
    expect(served.rawPayload.equals(wav(3))).toBe(true);
  });

  it('refuses audio over 60 s, audio declared as another type, and an image declared as audio', async () => {
    const long = wav(UPLOAD_LIMITS.audioSeconds + 1);
    const made = await ticket(t, key, 'audio', 'audio/wav', long.length);
    const tooLong = refused(await put(t, made.uploadUrl, long, made.headers), 422, 'upload_refused');
    expect(tooLong.details.reason).toBe('too_long');
    expect(tooLong.message).toMatch(/61\.0 s; at most 60 s/);

    const short = wav(1);
    const asMp3 = await ticket(t, key, 'audio', 'audio/mpeg', short.length);
    expect(refused(await put(t, asMp3.uploadUrl, short, asMp3.headers), 422, 'upload_refused').details.reason).toBe('type_mismatch');

    const picture = await png();
    const asOgg = await ticket(t, key, 'audio', 'audio/ogg', picture.length);
    expect(refused(await put(t, asOgg.uploadUrl, picture, asOgg.headers), 422, 'upload_refused').details.reason).toBe('not_accepted');
  });
});

describe('the daily sweep', () => {
  it('removes uploads never finished once their URL is over, and keeps finished ones', async () => {
    const left = await ticket(t, key, 'image', 'image/png', 100);
    const done = await upload(t, key, 'image', 'image/png', await png(10, 10));
    const leftId = left.publicUrl.split('/').pop()!.split('.')[0];
    // Within the URL's life (and the sweep's grace) it stays.
    await t.container.uploads.sweep();
    expect(await t.db.selectFrom('uploads').select('id').where('id', '=', leftId).executeTakeFirst()).toBeDefined();
    t.clock.advance(2 * 3_600_000);
    expect(await t.container.uploads.sweep()).toBeGreaterThanOrEqual(1);
    expect(await t.db.selectFrom('uploads').select('id').where('id', '=', leftId).executeTakeFirst()).toBeUndefined();
    expect((await get(done.publicUrl)).statusCode).toBe(200);
    refused(await put(t, left.uploadUrl, Buffer.alloc(100), left.headers), 404, 'not_found');
  });
});

describe('imports stay public https only outside production too', () => {
  it.each([
    ['https://127.0.0.1/a.png', 'not_public_address'],
    ['https://[::ffff:127.0.0.1]/a.png', 'not_public_address'],
    ['https://169.254.169.254/latest/meta-data/', 'not_public_address'],
    ['https://10.0.0.7/a.png', 'not_public_address'],
    ['https://100.64.1.2/a.png', 'not_public_address'],
    ['http://example.com/a.png', 'https_required'],
  ])('%s → 422 import_failed (%s)', async (url, reason) => {
    const response = await t.inject({ method: 'POST', url: '/v1/uploads/import', headers: key.auth, payload: { url } });
    expect(refused(response, 422, 'import_failed').details.reason).toBe(reason);
  });
});

describe('UPLOAD_STORAGE=filesystem', () => {
  let fsApp: TestApp;
  let fsKey: TestKey;
  beforeAll(async () => {
    fsApp = await createTestApp({ env: { UPLOAD_STORAGE: 'filesystem', RATE_LIMIT_PER_IP: '100000' } });
    fsKey = await fsApp.makeKey();
  }, 60_000);
  afterAll(async () => {
    await Promise.race([fsApp?.close(), sleep(5_000)]);
  });

  it('stores the checked bytes as a file under DATA_DIR/uploads, serves them, and sweeps what was never finished', async () => {
    const dir = fsApp.config.uploads.dir;
    expect(dir).toBe(path.join(fsApp.config.dataDir, 'uploads'));
    const { publicUrl } = await upload(fsApp, fsKey, 'image', 'image/jpeg', await jpegWithGps(60, 30));
    const id = publicUrl.split('/').pop()!.split('.')[0];
    const file = path.join(dir, id.slice(-2), id);
    const served = await fsApp.inject({ method: 'GET', url: pathOf(publicUrl) });
    expect(served.statusCode).toBe(200);
    expect(fs.readFileSync(file).equals(served.rawPayload)).toBe(true);
    expect((await sharp(served.rawPayload).metadata()).exif).toBeUndefined();
    expect(await fsApp.db.selectFrom('upload_blobs').selectAll().execute()).toEqual([]);

    // A refused PUT writes nothing.
    const html = Buffer.from('<html>not an image</html>');
    const made = await ticket(fsApp, fsKey, 'image', 'image/png', html.length);
    expect((await put(fsApp, made.uploadUrl, html, made.headers)).statusCode).toBe(422);
    const madeId = made.publicUrl.split('/').pop()!.split('.')[0];
    expect(fs.existsSync(path.join(dir, madeId.slice(-2), madeId))).toBe(false);

    fsApp.clock.advance(2 * 3_600_000);
    expect(await fsApp.container.uploads.sweep()).toBe(1);
    expect(fs.existsSync(file)).toBe(true);
  });
});
