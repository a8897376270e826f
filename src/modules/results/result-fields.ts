import { validationError } from '../../lib/errors.ts';
import { RESULT_FIELDS, type Result, type ResultPart } from './results.schemas.ts';

/**
 * `fields` of GET /v2/questions/{id}/result (docs/results.md "Fewer bytes"): agents pay for every
 * byte they read, so a client may name the top-level Result properties it wants and get only
 * those. Pure: the route parses the query with `resultFields` and cuts the Result with `pickFields`.
 */
const KNOWN = new Set<string>(RESULT_FIELDS);

/** The fields asked for, in the Result's own order and without repeats; null: the full Result. */
export type ResultFields = readonly (keyof Result)[] | null;

/** Parses `fields` (the schema already checked its shape); an unknown name is a 400 naming it. */
export function resultFields(fields: string | undefined): ResultFields {
  if (fields === undefined) return null;
  const asked = new Set(fields.split(',').map((name) => name.trim()));
  const unknown = [...asked].filter((name) => !KNOWN.has(name));
  if (unknown.length) {
    throw validationError([
      {
        field: 'fields',
        code: 'unknown_value',
        message: `fields names ${unknown.map((n) => `"${n}"`).join(', ')}, not ${unknown.length === 1 ? 'a property' : 'properties'} of Result; use any of: ${RESULT_FIELDS.join(', ')}.`,
      },
    ]);
  }
  return RESULT_FIELDS.filter((name) => asked.has(name));
}

/** A stable name of a `fields` choice (a key of the prepared bytes): '' for the full Result. */
export function fieldsKey(fields: ResultFields): string {
  return fields === null ? '' : fields.join(',');
}

/** The Result with only `fields` (a property the Result leaves out stays out). */
export function pickFields(result: Result, fields: NonNullable<ResultFields>): ResultPart {
  const part: Record<string, unknown> = {};
  for (const name of fields) if (result[name] !== undefined) part[name] = result[name];
  return part as ResultPart;
}
