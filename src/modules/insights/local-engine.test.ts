import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { summarizeLocally, KEYWORD_ENGINE, LOCAL_ENGINE } from './local-engine.ts';
import { checkSummary, writtenOf, MAX_QUOTES, MAX_THEMES, type Summary, type SummaryRequest } from './insights.engine.ts';
import { SAVINGS_APP } from './fixtures/savings-app.ts';

/** The invariants every summary keeps, whatever the answers (docs/insights.md). */
function expectSound(request: SummaryRequest, summary: Summary): void {
  const answers = writtenOf(request.answers);
  const strings = new Set(answers.flatMap((a) => [a.text, a.reason].filter((s) => s !== null)));
  expect(checkSummary(summary, answers)).toEqual([]);
  expect(summary.basedOn).toBe(answers.length);
  expect(summary.themes.length).toBeLessThanOrEqual(MAX_THEMES);
  const { positive, neutral, negative } = summary.sentiment;
  expect(positive + neutral + negative).toBe(summary.basedOn);
  for (const v of [positive, neutral, negative]) expect(Number.isInteger(v)).toBe(true);
  // Themes are disjoint: their counts add up to at most basedOn.
  expect(summary.themes.reduce((sum, t) => sum + t.count, 0)).toBeLessThanOrEqual(summary.basedOn);
  for (const theme of summary.themes) {
    expect(theme.count).toBeGreaterThanOrEqual(1);
    expect(theme.count).toBeLessThanOrEqual(summary.basedOn);
    expect(theme.share).toBeCloseTo(theme.count / summary.basedOn, 12);
    expect(theme.quotes.length).toBeGreaterThanOrEqual(1);
    expect(theme.quotes.length).toBeLessThanOrEqual(MAX_QUOTES);
    expect(new Set(theme.quotes).size).toBe(theme.quotes.length);
    for (const quote of theme.quotes) expect(strings.has(quote), quote).toBe(true);
    expect(theme.option === null || request.options.includes(theme.option)).toBe(true);
    expect(theme.label.trim()).not.toBe('');
  }
  expect(summary.takeaway.trim()).not.toBe('');
}

const FREE_TEXT: SummaryRequest = {
  questionText: 'What would make you switch banks?',
  options: [],
  sourceLanguage: 'en',
  answers: [
    'Lower fees, mostly. My current bank charges for everything.',
    'Better customer service. I waited 40 minutes on the phone last week.',
    'No monthly fees and a decent app.',
    'A really good mobile app with instant notifications.',
    'Customer service that actually answers.',
    'Higher interest on savings.',
    'Interest rates on savings, nothing else matters.',
    'Hidden fees drive me mad.',
    'I would not switch, too much hassle.',
    'Too much hassle to move direct debits.',
    'The app crashes all the time, so a reliable app.',
    'Branches near me, I like talking to a person.',
  ].map((text) => ({ option: null, text, reason: null })),
};

const SPANISH: SummaryRequest = {
  questionText: '¿Qué nombre prefieres para una app de ahorro?',
  options: ['Alcancía', 'Bolsillo'],
  sourceLanguage: 'es-MX',
  answers: [
    ['Alcancía', 'Me recuerda a mi infancia, muy tierno.'],
    ['Alcancía', 'Es tierno y fácil de recordar.'],
    ['Alcancía', 'Fácil de recordar, suena a ahorro.'],
    ['Bolsillo', 'Suena práctico y seguro.'],
    ['Bolsillo', 'Práctico, el dinero siempre en el bolsillo.'],
    ['Bolsillo', 'Me preocupan las comisiones ocultas.'],
    ['Alcancía', 'Sin comisiones ocultas me da igual el nombre.'],
  ].map(([option, reason]) => ({ option, text: null, reason })),
};

describe('local insights engine', () => {
  it('summarises a realistic set of 30 reasons', () => {
    const summary = summarizeLocally(SAVINGS_APP);
    expectSound(SAVINGS_APP, summary);
    expect(summary.engine).toBe(LOCAL_ENGINE);
    expect(summary.basedOn).toBe(30);
    expect(summary.themes.length).toBeGreaterThanOrEqual(4);
    const first = summary.themes[0];
    expect(first.label).toBe('short and friendly');
    expect(first.option).toBe('Penny');
    expect(first.sentiment).toBe('positive');
    expect(summary.themes.map((t) => t.label)).toContain('hidden fees');
    expect(summary.takeaway).toMatch(/^\w+ people who picked Penny mention “short and friendly”/);
    // More positive than negative reasons in this set.
    expect(summary.sentiment.positive).toBeGreaterThan(summary.sentiment.negative);
  });

  it('never uses who answered', () => {
    const output = JSON.stringify(summarizeLocally(SAVINGS_APP));
    for (const secret of ['head_SECRET', 'att_SECRET', 'ZQ', 'non_binary', '45-54']) expect(output).not.toContain(secret);
    // The same answers without those fields give exactly the same summary.
    const bare = { ...SAVINGS_APP, answers: SAVINGS_APP.answers.map(({ option, text, reason }) => ({ option, text, reason })) };
    expect(summarizeLocally(bare)).toEqual(summarizeLocally(SAVINGS_APP));
  });

  it('is deterministic', () => {
    const copy = JSON.parse(JSON.stringify(SAVINGS_APP)) as SummaryRequest;
    expect(summarizeLocally(copy)).toEqual(summarizeLocally(SAVINGS_APP));
    expect(summarizeLocally(FREE_TEXT)).toEqual(summarizeLocally(FREE_TEXT));
  });

  it('summarises free text without options', () => {
    const summary = summarizeLocally(FREE_TEXT);
    expectSound(FREE_TEXT, summary);
    expect(summary.themes.every((t) => t.option === null)).toBe(true);
    const labels = summary.themes.map((t) => t.label);
    expect(labels).toEqual(expect.arrayContaining(['customer service']));
    expect(labels.some((l) => l.includes('fees'))).toBe(true);
    expect(summary.takeaway).toMatch(/^\d+ of 12 mention “/);
  });

  it('falls back to word frequency for other languages, with neutral sentiment', () => {
    const summary = summarizeLocally(SPANISH);
    expectSound(SPANISH, summary);
    expect(summary.engine).toBe(KEYWORD_ENGINE);
    expect(summary.sentiment).toEqual({ positive: 0, neutral: 7, negative: 0 });
    expect(summary.themes.every((t) => t.sentiment === 'neutral')).toBe(true);
    const labels = summary.themes.map((t) => t.label);
    expect(labels).toContain('comisiones ocultas');
    // Stop words and option labels are no themes.
    for (const label of labels) for (const word of ['de', 'me', 'el', 'alcancía', 'bolsillo']) expect(label).not.toBe(word);
    expect(summary.takeaway).toMatch(/mencionan «/);
  });

  it('tokenises Devanagari', () => {
    const request: SummaryRequest = {
      questionText: 'आपको कौन सा नाम पसंद है?',
      options: [],
      sourceLanguage: 'hi',
      answers: ['नाम छोटा और याद रखने में आसान है', 'याद रखने में आसान', 'छोटा नाम अच्छा लगता है', 'कीमत ज़्यादा है'].map((text) => ({ option: null, text, reason: null })),
    };
    const summary = summarizeLocally(request);
    expectSound(request, summary);
    expect(summary.themes.length).toBeGreaterThan(0);
    expect(summary.takeaway).toContain('में से');
  });

  it('handles tiny, empty and repetitive sets', () => {
    const none = summarizeLocally({ ...FREE_TEXT, answers: [] });
    expect(none).toMatchObject({ basedOn: 0, themes: [], sentiment: { positive: 0, neutral: 0, negative: 0 } });
    const three = { ...FREE_TEXT, answers: FREE_TEXT.answers.slice(0, 3) };
    expectSound(three, summarizeLocally(three));
    const same = { ...FREE_TEXT, answers: Array.from({ length: 20 }, () => ({ option: null, text: 'Lower fees please.', reason: null })) };
    const summary = summarizeLocally(same);
    expectSound(same, summary);
    expect(summary.themes[0]).toMatchObject({ count: 20, share: 1, quotes: ['Lower fees please.'] });
    // Blank strings are not written answers.
    const blanks = { ...FREE_TEXT, answers: [{ option: null, text: '   ', reason: null }, ...FREE_TEXT.answers.slice(0, 3)] };
    expect(summarizeLocally(blanks).basedOn).toBe(3);
  });

  it('keeps at most 8 themes of at most 3 quotes', () => {
    const topics = ['price', 'colour', 'speed', 'battery', 'screen', 'camera', 'weight', 'sound', 'warranty', 'delivery', 'packaging', 'support'];
    const phrasings = (topic: string) => [`The ${topic}.`, `Mostly the ${topic}.`, `The ${topic}, definitely.`, `Only the ${topic} for me.`];
    const answers = topics.flatMap((topic) => phrasings(topic).map((text) => ({ option: null, text, reason: null })));
    const request = { ...FREE_TEXT, questionText: 'What matters?', answers };
    const summary = summarizeLocally(request);
    expectSound(request, summary);
    expect(summary.themes).toHaveLength(MAX_THEMES);
    expect(summary.themes.every((t) => t.quotes.length === MAX_QUOTES)).toBe(true);
  });

  it('keeps its invariants on any answers (property)', () => {
    const words = ['price', 'fees', 'hidden', 'friendly', 'short', 'safe', 'confusing', 'cute', 'app', 'money', 'love', 'hate', 'not', 'very', 'the', 'is', 'Penny'];
    const sentence = fc.array(fc.constantFrom(...words), { minLength: 1, maxLength: 9 }).map((w) => w.join(' ') + '.');
    const answer = fc.record({
      option: fc.constantFrom('Penny', 'Pocket', null),
      text: fc.option(sentence, { nil: null }),
      reason: fc.option(fc.oneof(sentence, fc.string({ maxLength: 30 })), { nil: null }),
      country: fc.constant('ZQ'),
      headId: fc.constant('head_SECRET'),
    });
    fc.assert(
      fc.property(fc.array(answer, { maxLength: 40 }), fc.constantFrom('en', 'es', 'de', 'tl'), (answers, language) => {
        const request = { questionText: 'Which name?', options: ['Penny', 'Pocket'], sourceLanguage: language, answers } as SummaryRequest;
        const summary = summarizeLocally(request);
        expectSound(request, summary);
        const output = JSON.stringify(summary);
        expect(output).not.toContain('head_SECRET');
        expect(output).not.toContain('ZQ');
        expect(summarizeLocally(request)).toEqual(summary);
      }),
      { numRuns: 60, seed: 20261122 },
    );
  });
});
