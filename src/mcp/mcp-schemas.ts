import { z } from 'zod';
import type { Static, TObject, TSchema } from '@sinclair/typebox';
import { compileFor, registerSharedSchema, toValidationItems } from '../lib/validation.ts';
import type { ValidationItem } from '../lib/errors.ts';
import { IdParams } from '../lib/typebox.ts';
import { QuestionDraftSchema } from '../modules/draft/draft.schemas.ts';

/**
 * Tool input schemas from the REST schemas (ARCHITECTURE §3 rule 6: one source for every shape).
 * The SDK lists tool arguments from zod schemas; an argument that has a REST schema is a
 * `z.unknown()` carrying that JSON Schema as its metadata (zod writes metadata into the listed
 * JSON Schema), and is then checked by the REST route's own validator (`restCheck`). So a tool
 * accepts exactly what the route accepts, and a mistake comes back as the same validation items
 * (`draft.options: draft.options needs at least 2 items (too_few)`) rather than zod's wording.
 *
 * Two changes to the JSON: `$ref`s to shared schemas are inlined (a tool's schema stands alone),
 * and `default` moves into the description: a client that pre-fills defaults would otherwise
 * send `n: 50` over a template's own `n` (the REST body validator injects no defaults either).
 */
const SHARED: Record<string, TSchema> = { QuestionDraft: QuestionDraftSchema };

/** Words for an LLM where the REST schema has none (the OpenAPI text lives in docs/asking.md). */
const DRAFT_HINTS: Record<string, string> = {
  text: 'The question heads read, in plain words (up to 600 characters).',
  context: 'One line of context shown with the question (up to 120 characters).',
  language: 'The language the question is written in, e.g. "en" (the question languages are listed by GET /v1/config).',
  options:
    'The answer options, e.g. [{"label":"Penny"},{"label":"Pocket"}]. single_choice, multi_choice and reaction take 2–8; pairwise and ranking 3–8; ' +
    'ab_image exactly 2, each with imageUrl; scale_1_5, yes_mostly_no, free_text and click_test take none.',
  tier: 'The verification tier of the heads who answer: 1, 2 or 3 (heads of at least this tier). Higher tiers cost more and are not offered in every country.',
  rush: 'Answers sooner, for a rush fee per answer.',
  targeting: 'Who may answer: countries (answering-country codes), tags (tag ids), ageBands, genders, verifiedAge. Each trait beyond country adds to the price.',
  stimulus: 'click_test needs stimulus.imageUrl; reaction needs a stimulus (imageUrl, audioUrl or text) with exposureMs.',
  clickTest: 'click_test only: how many taps a head may make (maxTaps 1–5).',
  publicResults: 'Show the results on a public page.',
  reason: 'Ask heads for a written reason: off, optional or required (free_text must be off: the answer is the text).',
  contentFlag: 'Declares sensitive content: medical, violence, distressing, alcohol_gambling, political, or none.',
  stopWhen:
    'Stop early once the answer is settled and refund the unanswered places, keeping a 5% error however often it is checked: ' +
    '{"rule":"leader"} (single_choice, ab_image, yes_mostly_no, reaction, pairwise, ranking) or {"rule":"margin","points":10} ' +
    '(shares; for scale_1_5 points is the half-width of the mean in stars, e.g. 0.25). Optional confidence (0.8–0.999) and floor. Default "never": n answers.',
};

/** A plain JSON copy for a tool's listing: shared refs inlined, defaults moved into the description, no $id. */
function jsonOf(schema: unknown, hints: Record<string, string> = {}): unknown {
  if (Array.isArray(schema)) return schema.map((item) => jsonOf(item));
  if (!schema || typeof schema !== 'object') return schema;
  const { default: fallback, $id: _id, $ref, ...rest } = schema as Record<string, unknown>;
  if (typeof $ref === 'string' && SHARED[$ref]) return jsonOf({ ...SHARED[$ref], ...rest }, $ref === 'QuestionDraft' ? DRAFT_HINTS : {});
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(rest)) {
    // Property names are names, not keywords: a property called "default" stays.
    out[key] =
      key === 'properties' && value && typeof value === 'object'
        ? Object.fromEntries(Object.entries(value).map(([name, child]) => [name, jsonOf(hints[name] && !(child as { description?: string }).description ? { ...child, description: hints[name] } : child)]))
        : jsonOf(value);
  }
  if (fallback !== undefined) out.description = `${out.description ? `${String(out.description)} ` : ''}Default: ${JSON.stringify(fallback)}.`;
  return out;
}

/** One REST schema as a tool argument: listed as that JSON Schema, checked by restCheck. */
export function zodOf(schema: TSchema, description?: string): z.ZodType {
  // A draft (as ask takes it, or as the estimate takes it with an audience's fields) gets the hints.
  const json = jsonOf(JSON.parse(JSON.stringify(schema)), schema.$id === 'QuestionDraft' || schema.$id === 'EstimateDraft' ? DRAFT_HINTS : {}) as Record<string, unknown>;
  return z.unknown().meta(description ? { ...json, description } : json);
}

/** The properties of a REST object schema as a tool's argument shape (optional where the schema says). */
export function zodFields(schema: TObject): Record<string, z.ZodType> {
  const required = new Set(schema.required ?? []);
  const shape: Record<string, z.ZodType> = {};
  for (const [name, property] of Object.entries(schema.properties)) {
    const field = zodOf(property);
    shape[name] = required.has(name) ? field : field.optional();
  }
  return shape;
}

/** A question id as every REST path takes it (lib/typebox.ts IdParams). */
export const QuestionIdArg = z
  .string()
  .regex(new RegExp(IdParams.properties.id.pattern ?? ''))
  .describe('The question id, e.g. "q_4cYw…", as ask and list_questions return it.');

/**
 * The second check, with the REST route's own validator (Ajv, the same schema, no defaults): what
 * a tool hands a service is exactly what the REST route would, and problems come back as the
 * spec's validation items. A type guard, so the body gets its `Static<>` type without a cast.
 */
export function restCheck<T extends TSchema>(schema: T): (value: unknown) => { ok: true; value: Static<T> } | { ok: false; items: ValidationItem[] } {
  let validate: ReturnType<typeof compileFor> | null = null;
  const isValid = (value: unknown): value is Static<T> => {
    if (!validate) {
      // Compiled on first use; the shared schemas it $refs are registered first (idempotent).
      for (const shared of Object.values(SHARED)) registerSharedSchema(shared);
      validate = compileFor('body', schema);
    }
    return validate(value) === true;
  };
  return (value) => (isValid(value) ? { ok: true, value } : { ok: false, items: toValidationItems(validate?.errors ?? []) });
}

/** The arguments that were given (undefined left out), so hashes and bodies see exactly what was sent. */
export function given(args: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(args).filter(([, value]) => value !== undefined));
}
