import { Type, type SchemaOptions, type TSchema, type TUnsafe, type Static } from '@sinclair/typebox';

/**
 * Small TypeBox helpers that produce plain JSON Schema 2020-12 (what OpenAPI 3.1 uses):
 * `enum` instead of unions of literals, and `type: [x, "null"]` for nullable scalars, which read
 * better in /openapi.json and give one clear validation error instead of an anyOf cascade.
 */
export function StringEnum<const T extends readonly string[]>(values: T, options: SchemaOptions = {}): TUnsafe<T[number]> {
  return Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });
}

export function IntegerEnum<const T extends readonly number[]>(values: T, options: SchemaOptions = {}): TUnsafe<T[number]> {
  return Type.Unsafe<T[number]>({ type: 'integer', enum: [...values], ...options });
}

/** `T | null`. Scalars become `type: [t, "null"]`; anything else `anyOf: [T, {type: "null"}]`. */
export function Nullable<T extends TSchema>(schema: T, options: SchemaOptions = {}): TUnsafe<Static<T> | null> {
  const raw: Record<string, unknown> = schema;
  if (typeof raw.type === 'string' && raw.type !== 'object' && raw.type !== 'array' && raw.enum === undefined) {
    return Type.Unsafe<Static<T> | null>({ ...raw, type: [raw.type, 'null'], ...options });
  }
  if (raw.enum !== undefined && typeof raw.type === 'string') {
    return Type.Unsafe<Static<T> | null>({ ...raw, type: [raw.type, 'null'], enum: [...(raw.enum as unknown[]), null], ...options });
  }
  return Type.Unsafe<Static<T> | null>({ anyOf: [schema, { type: 'null' }], ...options });
}

/** Instants are RFC 3339 strings in UTC. */
export const DateTime = (options: SchemaOptions = {}) => Type.String({ format: 'date-time', ...options });

/** Objects in requests refuse unknown properties (R5.5); responses are closed too, to document them exactly. */
export function Closed<T extends Parameters<typeof Type.Object>[0]>(properties: T, options: SchemaOptions = {}) {
  return Type.Object(properties, { additionalProperties: false, ...options });
}

/** A reference to a shared schema (registered by $id), typed as that schema. */
export function RefOf<T extends TSchema>(schema: T): TUnsafe<Static<T>> {
  if (!schema.$id) throw new Error('RefOf needs a schema with an $id');
  return Type.Unsafe<Static<T>>(Type.Ref(schema.$id));
}

/**
 * The `{id}` of a path: ids are prefixed base62 (lib/ids.ts), so anything else (a NUL byte, a
 * slash, a quote) is refused before it reaches a query.
 */
export const IdParams = Closed({ id: Type.String({ pattern: '^[A-Za-z0-9_]{1,64}$', description: 'The object id, e.g. q_4cYw…' }) });
