import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Validator } from '@seriousme/openapi-schema-validator';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

type Json = Record<string, any>;
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** Resources of the spec that must be described as components even before their routes exist. */
const REQUIRED_SCHEMAS = [
  'QuestionDraft', 'SavedDraft', 'Question', 'Result', 'Answer', 'Insights', 'Project', 'DraftRecord', 'Template',
  'Balance', 'LedgerRow', 'Config', 'CountryEntry', 'CountriesCatalogue', 'TagsCatalogue', 'Stats', 'WebhookEndpoint', 'Error',
];

let t: TestApp;
let doc: Json;
let operations: { where: string; op: Json }[];

beforeAll(async () => {
  t = await createTestApp();
  const response = await t.inject('/openapi.json');
  expect(response.statusCode).toBe(200);
  expect(response.headers['content-type']).toMatch(/^application\/json/);
  doc = response.json();
  operations = Object.entries(doc.paths as Record<string, Json>).flatMap(([path, item]) =>
    METHODS.filter((m) => item[m]).map((m) => ({ where: `${m.toUpperCase()} ${path}`, op: item[m] as Json })),
  );
});
afterAll(async () => {
  await t?.close();
});

describe('/openapi.json', () => {
  it('is OpenAPI 3.1.0 describing API version 2.0.0', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe('2.0.0');
  });

  it('marks nothing deprecated, as docs/api.md "Versioning and deprecation" says (it lists every deprecation with its dates)', () => {
    const deprecated: string[] = [];
    const walk = (value: unknown, where: string): void => {
      if (!value || typeof value !== 'object') return;
      if ((value as Json).deprecated === true) deprecated.push(where);
      for (const [k, v] of Object.entries(value as Json)) walk(v, `${where}/${k}`);
    };
    walk(doc.paths, '#/paths');
    walk(doc.components, '#/components');
    expect(deprecated).toEqual([]);
  });

  it('passes the OpenAPI 3.1 schema', async () => {
    const result = await new Validator().validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('describes at least the health operations', () => {
    expect(operations.map((o) => o.where)).toEqual(expect.arrayContaining(['GET /healthz', 'GET /readyz']));
  });

  it('gives every operation a unique operationId, tags, a summary, security and a 4xx response', () => {
    const problems: string[] = [];
    const seen = new Map<string, string>();
    const declaredTags = new Set((doc.tags ?? []).map((tag: Json) => tag.name));
    for (const { where, op } of operations) {
      if (typeof op.operationId !== 'string' || !op.operationId) problems.push(`${where}: no operationId`);
      else if (seen.has(op.operationId)) problems.push(`${where}: operationId ${op.operationId} also used by ${seen.get(op.operationId)}`);
      else seen.set(op.operationId, where);
      if (!Array.isArray(op.tags) || op.tags.length === 0) problems.push(`${where}: no tags`);
      for (const tag of op.tags ?? []) if (!declaredTags.has(tag)) problems.push(`${where}: tag "${tag}" is not in the document's tags`);
      if (typeof op.summary !== 'string' || !op.summary.trim()) problems.push(`${where}: no summary`);
      if (!Array.isArray(op.security)) problems.push(`${where}: security is not an array`);
      if (!Object.keys(op.responses ?? {}).some((status) => /^4(\d\d|XX)$/.test(status))) problems.push(`${where}: no 4xx response`);
    }
    expect(problems).toEqual([]);
  });

  it('lists every resource of the spec under components.schemas', () => {
    const names = Object.keys(doc.components?.schemas ?? {});
    expect(REQUIRED_SCHEMAS.filter((name) => !names.includes(name))).toEqual([]);
  });

  it('names only the bearerAuth security scheme and its declared scopes', () => {
    for (const { where, op } of operations) {
      for (const requirement of op.security as Json[]) {
        for (const scheme of Object.keys(requirement)) {
          expect(doc.components.securitySchemes, `${where} uses ${scheme}`).toHaveProperty(scheme);
        }
      }
    }
  });
});
