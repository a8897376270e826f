import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ValidationCode, ValidationItem } from '../../lib/errors.ts';
import { MAX_SCHEDULE_DAYS, parseUtcInstant, validateDraft, type LooseDraft } from './draft-validator.ts';
import { QUESTION_LANGUAGES, QUESTION_TYPES, type QuestionType } from './question-types.ts';
import { TAG_GROUP_DATA } from './tags.data.ts';

/**
 * The draft validator as a requester meets it through the estimate: every broken rule of the spec
 * (QuestionDraft table, Limits) and of ARCHITECTURE §4 ("Per-type rules") comes back once, on the
 * right field, with a stable code and a plain sentence.
 */

const NOW = new Date('2026-06-01T12:00:00.000Z');
const DAY_MS = 86_400_000;
const at = (ms: number) => new Date(NOW.getTime() + ms).toISOString();

const check = (draft: LooseDraft, prefix?: string): ValidationItem[] => validateDraft(draft, { now: NOW, prefix });
/** field and code only, in the order reported, for exact comparisons. */
const problems = (draft: LooseDraft, prefix?: string) => check(draft, prefix).map(({ field, code }) => ({ field, code }));
const only = (field: string, code: ValidationCode) => [{ field, code }];

const img = (name: string) => `https://cdn.example.com/stimuli/${name}.png`;
const labels = (...names: string[]) => names.map((label) => ({ label }));
const nOptions = (count: number) => Array.from({ length: count }, (_, i) => ({ label: `Option ${i + 1}` }));

/** One realistic, askable draft of each type. */
const VALID: Record<QuestionType, LooseDraft> = {
  single_choice: { type: 'single_choice', text: 'Which name would you pick for a budgeting app?', options: labels('Penny', 'Pocket', 'Ledgerly'), neither: true, reason: 'optional' },
  multi_choice: { type: 'multi_choice', text: 'Which of these would you use? Tick all that apply.', options: labels('Offline mode', 'Voice notes', 'Shared notebooks', 'Web clipper') },
  ab_image: {
    type: 'ab_image',
    text: 'Which packaging would make you pick the box up?',
    options: [{ label: 'Green box', imageUrl: img('green') }, { label: 'Blue box', imageUrl: img('blue') }],
    neither: true,
  },
  pairwise: { type: 'pairwise', text: 'Which line makes you more likely to try the product?', options: labels('Groceries in 20 minutes', 'Your corner shop, online', 'Fresh food, no queue') },
  scale_1_5: { type: 'scale_1_5', text: 'How clear is this sentence: "Cancel any time, no fees"?', context: '1 = very unclear, 5 = perfectly clear' },
  ranking: { type: 'ranking', text: 'Put these in order of what matters most in a phone plan.', options: labels('Price', 'Data allowance', 'Coverage', 'Contract length') },
  yes_mostly_no: { type: 'yes_mostly_no', text: 'Would you pay £3 a month for a plant-watering reminder?', reason: 'required' },
  free_text: { type: 'free_text', text: 'What would you want to know before switching your bank?', reason: 'off', n: 30 },
  click_test: { type: 'click_test', text: 'Where would you tap to change your delivery address?', stimulus: { imageUrl: img('checkout') }, clickTest: { maxTaps: 2 } },
  reaction: {
    type: 'reaction',
    text: 'How did that slogan make you feel?',
    options: labels('Curious', 'Indifferent', 'Put off'),
    stimulus: { text: 'Banking that talks like a person.', exposureMs: 5000 },
  },
};

const with_ = (type: QuestionType, changes: LooseDraft): LooseDraft => ({ ...VALID[type], ...changes });
/** The single_choice draft with a targeting block (both required lists present). */
const targeted = (targeting: NonNullable<LooseDraft['targeting']>, more: LooseDraft = {}): LooseDraft => ({
  ...VALID.single_choice,
  ...more,
  targeting: { countries: [], tags: [], ...targeting },
});

describe('validateDraft: valid drafts', () => {
  it.each(QUESTION_TYPES)('a realistic %s draft has no problem', (type) => {
    expect(check(VALID[type])).toEqual([]);
  });

  it('a draft using every field within its limits has no problem', () => {
    const draft: LooseDraft = {
      type: 'single_choice',
      text: 'Which of these would you buy for a friend?',
      context: 'Think of a birthday present under £20.',
      language: 'pt-BR',
      options: labels('Book', 'Candle', 'Plant'),
      neither: true,
      n: 5000,
      tier: 2,
      rush: true,
      targeting: {
        countries: ['GB', 'IN', 'BR'],
        tags: ['student', 'int_sport', 'pet_dog'],
        ageBands: ['18-24', '25-34'],
        genders: ['woman', 'non_binary'],
        verifiedAge: true,
      },
      scheduledFor: at(DAY_MS),
      publicResults: true,
      reason: 'required',
      contentFlag: 'alcohol_gambling',
    };
    expect(check(draft)).toEqual([]);
  });

  it('a reaction stimulus may be an image or an audio clip instead of text', () => {
    expect(check(with_('reaction', { stimulus: { imageUrl: img('poster'), exposureMs: 2000 } }))).toEqual([]);
    expect(check(with_('reaction', { stimulus: { audioUrl: 'https://cdn.example.com/jingle.mp3', exposureMs: 10000 } }))).toEqual([]);
  });

  it('media addresses are web addresses: javascript:, data: and file: are refused where they appear', () => {
    expect(problems(with_('click_test', { stimulus: { imageUrl: 'javascript:alert(1)' } }))).toEqual(only('draft.stimulus.imageUrl', 'invalid_format'));
    expect(problems(with_('reaction', { stimulus: { audioUrl: 'file:///etc/passwd', exposureMs: 2000 } }))).toEqual(only('draft.stimulus.audioUrl', 'invalid_format'));
    expect(problems(with_('ab_image', { options: [{ label: 'A', imageUrl: 'data:image/png;base64,AAAA' }, { label: 'B', imageUrl: img('b') }] }))).toEqual(
      only('draft.options[0].imageUrl', 'invalid_format'),
    );
    expect(check(with_('click_test', { stimulus: { imageUrl: 'http://localhost:8080/v1/files/upl_1.png' } }))).toEqual([]);
  });

  it('accepts every limit at its edge', () => {
    expect(check(with_('scale_1_5', { text: 'x'.repeat(600), context: 'c'.repeat(120), n: 10 }))).toEqual([]);
    expect(check(with_('scale_1_5', { n: 5000 }))).toEqual([]);
    expect(check(with_('single_choice', { options: [{ label: 'l'.repeat(40) }, ...nOptions(7)] }))).toEqual([]);
    expect(check(with_('reaction', { stimulus: { text: 't'.repeat(120), exposureMs: 10000 } }))).toEqual([]);
    expect(check(with_('click_test', { clickTest: { maxTaps: 1 } }))).toEqual([]);
    expect(check(with_('click_test', { clickTest: { maxTaps: 5 } }))).toEqual([]);
    for (const tier of [1, 2, 3]) expect(check(with_('scale_1_5', { tier }))).toEqual([]);
  });

  it('counts characters, not UTF-16 units: 600 emoji are a 600-character text', () => {
    expect(check(with_('scale_1_5', { text: '😀'.repeat(600) }))).toEqual([]);
    expect(problems(with_('scale_1_5', { text: '😀'.repeat(601) }))).toEqual(only('draft.text', 'too_long'));
  });

  it.each(QUESTION_LANGUAGES)('accepts the question language %s, alone and with a region', (language) => {
    expect(check(with_('scale_1_5', { language }))).toEqual([]);
    expect(check(with_('scale_1_5', { language: `${language}-GB` }))).toEqual([]);
  });

  it('accepts the neither answer on the choice and A/B types', () => {
    for (const type of ['single_choice', 'multi_choice', 'ab_image'] as const) expect(check(with_(type, { neither: true }))).toEqual([]);
  });

  it('accepts neither: false and reason off on every type', () => {
    for (const type of QUESTION_TYPES) expect(check(with_(type, { neither: false, reason: 'off' }))).toEqual([]);
  });
});

describe('validateDraft: per-type rules (ARCHITECTURE §4)', () => {
  describe('option counts', () => {
    const cases: Array<[QuestionType, number, number]> = [
      ['single_choice', 2, 8],
      ['multi_choice', 2, 8],
      ['ab_image', 2, 2],
      ['pairwise', 3, 8],
      ['ranking', 3, 8],
      ['reaction', 2, 8],
    ];
    const optionsFor = (type: QuestionType, count: number) =>
      type === 'ab_image' ? nOptions(count).map((o, i) => ({ ...o, imageUrl: img(`variant-${i}`) })) : nOptions(count);

    it.each(cases)('%s takes %i to %i options', (type, min, max) => {
      expect(check(with_(type, { options: optionsFor(type, min) }))).toEqual([]);
      expect(check(with_(type, { options: optionsFor(type, max) }))).toEqual([]);
      expect(problems(with_(type, { options: optionsFor(type, min - 1) }))).toEqual(only('draft.options', 'too_few'));
      // Past 8 the spec's own limit and the type rule agree; either way one item on draft.options.
      expect(problems(with_(type, { options: optionsFor(type, max + 1) }))).toEqual(only('draft.options', 'too_many'));
    });

    it.each(cases)('%s with no options at all is too_few', (type) => {
      const { options: _none, ...draft } = VALID[type];
      expect(problems(draft)).toEqual(only('draft.options', 'too_few'));
    });

    it('says how many options the type needs and how many the draft has', () => {
      const [item] = check(with_('pairwise', { options: nOptions(2) }));
      expect(item.message).toMatch(/3 to 8/);
      expect(item.message).toMatch(/\b2\b/);
      const [ab] = check(with_('ab_image', { options: [{ label: 'A', imageUrl: img('a') }] }));
      expect(ab.message).toMatch(/exactly 2/);
    });
  });

  it.each(['scale_1_5', 'yes_mostly_no', 'free_text', 'click_test'] as const)('%s takes no options', (type) => {
    expect(problems(with_(type, { options: labels('Yes', 'No') }))).toEqual(only('draft.options', 'not_allowed'));
  });

  it('an empty options list is fine on types without options', () => {
    for (const type of ['scale_1_5', 'yes_mostly_no', 'free_text', 'click_test'] as const) expect(check(with_(type, { options: [] }))).toEqual([]);
  });

  it('ab_image: each option needs an imageUrl, reported on that option', () => {
    const draft = with_('ab_image', { options: [{ label: 'Green box', imageUrl: img('green') }, { label: 'Blue box' }] });
    expect(problems(draft)).toEqual(only('draft.options[1].imageUrl', 'required'));
    const neither = with_('ab_image', { options: labels('Green box', 'Blue box') });
    expect(problems(neither)).toEqual([
      { field: 'draft.options[0].imageUrl', code: 'required' },
      { field: 'draft.options[1].imageUrl', code: 'required' },
    ]);
  });

  it('an option imageUrl must be a URI', () => {
    const draft = with_('ab_image', { options: [{ label: 'Green box', imageUrl: 'green.png' }, { label: 'Blue box', imageUrl: img('blue') }] });
    expect(problems(draft)).toEqual(only('draft.options[0].imageUrl', 'invalid_format'));
  });

  it.each(['pairwise', 'ranking', 'scale_1_5', 'yes_mostly_no', 'free_text', 'click_test', 'reaction'] as const)('%s refuses neither', (type) => {
    expect(problems(with_(type, { neither: true }))).toEqual(only('draft.neither', 'not_allowed'));
  });

  it.each(['single_choice', 'multi_choice', 'ab_image', 'pairwise', 'ranking', 'scale_1_5', 'yes_mostly_no', 'free_text'] as const)(
    '%s shows no stimulus and takes no clickTest',
    (type) => {
      expect(problems(with_(type, { stimulus: { imageUrl: img('x') } }))).toEqual(only('draft.stimulus', 'not_allowed'));
      expect(problems(with_(type, { clickTest: { maxTaps: 1 } }))).toEqual(only('draft.clickTest', 'not_allowed'));
    },
  );

  it('reaction takes no clickTest', () => {
    expect(problems(with_('reaction', { clickTest: { maxTaps: 1 } }))).toEqual(only('draft.clickTest', 'not_allowed'));
  });

  describe('free_text', () => {
    it.each(['optional', 'required'])('refuses reason %s: the answer is already written', (reason) => {
      expect(problems(with_('free_text', { reason }))).toEqual(only('draft.reason', 'not_allowed'));
    });

    it('allows reason on the other types', () => {
      for (const type of QUESTION_TYPES.filter((t) => t !== 'free_text')) {
        expect(check(with_(type, { reason: 'required' }))).toEqual([]);
      }
    });
  });

  describe('click_test', () => {
    it('needs a stimulus with an imageUrl', () => {
      const { stimulus: _s, ...noStimulus } = VALID.click_test;
      expect(problems(noStimulus)).toEqual(only('draft.stimulus', 'required'));
      expect(problems(with_('click_test', { stimulus: {} }))).toEqual(only('draft.stimulus.imageUrl', 'required'));
    });

    it('needs clickTest, and clickTest needs maxTaps', () => {
      const { clickTest: _c, ...noClickTest } = VALID.click_test;
      expect(problems(noClickTest)).toEqual(only('draft.clickTest', 'required'));
      expect(problems(with_('click_test', { clickTest: {} }))).toEqual(only('draft.clickTest.maxTaps', 'required'));
    });

    it('shows an image only: audio, text and exposureMs are refused on their own fields', () => {
      const draft = with_('click_test', { stimulus: { imageUrl: img('checkout'), audioUrl: 'https://cdn.example.com/a.mp3', text: 'Tap', exposureMs: 3000 } });
      expect(problems(draft)).toEqual([
        { field: 'draft.stimulus.audioUrl', code: 'not_allowed' },
        { field: 'draft.stimulus.text', code: 'not_allowed' },
        { field: 'draft.stimulus.exposureMs', code: 'not_allowed' },
      ]);
    });

    it.each([0, 6])('maxTaps %i is out of range (1 to 5)', (maxTaps) => {
      expect(problems(with_('click_test', { clickTest: { maxTaps } }))).toEqual(only('draft.clickTest.maxTaps', 'out_of_range'));
    });

    it('maxTaps must be whole', () => {
      expect(problems(with_('click_test', { clickTest: { maxTaps: 2.5 } }))).toEqual(only('draft.clickTest.maxTaps', 'invalid_format'));
    });
  });

  describe('reaction', () => {
    it('needs a stimulus', () => {
      const { stimulus: _s, ...noStimulus } = VALID.reaction;
      expect(problems(noStimulus)).toEqual(only('draft.stimulus', 'required'));
    });

    it('a stimulus with only exposureMs has nothing to react to', () => {
      expect(problems(with_('reaction', { stimulus: { exposureMs: 3000 } }))).toEqual(only('draft.stimulus', 'required'));
    });

    it('needs exposureMs', () => {
      expect(problems(with_('reaction', { stimulus: { text: 'Banking that talks like a person.' } }))).toEqual(only('draft.stimulus.exposureMs', 'required'));
    });

    it.each([1999, 10001, 0])('exposureMs %i is out of range (2000 to 10000)', (exposureMs) => {
      expect(problems(with_('reaction', { stimulus: { text: 'Slogan', exposureMs } }))).toEqual(only('draft.stimulus.exposureMs', 'out_of_range'));
    });

    it('exposureMs must be whole milliseconds', () => {
      expect(problems(with_('reaction', { stimulus: { text: 'Slogan', exposureMs: 2500.5 } }))).toEqual(only('draft.stimulus.exposureMs', 'invalid_format'));
    });

    it('stimulus.text is at most 120 characters and its URLs must be URIs', () => {
      expect(problems(with_('reaction', { stimulus: { text: 't'.repeat(121), exposureMs: 3000 } }))).toEqual(only('draft.stimulus.text', 'too_long'));
      expect(problems(with_('reaction', { stimulus: { imageUrl: 'poster.png', exposureMs: 3000 } }))).toEqual(only('draft.stimulus.imageUrl', 'invalid_format'));
    });
  });
});

describe('validateDraft: field rules of the spec', () => {
  describe('type and text', () => {
    it('an unknown type is unknown_value, and no per-type rule is guessed for it', () => {
      expect(problems({ type: 'poll', text: 'Which?', options: labels('A') })).toEqual(only('draft.type', 'unknown_value'));
    });

    it('a missing type is required', () => {
      expect(problems({ text: 'Which?' })).toEqual(only('draft.type', 'required'));
    });

    it('a missing text is required', () => {
      const { text: _t, ...draft } = VALID.scale_1_5;
      expect(problems(draft)).toEqual(only('draft.text', 'required'));
    });

    it.each(['', '   ', '\n\t '])('a blank text (%j) is required', (text) => {
      expect(problems(with_('scale_1_5', { text }))).toEqual(only('draft.text', 'required'));
    });

    it.each(['\u200B', '\u200B\u200D\uFEFF', ' \u2060\u00AD\uFE0F ', '\u200E\u200F', '\u3164'])('a text of only invisible characters (%j) is required', (text) => {
      expect(problems(with_('scale_1_5', { text }))).toEqual(only('draft.text', 'required'));
    });

    it.each<[string, LooseDraft, string]>([
      ['a bell in the text', with_('scale_1_5', { text: 'How clear is this?\u0007' }), 'draft.text'],
      ['a C1 control in the context', with_('scale_1_5', { context: '1 = unclear\u0085' }), 'draft.context'],
      ['a carriage return (callers normalize line breaks first)', with_('scale_1_5', { text: 'How clear\ris this?' }), 'draft.text'],
      ['a right-to-left override in the text', with_('scale_1_5', { text: 'How \u202Eraelc is this?' }), 'draft.text'],
      ['an isolate in an option', with_('single_choice', { options: labels('Penny', '\u2067Pocket') }), 'draft.options[1].label'],
      ['a line break in an option', with_('single_choice', { options: labels('Penny', 'Poc\nket') }), 'draft.options[1].label'],
      ['an escape in the stimulus text', with_('reaction', { stimulus: { text: '\u001B[1mBold\u001B[0m', exposureMs: 3000 } }), 'draft.stimulus.text'],
    ])('%s is invalid_format, naming the character', (_name, draft, field) => {
      const items = check(draft);
      expect(items.map(({ field, code }) => ({ field, code }))).toEqual(only(field, 'invalid_format'));
      expect(items[0].message).toMatch(/U\+[0-9A-F]{4}/);
    });

    it('tab and line breaks are fine in the text and context; bidi marks, joiners and any script are fine everywhere', () => {
      expect(check(with_('scale_1_5', { text: 'How clear is this?\n\tCancel any time.', context: '1 = unclear\n5 = clear' }))).toEqual([]);
      expect(check(with_('single_choice', { text: 'איזה שם \u200Fעדיף\u200F?', options: labels('👨\u200D👩\u200D👧', 'می\u200Cخواهم', 'नमस्ते') }))).toEqual([]);
    });

    it('minTextLength counts visible characters (a follow-up needs 8)', () => {
      const follow = (text: string) => validateDraft(with_('free_text', { text }), { now: NOW, prefix: 'then[0]', minTextLength: 8 }).map(({ field, code }) => ({ field, code }));
      expect(follow('Why that?')).toEqual([]);
      expect(follow(`Why?${'\u200B'.repeat(8)}`)).toEqual(only('then[0].text', 'too_short'));
      expect(follow('\u200B'.repeat(9))).toEqual(only('then[0].text', 'required'));
    });

    it('text is at most 600 characters and context at most 120', () => {
      expect(problems(with_('scale_1_5', { text: 'x'.repeat(601) }))).toEqual(only('draft.text', 'too_long'));
      expect(problems(with_('scale_1_5', { context: 'x'.repeat(121) }))).toEqual(only('draft.context', 'too_long'));
    });

    it('an unknown field is not_allowed', () => {
      expect(problems({ ...VALID.scale_1_5, colour: 'red' } as LooseDraft)).toEqual(only('draft.colour', 'not_allowed'));
    });
  });

  describe('options', () => {
    it('an option label is at most 40 characters', () => {
      expect(problems(with_('single_choice', { options: [{ label: 'x'.repeat(41) }, { label: 'B' }] }))).toEqual(only('draft.options[0].label', 'too_long'));
    });

    it('an option needs a label that is not blank', () => {
      expect(problems(with_('single_choice', { options: [{ label: 'A' }, {}] }))).toEqual(only('draft.options[1].label', 'required'));
      expect(problems(with_('single_choice', { options: [{ label: 'A' }, { label: '  ' }] }))).toEqual(only('draft.options[1].label', 'required'));
    });

    it('two options with the same label (ignoring case and spaces) are refused on the repeat', () => {
      expect(problems(with_('single_choice', { options: labels('Penny', 'Pocket', ' penny ') }))).toEqual(only('draft.options[2].label', 'not_allowed'));
    });

    it('labels that look the same (invisible characters, other spaces) repeat each other; a label of only invisible characters is blank', () => {
      expect(problems(with_('single_choice', { options: labels('Penny', 'Pen\u200Bny') }))).toEqual(only('draft.options[1].label', 'not_allowed'));
      expect(problems(with_('single_choice', { options: labels('Pocket money', 'Pocket\u00A0money') }))).toEqual(only('draft.options[1].label', 'not_allowed'));
      expect(problems(with_('single_choice', { options: labels('Penny', '\u200B\uFEFF') }))).toEqual(only('draft.options[1].label', 'required'));
    });

    it('more than 8 options is too_many on any type with options', () => {
      expect(problems(with_('multi_choice', { options: nOptions(9) }))).toEqual(only('draft.options', 'too_many'));
    });
  });

  describe('language', () => {
    it.each(['EN', 'en_GB', 'en-gb', 'eng', 'e', 'en-GBR'])('%s does not match xx or xx-XX', (language) => {
      expect(problems(with_('scale_1_5', { language }))).toEqual(only('draft.language', 'invalid_format'));
    });

    it.each(['xx', 'nl', 'it-IT'])('%s is well formed but not one of the 8 question languages', (language) => {
      expect(problems(with_('scale_1_5', { language }))).toEqual(only('draft.language', 'unknown_value'));
    });
  });

  describe('n and tier', () => {
    it.each([9, 5001, 0, -50])('n %i is out of range (10 to 5000)', (n) => {
      expect(problems(with_('scale_1_5', { n }))).toEqual(only('draft.n', 'out_of_range'));
    });

    it('n must be a whole number', () => {
      expect(problems(with_('scale_1_5', { n: 50.5 }))).toEqual(only('draft.n', 'invalid_format'));
    });

    it.each([0, 4])('tier %i is not a tier', (tier) => {
      expect(problems(with_('scale_1_5', { tier }))).toEqual(only('draft.tier', 'unknown_value'));
    });

    it('tier 2 or 3 in countries that offer no tier 2 heads is not_allowed on tier', () => {
      expect(problems(targeted({ countries: ['ID', 'PH'] }, { tier: 2 }))).toEqual(only('draft.tier', 'not_allowed'));
      expect(problems(targeted({ countries: ['NG'] }, { tier: 3 }))).toEqual(only('draft.tier', 'not_allowed'));
      // One country with tier 2 heads is enough, and tier 1 is offered everywhere.
      expect(check(targeted({ countries: ['ID', 'GB'] }, { tier: 2 }))).toEqual([]);
      expect(check(targeted({ countries: ['ID'] }, { tier: 1 }))).toEqual([]);
    });
  });

  describe('targeting', () => {
    it('countries and tags are required inside targeting', () => {
      expect(problems({ ...VALID.single_choice, targeting: {} })).toEqual([
        { field: 'draft.targeting.countries', code: 'required' },
        { field: 'draft.targeting.tags', code: 'required' },
      ]);
    });

    it('empty lists mean anyone', () => {
      expect(check(targeted({}))).toEqual([]);
    });

    it('a country code has exactly 2 characters', () => {
      expect(problems(targeted({ countries: ['GBR'] }))).toEqual(only('draft.targeting.countries[0]', 'too_long'));
      expect(problems(targeted({ countries: ['G'] }))).toEqual(only('draft.targeting.countries[0]', 'too_short'));
    });

    it('a country must be an answering country', () => {
      expect(problems(targeted({ countries: ['GB', 'ZZ'] }))).toEqual(only('draft.targeting.countries[1]', 'unknown_value'));
      expect(problems(targeted({ countries: ['JP'] }))).toEqual(only('draft.targeting.countries[0]', 'unknown_value'));
    });

    it('a lower-case code is unknown and the message shows the upper-case one', () => {
      const items = check(targeted({ countries: ['gb'] }));
      expect(items.map(({ field, code }) => ({ field, code }))).toEqual(only('draft.targeting.countries[0]', 'unknown_value'));
      expect(items[0].message).toContain('"GB"');
    });

    it('a country listed twice is refused on the repeat', () => {
      expect(problems(targeted({ countries: ['GB', 'IN', 'GB'] }))).toEqual(only('draft.targeting.countries[2]', 'not_allowed'));
    });

    it('at most 50 countries', () => {
      const codes = (count: number) => Array.from({ length: count }, (_, i) => String.fromCharCode(65 + Math.floor(i / 26), 65 + (i % 26)));
      const countOnly = (list: string[]) => check(targeted({ countries: list })).filter((item) => item.field === 'draft.targeting.countries');
      expect(countOnly(codes(50))).toEqual([]);
      expect(countOnly(codes(51)).map((i) => i.code)).toEqual(['too_many']);
    });

    it('a tag must exist in the tags catalogue', () => {
      expect(problems(targeted({ tags: ['student', 'astronaut'] }))).toEqual(only('draft.targeting.tags[1]', 'unknown_value'));
    });

    it('a tag listed twice is refused on the repeat', () => {
      expect(problems(targeted({ tags: ['pet_dog', 'pet_dog'] }))).toEqual(only('draft.targeting.tags[1]', 'not_allowed'));
    });

    it('at most `max` tags of one group, and every max is 1 (spec: one trait per group): one life stage, one interest', () => {
      expect(TAG_GROUP_DATA.map((group) => group.max)).toEqual(TAG_GROUP_DATA.map(() => 1));
      expect(problems(targeted({ tags: ['student', 'retired'] }))).toEqual(only('draft.targeting.tags', 'too_many'));
      expect(problems(targeted({ tags: ['int_sport', 'int_music'] }))).toEqual(only('draft.targeting.tags', 'too_many'));
      expect(check(targeted({ tags: ['int_sport', 'student', 'pet_dog', 'tech_android'] }))).toEqual([]);
    });

    it('at most 20 tags', () => {
      const unknown = (count: number) => Array.from({ length: count }, (_, i) => `made_up_${i}`);
      const countOnly = (list: string[]) => check(targeted({ tags: list })).filter((item) => item.field === 'draft.targeting.tags');
      expect(countOnly(unknown(20))).toEqual([]);
      expect(countOnly(unknown(21)).map((i) => i.code)).toEqual(['too_many']);
    });

    it('age bands and genders come from their lists', () => {
      expect(problems(targeted({ ageBands: ['18-24', '16-17'] }))).toEqual(only('draft.targeting.ageBands[1]', 'unknown_value'));
      expect(problems(targeted({ genders: ['other'] }))).toEqual(only('draft.targeting.genders[0]', 'unknown_value'));
    });

    it('at most 6 age bands and 3 genders', () => {
      const bands = ['18-24', '25-34', '35-44', '45-54', '55-64', '65+'];
      expect(check(targeted({ ageBands: bands, genders: ['woman', 'man', 'non_binary'] }))).toEqual([]);
      expect(problems(targeted({ ageBands: [...bands, '18-24'] }))).toEqual(only('draft.targeting.ageBands', 'too_many'));
      expect(problems(targeted({ genders: ['woman', 'man', 'non_binary', 'woman'] }))).toEqual(only('draft.targeting.genders', 'too_many'));
    });

    it('an age band or gender listed twice is refused', () => {
      expect(problems(targeted({ ageBands: ['18-24', '18-24'] }))).toEqual(only('draft.targeting.ageBands', 'not_allowed'));
      expect(problems(targeted({ genders: ['man', 'man'] }))).toEqual(only('draft.targeting.genders', 'not_allowed'));
    });
  });

  describe('scheduledFor', () => {
    it('accepts an instant in the next 90 days, with or without fractional seconds', () => {
      expect(check(with_('scale_1_5', { scheduledFor: '2026-06-02T09:00:00Z' }))).toEqual([]);
      expect(check(with_('scale_1_5', { scheduledFor: '2026-07-01T09:30:15.250Z' }))).toEqual([]);
      expect(check(with_('scale_1_5', { scheduledFor: at(1) }))).toEqual([]);
      expect(check(with_('scale_1_5', { scheduledFor: at(MAX_SCHEDULE_DAYS * DAY_MS) }))).toEqual([]);
    });

    it('is at most 90 days ahead', () => {
      expect(MAX_SCHEDULE_DAYS).toBe(90);
      expect(problems(with_('scale_1_5', { scheduledFor: at(MAX_SCHEDULE_DAYS * DAY_MS + 1) }))).toEqual(only('draft.scheduledFor', 'out_of_range'));
      expect(problems(with_('scale_1_5', { scheduledFor: '2027-01-01T00:00:00Z' }))).toEqual(only('draft.scheduledFor', 'out_of_range'));
    });

    it('must be in the future: now or earlier is in_past', () => {
      expect(problems(with_('scale_1_5', { scheduledFor: at(0) }))).toEqual(only('draft.scheduledFor', 'in_past'));
      expect(problems(with_('scale_1_5', { scheduledFor: '2026-05-31T12:00:00Z' }))).toEqual(only('draft.scheduledFor', 'in_past'));
      expect(problems(with_('scale_1_5', { scheduledFor: '2020-01-01T00:00:00Z' }))).toEqual(only('draft.scheduledFor', 'in_past'));
    });

    it.each([
      ['2026-02-30T09:00:00Z', 'no 30 February'],
      ['2027-02-29T09:00:00Z', '2027 is not a leap year'],
      ['2026-06-31T09:00:00Z', 'June has 30 days'],
      ['2026-13-01T09:00:00Z', 'no month 13'],
      ['2026-07-01T24:00:00Z', 'no hour 24'],
      ['2026-07-01T09:60:00Z', 'no minute 60'],
      ['2026-07-01', 'a date without a time'],
      ['2026-07-01T09:00:00', 'no Z'],
      ['2026-07-01T09:00:00+01:00', 'an offset instead of Z'],
      ['2026-07-01 09:00:00Z', 'a space instead of T'],
      ['tomorrow', 'not an instant'],
    ])('%s is invalid_format (%s)', (scheduledFor) => {
      expect(problems(with_('scale_1_5', { scheduledFor }))).toEqual(only('draft.scheduledFor', 'invalid_format'));
    });

    it('accepts 29 February in a leap year', () => {
      expect(validateDraft(with_('scale_1_5', { scheduledFor: '2028-02-29T09:00:00Z' }), { now: new Date('2028-02-01T00:00:00Z') })).toEqual([]);
    });

    it('parseUtcInstant reads the instant exactly, fractions included, and refuses impossible dates', () => {
      expect(parseUtcInstant('2026-07-01T09:30:15.250Z')?.toISOString()).toBe('2026-07-01T09:30:15.250Z');
      expect(parseUtcInstant('2028-02-29T00:00:00Z')?.toISOString()).toBe('2028-02-29T00:00:00.000Z');
      expect(parseUtcInstant('2026-02-30T09:00:00Z')).toBeNull();
      expect(parseUtcInstant('2026-07-01T23:59:60Z')).toBeNull();
      expect(parseUtcInstant('2026-07-01T09:00:00+00:00')).toBeNull();
    });
  });

  describe('reason and contentFlag', () => {
    it('reason is off, optional or required', () => {
      expect(problems(with_('scale_1_5', { reason: 'sometimes' }))).toEqual(only('draft.reason', 'unknown_value'));
    });

    it('contentFlag comes from its list', () => {
      for (const contentFlag of ['none', 'medical', 'violence', 'distressing', 'alcohol_gambling', 'political']) {
        expect(check(with_('scale_1_5', { contentFlag }))).toEqual([]);
      }
      expect(problems(with_('scale_1_5', { contentFlag: 'gore' }))).toEqual(only('draft.contentFlag', 'unknown_value'));
    });
  });
});

describe('validateDraft: one item per field', () => {
  it.each<[string, LooseDraft, string, ValidationCode[]]>([
    ['n below the range and not whole', with_('scale_1_5', { n: 3.5 }), 'draft.n', ['invalid_format', 'out_of_range']],
    ['tier not whole and not a tier', with_('scale_1_5', { tier: 2.5 }), 'draft.tier', ['invalid_format', 'unknown_value']],
    ['text blank and too long', with_('scale_1_5', { text: ' '.repeat(700) }), 'draft.text', ['required', 'too_long']],
    ['a date that is both impossible and in the past', with_('scale_1_5', { scheduledFor: '2020-02-30T09:00:00Z' }), 'draft.scheduledFor', ['invalid_format']],
    ['9 options on an A/B question (spec limit and type rule)', with_('ab_image', { options: nOptions(9).map((o, i) => ({ ...o, imageUrl: img(`v${i}`) })) }), 'draft.options', ['too_many']],
    ['a 3-letter lower-case country', targeted({ countries: ['gbr'] }), 'draft.targeting.countries[0]', ['too_long', 'unknown_value']],
    ['21 tags with two life stages', targeted({ tags: ['student', 'retired', ...Array.from({ length: 19 }, (_, i) => `made_up_${i}`)] }), 'draft.targeting.tags', ['too_many']],
    ['7 age bands, one repeated', targeted({ ageBands: ['18-24', '25-34', '35-44', '45-54', '55-64', '65+', '65+'] }), 'draft.targeting.ageBands', ['too_many', 'not_allowed']],
    ['an empty, repeated option label', with_('single_choice', { options: labels('A', '', '') }), 'draft.options[2].label', ['required', 'not_allowed']],
  ])('%s gives one item on its field', (_name, draft, field, codes) => {
    const items = check(draft);
    const onField = items.filter((item) => item.field === field);
    expect(onField).toHaveLength(1);
    expect(codes).toContain(onField[0].code);
    expect(new Set(items.map((item) => item.field)).size).toBe(items.length);
  });

  it('a draft breaking many rules lists each field once, and every field it breaks', () => {
    const draft: LooseDraft = {
      type: 'pairwise',
      text: ' ',
      context: 'c'.repeat(121),
      language: 'nl',
      options: [{ label: 'A' }, { label: 'a' }],
      neither: true,
      stimulus: { text: 'Look' },
      n: 5001,
      tier: 3,
      targeting: { countries: ['ID', 'ID'], tags: ['student', 'retired'], genders: ['man', 'man'] },
      clickTest: { maxTaps: 9 },
      scheduledFor: '2026-02-30T09:00:00Z',
      reason: 'always',
      contentFlag: 'gore',
    };
    const items = check(draft);
    expect(new Set(items.map((item) => item.field)).size).toBe(items.length);
    expect(Object.fromEntries(items.map((item) => [item.field, item.code]))).toEqual({
      'draft.text': 'required',
      'draft.context': 'too_long',
      'draft.language': 'unknown_value',
      'draft.options': 'too_few',
      'draft.options[1].label': 'not_allowed',
      'draft.neither': 'not_allowed',
      'draft.stimulus': 'not_allowed',
      'draft.n': 'out_of_range',
      'draft.targeting.countries[1]': 'not_allowed',
      'draft.tier': 'not_allowed',
      'draft.targeting.tags': 'too_many',
      'draft.targeting.genders': 'not_allowed',
      'draft.clickTest.maxTaps': 'out_of_range',
      'draft.clickTest': 'not_allowed',
      'draft.scheduledFor': 'invalid_format',
      'draft.reason': 'unknown_value',
      'draft.contentFlag': 'unknown_value',
    });
  });

  it('holds for any draft with the right JSON types (property)', () => {
    const codes = new Set<ValidationCode>(['required', 'too_long', 'too_short', 'too_many', 'too_few', 'out_of_range', 'invalid_format', 'unknown_value', 'not_allowed', 'in_past']);
    const url = fc.constantFrom('https://cdn.example.com/a.png', 'not a url', '');
    const draftArb: fc.Arbitrary<LooseDraft> = fc.record(
      {
        type: fc.constantFrom(...QUESTION_TYPES, 'poll'),
        text: fc.oneof(fc.string({ maxLength: 20 }), fc.constant(' '), fc.constant('x'.repeat(601))),
        context: fc.string({ maxLength: 130 }),
        language: fc.constantFrom('en', 'pt-BR', 'EN', 'xx', 'nl-NL'),
        options: fc.array(fc.record({ label: fc.oneof(fc.string({ maxLength: 45 }), fc.constant('Same')), imageUrl: url }, { requiredKeys: [] }), { maxLength: 10 }),
        neither: fc.boolean(),
        stimulus: fc.record({ imageUrl: url, audioUrl: url, text: fc.string({ maxLength: 125 }), exposureMs: fc.integer({ min: 0, max: 12000 }) }, { requiredKeys: [] }),
        n: fc.oneof(fc.integer({ min: -10, max: 6000 }), fc.double({ min: 0, max: 6000, noNaN: true })),
        tier: fc.integer({ min: 0, max: 4 }),
        rush: fc.boolean(),
        targeting: fc.record(
          {
            countries: fc.array(fc.constantFrom('GB', 'IN', 'ID', 'gb', 'ZZ', 'GBR', 'G'), { maxLength: 52 }),
            tags: fc.array(fc.constantFrom('student', 'retired', 'int_sport', 'int_music', 'int_travel', 'nope'), { maxLength: 22 }),
            ageBands: fc.array(fc.constantFrom('18-24', '65+', '16-17'), { maxLength: 8 }),
            genders: fc.array(fc.constantFrom('woman', 'man', 'other'), { maxLength: 5 }),
            verifiedAge: fc.boolean(),
          },
          { requiredKeys: [] },
        ),
        clickTest: fc.record({ maxTaps: fc.integer({ min: 0, max: 7 }) }, { requiredKeys: [] }),
        scheduledFor: fc.constantFrom(at(DAY_MS), at(-DAY_MS), at(100 * DAY_MS), '2026-02-30T09:00:00Z', 'soon'),
        publicResults: fc.boolean(),
        reason: fc.constantFrom('off', 'optional', 'required', 'always'),
        contentFlag: fc.constantFrom('none', 'medical', 'gore'),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(draftArb, fc.constantFrom('draft', 'then[0]'), (draft, prefix) => {
        const items = validateDraft(draft, { now: NOW, prefix });
        expect(new Set(items.map((item) => item.field)).size).toBe(items.length);
        for (const item of items) {
          expect(item.field === prefix || item.field.startsWith(`${prefix}.`)).toBe(true);
          expect(codes.has(item.code)).toBe(true);
          expect(item.message).toMatch(/\.$/);
        }
      }),
      { numRuns: 400 },
    );
  });
});

describe('validateDraft: paths and messages', () => {
  it('uses the given prefix in every path, for schema rules and per-type rules alike', () => {
    const draft: LooseDraft = {
      type: 'ab_image',
      options: [{ label: 'Green box', imageUrl: img('green') }, { label: 'Blue box' }],
      n: 3,
      targeting: { countries: ['ZZ'], tags: [] },
    };
    expect(problems(draft, 'then[0]')).toEqual(
      expect.arrayContaining([
        { field: 'then[0].text', code: 'required' },
        { field: 'then[0].n', code: 'out_of_range' },
        { field: 'then[0].options[1].imageUrl', code: 'required' },
        { field: 'then[0].targeting.countries[0]', code: 'unknown_value' },
      ]),
    );
    expect(check(draft, 'then[0]').every((item) => item.field.startsWith('then[0].'))).toBe(true);
    expect(problems(with_('pairwise', { neither: true }), 'then[2]')).toEqual(only('then[2].neither', 'not_allowed'));
  });

  it('defaults the prefix to draft', () => {
    expect(problems(with_('pairwise', { neither: true }))).toEqual(only('draft.neither', 'not_allowed'));
  });

  it('every message is a plain sentence, without JSON-schema jargon', () => {
    const broken: LooseDraft[] = [
      {},
      { type: 'poll', text: 'x'.repeat(601), context: 'c'.repeat(121), language: 'EN', n: 3.5, tier: 7, reason: 'always', contentFlag: 'gore', scheduledFor: 'soon' },
      { ...VALID.scale_1_5, language: 'xx', n: 9, scheduledFor: at(-1) },
      { ...VALID.scale_1_5, n: 5001, scheduledFor: at(100 * DAY_MS) },
      { ...VALID.ab_image, options: [{ label: 'x'.repeat(41), imageUrl: 'nope' }, { label: 'B' }, { label: ' b ' }], neither: true },
      { ...VALID.pairwise, options: [{}], neither: true, stimulus: {}, clickTest: { maxTaps: 1 } },
      { ...VALID.free_text, options: labels('A'), reason: 'required' },
      { type: 'click_test', text: 'Tap', stimulus: { audioUrl: 'https://cdn.example.com/a.mp3', text: 'x', exposureMs: 3000 }, clickTest: { maxTaps: 9 } },
      { type: 'click_test', text: 'Tap' },
      { ...VALID.reaction, stimulus: { text: 'x'.repeat(121) } },
      { ...VALID.reaction, stimulus: { text: 'Slogan', exposureMs: 1000 } },
      { ...VALID.scale_1_5, scheduledFor: '2026-02-30T09:00:00Z' },
      { ...VALID.scale_1_5, tier: 2, targeting: { countries: ['ID', 'gb', 'ZZ', 'GBR', 'G', 'ID'], tags: ['student', 'retired', 'nope', 'student'], ageBands: ['1', '1', '1', '1', '1', '1', '1'], genders: ['man', 'man'] } },
      { ...VALID.scale_1_5, targeting: {} },
      { ...VALID.scale_1_5, colour: 'red' } as LooseDraft,
    ];
    const messages = broken.flatMap((draft) => check(draft)).map((item) => item.message);
    expect(messages.length).toBeGreaterThan(40);
    for (const message of messages) {
      expect(message, message).toMatch(/^\S.*\.$/s);
      expect(message, message).not.toMatch(/must match|must NOT|should (be|have|match)|>=|<=|[<>]\s*\d|\bminLength|\bmaxLength|\bminItems|\bmaxItems|\bminimum\b|\bmaximum\b|additionalProperties|allowedValues|instancePath|\/draft\/|undefined|NaN|\[object/);
    }
  });

  it('messages name the limit that was broken', () => {
    const message = (draft: LooseDraft, field: string) => check(draft).find((item) => item.field === field)?.message ?? '';
    expect(message(with_('scale_1_5', { text: 'x'.repeat(601) }), 'draft.text')).toContain('600');
    expect(message(with_('scale_1_5', { n: 5001 }), 'draft.n')).toContain('5000');
    expect(message(with_('scale_1_5', { n: 9 }), 'draft.n')).toContain('10');
    expect(message(with_('click_test', { clickTest: { maxTaps: 6 } }), 'draft.clickTest.maxTaps')).toContain('5');
    expect(message(with_('scale_1_5', { scheduledFor: at(91 * DAY_MS) }), 'draft.scheduledFor')).toContain('90 days');
    expect(message(targeted({ tags: ['int_sport', 'int_music'] }), 'draft.targeting.tags')).toMatch(/At most 1 tag of the "Interests" group.*int_sport, int_music/);
  });
});
