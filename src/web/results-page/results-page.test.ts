import { describe, expect, it } from 'vitest';
import type { Question } from '../../modules/questions/questions.schemas.ts';
import type { Result } from '../../modules/results/results.schemas.ts';
import { loadAssets } from '../shared/assets.ts';
import { STRINGS } from '../shared/strings/index.ts';
import { localUrl, resultsPage } from './results-page.html.ts';

const assets = loadAssets();
const BASE = 'https://headcount.test';

type Item = Result['distribution'][number];
const item = (option: string, count: number, share: number, extra: Partial<Item> = {}): Item => ({ option, count, share, low: 0, high: 1, ...extra });

function question(overrides: Partial<Question> = {}): Question {
  return {
    id: 'q_1', type: 'single_choice', text: 'Which name is best?', language: 'en', options: [{ label: 'Penny' }, { label: 'Pocket' }], neither: false,
    n: 50, tier: 1, rush: false, publicResults: true, reason: 'off', status: 'live', source: 'api', answered: 0, creditsPerAnswer: 12,
    creditsReserved: 0, creditsSpent: 0, etaMinutes: 0, leaderLine: null, refusedCategory: null, publicCode: 'AbCdEf123456',
    createdAt: '2026-01-01T00:00:00.000Z', liveAt: null, closedAt: null,
    ...overrides,
  } as Question;
}

function result(overrides: Partial<Result> = {}): Result {
  return {
    questionId: 'q_1', status: 'in_progress', nRequested: 50, nAccepted: 0, distribution: [], mean: null,
    summary: { winner: null, margin: null, confidence: null, note: '', suggestedFollowUp: null },
    tier: 1, language: 'en', verificationLine: 'Answered by simulated heads (development): not real people.', medianSeconds: null,
    creditsSpent: 0, answers: [], refundCredits: 0,
    ...overrides,
  };
}

const render = (q: Question, r: Result, lang: keyof typeof STRINGS = 'en') => resultsPage({ data: { question: q, result: r }, lang, strings: STRINGS[lang], assets, publicBaseUrl: BASE });
/** The page's text as a person reads it: tags dropped, entities of the escaper decoded, spaces collapsed (none before punctuation). */
const textOf = (html: string) =>
  html.replace(/<[^>]+>/g, ' ').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ').replace(/ ([:,.)])/g, '$1').replace(/\( /g, '(');
const barWidths = (html: string) => [...html.matchAll(/<rect class="bar-fill" width="([\d.]+)"/g)].map((m) => Number(m[1]));

describe('results page document', () => {
  it('escapes everything that comes from the question and the result; no script, no inline style', () => {
    const evil = '<script>alert(1)</script>';
    const html = render(
      question({ text: `Pick ${evil}`, context: 'A "quoted" & \'single\' context', options: [{ label: '<img src=x onerror=alert(1)>' }, { label: 'Pocket' }] }),
      result({
        nAccepted: 3,
        distribution: [item('<img src=x onerror=alert(1)>', 2, 2 / 3), item('Pocket', 1, 1 / 3)],
        summary: { winner: '<img src=x onerror=alert(1)>', margin: 0.33, confidence: 'medium', note: `Leads ${evil}`, suggestedFollowUp: null },
        verificationLine: `Verified ${evil}`,
      }),
    );
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toContain('<img src=x');
    expect(html).not.toMatch(/\sstyle=/i);
    expect(html).toContain('Pick &lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('A &quot;quoted&quot; &amp; &#39;single&#39; context');
    expect(html).toContain('Leads &lt;script&gt;');
    expect(html).toContain('Verified &lt;script&gt;');
    expect(textOf(html)).toContain('Winner: <img src=x onerror=alert(1)>');
    expect(textOf(html)).toContain('<img src=x onerror=alert(1)>: 67% (2 answers)');
  });

  it('says the status, the count of answers and the verification line, in the page language', () => {
    const live = textOf(render(question(), result({ nAccepted: 3, nRequested: 40 })));
    expect(live).toContain('Still collecting answers');
    expect(live).toContain('3 of 40 answers received');
    expect(live).toContain('Answered by simulated heads (development): not real people.');
    const closed = textOf(render(question({ status: 'complete' }), result({ status: 'complete', nAccepted: 40, nRequested: 40, verificationLine: '40 verified heads answered.' })));
    expect(closed).toContain('Closed: no longer taking answers');
    expect(closed).toContain('40 verified heads answered.');
    const de = render(question({ language: 'de' }), result({ status: 'underfilled', nAccepted: 1234, nRequested: 2000 }), 'de');
    expect(de).toContain('<html lang="de"');
    expect(textOf(de)).toContain('Geschlossen');
    expect(textOf(de)).toContain('1.234 von 2.000 Antworten erhalten');
    expect(textOf(de)).toContain('Answered by simulated heads');
  });

  it('single choice: a bar per option with share and count, "Neither" last in the page language, the winner and the note', () => {
    const html = render(
      question({ neither: true }),
      result({
        nAccepted: 50,
        distribution: [item('Penny', 23, 0.46), item('Pocket', 26, 0.52), item('Neither', 1, 0.02)],
        summary: { winner: 'Pocket', margin: 0.06, confidence: 'medium', note: 'Pocket leads with 26 of 50 answers (52%).', suggestedFollowUp: null },
      }),
    );
    const text = textOf(html);
    expect(text).toContain('Penny: 46% (23 answers)');
    expect(text).toContain('Pocket: 52% (26 answers)');
    expect(text).toContain('Neither: 2% (1 answer)');
    expect(barWidths(html)).toEqual([46, 52, 2]);
    expect(text).toContain('Winner: Pocket');
    expect(text).toContain('Pocket leads with 26 of 50 answers (52%).');
    expect(html).toMatch(/<h2 id="answers-heading">How people answered<\/h2>/);
    expect(html).toMatch(/<svg class="bar"[^>]*aria-hidden="true"/);

    const es = textOf(render(question({ language: 'es', neither: true }), result({ nAccepted: 2, distribution: [item('Penny', 1, 0.5), item('Pocket', 0, 0), item('Neither', 1, 0.5)] }), 'es'));
    expect(es).toContain('Ninguna: 50 % (1 respuesta)');
    expect(es).toContain('Pocket: 0 % (0 respuestas)');
  });

  it('yes/mostly/no: the fixed options in the page language, the winner too', () => {
    const html = render(
      question({ type: 'yes_mostly_no', options: [], language: 'fr' }),
      result({ nAccepted: 10, distribution: [item('yes', 7, 0.7), item('mostly', 2, 0.2), item('no', 1, 0.1)], summary: { winner: 'yes', margin: 0.5, confidence: 'high', note: 'Yes leads.', suggestedFollowUp: null } }),
      'fr',
    );
    const text = textOf(html);
    expect(text).toContain(textOf('Oui : 70 % (7 réponses)'));
    expect(text).toContain(textOf('En grande partie : 20 % (2 réponses)'));
    expect(text).toContain(textOf('Non : 10 % (1 réponse)'));
    expect(text).toContain(textOf('En tête : Oui'));
  });

  it('multi choice: the share of people who ticked each option, with a word on why they add up past 100%', () => {
    const html = render(
      question({ type: 'multi_choice', options: [{ label: 'Email' }, { label: 'Chat' }, { label: 'Phone' }] }),
      result({ nAccepted: 5, distribution: [item('Email', 4, 0.8), item('Chat', 3, 0.6), item('Phone', 0, 0)] }),
    );
    const text = textOf(html);
    expect(text).toContain('People could choose more than one');
    expect(text).toContain('Email: 80% (4 answers)');
    expect(text).toContain('Chat: 60% (3 answers)');
    expect(text).toContain('Phone: 0% (0 answers)');
    expect(barWidths(html)).toEqual([80, 60, 0]);
  });

  it('scale 1–5: bars and the average', () => {
    const html = render(
      question({ type: 'scale_1_5', options: [] }),
      result({ nAccepted: 5, mean: 3.8, distribution: [item('1', 0, 0), item('2', 1, 0.2), item('3', 1, 0.2), item('4', 1, 0.2), item('5', 2, 0.4)] }),
    );
    const text = textOf(html);
    expect(text).toContain('Average: 3.8 out of 5');
    expect(text).toContain('5: 40% (2 answers)');
    expect(text).toContain('1: 0% (0 answers)');
    expect(barWidths(html)).toEqual([0, 20, 20, 20, 40]);
  });

  it('ranking: options by rank with their average rank and first places; ties share a rank', () => {
    const html = render(
      question({ type: 'ranking', options: [{ label: 'Price' }, { label: 'Speed' }, { label: 'Support' }] }),
      result({
        nAccepted: 3,
        distribution: [
          item('Price', 1, 1 / 3, { averageRank: 2, rank: 2 }),
          item('Speed', 2, 2 / 3, { averageRank: 1.333, rank: 1 }),
          item('Support', 0, 0, { averageRank: 2, rank: 2 }),
        ],
      }),
    );
    const text = textOf(html);
    expect(html).toContain('<ol class="ranked">');
    expect(text.indexOf('Speed')).toBeLessThan(text.indexOf('Price'));
    expect(text.indexOf('Price')).toBeLessThan(text.indexOf('Support'));
    expect(text).toContain('Rank 1: Speed average rank 1.3, ranked first in 2 answers (67%)');
    expect(text).toContain('Rank 2: Price average rank 2.0, ranked first in 1 answer (33%)');
    expect(text).toContain('Rank 2: Support average rank 2.0, ranked first in 0 answers (0%)');
  });

  it('pairwise: strength bars in rank order, with wins of appearances', () => {
    const html = render(
      question({ type: 'pairwise', options: [{ label: 'Red' }, { label: 'Blue' }, { label: 'Green' }] }),
      result({
        nAccepted: 6,
        distribution: [
          item('Red', 1, 0.25, { appearances: 4, strength: 0.2, rank: 3 }),
          item('Blue', 3, 0.75, { appearances: 4, strength: 0.55, rank: 1 }),
          item('Green', 2, 0.5, { appearances: 4, strength: 0.25, rank: 2 }),
        ],
      }),
    );
    const text = textOf(html);
    expect(text).toContain('Rank 1: Blue: strength 55% picked 3 of 4 times');
    expect(text).toContain('Rank 2: Green: strength 25% picked 2 of 4 times');
    expect(text).toContain('Rank 3: Red: strength 20% picked 1 of 4 times');
    expect(barWidths(html)).toEqual([55, 25, 20]);
  });

  it('free text: how many wrote, and no written answer at all', () => {
    const html = render(question({ type: 'free_text', options: [] }), result({ nAccepted: 7, summary: { winner: null, margin: null, confidence: null, note: '7 written answers.', suggestedFollowUp: null } }));
    const text = textOf(html);
    expect(text).toContain('Written answers received: 7');
    expect(text).toContain('Public results never show individual answers.');
    expect(text).toContain('7 written answers.');
    expect(html).not.toContain('class="bars"');
  });

  const clicks = (heatmapUrl: string | null): NonNullable<Result['clicks']> => ({
    imageUrl: 'https://img.test/page.png', taps: 12, points: [], grid: [], gridSize: 10, heatmapUrl,
    hotspots: [{ x: 0.3, y: 0.4, w: 0.2, h: 0.1, count: 8, share: 8 / 12 }, { x: 0, y: 0.9, w: 0.1, h: 0.1, count: 2, share: 2 / 12 }],
  });

  it('click test: the image with the public heatmap over it, from this origin', () => {
    const html = render(question({ type: 'click_test', options: [] }), result({ nAccepted: 6, clicks: clicks(`${BASE}/v1/public/results/AbCdEf123456/heatmap.png`) }));
    expect(html).toContain('<img class="heatmap-img" src="https://img.test/page.png" alt="The image for this question">');
    expect(html).toContain('<img class="heatmap-layer" src="/v1/public/results/AbCdEf123456/heatmap.png" alt="Heatmap of where people tapped on the image">');
    const text = textOf(html);
    expect(text).toContain('Taps: 12');
    expect(text).toContain('Area 1: 67% of taps (8), about 40% from the left and 45% from the top');
    expect(text).toContain('Area 2: 17% of taps (2), about 5% from the left and 95% from the top');
  });

  it('click test without a heatmap: the hotspots drawn as boxes over the image, and listed', () => {
    const html = render(question({ type: 'click_test', options: [] }), result({ nAccepted: 6, clicks: clicks(null) }));
    expect(html).not.toContain('heatmap.png');
    expect(html).toContain('<rect class="hotspot-box" x="30" y="40" width="20" height="10"/>');
    expect(html).toMatch(/<svg class="heatmap-layer"[^>]*aria-hidden="true"/);
    expect(textOf(html)).toContain('Busiest areas');
  });

  it('no answers yet: says so, with empty bars', () => {
    const html = render(question(), result({ distribution: [item('Penny', 0, 0), item('Pocket', 0, 0)] }));
    expect(textOf(html)).toContain('No answers yet.');
    expect(textOf(html)).toContain('Penny: 0% (0 answers)');
    expect(html).not.toContain('summary-heading');
    expect(textOf(html)).toContain('Answered by simulated heads');
  });
});

type Settlement = NonNullable<Result['settlement']>;
/** A settlement as the result builder makes it; the default: the leader rule stopped an 8–0 start of 50 (12 credits an answer). */
function settlement(overrides: Partial<Settlement> = {}): Settlement {
  return {
    rule: 'leader', method: 'ppr_1v1', asked: true, confidence: 0.95, alpha: 0.05, points: null, floor: 1, stopped: true, settledAt: 8,
    settledAtTime: '2026-01-05T14:03:00.000Z', nRequested: 50, leader: 'Penny', evidence: 28.44, threshold: 20, refundedCredits: 504, withdrawn: false,
    intervals: 'anytime_valid', note: 'Stopped early at 8 of 50 answers: Penny is the favourite (…). 504 credits for the places not answered were refunded. …',
    ...overrides,
  };
}
/** The early stop's line (or box) as text. */
const settlementText = (html: string) => textOf(/<p class="[^"]*settlement[^"]*" data-testid="settlement">([\s\S]*?)<\/p>/.exec(html)?.[1] ?? '').trim();

describe('early stopping (Result.settlement)', () => {
  const stopped = (s: Partial<Settlement> = {}, r: Partial<Result> = {}) =>
    result({
      status: 'complete', nAccepted: 8,
      distribution: [item('Penny', 8, 1, { low: 0.4213, high: 1 }), item('Pocket', 0, 0, { low: 0, high: 0.5787 })],
      summary: { winner: 'Penny', margin: 1, confidence: 'medium', note: 'Penny leads with 8 of 8 answers.', suggestedFollowUp: null },
      refundCredits: 504, settlement: settlement(s), ...r,
    });

  it('a stopped question: a box under the status line, each bar with its anytime-valid interval and a line saying what those are; no credits on this page', () => {
    const html = render(question({ status: 'complete' }), stopped());
    expect(html).toContain('<p class="settlement stopped" data-testid="settlement">');
    expect(settlementText(html)).toBe('Stopped early at 8 of 50 answers: Penny is the favourite at 95% confidence.');
    // Near the top: after the status line, before the answers.
    expect(html.indexOf('class="status-line"')).toBeLessThan(html.indexOf('data-testid="settlement"'));
    expect(html.indexOf('data-testid="settlement"')).toBeLessThan(html.indexOf('answers-heading'));
    const text = textOf(html);
    expect(text).toContain('Penny: 100% (8 answers), interval 42% to 100%');
    expect(text).toContain('Pocket: 0% (0 answers), interval 0% to 58%');
    expect(text).toContain('Intervals: anytime-valid at 95%, valid however often the result was checked.');
    expect(text.indexOf('Pocket: 0%')).toBeLessThan(text.indexOf('Intervals: anytime-valid'));
    // The public page shows no money, and not the English note (it names the refund).
    expect(text).not.toMatch(/credit|504/);
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/\sstyle=/i);
  });

  it('the account\'s own view (showCredits) adds the refund', () => {
    const html = resultsPage({ data: { question: question({ status: 'complete' }), result: stopped() }, lang: 'en', strings: STRINGS.en, assets, publicBaseUrl: BASE, showCredits: true });
    expect(settlementText(html)).toBe('Stopped early at 8 of 50 answers: Penny is the favourite at 95% confidence. 504 credits refunded.');
  });

  it('a withdrawn claim says so; the intervals stay anytime-valid', () => {
    const html = render(question({ status: 'complete' }), stopped({ withdrawn: true }, { nAccepted: 6 }));
    expect(html).toContain('<p class="settlement withdrawn" data-testid="settlement">');
    expect(settlementText(html)).toBe(
      'Stopped early at 8 of 50 answers, but the claim is withdrawn: after answers were removed in review, the answers left no longer settle it.',
    );
    expect(textOf(html)).toContain('Intervals: anytime-valid at 95%');
    const owner = resultsPage({ data: { question: question(), result: stopped({ withdrawn: true }) }, lang: 'en', strings: STRINGS.en, assets, publicBaseUrl: BASE, showCredits: true });
    expect(settlementText(owner)).toMatch(/no longer settle it\. The refund of 504 credits stands\.$/);
  });

  it('a rule not met: while collecting, the rule in one quiet line; once closed, that it never settled; no intervals label', () => {
    const open = settlement({ stopped: false, settledAt: null, settledAtTime: null, floor: 10, refundedCredits: 0, intervals: 'wilson', evidence: 1.2 });
    const live = render(question(), result({ nAccepted: 3, distribution: [item('Penny', 2, 2 / 3), item('Pocket', 1, 1 / 3)], settlement: open }));
    expect(live).toContain('<p class="hint settlement-hint" data-testid="settlement">');
    expect(settlementText(live)).toBe('Stops early when settled: leader rule at 95%, not before 10 answers.');
    expect(textOf(live)).not.toContain('Intervals:');
    expect(textOf(live)).not.toContain('interval ');
    const closed = render(question({ status: 'complete' }), result({ status: 'complete', nAccepted: 50, settlement: open }));
    expect(settlementText(closed)).toBe('Never settled: the leader rule at 95% was not met before the question closed.');
    // The margin rule says its points (or stars), with the confidence as asked.
    const margin = settlement({ rule: 'margin', method: 'beta_binomial_mixture', points: 10, confidence: 0.999, alpha: 0.001, stopped: false, settledAt: null, intervals: 'wilson', floor: 1 });
    expect(settlementText(render(question(), result({ settlement: margin })))).toBe('Stops early when settled: margin rule (10 points) at 99.9%, not before 1 answer.');
    const stars = settlement({ rule: 'margin', method: 'betting_dkelly', points: 0.5, stopped: false, settledAt: null, intervals: 'wilson', floor: 30, leader: null });
    expect(settlementText(render(question({ type: 'scale_1_5', options: [] }), result({ settlement: stars })))).toBe('Stops early when settled: margin rule (± 0.5 stars) at 95%, not before 30 answers.');
  });

  it('asked without a rule: where it would have settled, quietly; nothing when it would not have', () => {
    const reference = settlement({ asked: false, stopped: false, settledAt: 10, refundedCredits: 0, intervals: 'wilson', nRequested: 30 });
    const html = render(question({ status: 'complete' }), result({ status: 'complete', nAccepted: 30, settlement: reference }));
    expect(settlementText(html)).toBe('With early stopping this question would have settled at 10 answers.');
    expect(html).toContain('class="hint settlement-hint"');
    const never = render(question({ status: 'complete' }), result({ status: 'complete', nAccepted: 30, settlement: { ...reference, settledAt: null, settledAtTime: null } }));
    expect(never).not.toContain('data-testid="settlement"');
    // Free text and click tests have no rule (null), as results from before early stopping (absent).
    expect(render(question(), result({ settlement: null }))).not.toContain('settlement');
    expect(render(question(), result())).not.toContain('settlement');
  });

  it('other claims: the margin rule\'s lead, a 1–5 mean\'s interval, yes/mostly/no in the page language; escaped', () => {
    const lead = settlement({ rule: 'margin', method: 'beta_binomial_mixture', points: 20, settledAt: 35, nRequested: 200 });
    expect(settlementText(render(question(), result({ settlement: lead })))).toBe('Stopped early at 35 of 200 answers: Penny leads every other option by at least 20 points at 95% confidence.');
    const mean = settlement({ rule: 'margin', method: 'betting_dkelly', points: 0.5, leader: null, interval: { lower: 4.06, upper: 4.94 }, settledAt: 24, nRequested: 300 });
    expect(settlementText(render(question({ type: 'scale_1_5', options: [] }), result({ settlement: mean })))).toBe(
      'Stopped early at 24 of 300 answers: the average is between 4.06 and 4.94 at 95% confidence.',
    );
    const yes = settlement({ leader: 'yes' });
    expect(settlementText(render(question({ type: 'yes_mostly_no', options: [], language: 'de' }), result({ settlement: yes }), 'de'))).toBe(
      'Vorzeitig beendet nach 8 von 50 Antworten: Ja liegt wirklich vorne, mit 95 % Sicherheit.',
    );
    const evil = settlement({ leader: '<img src=x onerror=alert(1)>' });
    const html = render(question({ options: [{ label: '<img src=x onerror=alert(1)>' }, { label: 'Pocket' }] }), result({ settlement: evil }));
    expect(html).not.toContain('<img src=x');
    expect(html).toContain('<strong>&lt;img src=x onerror=alert(1)&gt;</strong> is the favourite');
  });

  it('speaks the page language', () => {
    const fr = render(question({ language: 'fr', status: 'complete' }), stopped(), 'fr');
    expect(settlementText(fr)).toBe(textOf('Arrêtée tôt à 8 réponses sur 50 : Penny est la favorite, avec 95 % de confiance.'));
    expect(textOf(fr)).toContain(textOf('Intervalles : valides à tout moment à 95 %'));
    const es = render(question({ language: 'es' }), result({ settlement: settlement({ stopped: false, settledAt: null, intervals: 'wilson', floor: 10 }) }), 'es');
    expect(settlementText(es)).toBe(textOf('Se detiene antes cuando esté decidida: regla del líder al 95 %, no antes de 10 respuestas.'));
  });
});

describe('localUrl', () => {
  it('makes addresses under the public base relative and leaves others alone', () => {
    expect(localUrl(`${BASE}/v1/public/results/x/heatmap.png`, BASE)).toBe('/v1/public/results/x/heatmap.png');
    expect(localUrl(`${BASE}/v1/x`, `${BASE}/`)).toBe('/v1/x');
    expect(localUrl('https://headcount.test.evil/v1/x', BASE)).toBe('https://headcount.test.evil/v1/x');
    expect(localUrl('https://cdn.test/heat.png', BASE)).toBe('https://cdn.test/heat.png');
  });
});
