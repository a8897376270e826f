import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { TSchema } from '@sinclair/typebox';
import type { ValidationCode, ValidationItem } from './errors.ts';

/**
 * Request validation with two Ajv instances (JSON Schema 2020-12, the dialect of OpenAPI 3.1):
 * bodies are checked strictly (no type coercion, unknown properties refused, no defaults
 * injected), while query strings, params and headers are coerced from text because that is all
 * a URL can carry. Ajv errors are turned into the spec's `validation[]` items, one per field.
 */
function makeAjv(coerce: boolean): Ajv2020 {
  const ajv = new Ajv2020({
    allErrors: true,
    strict: false,
    coerceTypes: coerce ? 'array' : false,
    useDefaults: coerce,
    removeAdditional: false,
  });
  // ajv-formats is CommonJS: at run time its default import is the plugin, but under NodeNext its
  // types describe the module object, so the call needs this one cast.
  (addFormats as unknown as (a: Ajv2020) => void)(ajv);
  return ajv;
}

export const bodyAjv = makeAjv(false);
export const textAjv = makeAjv(true);

/**
 * Shared schemas ($id) are known to both instances, so routes can `$ref` them. They are not
 * checked against the JSON Schema meta-schema here: doing so for every shared schema, twice, was
 * ~70 ms of every start (issue 15), for schemas that only change with the code. The unit test
 * `src/openapi-schemas.test.ts` checks each of them instead; a route's own schema is still checked when it
 * is compiled.
 */
export function registerSharedSchema(schema: TSchema): void {
  for (const ajv of [bodyAjv, textAjv]) {
    if (!ajv.getSchema(schema.$id as string)) ajv.addSchema(schema as object, undefined, undefined, false);
  }
}

export type HttpPart = 'body' | 'querystring' | 'params' | 'headers';

/**
 * A route's validator, compiled on the route's first request rather than when the server starts
 * (issue 15: start-up compiled every schema of every route). Fastify reads `errors` off the
 * function it was given after a failed call, so the wrapper passes them on.
 */
export function compileFor(part: string | undefined, schema: object): ValidateFunction {
  let validate: ValidateFunction | undefined;
  const lazy = ((data: unknown) => {
    validate ??= (part === 'body' ? bodyAjv : textAjv).compile(schema);
    const valid = validate(data);
    lazy.errors = validate.errors;
    return valid;
  }) as ValidateFunction;
  return lazy;
}

/** `/draft/options/2/label` → `draft.options[2].label` */
export function pointerToField(pointer: string, prefix = ''): string {
  let out = prefix;
  for (const raw of pointer.split('/').slice(1)) {
    const part = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    out += /^\d+$/.test(part) ? `[${part}]` : out === '' ? part : `.${part}`;
  }
  return out;
}

const rank: Record<ValidationCode, number> = {
  required: 0, not_allowed: 1, invalid_format: 2, unknown_value: 3, too_long: 4, too_short: 4,
  too_many: 4, too_few: 4, out_of_range: 4, in_past: 5,
};

function describe(error: ErrorObject, field: string): { field: string; code: ValidationCode; message: string } | null {
  const p = error.params as Record<string, unknown>;
  const name = field || 'body';
  switch (error.keyword) {
    case 'required': {
      const f = field ? `${field}.${p.missingProperty}` : String(p.missingProperty);
      return { field: f, code: 'required', message: `${f} is required.` };
    }
    case 'additionalProperties': {
      const f = field ? `${field}.${p.additionalProperty}` : String(p.additionalProperty);
      return { field: f, code: 'not_allowed', message: `${f} is not a known field.` };
    }
    case 'maxLength':
      return { field: name, code: 'too_long', message: `${name} must be at most ${p.limit} characters.` };
    case 'minLength':
      return p.limit === 1
        ? { field: name, code: 'required', message: `${name} must not be empty.` }
        : { field: name, code: 'too_short', message: `${name} must be at least ${p.limit} characters.` };
    case 'maxItems':
      return { field: name, code: 'too_many', message: `${name} may have at most ${p.limit} items.` };
    case 'minItems':
      return { field: name, code: 'too_few', message: `${name} needs at least ${p.limit} items.` };
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return { field: name, code: 'out_of_range', message: `${name} must be ${COMPARISONS[String(p.comparison)] ?? p.comparison} ${p.limit}.` };
    case 'enum':
    case 'const':
      return {
        field: name,
        code: 'unknown_value',
        message: `${name} must be one of: ${((p.allowedValues as unknown[]) ?? [p.allowedValue]).map((v) => JSON.stringify(v)).join(', ')}.`,
      };
    case 'type':
      return { field: name, code: 'invalid_format', message: `${name} must be ${articled(String(p.type))}.` };
    case 'format':
      return { field: name, code: 'invalid_format', message: `${name} must be a valid ${p.format}.` };
    case 'pattern':
      return { field: name, code: 'invalid_format', message: `${name} is not in the expected format.` };
    case 'uniqueItems':
      return { field: name, code: 'not_allowed', message: `${name} must not repeat items.` };
    case 'anyOf':
    case 'oneOf':
    case 'if':
      return null; // the branch errors say more
    default:
      return { field: name, code: 'invalid_format', message: `${name} is not valid.` };
  }
}

const COMPARISONS: Record<string, string> = { '>=': 'at least', '<=': 'at most', '>': 'more than', '<': 'less than' };

function articled(type: string): string {
  const t = type.replace(',', ' or ');
  return /^[aeiou]/.test(t) ? `an ${t}` : `a ${t}`;
}

/**
 * Ajv errors → one validation item per field (the most basic problem of each field wins).
 * A value that may take several forms (anyOf: `"never"` or a rule object) fails each branch: when it
 * has the form of one branch and that branch found problems inside it, the other branches' "must be
 * a string" says nothing useful and is left out; when it has none of the forms, one item names them
 * all ("must be a string or an object").
 */
export function toValidationItems(errors: readonly ErrorObject[], prefix = ''): ValidationItem[] {
  const byField = new Map<string, ValidationItem>();
  const typesByField = new Map<string, string[]>();
  for (const error of errors) {
    const field = pointerToField(error.instancePath, prefix);
    if (error.keyword === 'type') typesByField.set(field, [...(typesByField.get(field) ?? []), String((error.params as { type?: unknown }).type)]);
    const item = describe(error, field);
    if (!item) continue;
    const existing = byField.get(item.field);
    if (!existing || rank[item.code] < rank[existing.code]) byField.set(item.field, item);
  }
  for (const [field, types] of typesByField) {
    const item = byField.get(field);
    if (!item || item.code !== 'invalid_format' || !item.message.startsWith(`${field} must be a`)) continue;
    const inside = [...byField.keys()].some((other) => other.startsWith(`${field}.`) || other.startsWith(`${field}[`));
    if (inside) byField.delete(field);
    else if (types.length > 1) byField.set(field, { ...item, message: `${field} must be ${[...new Set(types)].map((t) => (t === 'null' ? 'null' : articled(t))).join(' or ')}.` });
  }
  return [...byField.values()];
}
