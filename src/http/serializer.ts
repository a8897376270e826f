import fastJsonStringify, { type Options } from 'fast-json-stringify';

/**
 * Response serialization with fast-json-stringify, as Fastify does by default, except that
 * `default` keywords are ignored. fast-json-stringify writes a schema's default for a missing
 * property, which would make a response claim values the resource does not have (a saved draft
 * would suddenly show `n: 50`). Defaults stay in the schemas for validation and /openapi.json.
 */
function withoutDefaults(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withoutDefaults);
  if (schema === null || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'default') continue;
    out[key] = key === 'enum' || key === 'const' || key === 'examples' ? value : withoutDefaults(value);
  }
  return out;
}

/**
 * The shared schemas without their defaults, each made once: Fastify builds a serializer factory
 * for every plugin context (dozens), each handed the same shared schema objects, and stripping
 * them all for each was ~80 ms of every start (issue 15).
 */
const strippedShared = new WeakMap<object, unknown>();
function sharedWithoutDefaults(externalSchemas: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [id, schema] of Object.entries(externalSchemas)) {
    if (schema === null || typeof schema !== 'object') {
      out[id] = schema;
      continue;
    }
    let stripped = strippedShared.get(schema);
    if (stripped === undefined) strippedShared.set(schema, (stripped = withoutDefaults(schema)));
    out[id] = stripped;
  }
  return out;
}

/**
 * Fastify asks for every route's serializers (one per status code) when the server starts:
 * compiling them all then was nearly two seconds of start-up (issue 15). Each is compiled on its
 * first response instead, so a status a route never sends never costs anything.
 */
export function buildSerializerFactory(externalSchemas: Record<string, unknown> = {}, serializerOpts: Options = {}) {
  let schemas: Record<string, unknown> | undefined;
  return ({ schema }: { schema: Record<string, unknown> }) => {
    let serialize: ((data: unknown) => string) | undefined;
    return (data: unknown): string => {
      if (!serialize) {
        schemas ??= sharedWithoutDefaults(externalSchemas);
        const external = { ...schemas };
        if (typeof schema.$id === 'string') delete external[schema.$id];
        serialize = fastJsonStringify(withoutDefaults(schema) as object, { ...serializerOpts, schema: external as Options['schema'] }) as (data: unknown) => string;
      }
      return serialize(data);
    };
  };
}
