import { describe, expect, it } from 'vitest';
import { choiceDraft } from '../helpers/questions.ts';
import { pagesSuite, settlementCases, settlementLineOf } from '../helpers/results-pages.ts';
import { PUBLIC_RESULTS_MAX_AGE_SECONDS } from '../../src/modules/sharing/sharing.schemas.ts';
import { STRINGS } from '../../src/web/shared/strings/index.ts';
import { escapeHtml } from '../../src/web/shared/html.ts';

/**
 * The public results page for people, `GET /r/{code}` (docs/sharing.md): the same data as
 * `GET /v1/public/results/{code}` as HTML with no script, cached as long as the JSON, and a
 * friendly 404 in the browser's language for unknown, malformed and turned-off codes.
 */
const pages = pagesSuite();
const { ask, answerAll, resultsPage: page, publicQuestion, share } = pages;

describe('GET /r/{code}', () => {
  it('renders the public results as HTML with no script, cached like the JSON, never indexed', async () => {
    const question = await publicQuestion({ text: 'Which name <b>for</b> the app?', context: 'Savings & more', reason: 'optional' });
    await answerAll(question.id, pages.heads.slice(0, 4), (i) => ({ option: i === 0 ? 1 : 0, reason: `Secret reason ${i}` }));
    const response = await page(question.publicCode);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.headers['cache-control']).toBe(`public, max-age=${PUBLIC_RESULTS_MAX_AGE_SECONDS}`);
    expect(response.headers['x-robots-tag']).toBe('noindex');
    expect(response.headers['referrer-policy']).toBe('no-referrer');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toContain("script-src 'none'");
    expect(csp).toContain("style-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");

    const html = response.body;
    expect(html).toContain('<html lang="en"');
    expect(html).not.toMatch(/<script/i);
    expect(html).toContain('Which name &lt;b&gt;for&lt;/b&gt; the app?');
    expect(html).toContain('Savings &amp; more');
    expect(html).toMatch(/<strong class="bar-label">Penny<\/strong>: <span class="bar-share">75%<\/span> \(3 answers\)/);
    expect(html).toMatch(/<strong class="bar-label">Pocket<\/strong>: <span class="bar-share">25%<\/span> \(1 answer\)/);
    expect(html).toContain('4 of 10 answers received');
    expect(html).toContain('Still collecting answers');
    // The same result the JSON route gives: its verification line and note, and nothing private.
    const json = (await pages.t.inject({ method: 'GET', url: `/v1/public/results/${question.publicCode}` })).json();
    expect(json.result.verificationLine).toBeTruthy();
    expect(html).toContain(json.result.verificationLine.replace(/&/g, '&amp;').replace(/'/g, '&#39;'));
    expect(html).toContain(json.result.summary.note.replace(/&/g, '&amp;').replace(/'/g, '&#39;'));
    expect(html).not.toContain('Secret reason');
    expect(html).not.toContain(question.linkCode);
    // The stylesheet is the answer page's, at its versioned address.
    const css = html.match(/<link rel="stylesheet" href="([^"]+)">/)![1];
    const sheet = await pages.t.inject({ method: 'GET', url: css });
    expect(sheet.statusCode).toBe(200);
    expect(sheet.body).toContain('.bar-fill');
  });

  it('speaks the question language', async () => {
    const question = await publicQuestion({ language: 'pt-BR', text: 'Qual nome?' });
    await answerAll(question.id, pages.heads.slice(0, 1), { option: 0 });
    const html = (await page(question.publicCode, { 'accept-language': 'de' })).body;
    expect(html).toContain('<html lang="pt"');
    expect(html).toContain('Penny</strong>: <span class="bar-share">100%</span> (1 resposta)');
    expect(html).toContain('1 de 10 respostas recebidas');
  });

  it('unknown and malformed codes: a friendly 404 page in the browser language, not cached', async () => {
    for (const code of ['AAAAAAAAAAAA', 'x', 'not-a-code!', 'A'.repeat(40)]) {
      const response = await page(encodeURIComponent(code), { 'accept-language': 'fr-CA, en;q=0.5' });
      expect(response.statusCode, code).toBe(404);
      expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(response.headers['cache-control']).toBe('no-store');
      expect(response.headers['x-robots-tag']).toBe('noindex');
      expect(response.body).toContain('<html lang="fr"');
      expect(response.body).toContain('Il n’y a pas de résultats à cette adresse');
    }
    const english = await page('AAAAAAAAAAAA');
    expect(english.body).toContain('There are no results at this address');
  });

  it('addresses the router refuses (a broken percent-encoding, a segment too long) get each page’s friendly 404, not JSON', async () => {
    const cases: Array<[string, string]> = [
      ['/r/abc%E0%A4%A', 'Il n’y a pas de résultats à cette adresse'],
      [`/r/${'A'.repeat(600)}`, 'Il n’y a pas de résultats à cette adresse'],
      ['/a/abc%', STRINGS.fr.notFoundTitle],
      [`/s/${'t'.repeat(600)}`, STRINGS.fr.resultsSharedNotFoundTitle],
    ];
    for (const [url, words] of cases) {
      const response = await pages.t.inject({ method: 'GET', url, headers: { 'accept-language': 'fr' } });
      expect(response.statusCode, url).toBe(404);
      expect(response.headers['content-type'], url).toBe('text/html; charset=utf-8');
      expect(response.headers['cache-control'], url).toBe('no-store');
      expect(response.headers['content-security-policy'], url).toContain("script-src 'none'");
      expect(response.body, url).toContain(escapeHtml(words));
    }
    // The API keeps its error envelope.
    const api = await pages.t.inject({ method: 'GET', url: '/v2/questions/%E0%A4%A' });
    expect(api.statusCode).toBe(404);
    expect(api.json().error).toMatchObject({ code: 'not_found' });
  });

  it('a page turned off is a 404 at once; turned on again, only the new code works', async () => {
    const question = await publicQuestion();
    expect((await page(question.publicCode)).statusCode).toBe(200);
    expect((await share(question.id, false)).statusCode).toBe(200);
    const gone = await page(question.publicCode);
    expect(gone.statusCode).toBe(404);
    expect(gone.body).toContain('There are no results at this address');
    const again = (await share(question.id, true)).json().question.publicCode;
    expect(again).not.toBe(question.publicCode);
    expect((await page(again)).statusCode).toBe(200);
    expect((await page(question.publicCode)).statusCode).toBe(404);
  });

  it('a question that was never public has no page under any code', async () => {
    const question = await ask(choiceDraft());
    expect(question.publicCode).toBeNull();
    expect((await page(question.linkCode)).statusCode).toBe(404);
  });

  it('says what early stopping did: a stop, a withdrawn claim, a rule not met yet, where a question without one would have settled; never credits', async () => {
    const cases = await settlementCases(pages.t, pages.key, pages.heads, { publicResults: true });
    const html = async (question: Record<string, any>) => {
      const response = await page(question.publicCode);
      expect(response.statusCode, response.body).toBe(200);
      return response.body;
    };

    const stopped = await html(cases.stopped);
    expect(stopped).toContain('<p class="settlement stopped" data-testid="settlement">');
    expect(settlementLineOf(stopped)).toBe('Stopped early at 8 of 50 answers: Penny is the favourite at 95% confidence.');
    expect(stopped).toContain('Closed: no longer taking answers');
    expect(stopped).toMatch(/<strong class="bar-label">Penny<\/strong>: <span class="bar-share">100%<\/span> \(8 answers\)<span class="visually-hidden">, <\/span><span class="bar-interval">interval \d+% to 100%<\/span>/);
    expect(stopped).toContain('Intervals: anytime-valid at 95%, valid however often the result was checked.');
    // The data behind it: the public JSON carries the settlement; the page names no credit amount.
    const json = (await pages.t.inject({ method: 'GET', url: `/v1/public/results/${cases.stopped.publicCode}` })).json();
    expect(json.result.settlement).toMatchObject({ stopped: true, settledAt: 8, intervals: 'anytime_valid' });
    expect(stopped).not.toMatch(/credit|504/i);

    const withdrawn = await html(cases.withdrawn);
    expect(withdrawn).toContain('<p class="settlement withdrawn" data-testid="settlement">');
    expect(settlementLineOf(withdrawn)).toBe('Stopped early at 8 of 40 answers, but the claim is withdrawn: after answers were removed in review, the answers left no longer settle it.');
    expect(withdrawn).not.toMatch(/credit|384/i);

    const live = await html(cases.live);
    expect(settlementLineOf(live)).toBe('Stops early when settled: leader rule at 95%, not before 10 answers.');
    expect(live).toContain('Still collecting answers');
    expect(live).not.toContain('Intervals:');

    expect(settlementLineOf(await html(cases.plain))).toBe('With early stopping this question would have settled at 10 answers.');
  });

  it('is not part of the API description', async () => {
    const paths = await pages.documentedPaths();
    expect(paths.some((p) => p.startsWith('/r/'))).toBe(false);
  });
});
