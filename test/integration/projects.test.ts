import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { createTestApp, type TestApp, type TestKey } from '../helpers/test-app.ts';
import { createResponseValidator, type ResponseValidator } from '../helpers/openapi-validator.ts';
import { buildApp } from '../../src/app.ts';
import { AppError } from '../../src/lib/errors.ts';
import { newId } from '../../src/lib/ids.ts';
import { SCOPES, type Actor } from '../../src/lib/actor.ts';
import { createProjectsRepository } from '../../src/modules/projects/projects.repository.ts';
import { createProjectsService, type ProjectsService } from '../../src/modules/projects/projects.service.ts';
import { projectsRoutes } from '../../src/modules/projects/projects.routes.ts';

/**
 * Projects (spec "Project", "Projects", "Other lifecycle rules"): the service directly, then the
 * routes over HTTP. The HTTP part builds its own app from the shared container and registers the
 * project routes on it when app.ts does not already (so it works before and after the wiring);
 * every response is checked against that app's /openapi.json, as t.inject does.
 */
let t: TestApp;
let projects: ProjectsService;
let app: FastifyInstance;
let validator: ResponseValidator;

beforeAll(async () => {
  t = await createTestApp();
  projects = createProjectsService({ repo: createProjectsRepository(t.db), clock: t.clock });
  app = await buildApp(t.container, { logger: false });
  if (!app.hasRoute({ method: 'GET', url: '/v1/projects' })) await app.register(projectsRoutes({ projects }));
  await app.ready();
  validator = createResponseValidator((await app.inject('/openapi.json')).json());
});
afterAll(async () => {
  await app?.close();
  await t?.close();
});

async function newActor(): Promise<Actor> {
  const account = await t.container.accounts.createAccount({ name: 'Projects test' });
  return { accountId: account.id, keyId: null, scopes: SCOPES, dailyCapCredits: null };
}

let questions = 0;
/** A question row straight into the table (only the NOT NULL columns without defaults). */
async function insertQuestion(accountId: string, projectId: string | null): Promise<string> {
  questions += 1;
  const id = newId('question');
  const at = t.clock.now();
  await t.db
    .insertInto('questions')
    .values({
      id, account_id: accountId, key_id: null, source: 'api', status: 'live', type: 'single_choice',
      draft: JSON.stringify({ type: 'single_choice' }), n: 10, tier: 1, credits_per_answer: 1, credits_reserved: 10,
      eta_minutes: 5, created_at: at, updated_at: at, project_id: projectId, link_code: `prjtest${questions}${id.slice(-6)}`,
    })
    .execute();
  return id;
}

async function projectIdOf(questionId: string): Promise<string | null> {
  const row = await t.db.selectFrom('questions').select('project_id').where('id', '=', questionId).executeTakeFirstOrThrow();
  return row.project_id;
}

async function failure(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(() => null, (e: unknown) => e);
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

describe('projects service', () => {
  it('creates a project with trimmed text and no questions', async () => {
    const actor = await newActor();
    const project = await projects.create(actor, { name: '  Pricing  ', description: ' What to charge ', goal: '   ' });
    expect(project).toEqual({
      id: expect.stringMatching(/^prj_[0-9A-Za-z]{20}$/),
      name: 'Pricing',
      description: 'What to charge',
      goal: null,
      bookmarked: false,
      archived: false,
      questionCount: 0,
      createdAt: t.clock.now().toISOString(),
      updatedAt: t.clock.now().toISOString(),
    });
  });

  it('refuses a blank name, an 81-character name and over-long text, all at once', async () => {
    const actor = await newActor();
    const blank = await failure(projects.create(actor, { name: '   ' }));
    expect(blank.code).toBe('validation_failed');
    expect(blank.details?.validation).toEqual([expect.objectContaining({ field: 'name', code: 'required' })]);
    const long = await failure(projects.create(actor, { name: 'x'.repeat(81), description: 'd'.repeat(2001), goal: 'g'.repeat(501) }));
    expect((long.details?.validation as { field: string }[]).map((i) => i.field)).toEqual(['name', 'description', 'goal']);
    expect(await projects.list(actor)).toEqual([]);
  });

  it('lists projects in use newest first, and the archived ones apart', async () => {
    const actor = await newActor();
    const first = await projects.create(actor, { name: 'First' });
    t.clock.advance(1000);
    const second = await projects.create(actor, { name: 'Second' });
    t.clock.advance(1000);
    const third = await projects.create(actor, { name: 'Third' });
    await projects.update(actor, second.id, { archived: true });
    expect((await projects.list(actor)).map((p) => p.id)).toEqual([third.id, first.id]);
    expect((await projects.list(actor, { archived: false })).map((p) => p.id)).toEqual([third.id, first.id]);
    expect((await projects.list(actor, { archived: true })).map((p) => p.id)).toEqual([second.id]);
    await projects.update(actor, second.id, { archived: false });
    expect((await projects.list(actor)).map((p) => p.id)).toEqual([third.id, second.id, first.id]);
  });

  it('patches only the fields given and moves updatedAt', async () => {
    const actor = await newActor();
    const created = await projects.create(actor, { name: 'Onboarding', description: 'Flow', goal: 'Fewer drop-offs' });
    t.clock.advance(60_000);
    const bookmarked = await projects.update(actor, created.id, { bookmarked: true });
    expect(bookmarked).toEqual({ ...created, bookmarked: true, updatedAt: t.clock.now().toISOString() });
    expect(bookmarked.updatedAt).not.toBe(created.updatedAt);
    t.clock.advance(60_000);
    const renamed = await projects.update(actor, created.id, { name: ' Signup ', description: null, bookmarked: false });
    expect(renamed).toMatchObject({ name: 'Signup', description: null, goal: 'Fewer drop-offs', bookmarked: false, createdAt: created.createdAt, updatedAt: t.clock.now().toISOString() });
    expect(await projects.get(actor, created.id)).toEqual(renamed);
  });

  it('refuses an empty patch and a blank name', async () => {
    const actor = await newActor();
    const { id } = await projects.create(actor, { name: 'Keep' });
    const empty = await failure(projects.update(actor, id, {}));
    expect(empty.code).toBe('validation_failed');
    expect(empty.details?.validation).toEqual([expect.objectContaining({ field: 'body', code: 'required' })]);
    const blank = await failure(projects.update(actor, id, { name: ' ' }));
    expect(blank.details?.validation).toEqual([expect.objectContaining({ field: 'name', code: 'required' })]);
    expect((await projects.get(actor, id)).name).toBe('Keep');
  });

  it("counts the account's questions in each project, in list, get and patch", async () => {
    const actor = await newActor();
    const a = await projects.create(actor, { name: 'A' });
    const b = await projects.create(actor, { name: 'B' });
    const empty = await projects.create(actor, { name: 'Empty' });
    await insertQuestion(actor.accountId, a.id);
    await insertQuestion(actor.accountId, a.id);
    await insertQuestion(actor.accountId, a.id);
    await insertQuestion(actor.accountId, b.id);
    await insertQuestion(actor.accountId, null);
    const counts = Object.fromEntries((await projects.list(actor)).map((p) => [p.name, p.questionCount]));
    expect(counts).toEqual({ A: 3, B: 1, Empty: 0 });
    expect((await projects.get(actor, a.id)).questionCount).toBe(3);
    expect((await projects.update(actor, b.id, { bookmarked: true })).questionCount).toBe(1);
    expect((await projects.get(actor, empty.id)).questionCount).toBe(0);
  });

  it('deletes a project and leaves its questions in the account outside any project', async () => {
    const actor = await newActor();
    const doomed = await projects.create(actor, { name: 'Doomed' });
    const kept = await projects.create(actor, { name: 'Kept' });
    const q1 = await insertQuestion(actor.accountId, doomed.id);
    const q2 = await insertQuestion(actor.accountId, doomed.id);
    const q3 = await insertQuestion(actor.accountId, kept.id);
    await projects.remove(actor, doomed.id);
    expect(await projectIdOf(q1)).toBeNull();
    expect(await projectIdOf(q2)).toBeNull();
    expect(await projectIdOf(q3)).toBe(kept.id);
    expect((await projects.list(actor)).map((p) => p.id)).toEqual([kept.id]);
    expect((await failure(projects.get(actor, doomed.id))).code).toBe('not_found');
    expect((await failure(projects.remove(actor, doomed.id))).code).toBe('not_found');
  });

  it("answers not_found for another account's project and changes nothing", async () => {
    const owner = await newActor();
    const other = await newActor();
    const project = await projects.create(owner, { name: 'Mine' });
    expect((await failure(projects.get(other, project.id))).status).toBe(404);
    expect((await failure(projects.update(other, project.id, { archived: true }))).status).toBe(404);
    expect((await failure(projects.remove(other, project.id))).status).toBe(404);
    expect(await projects.list(other)).toEqual([]);
    expect(await projects.get(owner, project.id)).toEqual(project);
  });
});

describe('projects over HTTP', () => {
  /** app.inject, with the response checked against the served /openapi.json. */
  async function inject(options: InjectOptions): Promise<LightMyRequestResponse> {
    const response = await app.inject(options);
    validator.check({ method: options.method ?? 'GET', url: String(options.url), statusCode: response.statusCode, headers: response.headers, body: response.body });
    return response;
  }
  const items = (response: LightMyRequestResponse) => response.json().error.details.validation as { field: string; code: string }[];

  let key: TestKey;
  beforeAll(async () => {
    key = await t.makeKey();
  });

  const create = (body: unknown, auth = key.auth) => inject({ method: 'POST', url: '/v1/projects', headers: auth, payload: body as object });
  const list = (query = '', auth = key.auth) => inject({ method: 'GET', url: `/v1/projects${query}`, headers: auth });
  const patch = (id: string, body: unknown, auth = key.auth) => inject({ method: 'PATCH', url: `/v1/projects/${id}`, headers: auth, payload: body as object });
  const remove = (id: string, auth = key.auth) => inject({ method: 'DELETE', url: `/v1/projects/${id}`, headers: auth });

  it('documents the four operations under Projects', async () => {
    const doc = (await app.inject('/openapi.json')).json();
    expect(doc.paths['/v1/projects'].get).toMatchObject({ operationId: 'listProjects', tags: ['Projects'], security: [{ bearerAuth: ['questions:read'] }, { oauth2: ['questions:read'] }] });
    expect(doc.paths['/v1/projects'].post).toMatchObject({ operationId: 'createProject', tags: ['Projects'], security: [{ bearerAuth: ['questions:write'] }, { oauth2: ['questions:write'] }] });
    expect(doc.paths['/v1/projects/{id}'].patch).toMatchObject({ operationId: 'updateProject', tags: ['Projects'], security: [{ bearerAuth: ['questions:write'] }, { oauth2: ['questions:write'] }] });
    expect(doc.paths['/v1/projects/{id}'].delete).toMatchObject({ operationId: 'deleteProject', tags: ['Projects'], security: [{ bearerAuth: ['questions:write'] }, { oauth2: ['questions:write'] }] });
    expect(Object.keys(doc.paths['/v1/projects'].post.responses)).toContain('201');
  });

  it('POST creates a project: 201 {project}', async () => {
    const response = await create({ name: ' Pricing ', description: 'What to charge', goal: null });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toEqual({
      project: expect.objectContaining({ name: 'Pricing', description: 'What to charge', goal: null, bookmarked: false, archived: false, questionCount: 0 }),
    });
  });

  it('POST refuses an 81-character name, a blank one, a missing one and unknown fields', async () => {
    const long = await create({ name: 'x'.repeat(81) });
    expect(long.statusCode).toBe(400);
    expect(long.json().error.code).toBe('validation_failed');
    expect(items(long)).toEqual([expect.objectContaining({ field: 'name', code: 'too_long' })]);
    expect(items(await create({ name: '  ' }))).toEqual([expect.objectContaining({ field: 'name', code: 'required' })]);
    expect(items(await create({ description: 'x' }))).toEqual([expect.objectContaining({ field: 'name', code: 'required' })]);
    const unknown = await create({ name: 'Ok', colour: 'red' });
    expect(unknown.statusCode).toBe(400);
    expect(items(unknown)).toEqual([expect.objectContaining({ field: 'colour', code: 'not_allowed' })]);
    expect(items(await create({ name: 'Ok', description: 'd'.repeat(2001) }))).toEqual([expect.objectContaining({ field: 'description', code: 'too_long' })]);
    expect(items(await create({ name: 'Ok', goal: 'g'.repeat(501) }))).toEqual([expect.objectContaining({ field: 'goal', code: 'too_long' })]);
  });

  it('GET lists projects in use by default and archived ones with archived=true, with question counts', async () => {
    const own = await t.makeKey();
    const a = (await create({ name: 'A' }, own.auth)).json().project;
    t.clock.advance(1000);
    const b = (await create({ name: 'B' }, own.auth)).json().project;
    await insertQuestion(own.accountId, a.id);
    await insertQuestion(own.accountId, a.id);
    expect((await patch(b.id, { archived: true }, own.auth)).json().project.archived).toBe(true);

    const inUse = await list('', own.auth);
    expect(inUse.statusCode).toBe(200);
    expect(inUse.json()).toEqual({ projects: [{ ...a, questionCount: 2 }] });
    expect((await list('?archived=false', own.auth)).json().projects.map((p: { id: string }) => p.id)).toEqual([a.id]);
    expect((await list('?archived=true', own.auth)).json().projects.map((p: { id: string }) => p.id)).toEqual([b.id]);
    const bad = await list('?archived=maybe', own.auth);
    expect(bad.statusCode).toBe(400);
    expect(items(bad)).toEqual([expect.objectContaining({ field: 'archived' })]);
    expect((await list('?colour=red', own.auth)).statusCode).toBe(400);
  });

  it('PATCH toggles bookmarked, moves updatedAt, and refuses an empty body', async () => {
    const { project } = (await create({ name: 'Toggle' })).json();
    t.clock.advance(5000);
    const on = await patch(project.id, { bookmarked: true });
    expect(on.statusCode).toBe(200);
    expect(on.json().project).toEqual({ ...project, bookmarked: true, updatedAt: t.clock.now().toISOString() });
    t.clock.advance(5000);
    const off = await patch(project.id, { bookmarked: false, goal: 'Decide' });
    expect(off.json().project).toMatchObject({ bookmarked: false, goal: 'Decide', updatedAt: t.clock.now().toISOString() });

    const empty = await patch(project.id, {});
    expect(empty.statusCode).toBe(400);
    expect(items(empty)).toEqual([expect.objectContaining({ field: 'body', code: 'required' })]);
    expect(items(await patch(project.id, { name: 'y'.repeat(81) }))).toEqual([expect.objectContaining({ field: 'name', code: 'too_long' })]);
    expect(items(await patch(project.id, { pinned: true }))).toEqual([expect.objectContaining({ field: 'pinned', code: 'not_allowed' })]);
    expect(items(await patch(project.id, { archived: 'yes' }))).toEqual([expect.objectContaining({ field: 'archived', code: 'invalid_format' })]);
  });

  it('DELETE answers {ok: true} and leaves the questions outside any project', async () => {
    const { project } = (await create({ name: 'Gone' })).json();
    const question = await insertQuestion(key.accountId, project.id);
    const response = await remove(project.id);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ ok: true });
    expect(await projectIdOf(question)).toBeNull();
    expect((await remove(project.id)).statusCode).toBe(404);
    expect((await patch(project.id, { archived: true })).statusCode).toBe(404);
  });

  it("answers 404 for another account's project", async () => {
    const { project } = (await create({ name: 'Private' })).json();
    const stranger = await t.makeKey();
    const patched = await patch(project.id, { name: 'Mine now' }, stranger.auth);
    expect(patched.statusCode).toBe(404);
    expect(patched.json().error.code).toBe('not_found');
    expect((await remove(project.id, stranger.auth)).statusCode).toBe(404);
    expect((await list('', stranger.auth)).json()).toEqual({ projects: [] });
    expect((await list('', key.auth)).json().projects).toContainEqual(project);
  });

  it('needs a credential and the right scope', async () => {
    expect((await inject({ method: 'GET', url: '/v1/projects' })).statusCode).toBe(401);
    expect((await inject({ method: 'POST', url: '/v1/projects', payload: { name: 'x' } })).statusCode).toBe(401);
    const reader = await t.makeKey(['questions:read']);
    expect((await list('', reader.auth)).statusCode).toBe(200);
    const refused = await create({ name: 'Nope' }, reader.auth);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.code).toBe('insufficient_scope');
    const { project } = (await create({ name: 'Scoped' })).json();
    expect((await patch(project.id, { archived: true }, reader.auth)).statusCode).toBe(403);
    expect((await remove(project.id, reader.auth)).statusCode).toBe(403);
    const writerOnly = await t.makeKey(['questions:write']);
    expect((await list('', writerOnly.auth)).statusCode).toBe(403);
  });
});
