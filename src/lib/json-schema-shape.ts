/**
 * Derives a "shape only" JSON Schema from a full one: JSON types, known properties and nesting
 * are kept; every value rule (required, enums, lengths, ranges, patterns, formats) is dropped and
 * integers become numbers. The estimate uses it so that any draft with the right JSON types gets
 * a 200 listing all its broken rules at once, while the full schema stays the single source of
 * the rules themselves.
 */
const VALUE_RULES = new Set([
  'required', 'enum', 'const', 'minLength', 'maxLength', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum',
  'minItems', 'maxItems', 'pattern', 'format', 'default', 'uniqueItems', '$id',
]);

export function shapeOnly(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(shapeOnly);
  if (schema === null || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema as Record<string, unknown>)) {
    if (VALUE_RULES.has(key)) continue;
    if (key === 'type') out.type = value === 'integer' ? 'number' : Array.isArray(value) ? value.map((t) => (t === 'integer' ? 'number' : t)) : value;
    else if (key === 'properties') out.properties = Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, shapeOnly(v)]));
    else if (key === 'items' || key === 'additionalProperties' || key === 'anyOf' || key === 'oneOf' || key === 'allOf') out[key] = shapeOnly(value);
    else if (typeof value !== 'object' || value === null) out[key] = value;
  }
  return out;
}
