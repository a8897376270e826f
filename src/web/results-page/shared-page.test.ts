import { describe, expect, it } from 'vitest';
import type { Question } from '../../modules/questions/questions.schemas.ts';
import type { Result } from '../../modules/results/results.schemas.ts';
import { loadAssets } from '../shared/assets.ts';
import { STRINGS } from '../shared/strings/index.ts';
import { resultsPage } from './results-page.html.ts';

/**
 * The `shared` variant of the results page (`GET /s/{token}`, docs/sharing.md "The page behind a
 * share link"): the public page plus the written answers and the insights summary.
 */
const assets = loadAssets();
const BASE = 'https://headcount.test';

type Answer = Result['answers'][number];
type Insights = NonNullable<Result['insights']>;
type Item = Result['distribution'][number];
const item = (option: string, count: number, share: number): Item => ({ option, count, share, low: 0, high: 1 });

function question(overrides: Partial<Question> = {}): Question {
  return {
    id: 'q_1', type: 'single_choice', text: 'Which name is best?', language: 'en', options: [{ label: 'Penny' }, { label: 'Pocket' }], neither: true,
    n: 50, tier: 1, rush: false, publicResults: false, reason: 'optional', status: 'live', source: 'api', answered: 0, creditsPerAnswer: 12,
    creditsReserved: 0, creditsSpent: 0, etaMinutes: 0, leaderLine: null, refusedCategory: null, publicCode: null,
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

let seq = 0;
function answer(overrides: Partial<Answer> = {}): Answer {
  seq += 1;
  return { option: 'Penny', text: null, reason: null, tier: 1, attestationRef: `shr_${seq}`, answeredAt: '2026-01-05T14:03:00.000Z', pinned: false, ...overrides };
}

function insights(overrides: Partial<Insights> = {}): Insights {
  return {
    questionId: 'q_1', language: 'en', sourceLanguage: 'en', takeaway: 'Most people like short names.',
    themes: [
      { label: 'short and friendly', count: 5, share: 0.5, sentiment: 'positive', option: 'Penny', quotes: ['Short and friendly.', 'Easy to say.'] },
      { label: 'confusing', count: 2, share: 0.2, sentiment: 'negative', option: null, quotes: ['Could be confusing.'] },
    ],
    sentiment: { positive: 6, neutral: 2, negative: 2 }, basedOn: 10, answersAtTime: 12, original: null, kind: 'interim',
    generatedAt: '2026-01-05T15:00:00.000Z', refreshAfter: '2026-01-05T15:10:00.000Z', engine: 'wink-nlp-local/1',
    ...overrides,
  };
}

const render = (q: Question, r: Result, lang: keyof typeof STRINGS = 'en', variant: 'public' | 'shared' = 'shared') =>
  resultsPage({ data: { question: q, result: r }, lang, strings: STRINGS[lang], assets, publicBaseUrl: BASE, variant });
/** The page's text as a person reads it: tags dropped, entities of the escaper decoded, spaces collapsed (none before punctuation). */
const textOf = (html: string) =>
  html.replace(/<[^>]+>/g, ' ').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ').replace(/ ([:,.)])/g, '$1').replace(/\( /g, '(');
/** The listed answers, each as its text. */
const answerTexts = (html: string) => [...html.matchAll(/<li class="answer[^"]*">([\s\S]*?)<\/li>/g)].map((m) => textOf(m[1]).trim());

describe('shared results page document', () => {
  it('escapes answer text, reasons, the takeaway, theme labels and quotes; no script, no style', () => {
    const evil = '<script>alert(1)</script>';
    const html = render(
      question({ type: 'free_text', options: [], neither: false }),
      result({
        nAccepted: 2,
        answers: [
          answer({ option: null, text: `I like it ${evil}`, reason: `Because ${evil} & "quotes"`, pinned: true }),
          answer({ option: '<img src=x onerror=alert(1)>', text: 'second', reason: null }),
        ],
        insights: insights({ takeaway: `Take ${evil}`, themes: [{ label: `<b>bold</b>`, count: 1, share: 0.5, sentiment: 'neutral', option: '<i>x</i>', quotes: [`Quote ${evil}`] }] }),
      }),
    );
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/<style/i);
    expect(html).not.toMatch(/\sstyle=/i);
    expect(html).not.toMatch(/<[^>]*\son\w+=/i);
    expect(html).not.toContain('<img src=x');
    expect(html).not.toContain('<b>bold');
    expect(html).not.toContain('<i>x');
    expect(html).toContain('I like it &lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('Why: Because &lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;quotes&quot;');
    expect(html).toContain('Take &lt;script&gt;');
    expect(html).toContain('Quote &lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('&lt;b&gt;bold&lt;/b&gt;');
    expect(textOf(html)).toContain('Chose: <img src=x onerror=alert(1)>');
  });

  it('lists the answers pinned first, each with option, written text, reason, tier and time (UTC)', () => {
    const html = render(
      question(),
      result({
        nAccepted: 3,
        distribution: [item('Penny', 1, 1 / 3), item('Pocket', 1, 1 / 3), item('Neither', 1, 1 / 3)],
        // Out of order on purpose: the page still puts the pinned one first.
        answers: [
          answer({ option: 'Pocket', reason: 'Feels safe.', tier: 2, answeredAt: '2026-01-05T14:03:00.000Z' }),
          answer({ option: 'Penny', reason: 'Short and friendly.', pinned: true, answeredAt: '2026-01-04T09:30:00.000Z' }),
          answer({ option: 'Neither', reason: null, tier: 3 }),
        ],
      }),
    );
    expect(answerTexts(html)).toEqual([
      'Pinned Tier 1 · answered Jan 4, 2026, 09:30 AM UTC Chose: Penny Why: Short and friendly.',
      'Tier 2 · answered Jan 5, 2026, 02:03 PM UTC Chose: Pocket Why: Feels safe.',
      'Tier 3 · answered Jan 5, 2026, 02:03 PM UTC Chose: Neither',
    ]);
    expect(html).toContain('<time datetime="2026-01-04T09:30:00.000Z">');
    expect(html).toContain('<li class="answer pinned">');
    expect(textOf(html)).toContain('Individual answers Pinned answers first, then the newest.');
    // Every listed answer is counted: no "more" line.
    expect(html).not.toContain('answers-more');
  });

  it('says how many more answers exist than the result lists', () => {
    const fifty = Array.from({ length: 50 }, (_, i) => answer({ reason: `Reason ${i}` }));
    const many = textOf(render(question(), result({ nAccepted: 120, answers: fifty })));
    expect(many).toContain('70 more answers are not listed here.');
    const one = textOf(render(question(), result({ nAccepted: 51, answers: fifty })));
    expect(one).toContain('1 more answer is not listed here.');
    const fr = textOf(render(question({ language: 'fr' }), result({ nAccepted: 52, answers: fifty }), 'fr'));
    expect(fr).toContain('2 autres réponses ne sont pas affichées ici.');
    expect(textOf(render(question(), result({ nAccepted: 50, answers: fifty })))).not.toContain('more answer');
  });

  it('words the answers in the page language: the option names it knows, ranking, taps', () => {
    const yes = textOf(render(question({ type: 'yes_mostly_no', options: [], neither: false, language: 'es' }), result({ nAccepted: 1, answers: [answer({ option: 'mostly', tier: 2 })] }), 'es'));
    expect(yes).toContain(`Eligió: ${STRINGS.es.mostly}`);
    expect(yes).toContain('Nivel 2 · respondida el');
    const neither = textOf(render(question({ language: 'de' }), result({ nAccepted: 1, answers: [answer({ option: 'Neither' })] }), 'de'));
    expect(neither).toContain(`Gewählt: ${STRINGS.de.neither}`);
    const ranked = textOf(render(question({ type: 'ranking', neither: false }), result({ nAccepted: 1, answers: [answer({ option: 'Pocket' })] })));
    expect(ranked).toContain('Ranked first: Pocket');
    const taps = textOf(render(question({ type: 'click_test', options: [], neither: false }), result({ nAccepted: 1, answers: [answer({ option: null, taps: [{ x: 0.1, y: 0.2 }, { x: 0.3, y: 0.4 }] })] })));
    expect(taps).toContain('Taps: 2');
  });

  it('free text: the count and the answers, not the public page\'s "never shows individual answers"', () => {
    const q = question({ type: 'free_text', options: [], neither: false });
    const r = result({ nAccepted: 1, answers: [answer({ option: null, text: 'A piggy bank' })] });
    const shared = textOf(render(q, r));
    expect(shared).toContain('Written answers received: 1');
    expect(shared).toContain('A piggy bank');
    expect(shared).not.toContain('Public results never show individual answers.');
  });

  it('shows the insights: takeaway, themes with share, option and quotes, what it is based on and its kind', () => {
    const html = render(question({ reason: 'required' }), result({ nAccepted: 12, insights: insights() }));
    const text = textOf(html);
    expect(html).toMatch(/<h2 id="insights-heading">What people wrote<\/h2>/);
    expect(text).toContain('Most people like short names.');
    expect(text).toContain('short and friendly: 50% (5 answers)');
    expect(text).toContain('Mostly from people who chose Penny');
    expect(text).toContain('confusing: 20% (2 answers)');
    expect(html).toContain('<blockquote class="quote" lang="en">Short and friendly.</blockquote>');
    expect(html).toContain('<blockquote class="quote" lang="en">Could be confusing.</blockquote>');
    expect(text).toContain('Based on 10 written answers. An interim summary, made while answers were still coming in.');
    const final = textOf(render(question(), result({ status: 'complete', nAccepted: 12, insights: insights({ kind: 'final', refreshAfter: null }) })));
    expect(final).toContain('The final summary, made when the question closed.');
    // Made in the account's language: said so on its words, while the page speaks the question's.
    const mixed = render(question({ language: 'de' }), result({ nAccepted: 12, insights: insights({ language: 'en' }) }), 'de');
    expect(mixed).toContain('<html lang="de"');
    expect(mixed).toContain('<p class="takeaway" lang="en">Most people like short names.</p>');
    expect(textOf(mixed)).toContain('Beruht auf 10 schriftlichen Antworten.');
  });

  it('no insights yet, no answers yet: neither section; the byline and title say the results were shared', () => {
    const html = render(question(), result());
    expect(html).not.toContain('insights-heading');
    expect(html).not.toContain('shared-answers-heading');
    expect(html).toContain('<p class="byline">Shared results</p>');
    expect(html).toContain('<title>Which name is best? · Shared results</title>');
    expect(textOf(html)).toContain('No answers yet.');
  });

  it('the public variant never shows answers or insights, even when given them', () => {
    const html = render(question(), result({ nAccepted: 1, answers: [answer({ reason: 'Secret reason' })], insights: insights() }), 'en', 'public');
    expect(html).not.toContain('Secret reason');
    expect(html).not.toContain('Most people like short names.');
    expect(html).toContain('<p class="byline">Results</p>');
  });

  it('click test: the heatmap behind the share link, from this origin', () => {
    const clicks: NonNullable<Result['clicks']> = {
      imageUrl: 'https://img.test/page.png', taps: 2, points: [], grid: [], gridSize: 10, hotspots: [],
      heatmapUrl: `${BASE}/v1/public/shared/AbCdEfGhIjKlMnOpQrStUvWxYz012345/heatmap.png`,
    };
    const html = render(question({ type: 'click_test', options: [], neither: false }), result({ nAccepted: 2, clicks }));
    expect(html).toContain('<img class="heatmap-layer" src="/v1/public/shared/AbCdEfGhIjKlMnOpQrStUvWxYz012345/heatmap.png"');
  });
});

type Settlement = NonNullable<Result['settlement']>;
/** The leader rule stopped an 8–0 start of 50 (12 credits an answer: 504 refunded). */
function settlement(overrides: Partial<Settlement> = {}): Settlement {
  return {
    rule: 'leader', method: 'ppr_1v1', asked: true, confidence: 0.95, alpha: 0.05, points: null, floor: 1, stopped: true, settledAt: 8,
    settledAtTime: '2026-01-05T14:03:00.000Z', nRequested: 50, leader: 'Penny', evidence: 28.44, threshold: 20, refundedCredits: 504, withdrawn: false,
    intervals: 'anytime_valid', note: 'Stopped early at 8 of 50 answers: Penny is the favourite (…). 504 credits for the places not answered were refunded.',
    ...overrides,
  };
}
const settlementText = (html: string) => textOf(/<p class="[^"]*settlement[^"]*" data-testid="settlement">([\s\S]*?)<\/p>/.exec(html)?.[1] ?? '').trim();

describe('early stopping behind a share link', () => {
  const stopped = (s: Partial<Settlement> = {}) =>
    result({
      status: 'complete', nAccepted: 8, refundCredits: 504, settlement: settlement(s),
      distribution: [item('Penny', 8, 1), item('Pocket', 0, 0), item('Neither', 0, 0)].map((d, i) => ({ ...d, low: i === 0 ? 0.4213 : 0, high: i === 0 ? 1 : 0.5787 })),
      answers: [answer({ reason: 'Short and friendly.' })],
    });

  it('a stopped question: the box and the anytime-valid intervals, as on the public page, and no credit amount', () => {
    const html = render(question({ status: 'complete' }), stopped());
    expect(settlementText(html)).toBe('Stopped early at 8 of 50 answers: Penny is the favourite at 95% confidence.');
    const text = textOf(html);
    expect(text).toContain('Penny: 100% (8 answers), interval 42% to 100%');
    expect(text).toContain('Intervals: anytime-valid at 95%, valid however often the result was checked.');
    expect(text).not.toMatch(/credit|504/);
    // The rest of the shared page is still there.
    expect(text).toContain('Short and friendly.');
  });

  it('a withdrawn claim says so, with no credit amount', () => {
    const html = render(question({ status: 'complete' }), stopped({ withdrawn: true }));
    expect(html).toContain('<p class="settlement withdrawn" data-testid="settlement">');
    expect(settlementText(html)).toBe('Stopped early at 8 of 50 answers, but the claim is withdrawn: after answers were removed in review, the answers left no longer settle it.');
    expect(textOf(html)).not.toMatch(/credit|504/);
  });

  it('a rule not met yet, never met, and no rule asked: one quiet line each', () => {
    const open = settlement({ stopped: false, settledAt: null, settledAtTime: null, refundedCredits: 0, intervals: 'wilson', floor: 10 });
    expect(settlementText(render(question(), result({ nAccepted: 2, settlement: open })))).toBe('Stops early when settled: leader rule at 95%, not before 10 answers.');
    expect(settlementText(render(question({ status: 'complete' }), result({ status: 'complete', nAccepted: 50, settlement: open })))).toBe(
      'Never settled: the leader rule at 95% was not met before the question closed.',
    );
    const reference = settlement({ asked: false, stopped: false, settledAt: 10, refundedCredits: 0, intervals: 'wilson' });
    expect(settlementText(render(question({ status: 'complete' }), result({ status: 'complete', nAccepted: 50, settlement: reference })))).toBe(
      'With early stopping this question would have settled at 10 answers.',
    );
    expect(render(question(), result({ settlement: { ...reference, settledAt: null } }))).not.toContain('data-testid="settlement"');
  });
});

describe('translations of written answers', () => {
  it('follow the words as written, escaped and marked with their language', () => {
    const html = render(
      question({ language: 'es' }),
      result({
        nAccepted: 1,
        translationLanguage: 'en',
        answers: [answer({ text: 'Es <b>corto</b>', translatedText: 'It is <b>short</b>', reason: 'Me gusta', translatedReason: 'I like it' })],
      }),
      'es',
    );
    expect(html).toContain('<p class="answer-translation" lang="en">Traducción: It is &lt;b&gt;short&lt;/b&gt;</p>');
    expect(html).toContain('<p class="answer-translation" lang="en">Traducción: I like it</p>');
    expect(html.indexOf('Es &lt;b&gt;corto')).toBeLessThan(html.indexOf('It is &lt;b&gt;short'));
    expect(render(question(), result({ nAccepted: 1, answers: [answer({ reason: 'Short' })] }))).not.toContain('answer-translation');
  });
});
