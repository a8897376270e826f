import type { ErrorObject } from 'ajv';
import type { ValidationCode, ValidationItem } from '../../lib/errors.ts';
import { compileFor, toValidationItems } from '../../lib/validation.ts';
import { codePointName, forbiddenCharacter, visibleLength, visibleText } from '../../lib/text.ts';
import { answeringCountry } from './countries.data.ts';
import { findTag, TAG_GROUP_DATA } from './tags.data.ts';
import { draftTextFields } from './draft-text.ts';
import { QuestionDraftSchema } from './draft.schemas.ts';
import { QUESTION_LANGUAGES, TYPE_RULES, type QuestionType } from './question-types.ts';
import { stopWhenProblems, type StopWhen } from './stop-when.ts';
import { DEFAULT_N } from './pricing.ts';

/**
 * The one validator of a question draft, shared by the estimate (which reports the problems with
 * a 200 so a form can show them all) and the ask (which refuses the draft with a 400).
 *
 * Two layers, merged into one item per field (the first problem found for a field wins):
 *  1. the field rules of the spec, taken from the QuestionDraft schema itself, so the schema stays
 *     their single source;
 *  2. the rules no schema can express: per-type rules (ARCHITECTURE §4), catalogue lookups
 *     (answering countries, tags and their groups' `max`), dates in the future, duplicates, and
 *     what the texts may contain (docs/asking.md "Text": no control or bidi-reordering
 *     characters; blank means no visible character).
 *
 * Texts are checked as given: callers pass the draft through normalizeDraftText (draft-text.ts)
 * first, so lengths are counted after NFC, as the question is stored.
 */

/** A draft whose JSON types are right but whose values may break any rule. */
export interface LooseDraft {
  type?: string;
  text?: string;
  context?: string;
  language?: string;
  options?: Array<{ label?: string; imageUrl?: string }>;
  neither?: boolean;
  stimulus?: { imageUrl?: string; audioUrl?: string; text?: string; exposureMs?: number };
  n?: number;
  tier?: number;
  rush?: boolean;
  targeting?: { countries?: string[]; tags?: string[]; ageBands?: string[]; genders?: string[]; verifiedAge?: boolean };
  clickTest?: { maxTaps?: number };
  scheduledFor?: string;
  publicResults?: boolean;
  reason?: string;
  contentFlag?: string;
  stopWhen?: StopWhen;
}

export interface DraftValidationContext {
  now: Date;
  /** Path prefix of the draft in the request body, e.g. "draft" or "then[0]". */
  prefix?: string;
  /** Fewest visible characters `text` must have (a follow-up's 8); without it, at least one. */
  minTextLength?: number;
}

const cap = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** How far ahead a question may be scheduled. */
export const MAX_SCHEDULE_DAYS = 90;

const { $id: _omit, ...draftSchemaWithoutId } = QuestionDraftSchema;
const checkFieldRules = compileFor('body', draftSchemaWithoutId);

class Problems {
  private readonly items = new Map<string, ValidationItem>();
  constructor(private readonly prefix: string) {}
  addItem(item: ValidationItem): void {
    if (!this.items.has(item.field)) this.items.set(item.field, item);
  }
  add(path: string, code: ValidationCode, message: string): void {
    const field = path ? `${this.prefix}.${path}` : this.prefix;
    this.addItem({ field, code, message });
  }
  has(path: string): boolean {
    return this.items.has(path ? `${this.prefix}.${path}` : this.prefix);
  }
  /** A problem at `path` or anywhere inside it. */
  hasWithin(path: string): boolean {
    const field = `${this.prefix}.${path}`;
    for (const key of this.items.keys()) if (key === field || key.startsWith(`${field}.`) || key.startsWith(`${field}[`)) return true;
    return false;
  }
  list(): ValidationItem[] {
    return [...this.items.values()];
  }
}

export function validateDraft(draft: LooseDraft, context: DraftValidationContext): ValidationItem[] {
  const prefix = context.prefix ?? 'draft';
  const problems = new Problems(prefix);

  if (!checkFieldRules(draft)) {
    for (const item of toValidationItems(checkFieldRules.errors as ErrorObject[], prefix)) problems.addItem(item);
  }

  checkTexts(draft, context.minTextLength ?? 1, problems);
  if (draft.n !== undefined && !Number.isInteger(draft.n)) problems.add('n', 'invalid_format', 'n must be a whole number.');

  checkLanguage(draft, problems);
  // Own keys only: a type such as "constructor" must not find Object.prototype's.
  if (draft.type !== undefined && Object.hasOwn(TYPE_RULES, draft.type)) checkTypeRules(draft, draft.type as QuestionType, problems);
  checkTargeting(draft, problems);
  checkSchedule(draft, context.now, problems);
  if (draft.type !== undefined && Object.hasOwn(TYPE_RULES, draft.type) && !problems.hasWithin('stopWhen') && !problems.has('n')) {
    for (const p of stopWhenProblems(draft.type as QuestionType, draft.n ?? DEFAULT_N, draft.stopWhen)) if (!problems.has(p.path)) problems.add(p.path, p.code, p.message);
  }
  return problems.list();
}

/**
 * Text heads will read must show what is stored: no control characters (tab and line breaks only
 * where text runs over lines), no bidi embeddings, overrides or isolates; and the question must
 * have visible words, not only zero-width or other invisible characters.
 */
function checkTexts(draft: LooseDraft, minTextLength: number, problems: Problems): void {
  for (const { path, text, multiline } of draftTextFields(draft)) {
    if (typeof text !== 'string' || problems.has(path)) continue;
    const found = forbiddenCharacter(text, { multiline });
    if (found) problems.add(path, 'invalid_format', `${path} contains ${codePointName(found.char)}, ${found.why}; remove it.`);
  }
  if (typeof draft.text === 'string' && !problems.has('text')) {
    const visible = visibleLength(draft.text);
    if (visible === 0) problems.add('text', 'required', 'Write the question: text must not be blank (it has no visible character).');
    else if (visible < minTextLength) problems.add('text', 'too_short', `text must have at least ${minTextLength} visible characters; it has ${visible}.`);
  }
}

function checkLanguage(draft: LooseDraft, problems: Problems): void {
  if (draft.language === undefined || problems.has('language')) return;
  const base = draft.language.slice(0, 2);
  if (!(QUESTION_LANGUAGES as readonly string[]).includes(base)) {
    problems.add('language', 'unknown_value', `Questions can be asked in ${QUESTION_LANGUAGES.join(', ')}; "${draft.language}" is not one of them.`);
  }
}

function checkTypeRules(draft: LooseDraft, type: QuestionType, problems: Problems): void {
  const rule = TYPE_RULES[type];
  const options = draft.options ?? [];

  if (rule.options === null) {
    if (options.length > 0) {
      const fixed = rule.fixedOptions ? ` (its answers are fixed: ${rule.fixedOptions.join(', ')})` : '';
      problems.add('options', 'not_allowed', `${cap(rule.aLabel)} question takes no options${fixed}; leave options empty.`);
    }
  } else {
    const { min, max } = rule.options;
    const exact = min === max ? `exactly ${min}` : `${min} to ${max}`;
    if (options.length < min) problems.add('options', 'too_few', `${cap(rule.aLabel)} question needs ${exact} options; it has ${options.length}.`);
    else if (options.length > max) problems.add('options', 'too_many', `${cap(rule.aLabel)} question takes ${exact} options; it has ${options.length}.`);
    const seen = new Map<string, number>();
    options.forEach((option, i) => {
      const label = option.label?.trim() ?? '';
      if (option.label !== undefined && visibleLength(label) === 0) problems.add(`options[${i}].label`, 'required', `Option ${i + 1} needs a label with a visible character.`);
      // Labels that look the same are the same: compare what a reader sees.
      const key = visibleText(label).replace(/\s+/g, ' ').trim().toLocaleLowerCase();
      if (key && seen.has(key)) problems.add(`options[${i}].label`, 'not_allowed', `Option ${i + 1} repeats option ${seen.get(key)! + 1} ("${label}").`);
      else if (key) seen.set(key, i);
      if (rule.optionImages && !option.imageUrl) problems.add(`options[${i}].imageUrl`, 'required', `Each option of ${rule.aLabel} question needs an imageUrl.`);
    });
  }

  if (draft.neither === true && !rule.neitherAllowed) problems.add('neither', 'not_allowed', `"Neither" is not offered on ${rule.aLabel} question.`);

  // Media the answer page loads: a web address, never javascript:, data: or file: (the page's CSP
  // would block them anyway, but a question that can never show its image must not take credits).
  const media: Array<[string, string | undefined]> = [
    ...options.map((option, i): [string, string | undefined] => [`options[${i}].imageUrl`, option.imageUrl]),
    ['stimulus.imageUrl', draft.stimulus?.imageUrl],
    ['stimulus.audioUrl', draft.stimulus?.audioUrl],
  ];
  for (const [path, url] of media) {
    if (url !== undefined && !/^https?:\/\/[^/]/i.test(url)) problems.add(path, 'invalid_format', `${path} must be an https address (an upload's publicUrl, or an image on the web).`);
  }

  const stimulus = draft.stimulus;
  if (rule.stimulus === 'none') {
    if (stimulus !== undefined) problems.add('stimulus', 'not_allowed', `${cap(rule.aLabel)} question shows no stimulus; use options or context instead.`);
  } else if (rule.stimulus === 'image') {
    if (!stimulus) problems.add('stimulus', 'required', `${cap(rule.aLabel)} needs stimulus.imageUrl: the image people tap on.`);
    else {
      if (!stimulus.imageUrl) problems.add('stimulus.imageUrl', 'required', `${cap(rule.aLabel)} needs the image people tap on.`);
      if (stimulus.audioUrl !== undefined) problems.add('stimulus.audioUrl', 'not_allowed', `${cap(rule.aLabel)} shows an image only.`);
      if (stimulus.text !== undefined) problems.add('stimulus.text', 'not_allowed', `${cap(rule.aLabel)} shows an image only; put words in context.`);
      if (stimulus.exposureMs !== undefined) problems.add('stimulus.exposureMs', 'not_allowed', `The image of ${rule.aLabel} stays until it is tapped; exposureMs is for reaction questions.`);
    }
  } else {
    if (!stimulus || (!stimulus.imageUrl && !stimulus.audioUrl && !stimulus.text)) {
      problems.add('stimulus', 'required', `${cap(rule.aLabel)} question needs a stimulus: an image, an audio clip or a text to react to.`);
    }
    if (stimulus && stimulus.exposureMs === undefined) problems.add('stimulus.exposureMs', 'required', `${cap(rule.aLabel)} question needs exposureMs: how long the stimulus is shown (2000 to 10000).`);
  }

  if (rule.clickTest) {
    if (draft.clickTest === undefined) problems.add('clickTest', 'required', 'A click test needs clickTest.maxTaps (1 to 5).');
  } else if (draft.clickTest !== undefined) {
    problems.add('clickTest', 'not_allowed', `clickTest is only for click_test questions.`);
  }

  if (!rule.reasonAllowed && draft.reason !== undefined && draft.reason !== 'off') {
    problems.add('reason', 'not_allowed', 'A free text answer is already written; reason must be off.');
  }
}

function checkTargeting(draft: LooseDraft, problems: Problems): void {
  const targeting = draft.targeting;
  if (!targeting) return;
  if (targeting.countries === undefined) problems.add('targeting.countries', 'required', 'targeting.countries is required inside targeting (an empty list means any country).');
  if (targeting.tags === undefined) problems.add('targeting.tags', 'required', 'targeting.tags is required inside targeting (an empty list means no tag).');

  const countries = targeting.countries ?? [];
  const seenCountries = new Set<string>();
  countries.forEach((code, i) => {
    const path = `targeting.countries[${i}]`;
    if (problems.has(path)) return;
    if (seenCountries.has(code)) return problems.add(path, 'not_allowed', `${code} is listed twice.`);
    seenCountries.add(code);
    if (!answeringCountry(code)) {
      const hint = answeringCountry(code.toUpperCase()) ? ` Use upper case: "${code.toUpperCase()}".` : ' See GET /v1/public/countries for the answering countries.';
      problems.add(path, 'unknown_value', `"${code}" is not an answering country.${hint}`);
    }
  });

  const tier = draft.tier;
  if ((tier === 2 || tier === 3) && !problems.has('tier')) {
    const without = countries.filter((code) => answeringCountry(code) && !answeringCountry(code)!.entry.tier2Available);
    if (without.length > 0 && without.length === countries.length) {
      problems.add('tier', 'not_allowed', `Tier ${tier} heads are not offered in ${without.join(', ')}; choose tier 1 or other countries.`);
    }
  }

  const tags = targeting.tags ?? [];
  const perGroup = new Map<string, string[]>();
  const seenTags = new Set<string>();
  tags.forEach((id, i) => {
    const path = `targeting.tags[${i}]`;
    if (seenTags.has(id)) return problems.add(path, 'not_allowed', `Tag "${id}" is listed twice.`);
    seenTags.add(id);
    const tag = findTag(id);
    if (!tag) return problems.add(path, 'unknown_value', `"${id}" is not a tag; see GET /v1/tags.`);
    perGroup.set(tag.group.id, [...(perGroup.get(tag.group.id) ?? []), id]);
  });
  for (const group of TAG_GROUP_DATA) {
    const chosen = perGroup.get(group.id) ?? [];
    if (chosen.length > group.max) {
      problems.add('targeting.tags', 'too_many', `At most ${group.max} tag${group.max > 1 ? 's' : ''} of the "${group.label}" group may be targeted; ${chosen.length} are (${chosen.join(', ')}).`);
    }
  }

  for (const key of ['ageBands', 'genders'] as const) {
    const list = targeting[key] ?? [];
    if (new Set(list).size !== list.length && !problems.has(`targeting.${key}`)) problems.add(`targeting.${key}`, 'not_allowed', `targeting.${key} lists a value twice.`);
  }
}

/** A real calendar instant (the pattern alone would accept 2026-02-30). */
export function parseUtcInstant(text: string): Date | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?Z$/.exec(text);
  if (!match) return null;
  const [, y, mo, d, h, mi, s] = match.map(Number);
  const date = new Date(Date.UTC(y, mo - 1, d, h, mi, s));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== mo - 1 || date.getUTCDate() !== d || h > 23 || mi > 59 || s > 59) return null;
  return new Date(date.getTime() + Math.floor(Number(match[7] ?? 0) * 1000));
}

function checkSchedule(draft: LooseDraft, now: Date, problems: Problems): void {
  if (draft.scheduledFor === undefined) return;
  const at = parseUtcInstant(draft.scheduledFor);
  if (!at) {
    problems.add('scheduledFor', 'invalid_format', 'scheduledFor must be a real UTC instant such as 2026-12-01T09:00:00Z.');
    return;
  }
  if (at.getTime() <= now.getTime()) problems.add('scheduledFor', 'in_past', 'scheduledFor must be in the future.');
  else if (at.getTime() - now.getTime() > MAX_SCHEDULE_DAYS * 86_400_000) {
    problems.add('scheduledFor', 'out_of_range', `A question can be scheduled at most ${MAX_SCHEDULE_DAYS} days ahead.`);
  }
}
