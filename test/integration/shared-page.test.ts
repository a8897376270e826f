import { describe, expect, it } from 'vitest';
import { choiceDraft } from '../helpers/questions.ts';
import { pagesSuite, settlementCases, settlementLineOf } from '../helpers/results-pages.ts';

/**
 * The page behind a private share link, `GET /s/{token}` (docs/sharing.md "The page behind a share
 * link"): the same data as `GET /v1/public/shared/{token}` as HTML with no script, with that
 * route's headers (never stored, not indexed, no referrer), and one friendly 404 for unknown,
 * tampered, expired (fake clock) and revoked tokens.
 */
const pages = pagesSuite();
const { ask, answerAll, page, link, revoke } = pages;

function expectPrivateHeaders(response: Awaited<ReturnType<typeof page>>) {
  expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
  expect(response.headers['cache-control']).toBe('no-store');
  expect(response.headers['x-robots-tag']).toBe('noindex');
  expect(response.headers['referrer-policy']).toBe('no-referrer');
  expect(response.headers['x-content-type-options']).toBe('nosniff');
  const csp = String(response.headers['content-security-policy']);
  expect(csp).toContain("script-src 'none'");
  expect(csp).toContain("connect-src 'none'");
  expect(csp).toContain("frame-ancestors 'none'");
}

describe('GET /s/{token}', () => {
  it('renders the shared results with the written answers (pinned first), escaped, never stored or indexed', async () => {
    const question = await ask(choiceDraft({ text: 'Which name <b>for</b> the app?', context: 'Savings & more', reason: 'optional' }));
    const outcomes = await answerAll(question.id, pages.heads.slice(0, 3), (i) => ({ option: i === 0 ? 1 : 0, reason: `Written reason ${i}` }));
    // One more, straight through the answer recorder, with a reason that tries to be markup.
    const recorded = await pages.t.container.answers.record(
      question.id,
      { headId: pages.heads[3].id, source: 'panel', tier: pages.heads[3].tier, country: pages.heads[3].country },
      { option: 1, reason: 'Pocket <script>alert(1)</script> & "friends"' },
    );
    expect(recorded.accepted).toBe(true);
    // Pin the first (oldest) answer: it comes first on the page.
    const pinned = await pages.t.inject({ method: 'POST', url: `/v2/questions/${question.id}/answers/${outcomes[0].attestationRef}/pin`, headers: pages.key.auth, payload: { pinned: true } });
    expect(pinned.statusCode, pinned.body).toBe(200);

    const { path } = await link(question.id);
    const response = await page(path);
    expect(response.statusCode, response.body).toBe(200);
    expectPrivateHeaders(response);

    const html = response.body;
    expect(html).toContain('<html lang="en"');
    expect(html).not.toMatch(/<script/i);
    expect(html).toContain('<p class="byline">Shared results</p>');
    expect(html).toContain('Which name &lt;b&gt;for&lt;/b&gt; the app?');
    expect(html).toContain('Savings &amp; more');
    expect(html).toMatch(/<strong class="bar-label">Pocket<\/strong>: <span class="bar-share">50%<\/span> \(2 answers\)/);
    expect(html).toContain('4 of 10 answers received');
    expect(html).toContain('Why: Pocket &lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;friends&quot;');

    // Pinned first, then the newest: 0 (pinned), the recorded one, 2, 1.
    const order = ['Written reason 0', 'Pocket &lt;script&gt;', 'Written reason 2', 'Written reason 1'].map((text) => html.indexOf(text));
    expect(order.every((at) => at > 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(html.match(/<li class="answer pinned">/g)).toHaveLength(1);
    expect(html).not.toContain('more answer');

    // The same data as the JSON route, nothing private: no real answer references, no answer link.
    const json = (await pages.t.inject({ method: 'GET', url: `/v1/public/shared/${path.slice(3)}` })).json();
    expect(json.result.answers).toHaveLength(4);
    expect(html).toContain(json.result.verificationLine.replace(/&/g, '&amp;').replace(/'/g, '&#39;'));
    for (const outcome of [...outcomes, recorded]) expect(html).not.toContain(outcome.attestationRef);
    expect(html).not.toContain(question.linkCode);
  });

  it('shows the insights summary when the question has one', async () => {
    const question = await ask(choiceDraft({ reason: 'required' }));
    await answerAll(question.id, pages.heads.slice(0, 5), (i) => ({ option: i % 2, reason: i % 2 ? 'Hidden fees worry me with any savings app.' : 'Short and friendly name, easy to remember.' }));
    const made = await pages.t.inject({ method: 'POST', url: `/v2/questions/${question.id}/insights`, headers: pages.key.auth });
    expect(made.statusCode, made.body).toBe(200);
    const insights = made.json().insights;
    expect(insights.themes.length).toBeGreaterThan(0);

    const html = (await page((await link(question.id)).path)).body;
    expect(html).toMatch(/<h2 id="insights-heading">What people wrote<\/h2>/);
    expect(html).toContain(`Based on ${insights.basedOn} written answers.`);
    expect(html).toContain('An interim summary, made while answers were still coming in.');
    const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
    expect(html).toContain(escape(insights.takeaway));
    for (const theme of insights.themes) {
      expect(html).toContain(escape(theme.label));
      for (const quote of theme.quotes) expect(html).toContain(`<blockquote class="quote" lang="${insights.language}">${escape(quote)}</blockquote>`);
    }
  });

  it('click test: the heatmap over the image is the share link\'s own, loaded from this origin', async () => {
    const question = await ask({ type: 'click_test', text: 'Where would you tap?', stimulus: { imageUrl: 'https://img.test/page.png' }, clickTest: { maxTaps: 1 }, n: 10 });
    await answerAll(question.id, pages.heads.slice(0, 3), { taps: [{ x: 0.5, y: 0.5 }] });
    const { token, path } = await link(question.id);
    const html = (await page(path)).body;
    const src = html.match(/<img class="heatmap-layer" src="([^"]+)"/)?.[1];
    expect(src).toBe(`/v1/public/shared/${token}/heatmap.png`);
    const picture = await pages.t.inject({ method: 'GET', url: src! });
    expect(picture.statusCode).toBe(200);
    expect(picture.headers['content-type']).toBe('image/png');
  });

  it('unknown, tampered and malformed tokens: the same friendly 404 page, in the browser language, never stored', async () => {
    const question = await ask(choiceDraft());
    const { token } = await link(question.id);
    const flip = (c: string) => (c === 'a' ? 'b' : 'a');
    const bad = [
      'A'.repeat(32), // well formed, unknown
      `${token.slice(0, 31)}${flip(token[31])}`, // one character changed
      `${flip(token[0])}${token.slice(1)}`,
      token.slice(0, 31), // one short
      `${token}A`, // one long
      'x',
      encodeURIComponent('not-a-token!'),
      'A'.repeat(200),
    ];
    const bodies = new Set<string>();
    for (const candidate of bad) {
      const response = await page(`/s/${candidate}`, { 'accept-language': 'fr-CA, en;q=0.5' });
      expect(response.statusCode, candidate).toBe(404);
      expectPrivateHeaders(response);
      expect(response.body).toContain('<html lang="fr"');
      expect(response.body).toContain('Ce lien de partage ne fonctionne pas');
      bodies.add(response.body);
    }
    expect(bodies.size).toBe(1);
    const english = await page('/s/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA');
    expect(english.body).toContain('This share link does not work');
    expect(english.body).toContain('It may have expired or been turned off.');
    expect((await page(`/s/${token}`)).statusCode).toBe(200);
  });

  it('expired by the clock: works until expiresAt, then the same 404 page', async () => {
    const question = await ask(choiceDraft());
    const shared = await link(question.id, { expiresInDays: 1 });
    const unknown = (await page('/s/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA')).body;
    pages.t.clock.set(new Date(new Date(shared.expiresAt).getTime() - 1));
    expect((await page(shared.path)).statusCode).toBe(200);
    pages.t.clock.advance(1);
    const gone = await page(shared.path);
    expect(gone.statusCode).toBe(404);
    expectPrivateHeaders(gone);
    expect(gone.body).toBe(unknown);
  });

  it('revoked: the next load is the same 404 page at once; the question\'s other links still work', async () => {
    const question = await ask(choiceDraft());
    const keep = await link(question.id);
    const shared = await link(question.id);
    expect((await page(shared.path)).statusCode).toBe(200);
    expect((await revoke(question.id, shared.id)).statusCode).toBe(200);
    const gone = await page(shared.path);
    expect(gone.statusCode).toBe(404);
    expectPrivateHeaders(gone);
    expect(gone.body).toBe((await page('/s/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA')).body);
    expect((await page(keep.path)).statusCode).toBe(200);
  });

  it('speaks the question language', async () => {
    const question = await ask(choiceDraft({ language: 'pt-BR', text: 'Qual nome?', reason: 'optional' }));
    await answerAll(question.id, pages.heads.slice(0, 1), { option: 0, reason: 'Curto.' });
    const html = (await page((await link(question.id)).path, { 'accept-language': 'de' })).body;
    expect(html).toContain('<html lang="pt"');
    expect(html).toContain('Resultados compartilhados');
    expect(html).toContain('Escolheu: <strong>Penny</strong>');
    expect(html).toContain('Por quê: Curto.');
  });

  it('says what early stopping did, as the public page does: a stop, a withdrawn claim, a rule not met yet, where it would have settled; never credits', async () => {
    const cases = await settlementCases(pages.t, pages.key, pages.heads);
    const html = async (question: Record<string, any>) => {
      const response = await page((await link(question.id)).path);
      expect(response.statusCode, response.body).toBe(200);
      expectPrivateHeaders(response);
      return response.body;
    };

    const stopped = await html(cases.stopped);
    expect(stopped).toContain('<p class="byline">Shared results</p>');
    expect(stopped).toContain('<p class="settlement stopped" data-testid="settlement">');
    expect(settlementLineOf(stopped)).toBe('Stopped early at 8 of 50 answers: Penny is the favourite at 95% confidence.');
    expect(stopped).toContain('Intervals: anytime-valid at 95%, valid however often the result was checked.');
    expect(stopped).toMatch(/<span class="bar-interval">interval \d+% to 100%<\/span>/);
    // A share link shows no money: the refund is in the data, never on the page.
    expect(stopped).not.toMatch(/credit|504/i);

    const withdrawn = await html(cases.withdrawn);
    expect(settlementLineOf(withdrawn)).toBe('Stopped early at 8 of 40 answers, but the claim is withdrawn: after answers were removed in review, the answers left no longer settle it.');
    expect(withdrawn).not.toMatch(/credit|384/i);

    expect(settlementLineOf(await html(cases.live))).toBe('Stops early when settled: leader rule at 95%, not before 10 answers.');
    expect(settlementLineOf(await html(cases.plain))).toBe('With early stopping this question would have settled at 10 answers.');
  });

  it('is not part of the API description', async () => {
    const paths = await pages.documentedPaths();
    expect(paths.some((p) => p.startsWith('/s/'))).toBe(false);
  });
});
