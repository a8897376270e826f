import type { ValidationItem } from '../../lib/errors.ts';
import { cleanAnswerText, visibleLength } from '../../lib/text.ts';
import type { NormalizedDraft } from './draft-defaults.ts';
import { TYPE_RULES, type QuestionType } from './question-types.ts';

/**
 * The answer object (docs/answers.md; the spec gives its shape but not its names):
 *   option   index 0–8: the chosen option; for choice types the index equal to the number of
 *            options means "Neither"; scale_1_5 0–4 means 1–5; yes_mostly_no 0 yes, 1 mostly, 2 no.
 *            For pairwise, the option picked of the pair shown.
 *   options  indexes chosen (multi_choice), up to 9
 *   order    every option index, most preferred first (ranking), up to 9
 *   pair     the two option indexes shown (pairwise)
 *   taps     up to maxTaps points {x, y}, 0–1 from the top left (click_test)
 *   text     the written answer (free_text), up to 2000 characters
 *   reason   why, when the question asks for one, up to 1000 characters
 *
 * Written text is cleaned (lib/text.ts cleanAnswerText: NFC, controls and bidi reordering taken
 * out, invisible ends trimmed) and counts only if a character of it can be seen: zero-width
 * spaces, joiners, a BOM or bidi marks alone are not an answer and are never paid for. This is
 * the one place the "write an answer" minimum is enforced, for the answer link (checked before
 * the human check) and for the recorder (every source) alike.
 */
export interface AnswerInput {
  option?: number;
  options?: number[];
  order?: number[];
  pair?: number[];
  taps?: Array<{ x: number; y: number }>;
  text?: string;
  reason?: string;
}

export interface ReadAnswer {
  /** What Answer.option shows. */
  optionLabel: string | null;
  text: string | null;
  reason: string | null;
  /** Labels this answer adds one to in the question's tally. */
  tallyKeys: string[];
}

export const NEITHER_LABEL = 'Neither';
export const MAX_TEXT = 2000;
export const MAX_REASON = 1000;

/** The labels an answer can choose from, in index order. */
export function answerLabels(draft: NormalizedDraft): string[] {
  const rule = TYPE_RULES[draft.type as QuestionType];
  const labels = rule.fixedOptions ? [...rule.fixedOptions] : draft.options.map((o) => o.label);
  if (draft.neither && rule.neitherAllowed) labels.push(NEITHER_LABEL);
  return labels;
}

export function readAnswer(draft: NormalizedDraft, answer: AnswerInput, prefix = 'answer'): ReadAnswer | ValidationItem[] {
  const problems: ValidationItem[] = [];
  const add = (field: string, code: ValidationItem['code'], message: string) => problems.push({ field: `${prefix}.${field}`, code, message });
  const labels = answerLabels(draft);
  const type = draft.type as QuestionType;
  const isIndex = (i: unknown) => Number.isInteger(i) && (i as number) >= 0 && (i as number) < labels.length;
  let optionLabel: string | null = null;
  let tallyKeys: string[] = [];
  let text: string | null = null;

  const allowed: Record<QuestionType, Array<keyof AnswerInput>> = {
    single_choice: ['option'], ab_image: ['option'], reaction: ['option'], scale_1_5: ['option'], yes_mostly_no: ['option'],
    multi_choice: ['options'], ranking: ['order'], pairwise: ['pair', 'option'], free_text: ['text'], click_test: ['taps'],
  };
  for (const key of Object.keys(answer) as Array<keyof AnswerInput>) {
    if (key === 'reason') continue;
    if (!allowed[type].includes(key)) add(key, 'not_allowed', `A ${TYPE_RULES[type].label} answer has no ${key}.`);
  }

  switch (type) {
    case 'single_choice':
    case 'ab_image':
    case 'reaction':
    case 'scale_1_5':
    case 'yes_mostly_no':
      if (answer.option === undefined) add('option', 'required', 'Choose one option.');
      else if (!isIndex(answer.option)) add('option', 'out_of_range', `option must be 0 to ${labels.length - 1}.`);
      else tallyKeys = [(optionLabel = labels[answer.option])];
      break;
    case 'multi_choice': {
      const chosen = answer.options ?? [];
      if (chosen.length === 0) add('options', 'required', 'Choose at least one option.');
      else if (!chosen.every(isIndex) || new Set(chosen).size !== chosen.length) add('options', 'out_of_range', `options must be distinct indexes 0 to ${labels.length - 1}.`);
      else if (draft.neither && chosen.includes(labels.length - 1) && chosen.length > 1) add('options', 'not_allowed', '"Neither" cannot be chosen with other options.');
      else {
        tallyKeys = [...chosen].sort((a, b) => a - b).map((i) => labels[i]);
        optionLabel = tallyKeys.join(', ');
      }
      break;
    }
    case 'ranking': {
      const order = answer.order ?? [];
      const n = draft.options.length;
      if (order.length !== n || new Set(order).size !== n || !order.every((i) => Number.isInteger(i) && i >= 0 && i < n)) {
        add('order', 'invalid_format', `order must list each of the ${n} option indexes once, most preferred first.`);
      } else tallyKeys = [(optionLabel = labels[order[0]])];
      break;
    }
    case 'pairwise': {
      const pair = answer.pair ?? [];
      const n = draft.options.length;
      if (pair.length !== 2 || pair[0] === pair[1] || !pair.every((i) => Number.isInteger(i) && i >= 0 && i < n)) add('pair', 'invalid_format', `pair must be two different option indexes 0 to ${n - 1}.`);
      else if (answer.option === undefined || !pair.includes(answer.option)) add('option', 'required', 'option must be one of the two options shown in pair.');
      else tallyKeys = [(optionLabel = labels[answer.option])];
      break;
    }
    case 'free_text': {
      const written = typeof answer.text === 'string' ? cleanAnswerText(answer.text) : '';
      if (visibleLength(written) === 0) add('text', 'required', 'Write an answer: it has no visible character.');
      else if ([...written].length > MAX_TEXT) add('text', 'too_long', `text must be at most ${MAX_TEXT} characters.`);
      else text = written;
      break;
    }
    case 'click_test': {
      const taps = answer.taps ?? [];
      const max = draft.clickTest?.maxTaps ?? 1;
      if (taps.length === 0) add('taps', 'required', 'Tap the image at least once.');
      else if (taps.length > max) add('taps', 'too_many', `At most ${max} tap${max > 1 ? 's' : ''}.`);
      else if (!taps.every((t) => t.x >= 0 && t.x <= 1 && t.y >= 0 && t.y <= 1)) add('taps', 'out_of_range', 'Tap coordinates are 0 to 1.');
      break;
    }
  }

  const reasonWritten = typeof answer.reason === 'string' ? cleanAnswerText(answer.reason) : '';
  const reasonText = visibleLength(reasonWritten) > 0 ? reasonWritten : null;
  if (draft.reason === 'required' && !reasonText) add('reason', 'required', 'Say why.');
  if (draft.reason === 'off' && reasonText) add('reason', 'not_allowed', 'This question does not ask for a reason.');
  if (reasonText && [...reasonText].length > MAX_REASON) add('reason', 'too_long', `reason must be at most ${MAX_REASON} characters.`);

  return problems.length ? problems : { optionLabel, text, reason: reasonText, tallyKeys };
}

/** The answer object as stored: its written text and reason as read (cleaned), or left out. */
export function storedAnswer(answer: AnswerInput, read: ReadAnswer): AnswerInput {
  const { text: _text, reason: _reason, ...rest } = answer;
  return { ...rest, ...(read.text !== null ? { text: read.text } : {}), ...(read.reason !== null ? { reason: read.reason } : {}) };
}
