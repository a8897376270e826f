import type { QuestionType } from '../../draft/question-types.ts';
import type { Question } from '../../questions/questions.schemas.ts';
import type { Result } from '../../results/results.schemas.ts';
import type { ChartInput } from './render.types.ts';

/**
 * Realistic inputs for the renderer's tests and sample images: one result per question type as
 * the results service returns it (shares with their 95% Wilson intervals, summary notes in the
 * words summary.ts writes), plus the hard cases (no answers, simulated heads, Hindi, a 600-character
 * question, nine long options, 5,000 answers).
 */
type Item = Result['distribution'][number];
type Answer = Result['answers'][number];

/** The 95% Wilson score interval of k of n (docs/results.md), as the result carries it. */
export function wilson(k: number, n: number): { low: number; high: number } {
  if (n === 0) return { low: 0, high: 1 };
  const z = 1.96;
  const p = k / n;
  const denom = 1 + (z * z) / n;
  const centre = (p + (z * z) / (2 * n)) / denom;
  const half = (z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n))) / denom;
  return { low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}

/** Items from counts, shares of `n` (of answerers, so multi choice can add up past 100%). */
export function items(counts: Array<[option: string, count: number]>, n = counts.reduce((sum, [, c]) => sum + c, 0)): Item[] {
  return counts.map(([option, count]) => ({ option, count, share: n ? count / n : 0, ...wilson(count, n) }));
}

export function question(overrides: Partial<Question> = {}): Question {
  return {
    id: 'q_7Hk2', type: 'single_choice', text: 'Which name should our budgeting app launch with?', language: 'en',
    options: [{ label: 'Penny' }, { label: 'Pocket' }, { label: 'Stash' }], neither: false,
    n: 200, tier: 2, rush: false, publicResults: false, reason: 'optional', status: 'complete', source: 'api', answered: 200, creditsPerAnswer: 12,
    creditsReserved: 0, creditsSpent: 2400, etaMinutes: 0, leaderLine: null, refusedCategory: null, publicCode: null,
    createdAt: '2026-03-02T09:00:00.000Z', liveAt: '2026-03-02T09:00:05.000Z', closedAt: '2026-03-02T10:12:00.000Z',
    ...overrides,
  };
}

export function answer(i: number, overrides: Partial<Answer> = {}): Answer {
  return {
    option: null, text: null, reason: null, tier: 2, attestationRef: `att_${String(i).padStart(6, '0')}`,
    answeredAt: new Date(Date.UTC(2026, 2, 2, 10, 0, 0) - i * 7000).toISOString(), pinned: false,
    ...overrides,
  };
}

export function result(overrides: Partial<Result> = {}): Result {
  return {
    questionId: 'q_7Hk2', status: 'complete', nRequested: 200, nAccepted: 200, distribution: [], mean: null,
    summary: { winner: null, margin: null, confidence: null, note: '', suggestedFollowUp: null },
    tier: 2, language: 'en', verificationLine: 'Answered by 200 verified heads of tier 2 or above.', medianSeconds: 21,
    creditsSpent: 2400, answers: [], refundCredits: 0,
    ...overrides,
  };
}

const REASONS = ['Short and easy to remember.', 'Sounds like it keeps my money safe.', 'It makes me think of saving, which is the point.', 'My kids would get it.'];

/** `count` answers with options and reasons, two of them pinned (in the middle, so "pinned first" is the renderer's doing). */
export function answers(count: number, options: string[]): Answer[] {
  return Array.from({ length: count }, (_, i) =>
    answer(i, { option: options[i % options.length], reason: REASONS[i % REASONS.length], pinned: i === 5 || i === 9, ...(i === 5 ? { reason: 'PINNED-ONE: the name my friends already use for a savings jar.' } : {}) }),
  );
}

function fixture(type: QuestionType, q: Partial<Question>, r: Partial<Result>): ChartInput {
  return { question: question({ type, ...q }), result: result(r) };
}

const choice = fixture(
  'single_choice',
  { neither: true, options: [{ label: 'Penny' }, { label: 'Pocket' }, { label: 'Stash' }] },
  {
    distribution: items([['Penny', 58], ['Pocket', 112], ['Stash', 22], ['Neither', 8]]),
    summary: { winner: 'Pocket', margin: 0.27, confidence: 'high', note: 'Pocket leads with 56%, 27 points ahead of Penny; the lead is clear (99% intervals apart).', suggestedFollowUp: 'Ask which logo suits Pocket best.' },
    answers: answers(40, ['Pocket', 'Penny', 'Stash']),
  },
);

/** One input per question type, and the hard cases. */
export const FIXTURES = {
  single_choice: choice,
  /** 70% against 30%: the bar test measures these. */
  seventy_thirty: fixture('single_choice', { text: 'Tea or coffee in the morning?', options: [{ label: 'Tea' }, { label: 'Coffee' }] }, {
    nAccepted: 100, nRequested: 100, distribution: items([['Tea', 70], ['Coffee', 30]]),
    summary: { winner: 'Tea', margin: 0.4, confidence: 'high', note: 'Tea leads with 70%, 40 points ahead of Coffee; the lead is clear (99% intervals apart).', suggestedFollowUp: null },
  }),
  multi_choice: fixture('multi_choice', { text: 'Which of these features would you pay for?', options: ['Shared budgets', 'Bill reminders', 'Receipt scanning', 'Savings goals', 'Bank sync'].map((label) => ({ label })) }, {
    distribution: items([['Shared budgets', 88], ['Bill reminders', 131], ['Receipt scanning', 47], ['Savings goals', 102], ['Bank sync', 150]], 200),
    summary: { winner: 'Bank sync', margin: 0.1, confidence: 'medium', note: 'Bank sync leads with 75%, 10 points ahead of Bill reminders; the lead is likely real (95% intervals apart).', suggestedFollowUp: null },
  }),
  ab_image: fixture('ab_image', { text: 'Which homepage makes you want to sign up?', options: [{ label: 'Photo of a family', imageUrl: 'https://cdn.example.com/a.png' }, { label: 'Illustration', imageUrl: 'https://cdn.example.com/b.png' }] }, {
    nAccepted: 120, nRequested: 120, distribution: items([['Photo of a family', 71], ['Illustration', 49]]),
    summary: { winner: null, margin: 0.18, confidence: null, note: 'No clear leader: Photo of a family (59%) and Illustration (41%) are within the margin of error.', suggestedFollowUp: null },
  }),
  pairwise: fixture('pairwise', { text: 'Which perk matters most to you at work?', options: ['Remote days', 'Four-day week', 'Learning budget', 'Better coffee', 'Gym pass'].map((label) => ({ label })) }, {
    distribution: [
      { option: 'Remote days', count: 61, share: 0.64, appearances: 95, strength: 0.31, rank: 1 },
      { option: 'Four-day week', count: 70, share: 0.74, appearances: 95, strength: 0.36, rank: 1 },
      { option: 'Learning budget', count: 38, share: 0.4, appearances: 95, strength: 0.15, rank: 3 },
      { option: 'Better coffee', count: 12, share: 0.13, appearances: 95, strength: 0.06, rank: 5 },
      { option: 'Gym pass', count: 29, share: 0.31, appearances: 95, strength: 0.12, rank: 4 },
    ].map((i) => ({ ...i, ...wilson(i.count, i.appearances) })),
    summary: { winner: 'Four-day week', margin: 0.05, confidence: 'low', note: 'Four-day week and Remote days are close at the top; neither is clearly ahead.', suggestedFollowUp: null },
  }),
  ranking: fixture('ranking', { text: 'Rank these weekend plans, favourite first.', options: ['Hiking', 'Brunch with friends', 'Movie night', 'Sleeping in'].map((label) => ({ label })) }, {
    distribution: [
      { option: 'Hiking', count: 52, averageRank: 2.1, rank: 2 },
      { option: 'Brunch with friends', count: 81, averageRank: 1.9, rank: 1 },
      { option: 'Movie night', count: 30, averageRank: 2.8, rank: 3 },
      { option: 'Sleeping in', count: 37, averageRank: 3.2, rank: 4 },
    ].map((i) => ({ ...i, share: i.count / 200, ...wilson(i.count, 200) })),
    summary: { winner: 'Brunch with friends', margin: 0.15, confidence: 'medium', note: 'Brunch with friends has the best average rank (1.9) and is ranked first most often (41%).', suggestedFollowUp: null },
  }),
  scale_1_5: fixture('scale_1_5', { text: 'How easy was it to pay at checkout?', options: [] }, {
    distribution: items([['1', 6], ['2', 14], ['3', 38], ['4', 82], ['5', 60]]), mean: 3.87,
    summary: { winner: '4', margin: 0.11, confidence: 'medium', note: 'The average is 3.9 out of 5; most people (71%) chose 4 or 5.', suggestedFollowUp: null },
  }),
  yes_mostly_no: fixture('yes_mostly_no', { text: 'Did the welcome email explain our pricing?', options: [] }, {
    distribution: items([['yes', 91], ['mostly', 67], ['no', 42]]),
    summary: { winner: 'yes', margin: 0.12, confidence: 'medium', note: 'yes leads with 46%, 12 points ahead of mostly; the lead is likely real (95% intervals apart).', suggestedFollowUp: null },
  }),
  free_text: fixture('free_text', { text: 'What is the one thing you would change about our app?', options: [], reason: 'off' }, {
    nAccepted: 186, nRequested: 200,
    summary: { winner: null, margin: null, confidence: null, note: '186 written answers; see the insights for their themes.', suggestedFollowUp: null },
    answers: [
      answer(1, { text: 'Let me split a bill with friends without everyone installing the app.', pinned: true }),
      answer(2, { text: 'Dark mode, please. My eyes at midnight.' }),
      answer(3, { text: 'The sync with my bank breaks every few days and I have to log in again, which is the main reason I stopped using it daily.' }),
      answer(4, { text: 'Faster loading on older phones.' }),
      answer(5, { text: 'Nothing really, it does what I need.' }),
    ],
  }),
  free_text_themes: fixture('free_text', { text: 'What is the one thing you would change about our app?', options: [], reason: 'off' }, {
    nAccepted: 186, nRequested: 200,
    summary: { winner: null, margin: null, confidence: null, note: '186 written answers; the most common theme is bank sync.', suggestedFollowUp: null },
    insights: {
      questionId: 'q_7Hk2', language: 'en', sourceLanguage: 'en', takeaway: 'People mostly want bank sync to stop breaking.', engine: 'local', kind: 'final',
      themes: [
        { label: 'Bank sync breaks', count: 64, share: 0.34, sentiment: 'negative', option: null, quotes: ['The sync with my bank breaks every few days.'] },
        { label: 'Dark mode', count: 41, share: 0.22, sentiment: 'neutral', option: null, quotes: ['Dark mode, please.'] },
        { label: 'Splitting bills', count: 33, share: 0.18, sentiment: 'positive', option: null, quotes: ['Let me split a bill with friends.'] },
      ],
      sentiment: { positive: 40, neutral: 80, negative: 66 }, basedOn: 186, answersAtTime: 186, original: null,
      generatedAt: '2026-03-02T10:15:00.000Z', refreshAfter: null,
    },
  }),
  click_test: fixture('click_test', { text: 'Where would you tap to change your plan?', options: [], stimulus: { imageUrl: 'https://cdn.example.com/settings.png' } }, {
    nAccepted: 150, nRequested: 150,
    summary: { winner: null, margin: null, confidence: null, note: '62% of taps landed in the top right, on the account menu.', suggestedFollowUp: null },
    clicks: {
      imageUrl: 'https://cdn.example.com/settings.png', taps: 173, points: [], grid: [], gridSize: 10, heatmapUrl: null,
      hotspots: [
        { x: 0.8, y: 0.0, w: 0.2, h: 0.1, count: 107, share: 0.62 },
        { x: 0.1, y: 0.7, w: 0.3, h: 0.1, count: 41, share: 0.24 },
        { x: 0.4, y: 0.4, w: 0.2, h: 0.1, count: 12, share: 0.07 },
      ],
    },
  }),
  reaction: fixture('reaction', { text: 'How does this ad make you feel?', options: ['Excited', 'Curious', 'Indifferent', 'Annoyed'].map((label) => ({ label })), stimulus: { imageUrl: 'https://cdn.example.com/ad.png', exposureMs: 5000 } }, {
    distribution: items([['Excited', 34], ['Curious', 88], ['Indifferent', 51], ['Annoyed', 27]]),
    summary: { winner: 'Curious', margin: 0.19, confidence: 'high', note: 'Curious leads with 44%, 19 points ahead of Indifferent; the lead is clear (99% intervals apart).', suggestedFollowUp: null },
  }),
  hindi: fixture('single_choice', { language: 'hi', text: 'आप ऑनलाइन ख़रीदारी के लिए सबसे ज़्यादा किस ऐप का इस्तेमाल करते हैं?', options: ['फ़्लिपकार्ट', 'अमेज़न', 'मीशो', 'कोई और ऐप'].map((label) => ({ label })) }, {
    language: 'hi', distribution: items([['फ़्लिपकार्ट', 74], ['अमेज़न', 69], ['मीशो', 41], ['कोई और ऐप', 16]]),
    summary: { winner: null, margin: 0.03, confidence: null, note: 'No clear leader: फ़्लिपकार्ट (37%) and अमेज़न (35%) are within the margin of error.', suggestedFollowUp: null },
    answers: [answer(1, { option: 'मीशो', reason: 'कपड़े सस्ते मिलते हैं और डिलीवरी मुफ़्त है।', pinned: true }), answer(2, { option: 'अमेज़न', reason: 'Prime की वजह से।' })],
  }),
  empty: fixture('single_choice', { status: 'live', answered: 0 }, {
    status: 'in_progress', nAccepted: 0, distribution: items([['Penny', 0], ['Pocket', 0], ['Stash', 0]]),
    summary: { winner: null, margin: null, confidence: null, note: 'No answers yet.', suggestedFollowUp: null }, verificationLine: 'No answers yet.',
  }),
  simulated: fixture('single_choice', { status: 'live' }, {
    status: 'in_progress', nAccepted: 37, nRequested: 50, distribution: items([['Penny', 11], ['Pocket', 19], ['Stash', 7]]),
    summary: { winner: 'Pocket', margin: 0.22, confidence: 'medium', note: 'So far Pocket leads with 51%, 22 points ahead of Penny; the lead is likely real (95% intervals apart).', suggestedFollowUp: null },
    verificationLine: 'Answered by simulated heads (development mode), not real people.',
  }),
  many_options: fixture('single_choice', {
    text: 'Which of these should be the very first thing a new customer sees when they open the app for the first time after signing up?', neither: true,
    options: ['A short welcome video from the founders', 'The account balance across every connected bank', 'A checklist of five setup steps with progress', 'A personalised savings tip based on last month', 'The monthly budget with categories prefilled', 'A prompt to invite a partner or flatmate', 'The list of upcoming bills and their due dates', 'A map of nearby partner shops with cashback'].map((label) => ({ label })),
  }, {
    distribution: items([['A short welcome video from the founders', 9], ['The account balance across every connected bank', 52], ['A checklist of five setup steps with progress', 38], ['A personalised savings tip based on last month', 21], ['The monthly budget with categories prefilled', 33], ['A prompt to invite a partner or flatmate', 6], ['The list of upcoming bills and their due dates', 27], ['A map of nearby partner shops with cashback', 10], ['Neither', 4]]),
    summary: { winner: 'The account balance across every connected bank', margin: 0.07, confidence: 'low', note: 'The account balance across every connected bank leads with 26%, 7 points ahead of A checklist of five setup steps with progress; the lead is not yet clear, so more answers would settle it (the 95% intervals overlap).', suggestedFollowUp: null },
  }),
  long_question: fixture('single_choice', {
    text: `${'We are thinking about changing how our subscription works, and before we commit to anything we would love to hear from people who actually pay for budgeting apps. '.repeat(4)}Which plan would you pick?`.slice(0, 600),
    options: [{ label: 'Monthly, cancel any time' }, { label: 'Yearly, two months free' }],
  }, {
    distribution: items([['Monthly, cancel any time', 121], ['Yearly, two months free', 79]]),
    summary: { winner: 'Monthly, cancel any time', margin: 0.21, confidence: 'high', note: 'Monthly, cancel any time leads with 61%, 21 points ahead of Yearly, two months free; the lead is clear (99% intervals apart). '.repeat(3), suggestedFollowUp: null },
  }),
};

/** The same question in each of the eight languages, for the font tests. */
export const LANGUAGE_TEXTS: Record<string, { text: string; options: [string, string] }> = {
  en: { text: 'Which name should our budgeting app launch with?', options: ['Penny', 'Pocket'] },
  es: { text: '¿Con qué nombre debería salir nuestra app de presupuestos?', options: ['Peñita', 'Bolsillo'] },
  pt: { text: 'Com que nome nosso app de orçamento deveria ser lançado?', options: ['Poupança', 'Cofrinho'] },
  hi: { text: 'हमारे बजट ऐप का नाम क्या होना चाहिए? क्षमा, ज्ञान, श्रृंखला', options: ['पैसा', 'बचत'] },
  fr: { text: 'Sous quel nom notre appli de budget devrait-elle sortir ?', options: ['Économe', 'Tirelire'] },
  de: { text: 'Unter welchem Namen soll unsere Budget-App starten? Größe, Straße', options: ['Groschen', 'Spardose'] },
  id: { text: 'Nama apa yang cocok untuk aplikasi anggaran kami?', options: ['Dompet', 'Celengan'] },
  tl: { text: 'Anong pangalan ang dapat gamitin ng aming budgeting app?', options: ['Alkansya', 'Pitaka'] },
};

export function inLanguage(language: string): ChartInput {
  const { text, options } = LANGUAGE_TEXTS[language];
  return fixture('single_choice', { language, text, options: options.map((label) => ({ label })) }, {
    language, nAccepted: 100, nRequested: 100, distribution: items([[options[0], 64], [options[1], 36]]),
    summary: { winner: options[0], margin: 0.28, confidence: 'high', note: `${options[0]} leads with 64%.`, suggestedFollowUp: null },
  });
}
