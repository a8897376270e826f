import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate } from 'json-schema-faker';
import type { InjectOptions } from 'fastify';
import { createTestApp, type TestApp, type TestKey } from '../helpers/test-app.ts';
import { ask, choiceDraft, expectReconciled, fundedKey, NO_RATE_LIMITS, seedHeads, type Json } from '../helpers/questions.ts';

/**
 * RELIABILITY R7.3, second half: requests generated from the served /openapi.json, valid by its
 * schemas and deliberately broken, never produce a 500, and every response still matches the
 * description (t.inject checks each one). Bodies, queries and headers come from json-schema-faker
 * (seeded, so a failure names a request that can be replayed); path parameters are this
 * account's real ids half the time, so requests get past the 404 and into the services. After
 * all of them the money still reconciles. FUZZ_RUNS raises the number of requests per operation.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 4);
const METHODS = ['get', 'put', 'post', 'patch', 'delete'] as const;

interface Operation {
  method: (typeof METHODS)[number];
  path: string;
  op: Json;
}

let t: TestApp;
let doc: Json;
let key: TestKey;
/** Real values for path parameters, by parameter name. */
const real: Record<string, string[]> = {};

beforeAll(async () => {
  t = await createTestApp({ env: { ...NO_RATE_LIMITS, LINK_ANSWERS_PER_IP: '100000', LINK_ANSWERS_PER_LINK: '100000' } });
  doc = (await t.inject('/openapi.json')).json();
  const heads = await seedHeads(t, 10);
  key = await fundedKey(t, 1_000_000);
  const question = await ask(t, key, choiceDraft({ n: 20, reason: 'optional', publicResults: true }));
  const outcome = await t.container.answers.record(question.id, { headId: heads[0].id, source: 'panel', tier: heads[0].tier }, { option: 0, reason: 'Short and friendly' });
  const draft = (await t.inject({ method: 'POST', url: '/v1/drafts', headers: key.auth, payload: { type: 'ranking' } })).json();
  const project = (await t.inject({ method: 'POST', url: '/v1/projects', headers: key.auth, payload: { name: 'Fuzz' } })).json().project;
  const { shareLink } = (await t.inject({ method: 'POST', url: `/v2/questions/${question.id}/share-links`, headers: key.auth, payload: {} })).json();
  Object.assign(real, {
    id: [question.id, draft.id, project.id],
    ref: [outcome.attestationRef!],
    attestationRef: [outcome.attestationRef!],
    code: [question.linkCode, question.publicCode],
    linkId: [shareLink.id],
    token: [shareLink.token],
  });
}, 120_000);
afterAll(async () => {
  await t?.close();
});

function operations(): Operation[] {
  return Object.entries(doc.paths as Record<string, Json>).flatMap(([path, item]) =>
    METHODS.filter((m) => item[m]).map((method) => ({ method, path, op: item[method] as Json })),
  );
}

/** A value for a schema, with the document's components in reach of its $refs. */
function fake(schema: Json, seed: number): Promise<any> {
  return generate({ ...schema, components: doc.components }, { seed, maxDepth: 6, minDateTime: '2026-01-01', maxDateTime: '2027-12-31' });
}

/** One way to break a request, applied to its body (or, without a body, its query). */
const BREAKERS: Array<[string, (value: any, seed: number) => any]> = [
  ['an unknown property', (v) => (isObject(v) ? { ...v, fuzzUnknown: true } : { fuzzUnknown: true })],
  ['a required property missing', (v) => (isObject(v) ? Object.fromEntries(Object.entries(v).slice(1)) : v)],
  ['a property of the wrong type', (v, seed) => (isObject(v) && Object.keys(v).length ? { ...v, [Object.keys(v)[seed % Object.keys(v).length]]: [{ wrong: 'type' }] } : 42)],
  ['a string with NUL and lone surrogates', (v, seed) => (isObject(v) && Object.keys(v).length ? { ...v, [Object.keys(v)[seed % Object.keys(v).length]]: 'a\u0000b\ud800' } : 'a\u0000b')],
  ['a huge number', (v, seed) => (isObject(v) && Object.keys(v).length ? { ...v, [Object.keys(v)[seed % Object.keys(v).length]]: 1e308 } : 1e308)],
  ['not an object at all', () => ['fuzz']],
];

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

async function requestFor(o: Operation, seed: number, broken: ((value: any, seed: number) => any) | null): Promise<InjectOptions> {
  const parameters = (o.op.parameters ?? []) as Json[];
  let url = o.path;
  const query: Record<string, string> = {};
  const headers: Record<string, string> = o.op.security?.[0]?.bearerAuth ? { ...key.auth } : {};
  for (const p of parameters) {
    if (p.in === 'path') {
      const choices = real[p.name] ?? [];
      const value = choices.length && seed % 2 === 0 ? choices[seed % choices.length] : String(await fake(p.schema, seed));
      url = url.replace(`{${p.name}}`, encodeURIComponent(value));
    } else if (p.in === 'query' && (p.required || seed % 3 !== 0)) {
      const value = await fake(p.schema, seed);
      query[p.name] = Array.isArray(value) ? value.join(',') : String(value);
    } else if (p.in === 'header' && p.name.toLowerCase() === 'idempotency-key') {
      headers['idempotency-key'] = randomUUID();
    } else if (p.in === 'header' && p.required) {
      headers[p.name.toLowerCase()] = String(await fake(p.schema, seed));
    }
  }
  // A wait holds the request for `seconds`: keep the run short.
  if ('seconds' in query) query.seconds = '1';
  const schema = o.op.requestBody?.content?.['application/json']?.schema as Json | undefined;
  let payload: unknown = schema ? await fake(schema, seed) : undefined;
  if (broken) {
    if (schema) payload = broken(payload, seed);
    else if (Object.keys(query).length) Object.assign(query, { [Object.keys(query)[0]]: '\u0000%zz' });
    else if (Object.keys(query).length === 0 && parameters.some((p) => p.in === 'query')) query.fuzzUnknown = '1';
  }
  const search = new URLSearchParams(query).toString();
  return {
    method: o.method.toUpperCase() as InjectOptions['method'],
    url: search ? `${url}?${search}` : url,
    headers: payload === undefined ? headers : { ...headers, 'content-type': 'application/json' },
    ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }),
  };
}

describe('requests generated from /openapi.json (R7.3)', () => {
  it('never answer 500, valid or broken, and every response matches the description', async () => {
    const problems: string[] = [];
    const statuses = new Map<number, number>();
    let sent = 0;
    for (const o of operations()) {
      for (let run = 0; run < RUNS; run++) {
        for (const [name, breaker] of [['valid by the schemas', null] as const, BREAKERS[run % BREAKERS.length]]) {
          const seed = 1 + run * 7919 + sent;
          const request = await requestFor(o, seed, breaker);
          sent += 1;
          try {
            const response = await t.inject(request);
            statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1);
            if (response.statusCode >= 500) problems.push(`${request.method} ${request.url} (${name}, seed ${seed}) → ${response.statusCode} ${response.body.slice(0, 200)}`);
          } catch (error) {
            // t.inject throws when a response does not match /openapi.json.
            problems.push(`${request.method} ${request.url} (${name}, seed ${seed}) → ${(error as Error).message.slice(0, 300)}`);
          }
        }
      }
    }
    console.log(`R7.3 fuzz: ${sent} requests over ${operations().length} operations; statuses ${JSON.stringify(Object.fromEntries([...statuses].sort((a, b) => a[0] - b[0])))}`);
    expect(problems).toEqual([]);
    // The run reached the services (2xx) and the validators (4xx), not just one of them.
    const count = (test: (status: number) => boolean) => [...statuses].filter(([s]) => test(s)).reduce((sum, [, n]) => sum + n, 0);
    expect(count((s) => s >= 200 && s < 300)).toBeGreaterThan(operations().length / 4);
    expect(count((s) => s >= 400 && s < 500)).toBeGreaterThan(sent / 3);
    await expectReconciled(t);
  }, 600_000);
});
