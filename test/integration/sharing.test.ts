import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestKey } from '../helpers/test-app.ts';
import { answerAll, ask, choiceDraft, DAY, errorOf, getQuestion, seedHeads, sleep, type Head, type Json, fundedKey, NO_RATE_LIMITS } from '../helpers/questions.ts';
import { hashShareToken } from '../../src/modules/sharing/sharing.service.ts';

/**
 * The public results page and private share links (docs/sharing.md; spec POST …/share,
 * …/share-links, GET /v1/public/results/{code}, GET /v1/public/shared/{token}; RELIABILITY R5.4
 * and R5.6): nothing private leaks, another account's ids are 404, and unknown, tampered,
 * expired (fake clock) and revoked tokens are all 404.
 */
let t: TestApp;
let heads: Head[];
beforeAll(async () => {
  t = await createTestApp({ env: { ...NO_RATE_LIMITS, PUBLIC_BASE_URL: 'https://headcount.test' } });
  heads = await seedHeads(t, 20);
});
afterAll(async () => {
  await Promise.race([t?.close(), sleep(5_000)]);
});

const funded = (): Promise<TestKey> => fundedKey(t);

/** A question with labels, an externalRef and a project, answered with written reasons by 4 heads. */
async function answered(key: TestKey, draft: Json = {}): Promise<{ question: Json; refs: string[] }> {
  const project = await t.inject({ method: 'POST', url: '/v1/projects', headers: key.auth, payload: { name: 'Launch' } });
  expect(project.statusCode, project.body).toBe(201);
  const question = await ask(t, key, {
    draft: choiceDraft({ reason: 'optional', ...draft }),
    labels: ['naming'],
    externalRef: `crm-${Math.random().toString(36).slice(2)}`,
    projectId: project.json().project.id,
  });
  const outcomes = await answerAll(t, question.id, heads.slice(0, 4), (i) => ({ option: i % 2, reason: `Written reason ${i}` }));
  return { question, refs: outcomes.map((o) => o.attestationRef!) };
}

const share = (key: TestKey, id: string, payload: Json) => t.inject({ method: 'POST', url: `/v2/questions/${id}/share`, headers: key.auth, payload });
const publicPage = (code: string) => t.inject({ method: 'GET', url: `/v1/public/results/${code}` });
const createLink = (key: TestKey, id: string, payload: Json = {}) => t.inject({ method: 'POST', url: `/v2/questions/${id}/share-links`, headers: key.auth, payload });
const listLinks = (key: TestKey, id: string) => t.inject({ method: 'GET', url: `/v2/questions/${id}/share-links`, headers: key.auth });
const revoke = (key: TestKey, id: string, linkId: string) => t.inject({ method: 'DELETE', url: `/v2/questions/${id}/share-links/${linkId}`, headers: key.auth });
const shared = (token: string) => t.inject({ method: 'GET', url: `/v1/public/shared/${token}` });

/** Fields of a Question that only its account may see. */
const PRIVATE_QUESTION_FIELDS = ['askedBy', 'teamId', 'projectId', 'labels', 'archived', 'bookmarked', 'externalRef', 'linkCode', 'linkUrl'];

function expectNothingPrivate(question: Json): void {
  for (const field of PRIVATE_QUESTION_FIELDS) expect(question, field).not.toHaveProperty(field);
}

describe('POST /v2/questions/{id}/share and GET /v1/public/results/{code}', () => {
  it('on: publicResults and a publicCode; the page shows the question without private fields and aggregates without answers', async () => {
    const key = await funded();
    const { question, refs } = await answered(key);
    expect(question.publicCode).toBeNull();
    const response = await share(key, question.id, { public: true });
    expect(response.statusCode, response.body).toBe(200);
    const shown = response.json().question;
    expect(shown).toMatchObject({ id: question.id, publicResults: true, publicCode: expect.stringMatching(/^[0-9A-Za-z]{12}$/), labels: ['naming'] });

    const page = await publicPage(shown.publicCode);
    expect(page.statusCode, page.body).toBe(200);
    expect(page.headers['cache-control']).toBe('public, max-age=60');
    const body = page.json();
    expect(body.question).toMatchObject({ id: question.id, text: question.text, publicResults: true, publicCode: shown.publicCode, answered: 4, status: 'live' });
    expectNothingPrivate(body.question);
    expect(body.result).toMatchObject({ questionId: question.id, nAccepted: 4, status: 'in_progress', answers: [] });
    expect(body.result.distribution.map((d: Json) => d.count)).toEqual([2, 2]);
    expect(body.result).not.toHaveProperty('insights');
    for (const ref of refs) expect(page.body).not.toContain(ref);
    expect(page.body).not.toContain('Written reason');
  });

  it('on again keeps the code; off clears it (404 at once); on after off makes a new code and the old one stays dead', async () => {
    const key = await funded();
    const { question } = await answered(key);
    const first = (await share(key, question.id, { public: true })).json().question.publicCode;
    expect((await share(key, question.id, { public: true })).json().question.publicCode).toBe(first);

    const off = await share(key, question.id, { public: false });
    expect(off.statusCode).toBe(200);
    expect(off.json().question).toMatchObject({ publicResults: false, publicCode: null });
    expect((await getQuestion(t, key, question.id)).publicCode).toBeNull();
    const gone = await publicPage(first);
    expect(gone.statusCode).toBe(404);
    expect(errorOf(gone).code).toBe('not_found');
    expect((await share(key, question.id, { public: false })).statusCode).toBe(200);

    const second = (await share(key, question.id, { public: true })).json().question.publicCode;
    expect(second).toMatch(/^[0-9A-Za-z]{12}$/);
    expect(second).not.toBe(first);
    expect((await publicPage(first)).statusCode).toBe(404);
    expect((await publicPage(second)).statusCode).toBe(200);
  });

  it('a question asked with publicResults: true is public from the start, and the answer link points at it', async () => {
    const key = await funded();
    const question = await ask(t, key, choiceDraft({ publicResults: true }));
    expect(question.publicCode).toMatch(/^[0-9A-Za-z]{12}$/);
    expect((await publicPage(question.publicCode)).statusCode).toBe(200);
    const link = await t.inject({ method: 'GET', url: `/v1/public/link/${question.linkCode}` });
    expect(link.json()).toMatchObject({ showResult: true, resultCode: question.publicCode });
    await share(key, question.id, { public: false });
    expect((await t.inject({ method: 'GET', url: `/v1/public/link/${question.linkCode}` })).json()).toMatchObject({ showResult: false, resultCode: null });
  });

  it('unknown codes are 404; bodies that are not {public: boolean} are 400', async () => {
    expect((await publicPage('AAAAAAAAAAAA')).statusCode).toBe(404);
    const key = await funded();
    const { question } = await answered(key);
    for (const payload of [{}, { public: 'yes' }, { public: true, code: 'mine' }]) {
      expect((await share(key, question.id, payload)).statusCode, JSON.stringify(payload)).toBe(400);
    }
  });

  it("another account's question is 404 (R5.4); questions:read is not enough (403)", async () => {
    const owner = await funded();
    const other = await funded();
    const { question } = await answered(owner);
    expect((await share(other, question.id, { public: true })).statusCode).toBe(404);
    const reader = await t.makeKey(['questions:read'], null, { accountId: owner.accountId });
    expect((await share(reader, question.id, { public: true })).statusCode).toBe(403);
    expect((await getQuestion(t, owner, question.id)).publicCode).toBeNull();
  });

  it('a question refused in review cannot be made public, and a public one disappears when refused', async () => {
    const key = await funded();
    const refusedFirst = await ask(t, key, choiceDraft());
    await t.container.lifecycle.refuse(refusedFirst.id, 'personal_data');
    expect((await share(key, refusedFirst.id, { public: true })).statusCode).toBe(409);

    const publicFirst = await ask(t, key, choiceDraft({ publicResults: true }));
    await t.container.lifecycle.refuse(publicFirst.id, 'personal_data');
    expect((await publicPage(publicFirst.publicCode)).statusCode).toBe(404);
  });
});

describe('private share links', () => {
  it('201 with the token once; the link shows the full result with written answers, never cached or indexed', async () => {
    const key = await funded();
    const { question, refs } = await answered(key);
    const response = await createLink(key, question.id, { label: 'For the board' });
    expect(response.statusCode, response.body).toBe(201);
    const link = response.json().shareLink;
    const now = t.clock.now().getTime();
    expect(link).toEqual({
      id: expect.stringMatching(/^shl_[0-9A-Za-z]{20}$/),
      label: 'For the board',
      createdAt: new Date(now).toISOString(),
      expiresAt: new Date(now + 30 * DAY).toISOString(),
      revokedAt: null,
      token: expect.stringMatching(/^[0-9A-Za-z]{32}$/),
      url: `https://headcount.test/s/${link.token}`,
    });
    // Only the hash is stored.
    const stored = await t.db.selectFrom('share_links').selectAll().where('id', '=', link.id).executeTakeFirstOrThrow();
    expect(Buffer.from(stored.token_hash).equals(hashShareToken(link.token))).toBe(true);
    expect(JSON.stringify(stored)).not.toContain(link.token);

    const page = await shared(link.token);
    expect(page.statusCode, page.body).toBe(200);
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.headers['x-robots-tag']).toBe('noindex');
    const body = page.json();
    expectNothingPrivate(body.question);
    expect(body.result.nAccepted).toBe(4);
    expect(body.result.answers).toHaveLength(4);
    expect(body.result.answers.map((a: Json) => a.reason).sort()).toEqual(['Written reason 0', 'Written reason 1', 'Written reason 2', 'Written reason 3']);
    // Real attestation references and flags stay inside the account.
    for (const answer of body.result.answers) {
      expect(answer.attestationRef).toMatch(/^shr_/);
      expect(answer).not.toHaveProperty('flag');
    }
    for (const ref of refs) expect(page.body).not.toContain(ref);
  });

  it('the list has every link, newest first, without tokens or urls; questions:read is enough', async () => {
    const key = await funded();
    const { question } = await answered(key);
    const a = (await createLink(key, question.id, { expiresInDays: 1 })).json().shareLink;
    t.clock.advance(1000);
    const b = (await createLink(key, question.id, { expiresInDays: 90, label: 'Agency' })).json().shareLink;
    const reader = await t.makeKey(['questions:read'], null, { accountId: key.accountId });
    const response = await listLinks(reader, question.id);
    expect(response.statusCode, response.body).toBe(200);
    const { shareLinks } = response.json();
    expect(shareLinks.map((l: Json) => l.id)).toEqual([b.id, a.id]);
    expect(shareLinks[0]).toEqual({ id: b.id, label: 'Agency', createdAt: b.createdAt, expiresAt: b.expiresAt, revokedAt: null });
    expect(shareLinks[1]).toMatchObject({ label: null, expiresAt: new Date(new Date(a.createdAt).getTime() + DAY).toISOString() });
    expect(response.body).not.toContain(a.token);
    expect(response.body).not.toContain(b.token);
    expect((await createLink(reader, question.id)).statusCode).toBe(403);
  });

  it.each([
    ['expiresInDays 0', { expiresInDays: 0 }],
    ['expiresInDays 91', { expiresInDays: 91 }],
    ['a fractional expiresInDays', { expiresInDays: 1.5 }],
    ['a label over 80 characters', { label: 'x'.repeat(81) }],
    ['an unknown property', { token: 'mine' }],
  ])('%s is a 400', async (_label, payload) => {
    const key = await funded();
    const question = await ask(t, key, choiceDraft());
    const response = await createLink(key, question.id, payload);
    expect(response.statusCode, response.body).toBe(400);
    expect(errorOf(response).code).toBe('validation_failed');
  });

  it('unknown and tampered tokens are 404, and the 404 is not cached either (R5.6)', async () => {
    const key = await funded();
    const { question } = await answered(key);
    const { token } = (await createLink(key, question.id)).json().shareLink;
    const flip = (c: string) => (c === 'a' ? 'b' : 'a');
    for (const bad of [
      `${token.slice(0, -1)}${flip(token.slice(-1))}`,
      `${flip(token[0])}${token.slice(1)}`,
      token.slice(0, -1),
      `${token}a`,
      token.toLowerCase() === token ? token.toUpperCase() : token.toLowerCase(),
      'A'.repeat(32),
      `${token.slice(0, 16)}-${token.slice(17)}`,
      `${token.slice(0, 16)}%20${token.slice(17)}`,
    ]) {
      const response = await shared(bad);
      expect(response.statusCode, bad).toBe(404);
      expect(errorOf(response).code).toBe('not_found');
      expect(response.headers['cache-control']).toBe('no-store');
    }
    // A NUL byte is refused before anything else, as on every route: a token with one names nothing.
    const nul = await shared(`${token.slice(0, 16)}%00${token.slice(17)}`);
    expect(nul.statusCode).toBe(404);
    expect(errorOf(nul).code).toBe('not_found');
    expect(nul.headers['cache-control']).toBe('no-store');
    expect((await shared(token)).statusCode).toBe(200);
  });

  it('expired by the clock: works until expiresAt, 404 from then on (R5.6)', async () => {
    const key = await funded();
    const { question } = await answered(key);
    const link = (await createLink(key, question.id, { expiresInDays: 2 })).json().shareLink;
    t.clock.set(new Date(new Date(link.expiresAt).getTime() - 1));
    expect((await shared(link.token)).statusCode).toBe(200);
    t.clock.advance(1);
    expect((await shared(link.token)).statusCode).toBe(404);
    expect((await listLinks(key, question.id)).json().shareLinks[0]).toMatchObject({ id: link.id, revokedAt: null });
  });

  it('revoked: 200 {ok: true}, 404 at once, revokedAt in the list; revoking again is fine (R5.6)', async () => {
    const key = await funded();
    const { question } = await answered(key);
    const keep = (await createLink(key, question.id)).json().shareLink;
    const link = (await createLink(key, question.id)).json().shareLink;
    expect((await shared(link.token)).statusCode).toBe(200);
    const response = await revoke(key, question.id, link.id);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ ok: true });
    expect((await shared(link.token)).statusCode).toBe(404);
    expect((await shared(keep.token)).statusCode).toBe(200);
    const listed = (await listLinks(key, question.id)).json().shareLinks;
    expect(listed.find((l: Json) => l.id === link.id).revokedAt).toBe(t.clock.now().toISOString());
    expect((await revoke(key, question.id, link.id)).statusCode).toBe(200);
    expect((await revoke(key, question.id, 'shl_doesnotexist')).statusCode).toBe(404);
  });

  it("another account's question or link is 404 (R5.4), and so is a link under another question", async () => {
    const owner = await funded();
    const other = await funded();
    const { question } = await answered(owner);
    const second = await ask(t, owner, choiceDraft());
    const link = (await createLink(owner, question.id)).json().shareLink;
    expect((await createLink(other, question.id)).statusCode).toBe(404);
    expect((await listLinks(other, question.id)).statusCode).toBe(404);
    expect((await revoke(other, question.id, link.id)).statusCode).toBe(404);
    expect((await revoke(owner, second.id, link.id)).statusCode).toBe(404);
    const otherQuestion = await ask(t, other, choiceDraft());
    expect((await revoke(other, otherQuestion.id, link.id)).statusCode).toBe(404);
    expect((await shared(link.token)).statusCode).toBe(200);
  });

  it('an answer removed after an upheld flag is gone from the shared page too', async () => {
    const key = await funded();
    const { question, refs } = await answered(key);
    const { token } = (await createLink(key, question.id)).json().shareLink;
    const flagged = await t.inject({ method: 'POST', url: `/v2/questions/${question.id}/answers/${refs[0]}/flag`, headers: key.auth, payload: { reason: 'abusive' } });
    expect(flagged.statusCode, flagged.body).toBe(201);
    await t.container.moderation.decideFlag(flagged.json().flag.id, 'uphold');
    const body = (await shared(token)).json();
    expect(body.result.nAccepted).toBe(3);
    expect(body.result.answers).toHaveLength(3);
    expect(body.result.answers.map((a: Json) => a.reason)).not.toContain('Written reason 0');
  });
});
