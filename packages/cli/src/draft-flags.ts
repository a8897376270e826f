import { Command, InvalidArgumentError, Option } from 'commander';
import { UsageError } from './exit-codes.ts';

/**
 * The flags of `ask` and `estimate` and how they become a QuestionDraft (and, for `ask`, the rest
 * of the body of POST /v2/questions). Every field of the spec's QuestionDraft has a flag; a JSON
 * draft (`--draft file.json`, `--draft -` for stdin) is the base and the flags given override it
 * field by field. The service checks the per-type rules (docs/question-types.md) and reports every
 * problem at once, so the tool checks only what a flag's value must look like.
 */

export const QUESTION_TYPES = [
  'single_choice',
  'multi_choice',
  'ab_image',
  'pairwise',
  'scale_1_5',
  'ranking',
  'yes_mostly_no',
  'free_text',
  'click_test',
  'reaction',
] as const;
export const AGE_BANDS = ['18-24', '25-34', '35-44', '45-54', '55-64', '65+'] as const;
export const GENDERS = ['woman', 'man', 'non_binary'] as const;
export const REASON_MODES = ['off', 'optional', 'required'] as const;
export const CONTENT_FLAGS = ['none', 'medical', 'violence', 'distressing', 'alcohol_gambling', 'political'] as const;
export const CONFIDENCES = ['low', 'medium', 'high'] as const;

export type Json = Record<string, unknown>;

/** What commander hands over for the draft flags (camelCase of each long flag). */
export interface DraftFlags {
  draft?: string;
  type?: string;
  text?: string;
  context?: string;
  language?: string;
  option?: string[];
  neither?: boolean;
  image?: string;
  audio?: string;
  stimulusText?: string;
  exposureMs?: number;
  n?: number;
  tier?: number;
  rush?: boolean;
  country?: string[];
  tag?: string[];
  age?: string[];
  gender?: string[];
  verifiedAge?: boolean;
  maxTaps?: number;
  scheduledFor?: string;
  publicResults?: boolean;
  reason?: string;
  contentFlag?: string;
  // early stopping (docs/early-stopping.md)
  stopWhen?: string;
  stopPoints?: number;
  stopConfidence?: number;
  stopFloor?: number;
  // estimate only: an interest audience instead of targeting (docs/audiences.md)
  audience?: string;
  minGrade?: number;
  // ask only
  template?: string;
  fromDraft?: string;
  variantOf?: string;
  project?: string;
  label?: string[];
  externalRef?: string;
  private?: number;
  then?: string[];
  thenMinConfidence?: string;
}

const collect = (value: string, previous: string[] | undefined) => [...(previous ?? []), value];
const collectList = (value: string, previous: string[] | undefined) => [
  ...(previous ?? []),
  ...value
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean),
];

export function integer(name: string, min: number, max: number) {
  return (value: string): number => {
    if (!/^-?\d+$/.test(value.trim())) throw new InvalidArgumentError(`${name} must be a whole number from ${min} to ${max}.`);
    const number = Number(value);
    if (number < min || number > max) throw new InvalidArgumentError(`${name} must be from ${min} to ${max}.`);
    return number;
  };
}

function decimal(name: string, min: number, max: number) {
  return (value: string): number => {
    const number = Number(value.trim());
    if (value.trim() === '' || !Number.isFinite(number)) throw new InvalidArgumentError(`${name} must be a number from ${min} to ${max}.`);
    if (number < min || number > max) throw new InvalidArgumentError(`${name} must be from ${min} to ${max}.`);
    return number;
  };
}

function oneOf<T extends string>(name: string, values: readonly T[]) {
  return (value: string, previous: string[] | undefined): string[] => {
    const parts = value
      .split(',')
      .map((part) => part.trim())
      .filter(Boolean);
    for (const part of parts) if (!values.includes(part as T)) throw new InvalidArgumentError(`${name} must be one of ${values.join(', ')}, not "${part}".`);
    return [...(previous ?? []), ...parts];
  };
}

/** Adds the draft flags to `ask` (kind 'ask') or `estimate`. */
export function addDraftOptions(command: Command, kind: 'ask' | 'estimate'): Command {
  command
    .option('--draft <file>', 'a JSON draft to start from (a QuestionDraft, or a whole ask body with "draft"); - reads stdin')
    .addOption(new Option('--type <type>', 'the question type').choices(QUESTION_TYPES))
    .option('--text <text>', 'the question, up to 600 characters')
    .option('--context <text>', 'a line of context shown above the question, up to 120 characters')
    .option('--language <code>', 'the language of the question: en, es, pt, hi, fr, de, id, tl (xx or xx-XX; default en)')
    .option('--option <label>', 'an option (repeat for each, in order); "Label=https://…/image.png" gives it an image', collect)
    .option('--neither', 'offer "neither" as the last answer (single_choice, multi_choice, ab_image)')
    .option('--no-neither', 'do not offer "neither" (overrides --draft)')
    .option('--image <url>', 'stimulus image: the screenshot of a click_test, or what a reaction shows')
    .option('--audio <url>', 'stimulus audio clip (reaction)')
    .option('--stimulus-text <text>', 'stimulus text (reaction), up to 120 characters')
    .option('--exposure-ms <ms>', 'how long a reaction shows its stimulus, 2000 to 10000 ms', integer('--exposure-ms', 2000, 10000))
    .option('--n <answers>', 'answers wanted, 10 to 5000 (default 50)', integer('--n', 10, 5000))
    .addOption(new Option('--tier <tier>', 'lowest verification tier of the heads (default 1)').choices(['1', '2', '3']).argParser(integer('--tier', 1, 3)))
    .option('--rush', 'answer faster, at a higher price')
    .option('--no-rush', 'no rush (overrides --draft)')
    .option('--country <CC>', 'answering country (repeat, or comma-separated: GB,US); none means any', collectList)
    .option('--tag <id>', 'a tag heads must have, from `GET /v1/tags` (repeat, or comma-separated)', collectList)
    .option('--age <band>', `age band (repeat, or comma-separated): ${AGE_BANDS.join(', ')}`, oneOf('--age', AGE_BANDS))
    .option('--gender <gender>', `gender (repeat, or comma-separated): ${GENDERS.join(', ')}`, oneOf('--gender', GENDERS))
    .option('--verified-age', 'only heads whose age is verified')
    .option('--max-taps <taps>', 'click_test: taps each head may make, 1 to 5', integer('--max-taps', 1, 5))
    .option('--scheduled-for <instant>', 'go live later: an ISO 8601 instant such as 2026-12-01T09:00:00Z (at most 90 days ahead)')
    .option('--public-results', 'publish the result on a public page')
    .option('--no-public-results', 'keep the result private (overrides --draft)')
    .addOption(new Option('--reason <mode>', 'ask heads for a reason').choices(REASON_MODES))
    .addOption(new Option('--content-flag <flag>', 'a content warning heads see first').choices(CONTENT_FLAGS))
    .addOption(new Option('--stop-when <rule>', 'stop early once settled, refunding the rest: leader, margin (with --stop-points), or never').choices(['leader', 'margin', 'never']))
    .option('--stop-points <points>', 'margin: the lead in percentage points (0 to 99), or for a 1–5 scale the half-width of the mean in stars', decimal('--stop-points', 0, 99))
    .option('--stop-confidence <c>', 'the confidence of the stop, 0.8 to 0.999 (default 0.95)', decimal('--stop-confidence', 0.8, 0.999))
    .option('--stop-floor <answers>', 'no stop before this many answers (default max(10, n/10))', integer('--stop-floor', 1, 5000));
  if (kind === 'estimate') {
    command
      .option('--audience <id>', 'price an interest audience instead of targeting (its id; see docs/audiences.md)')
      .option('--min-grade <grade>', 'the lowest grade of that audience (1)', integer('--min-grade', 1, 1));
  } else {
    command
      .option('--template <id>', 'start from a template (GET /v1/templates); the flags override it')
      .option('--from-draft <id>', 'start from a saved draft (drf_…); the flags override it')
      .option('--variant-of <id>', 'ask again, of heads who did not answer question <id> or its other variants')
      .option('--project <id>', 'file the question in a project (prj_…)')
      .option('--label <label>', 'a label (repeat, up to 10)', collect)
      .option('--external-ref <ref>', 'your own reference, up to 100 characters; set once')
      .option('--private <recipients>', 'a private question answered only through its link by your own people: how many you will send it to', integer('--private', 1, 1_000_000))
      .option('--then <text>', 'a free_text follow-up asked of the same heads once this closes (repeat, up to 3)', collect)
      .addOption(new Option('--then-min-confidence <level>', 'ask the follow-ups only if the result reaches this confidence').choices(CONFIDENCES));
  }
  return command;
}

/** An option label, or `Label=https://…` for an option with an image. */
export function parseOption(value: string): { label: string; imageUrl?: string } {
  const match = /^(.*)=(https?:\/\/\S+)$/s.exec(value);
  return match ? { label: match[1]!, imageUrl: match[2]! } : { label: value };
}

const INSTANT = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/;

/**
 * `--scheduled-for`: a UTC instant ending in Z goes as it is (the service checks the calendar);
 * one with an offset (`2026-12-01T10:00+01:00`) is turned into UTC after checking its date is real.
 */
export function parseInstant(value: string): string {
  const match = INSTANT.exec(value.trim());
  if (!match) throw new UsageError(`--scheduled-for must be an ISO 8601 instant such as 2026-12-01T09:00:00Z, not "${value}".`);
  if (match[8] === 'Z') return value.trim();
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const calendar = new Date(Date.UTC(year, month - 1, day));
  if (calendar.getUTCFullYear() !== year || calendar.getUTCMonth() !== month - 1 || calendar.getUTCDate() !== day || Number(match[4]) > 23 || Number(match[5]) > 59 || Number(match[6] ?? 0) > 59) {
    throw new UsageError(`--scheduled-for names no real time: "${value}".`);
  }
  const date = new Date(value.trim());
  if (Number.isNaN(date.getTime())) throw new UsageError(`--scheduled-for names no real time: "${value}".`);
  return date.toISOString();
}

/** Reads the JSON of `--draft`: an object, either a draft or a body that has one. */
export function parseDraftJson(text: string, source: string): Json {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`--draft ${source} is not JSON: ${(error as Error).message}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new UsageError(`--draft ${source} must hold a JSON object (a draft, or an ask body with "draft").`);
  return value as Json;
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The draft: the file's (its `draft` when it is a whole body) with every flag given laid over it.
 * `type` and `text` must end up set.
 */
/** --stop-when and its details over whatever stopWhen the --draft file had. */
function stopWhenFromFlags(draft: Json, flags: DraftFlags): void {
  const details = flags.stopPoints !== undefined || flags.stopConfidence !== undefined || flags.stopFloor !== undefined;
  if (flags.stopWhen === 'never') {
    if (details) throw new UsageError('--stop-points, --stop-confidence and --stop-floor go with --stop-when leader or margin, not never.');
    draft.stopWhen = 'never';
    return;
  }
  const base = isObject(draft.stopWhen) ? draft.stopWhen : null;
  if (flags.stopWhen === undefined && !details) return;
  if (flags.stopWhen === undefined && !base) throw new UsageError('--stop-points, --stop-confidence and --stop-floor need --stop-when leader or margin.');
  const rule: Json = { ...(flags.stopWhen !== undefined && base?.rule !== flags.stopWhen ? {} : base), ...(flags.stopWhen !== undefined ? { rule: flags.stopWhen } : {}) };
  if (flags.stopPoints !== undefined) rule.points = flags.stopPoints;
  if (flags.stopConfidence !== undefined) rule.confidence = flags.stopConfidence;
  if (flags.stopFloor !== undefined) rule.floor = flags.stopFloor;
  draft.stopWhen = rule;
}

export function draftFromFlags(flags: DraftFlags, file: Json | null = null, positionalText?: string): Json {
  const base = file ? (isObject(file.draft) ? file.draft : 'draft' in file ? {} : file) : {};
  const draft: Json = structuredClone(base);
  if (positionalText !== undefined && flags.text !== undefined) throw new UsageError('Give the question either as an argument or with --text, not both.');
  const text = flags.text ?? positionalText;
  const set = (key: string, value: unknown) => {
    if (value !== undefined) draft[key] = value;
  };
  set('type', flags.type);
  set('text', text);
  set('context', flags.context);
  set('language', flags.language);
  if (flags.option?.length) draft.options = flags.option.map(parseOption);
  set('neither', flags.neither);
  set('n', flags.n);
  set('tier', flags.tier);
  set('rush', flags.rush);
  set('publicResults', flags.publicResults);
  set('reason', flags.reason);
  set('contentFlag', flags.contentFlag);
  stopWhenFromFlags(draft, flags);
  if (flags.scheduledFor !== undefined) draft.scheduledFor = parseInstant(flags.scheduledFor);

  if (flags.image !== undefined || flags.audio !== undefined || flags.stimulusText !== undefined || flags.exposureMs !== undefined) {
    const stimulus: Json = isObject(draft.stimulus) ? { ...draft.stimulus } : {};
    if (flags.image !== undefined) stimulus.imageUrl = flags.image;
    if (flags.audio !== undefined) stimulus.audioUrl = flags.audio;
    if (flags.stimulusText !== undefined) stimulus.text = flags.stimulusText;
    if (flags.exposureMs !== undefined) stimulus.exposureMs = flags.exposureMs;
    draft.stimulus = stimulus;
  }
  if (flags.maxTaps !== undefined) draft.clickTest = { ...(isObject(draft.clickTest) ? draft.clickTest : {}), maxTaps: flags.maxTaps };
  else if (draft.type === 'click_test' && draft.clickTest === undefined) draft.clickTest = { maxTaps: 1 };

  if (flags.country?.length || flags.tag?.length || flags.age?.length || flags.gender?.length || flags.verifiedAge !== undefined) {
    const targeting: Json = isObject(draft.targeting) ? { ...draft.targeting } : {};
    if (flags.country?.length) targeting.countries = flags.country.map((code) => code.toUpperCase());
    if (flags.tag?.length) targeting.tags = flags.tag;
    if (flags.age?.length) targeting.ageBands = flags.age;
    if (flags.gender?.length) targeting.genders = flags.gender;
    if (flags.verifiedAge !== undefined) targeting.verifiedAge = flags.verifiedAge;
    // Both lists are required inside targeting; empty means "any".
    targeting.countries ??= [];
    targeting.tags ??= [];
    draft.targeting = targeting;
  }
  set('interestAudienceId', flags.audience);
  set('minGrade', flags.minGrade);

  if (typeof draft.type !== 'string') throw new UsageError(`--type is required (or a --draft that has it): one of ${QUESTION_TYPES.join(', ')}.`);
  if (typeof draft.text !== 'string') throw new UsageError('--text is required (or the question as an argument, or a --draft that has it).');
  return draft;
}

/** The body of POST /v2/questions: the file's body fields, then the flags. */
export function askBodyFromFlags(flags: DraftFlags, file: Json | null = null, positionalText?: string): Json {
  const body: Json = file && isObject(file.draft) ? structuredClone(file) : {};
  body.draft = draftFromFlags(flags, file, positionalText);
  const set = (key: string, value: unknown) => {
    if (value !== undefined) body[key] = value;
  };
  set('templateId', flags.template);
  set('fromDraftId', flags.fromDraft);
  set('variantOf', flags.variantOf);
  set('projectId', flags.project);
  if (flags.label?.length) body.labels = flags.label;
  set('externalRef', flags.externalRef);
  if (flags.private !== undefined) body.privateDeclaration = { recipients: flags.private };
  if (flags.then?.length) {
    body.then = flags.then.map((text) => ({ type: 'free_text', text, ...(flags.thenMinConfidence ? { minConfidence: flags.thenMinConfidence } : {}) }));
  } else if (flags.thenMinConfidence) {
    throw new UsageError('--then-min-confidence needs at least one --then.');
  }
  return body;
}

/** The body of POST /v1/billing/estimate. */
export function estimateBodyFromFlags(flags: DraftFlags, file: Json | null = null, positionalText?: string): Json {
  const body: Json = { draft: draftFromFlags(flags, file, positionalText) };
  if (file && isObject(file.draft) && (file.surface === 'app' || file.surface === 'web')) body.surface = file.surface;
  return body;
}
