import { Command, CommanderError } from 'commander';
import { describe, expect, it } from 'vitest';
import { addDraftOptions, askBodyFromFlags, estimateBodyFromFlags, parseInstant, parseOption, type DraftFlags } from './draft-flags.ts';
import { UsageError } from './exit-codes.ts';

/** The flags of `headcount ask …` (or estimate) as commander reads them, then the body they make. */
function parse(kind: 'ask' | 'estimate', argv: string[]): { flags: DraftFlags; text: string | undefined } {
  const command = addDraftOptions(new Command(kind).argument('[text]').exitOverride().configureOutput({ writeErr: () => {}, writeOut: () => {} }), kind);
  command.parse(argv, { from: 'user' });
  return { flags: command.opts() as DraftFlags, text: command.args[0] };
}

function askBody(argv: string[], file: Record<string, unknown> | null = null): Record<string, any> & { draft: Record<string, any> } {
  const { flags, text } = parse('ask', argv);
  return askBodyFromFlags(flags, file, text) as Record<string, any> & { draft: Record<string, any> };
}

function commanderFailure(argv: string[]): CommanderError {
  try {
    parse('ask', argv);
  } catch (error) {
    return error as CommanderError;
  }
  throw new Error('expected the flags to be refused');
}

describe('--stop-when and its details (docs/early-stopping.md)', () => {
  const base = ['--type', 'single_choice', '--text', 'Which name?', '--option', 'Penny', '--option', 'Pocket'];
  it('builds stopWhen: leader, margin with points, confidence and floor, or never', () => {
    expect(askBody([...base, '--stop-when', 'leader']).draft.stopWhen).toEqual({ rule: 'leader' });
    expect(askBody([...base, '--stop-when', 'margin', '--stop-points', '12.5', '--stop-confidence', '0.99', '--stop-floor', '30']).draft.stopWhen).toEqual({
      rule: 'margin', points: 12.5, confidence: 0.99, floor: 30,
    });
    expect(askBody([...base, '--stop-when', 'never']).draft.stopWhen).toBe('never');
    expect(askBody(base).draft.stopWhen).toBeUndefined();
  });

  it('details change the rule of a --draft file; a new rule replaces it', () => {
    const file = { draft: { type: 'single_choice', text: 'Which?', stopWhen: { rule: 'margin', points: 10, floor: 40 } } };
    expect(askBody(['--stop-confidence', '0.9'], file).draft.stopWhen).toEqual({ rule: 'margin', points: 10, floor: 40, confidence: 0.9 });
    expect(askBody(['--stop-when', 'leader'], file).draft.stopWhen).toEqual({ rule: 'leader' });
  });

  it('refuses details without a rule, with never, and numbers out of range', () => {
    expect(() => askBody([...base, '--stop-points', '5'])).toThrow(UsageError);
    expect(() => askBody([...base, '--stop-when', 'never', '--stop-floor', '20'])).toThrow(UsageError);
    expect(commanderFailure([...base, '--stop-when', 'soon']).message).toMatch(/Allowed choices are leader, margin, never/);
    expect(commanderFailure([...base, '--stop-when', 'leader', '--stop-confidence', '0.5']).message).toMatch(/--stop-confidence must be from 0.8 to 0.999/);
    expect(commanderFailure([...base, '--stop-when', 'margin', '--stop-points', 'ten']).message).toMatch(/--stop-points must be a number/);
  });
});

describe('ask flags → POST /v2/questions body, for every question type', () => {
  it('single_choice: options in order, n, tier, targeting, labels and a project', () => {
    expect(
      askBody(['--type', 'single_choice', '--text', 'Which name is best?', '--option', 'Penny', '--option', 'Pocket', '--neither', '--n', '50', '--tier', '2', '--country', 'gb,US', '--country', 'FR', '--label', 'naming', '--label', 'q4', '--project', 'prj_1']),
    ).toEqual({
      draft: {
        type: 'single_choice',
        text: 'Which name is best?',
        options: [{ label: 'Penny' }, { label: 'Pocket' }],
        neither: true,
        n: 50,
        tier: 2,
        targeting: { countries: ['GB', 'US', 'FR'], tags: [] },
      },
      labels: ['naming', 'q4'],
      projectId: 'prj_1',
    });
  });

  it('the question may be the argument instead of --text', () => {
    expect(askBody(['Which name?', '--type', 'multi_choice', '--option', 'A', '--option', 'B']).draft).toEqual({ type: 'multi_choice', text: 'Which name?', options: [{ label: 'A' }, { label: 'B' }] });
  });

  it('ab_image: "Label=https://…" gives an option its image', () => {
    expect(askBody(['--type', 'ab_image', '--text', 'Which logo?', '--option', 'Blue=https://img.example/blue.png', '--option', 'Red=https://img.example/red.png']).draft.options).toEqual([
      { label: 'Blue', imageUrl: 'https://img.example/blue.png' },
      { label: 'Red', imageUrl: 'https://img.example/red.png' },
    ]);
  });

  it('pairwise and ranking: three or more options', () => {
    for (const type of ['pairwise', 'ranking']) {
      expect(askBody(['--type', type, '--text', 'Order these', '--option', 'A', '--option', 'B', '--option', 'C']).draft).toEqual({
        type,
        text: 'Order these',
        options: [{ label: 'A' }, { label: 'B' }, { label: 'C' }],
      });
    }
  });

  it('scale_1_5 and yes_mostly_no: no options, a reason asked for', () => {
    expect(askBody(['--type', 'scale_1_5', '--text', 'How clear is it?', '--reason', 'optional', '--n', '20']).draft).toEqual({ type: 'scale_1_5', text: 'How clear is it?', reason: 'optional', n: 20 });
    expect(askBody(['--type', 'yes_mostly_no', '--text', 'Would you pay?', '--reason', 'required']).draft).toEqual({ type: 'yes_mostly_no', text: 'Would you pay?', reason: 'required' });
  });

  it('free_text: targeting by age band, gender and verified age; context, language, content flag, rush, public results', () => {
    expect(
      askBody([
        '--type', 'free_text', '--text', '¿Qué falta en esta página?', '--context', 'A pricing page', '--language', 'es-MX',
        '--age', '25-34,35-44', '--gender', 'woman', '--gender', 'non_binary', '--verified-age', '--tag', 'pets_dog',
        '--content-flag', 'medical', '--rush', '--public-results',
      ]).draft,
    ).toEqual({
      type: 'free_text',
      text: '¿Qué falta en esta página?',
      context: 'A pricing page',
      language: 'es-MX',
      contentFlag: 'medical',
      rush: true,
      publicResults: true,
      targeting: { countries: [], tags: ['pets_dog'], ageBands: ['25-34', '35-44'], genders: ['woman', 'non_binary'], verifiedAge: true },
    });
  });

  it('click_test: the screenshot is the stimulus image, and maxTaps (1 when not given)', () => {
    expect(askBody(['--type', 'click_test', '--text', 'Where would you tap to pay?', '--image', 'https://img.example/s.png', '--max-taps', '3']).draft).toEqual({
      type: 'click_test',
      text: 'Where would you tap to pay?',
      stimulus: { imageUrl: 'https://img.example/s.png' },
      clickTest: { maxTaps: 3 },
    });
    expect(askBody(['--type', 'click_test', '--text', 'Where?', '--image', 'https://img.example/s.png']).draft.clickTest).toEqual({ maxTaps: 1 });
  });

  it('reaction: image, audio, text and exposure of the stimulus, and the options', () => {
    expect(
      askBody(['--type', 'reaction', '--text', 'How does it feel?', '--image', 'https://img.example/ad.png', '--audio', 'https://img.example/jingle.mp3', '--stimulus-text', 'Fresh taste', '--exposure-ms', '5000', '--option', 'Good', '--option', 'Bad']).draft,
    ).toEqual({
      type: 'reaction',
      text: 'How does it feel?',
      options: [{ label: 'Good' }, { label: 'Bad' }],
      stimulus: { imageUrl: 'https://img.example/ad.png', audioUrl: 'https://img.example/jingle.mp3', text: 'Fresh taste', exposureMs: 5000 },
    });
  });

  it('scheduling: a UTC instant as given; one with an offset in UTC', () => {
    expect(askBody(['--type', 'scale_1_5', '--text', 'Later?', '--scheduled-for', '2026-12-01T09:00:00Z']).draft.scheduledFor).toBe('2026-12-01T09:00:00Z');
    expect(askBody(['--type', 'scale_1_5', '--text', 'Later?', '--scheduled-for', '2026-12-01T10:30:00+01:00']).draft.scheduledFor).toBe('2026-12-01T09:30:00.000Z');
    expect(() => parseInstant('2026-02-30T10:00:00+01:00')).toThrow(UsageError);
    expect(() => parseInstant('tomorrow')).toThrow(UsageError);
  });

  it('the rest of the ask: template, saved draft, variant, external reference, private declaration, follow-ups', () => {
    const body = askBody([
      '--type', 'single_choice', '--text', 'Which one?', '--option', 'A', '--option', 'B',
      '--template', 'tpl_name_pick', '--from-draft', 'drf_1', '--variant-of', 'q_1', '--external-ref', 'jira:ABC-1',
      '--private', '12', '--then', 'Why did you choose it?', '--then', 'What would change your mind?', '--then-min-confidence', 'medium',
    ]);
    expect(body).toMatchObject({
      templateId: 'tpl_name_pick',
      fromDraftId: 'drf_1',
      variantOf: 'q_1',
      externalRef: 'jira:ABC-1',
      privateDeclaration: { recipients: 12 },
      then: [
        { type: 'free_text', text: 'Why did you choose it?', minConfidence: 'medium' },
        { type: 'free_text', text: 'What would change your mind?', minConfidence: 'medium' },
      ],
    });
  });
});

describe('--draft: a JSON draft (or a whole body) with the flags laid over it', () => {
  it('a QuestionDraft: flags override field by field, targeting merged', () => {
    const file = { type: 'single_choice', text: 'Old text', options: [{ label: 'X' }, { label: 'Y' }], n: 10, targeting: { countries: ['GB'], tags: [] }, neither: true };
    expect(askBody(['--text', 'New text', '--n', '30', '--age', '18-24', '--no-neither'], file)).toEqual({
      draft: { type: 'single_choice', text: 'New text', options: [{ label: 'X' }, { label: 'Y' }], n: 30, neither: false, targeting: { countries: ['GB'], tags: [], ageBands: ['18-24'] } },
    });
  });

  it('a whole ask body keeps its other fields; the flags still win', () => {
    const file = { draft: { type: 'scale_1_5', text: 'Clear?' }, labels: ['a'], externalRef: 'r1' };
    expect(askBody(['--label', 'b'], file)).toEqual({ draft: { type: 'scale_1_5', text: 'Clear?' }, labels: ['b'], externalRef: 'r1' });
  });

  it('the estimate takes the draft (and the surface) of a whole body, and an interest audience', () => {
    const { flags } = parse('estimate', ['--audience', 'aud_runners', '--min-grade', '1']);
    expect(estimateBodyFromFlags(flags, { draft: { type: 'yes_mostly_no', text: 'Do you run?' }, surface: 'web', labels: ['x'] })).toEqual({
      draft: { type: 'yes_mostly_no', text: 'Do you run?', interestAudienceId: 'aud_runners', minGrade: 1 },
      surface: 'web',
    });
  });
});

describe('flags that are refused before anything is sent (exit 2)', () => {
  it('numbers out of range or not whole, unknown types and bands', () => {
    expect(commanderFailure(['--n', '5']).code).toBe('commander.invalidArgument');
    expect(commanderFailure(['--n', '50.5']).code).toBe('commander.invalidArgument');
    expect(commanderFailure(['--tier', '4']).code).toBe('commander.invalidArgument');
    expect(commanderFailure(['--type', 'poll']).code).toBe('commander.invalidArgument');
    expect(commanderFailure(['--age', '17-20']).code).toBe('commander.invalidArgument');
    expect(commanderFailure(['--exposure-ms', '100']).code).toBe('commander.invalidArgument');
    expect(commanderFailure(['--bogus']).code).toBe('commander.unknownOption');
  });

  it('no type or no text: a usage error that says what to add', () => {
    expect(() => askBody(['--text', 'Hi there'])).toThrow(/--type is required.*single_choice, multi_choice/);
    expect(() => askBody(['--type', 'scale_1_5'])).toThrow(/--text is required/);
    expect(() => askBody(['Text', '--text', 'Text', '--type', 'scale_1_5'])).toThrow(/either as an argument or with --text/);
    expect(() => askBody(['--type', 'scale_1_5', '--text', 'Hi', '--then-min-confidence', 'high'])).toThrow(/needs at least one --then/);
  });

  it('an option label keeps an "=" that is not followed by a web address', () => {
    expect(parseOption('2+2=4')).toEqual({ label: '2+2=4' });
    expect(parseOption('A=B=https://x.example/a.png')).toEqual({ label: 'A=B', imageUrl: 'https://x.example/a.png' });
  });
});
