import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

/**
 * R7.3: every response of the integration suites is checked against the served /openapi.json.
 * The operation is found by method and path template (literal segments win over `{param}` ones),
 * the response by status (exact, then `4XX`, then `default`), and a JSON body is validated with
 * Ajv (JSON Schema 2020-12, the dialect of OpenAPI 3.1) against the documented schema, with
 * `#/components/...` references resolved inside the document itself.
 */

/** Routes left out of the description on purpose (`schema.hide`); their responses are not checked. */
export const HIDDEN_ROUTES: readonly RegExp[] = [
  /^\/openapi\.json$/,
  /^\/docs(\/.*)?$/,
  // The front page for people (HTML, src/web/home-page).
  /^\/$/,
  // The answer page (HTML) and its CSS/JS: pages, not API (src/web/answer-page).
  /^\/a\/[^/]+$/,
  /^\/a\/assets\/[^/]+\/[^/]+$/,
  // The public results page for people (HTML, src/web/results-page).
  /^\/r\/[^/]+$/,
  // The page behind a private share link (HTML, src/web/results-page).
  /^\/s\/[^/]+$/,
];

type Json = Record<string, unknown>;

export interface CheckedResponse {
  method: string;
  /** The request URL as injected (path and query). */
  url: string;
  statusCode: number;
  headers: Record<string, unknown>;
  body: string;
}

interface PathTemplate {
  template: string;
  regex: RegExp;
  /** Per segment: 2 literal, 1 literal with a parameter, 0 only a parameter. Compared left to right. */
  specificity: number[];
}

const DOC_ID = 'https://headcount.invalid/openapi.json';

function escapePointer(token: string): string {
  return encodeURIComponent(token.replace(/~/g, '~0').replace(/\//g, '~1'));
}

function compilePath(template: string): PathTemplate {
  const segments = template.split('/').slice(1);
  const specificity: number[] = [];
  const parts = segments.map((segment) => {
    const pieces = segment.split(/(\{[^}]+\})/).filter(Boolean);
    const params = pieces.filter((p) => p.startsWith('{')).length;
    specificity.push(params === 0 ? 2 : params === pieces.length ? 0 : 1);
    return pieces.map((p) => (p.startsWith('{') ? '[^/]+' : p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))).join('');
  });
  return { template, regex: new RegExp(`^/${parts.join('/')}$`), specificity };
}

function moreSpecific(a: number[], b: number[]): boolean {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i] > b[i];
  return false;
}

function mediaTypeOf(headers: Record<string, unknown>): string | null {
  const raw = headers['content-type'];
  const value = Array.isArray(raw) ? raw[0] : raw;
  return typeof value === 'string' && value ? value.split(';')[0].trim().toLowerCase() : null;
}

const isJson = (mediaType: string) => mediaType === 'application/json' || mediaType.endsWith('+json');

function formatErrors(errors: readonly ErrorObject[] | null | undefined): string {
  return (errors ?? []).map((e) => `  - ${e.instancePath || '(root)'} ${e.message ?? e.keyword} ${JSON.stringify(e.params)} [schema ${e.schemaPath}]`).join('\n');
}

function clip(text: string, max = 2_000): string {
  return text.length > max ? `${text.slice(0, max)}… (${text.length} characters)` : text;
}

export class OpenApiResponseError extends Error {
  constructor(message: string) {
    super(`OpenAPI response check (R7.3): ${message}`);
    this.name = 'OpenApiResponseError';
  }
}

export function createResponseValidator(doc: Json) {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
  (addFormats as unknown as (a: Ajv2020) => void)(ajv);
  ajv.addSchema({ ...doc, $id: DOC_ID });

  const paths = (doc.paths ?? {}) as Record<string, Record<string, Json>>;
  const templates = Object.keys(paths).map(compilePath);
  const compiled = new Map<string, ValidateFunction>();

  const validatorAt = (pointer: string): ValidateFunction => {
    let validate = compiled.get(pointer);
    if (!validate) {
      validate = ajv.compile({ $ref: `${DOC_ID}#${pointer}` });
      compiled.set(pointer, validate);
    }
    return validate;
  };

  const errorSchemaExists = Boolean((doc.components as Json | undefined)?.schemas && ((doc.components as Json).schemas as Json).Error);

  /** The documented path template for a concrete path, the most literal one when several match. */
  function findPath(pathname: string): PathTemplate | null {
    let best: PathTemplate | null = null;
    for (const t of templates) {
      if (t.regex.test(pathname) && (!best || moreSpecific(t.specificity, best.specificity))) best = t;
    }
    return best;
  }

  function check(response: CheckedResponse): void {
    const method = response.method.toLowerCase();
    const pathname = response.url.split('?')[0].split('#')[0];
    const where = `${response.method.toUpperCase()} ${response.url} → ${response.statusCode}`;
    if (HIDDEN_ROUTES.some((r) => r.test(pathname))) return;

    const template = findPath(pathname);
    const pathItem = template ? paths[template.template] : undefined;
    const opMethod = pathItem?.[method] ? method : method === 'head' && pathItem?.get ? 'get' : null;

    if (!template || !opMethod) {
      // No documented operation: only the not-found answer for an unknown route is acceptable,
      // and it must still be the documented error envelope.
      if (response.statusCode !== 404 && response.statusCode !== 405) {
        throw new OpenApiResponseError(
          `${where}: no operation in /openapi.json documents ${response.method.toUpperCase()} ${pathname}. ` +
            'Document the route, or if it is hidden from the description on purpose add it to HIDDEN_ROUTES in test/helpers/openapi-validator.ts.',
        );
      }
      if (!errorSchemaExists) throw new OpenApiResponseError(`${where}: components.schemas.Error is missing.`);
      validateJson(where, '/components/schemas/Error', response);
      return;
    }

    const operation = pathItem![opMethod] as Json;
    const responses = (operation.responses ?? {}) as Record<string, Json>;
    const status = String(response.statusCode);
    const statusKey = [status, `${status[0]}XX`, 'default'].find((k) => k in responses);
    if (!statusKey) {
      throw new OpenApiResponseError(
        `${where}: status ${status} is not documented for ${opMethod.toUpperCase()} ${template.template} (documented: ${Object.keys(responses).join(', ')}).\nbody: ${clip(response.body)}`,
      );
    }
    const documented = responses[statusKey];
    const content = (documented.content ?? {}) as Record<string, Json>;
    const documentedTypes = Object.keys(content);
    const base = `/paths/${escapePointer(template.template)}/${opMethod}/responses/${escapePointer(statusKey)}/content`;

    if (response.body.length === 0) {
      if (documentedTypes.length > 0 && method !== 'head') {
        throw new OpenApiResponseError(`${where}: the response has no body but the description documents ${documentedTypes.join(', ')}.`);
      }
      return;
    }
    if (method === 'head') return;
    if (documentedTypes.length === 0) {
      throw new OpenApiResponseError(`${where}: the response has a body but the description documents none for ${statusKey}.\nbody: ${clip(response.body)}`);
    }
    const mediaType = mediaTypeOf(response.headers);
    if (!mediaType) throw new OpenApiResponseError(`${where}: the response has a body but no content-type header.`);
    const key =
      [mediaType, `${mediaType.split('/')[0]}/*`, '*/*'].find((k) => k in content) ??
      // A JSON body documented under a +json type or vice versa is still the same schema.
      (isJson(mediaType) ? documentedTypes.find(isJson) : undefined);
    if (!key) {
      throw new OpenApiResponseError(`${where}: content type ${mediaType} is not documented (documented: ${documentedTypes.join(', ')}).`);
    }
    if (isJson(mediaType) && content[key].schema !== undefined) {
      validateJson(where, `${base}/${escapePointer(key)}/schema`, response);
    }
  }

  function validateJson(where: string, pointer: string, response: CheckedResponse): void {
    let body: unknown;
    try {
      body = JSON.parse(response.body);
    } catch {
      throw new OpenApiResponseError(`${where}: the body is not valid JSON.\nbody: ${clip(response.body)}`);
    }
    const validate = validatorAt(pointer);
    if (!validate(body)) {
      throw new OpenApiResponseError(
        `${where}: the body does not match the documented schema (#${decodeURIComponent(pointer)}):\n${formatErrors(validate.errors)}\nbody: ${clip(response.body)}`,
      );
    }
  }

  return { check, findPath: (pathname: string) => findPath(pathname)?.template ?? null };
}
export type ResponseValidator = ReturnType<typeof createResponseValidator>;
