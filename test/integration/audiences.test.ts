import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import Papa from 'papaparse';
import { createTestApp, type TestApp, type TestKey } from '../helpers/test-app.ts';
import { askRaw, balanceOf, expectReconciled, fundedKey, NO_RATE_LIMITS, seedHeads, type Json } from '../helpers/questions.ts';
import { seedSimulatedAudiences } from '../../src/modules/audiences/audience-seed.ts';
import { SEED_AUDIENCES } from '../../src/modules/audiences/audiences.data.ts';
import { createSimulator } from '../../src/modules/panel/simulator.ts';
import { sizeBand } from '../../src/modules/draft/size-bands.ts';

/**
 * Interest audiences (issue 14; docs/audiences.md), tried as a new user would: list them with each
 * filter, open one, save a draft that names it, estimate and ask it (the price is the audience's
 * pay), see it answered only by its members and broken down by grade; and a private audience,
 * sponsored by one team, invisible to another and refused in its ask.
 */
let t: TestApp;
let teamA: TestKey;
let teamB: TestKey;
const PRIVATE = 'acme-beta-testers';

beforeAll(async () => {
  t = await createTestApp({ env: NO_RATE_LIMITS });
  await seedHeads(t, 600);
  expect(await seedSimulatedAudiences(t.db, { clock: t.clock })).toBe(SEED_AUDIENCES.length);
  teamA = await fundedKey(t, 200_000);
  teamB = await fundedKey(t, 200_000);
  // A private audience of Team A's: a dozen heads graded 1 and 2.
  const admin = t.container.audienceAdmin;
  await admin.create({
    slug: PRIVATE,
    name: 'Acme beta testers',
    description: 'People who used the Acme beta for a month, shown by their beta account.',
    category: 'tech',
    grades: [
      { name: 'Beta tester', proves: 'Used the beta for a month.', payPence: 30 },
      { name: 'Power tester', proves: 'Filed five bug reports.', payPence: 50 },
    ],
    tags: ['tech_early_adopter'],
    private: true,
  });
  await admin.setStatus(PRIVATE, 'open');
  await admin.sponsor(PRIVATE, teamA.accountId);
  const heads = await t.db.selectFrom('heads').select('id').orderBy('created_at').limit(12).execute();
  for (const [i, head] of heads.entries()) await admin.grade(PRIVATE, head.id, i < 8 ? 1 : 2);
});
afterAll(async () => {
  await t?.close();
});

async function get(url: string, key?: TestKey): Promise<{ status: number; body: Json; headers: Json }> {
  const response = await t.inject({ method: 'GET', url, headers: key?.auth ?? {} });
  return { status: response.statusCode, body: response.json(), headers: response.headers };
}

async function list(query = '', key?: TestKey): Promise<Json[]> {
  const response = await get(`/v1/interest-audiences${query}`, key);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.audiences;
}

const slugs = (audiences: Json[]) => audiences.map((a) => a.slug);
const seed = (slug: string) => SEED_AUDIENCES.find((a) => a.slug === slug)!;

async function members(slug: string, minGrade = 1): Promise<number> {
  const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM audience_members m JOIN audiences a ON a.id = m.audience_id WHERE a.slug = ${slug} AND m.grade >= ${minGrade}`.execute(t.db);
  return rows[0].n;
}

async function estimate(draft: Json, key?: TestKey): Promise<Json> {
  const response = await t.inject({ method: 'POST', url: '/v1/billing/estimate', payload: { draft }, headers: key?.auth ?? {} });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

const question = (extra: Json = {}): Json => ({
  type: 'single_choice',
  text: 'Which chalk do you reach for on a hard route?',
  options: [{ label: 'Liquid chalk' }, { label: 'Chalk ball' }, { label: 'Loose chalk' }],
  n: 10,
  ...extra,
});

async function saveDraft(key: TestKey, draft: Json): Promise<string> {
  const response = await t.inject({ method: 'POST', url: '/v1/drafts', headers: key.auth, payload: draft });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().id;
}

/** Asks a saved draft the way docs/audiences.md shows: fromDraftId plus the required draft type and text. */
function askDraft(key: TestKey, draftId: string, draft: Json = question()) {
  return askRaw(t, key, { fromDraftId: draftId, draft: { type: draft.type, text: draft.text } });
}

describe('the catalogue (GET /v1/interest-audiences)', () => {
  it('lists every open public audience with its grades, prices, band and mix, and no private one', async () => {
    const audiences = await list();
    expect(slugs(audiences).sort()).toEqual(SEED_AUDIENCES.map((a) => a.slug).sort());
    expect(slugs(audiences)).not.toContain(PRIVATE);
    const names = audiences.map((a) => a.name);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, 'en')));
    for (const audience of audiences) {
      const source = seed(audience.slug);
      expect(audience.id).toMatch(/^aud_/);
      expect(audience).toMatchObject({ status: 'open', sponsored: false, simulated: true, openToJoin: source.openToJoin, countries: source.countries, tags: source.tags, category: source.category });
      // Bands come from the real membership, never counts.
      expect(audience.sizeBand, audience.slug).toBe(sizeBand(await members(audience.slug)));
      expect(JSON.stringify(audience)).not.toContain('"members"');
      const mix = Object.values(audience.gradeMix) as number[];
      expect(mix).toHaveLength(5);
      if (await members(audience.slug)) expect(mix.reduce((s, n) => s + n, 0), audience.slug).toBe(100);
      expect(audience.grades.map((g: Json) => g.grade)).toEqual(source.grades.map((_g, i) => i + 1));
      for (const grade of audience.grades) {
        const fee = Math.max(2, Math.ceil(grade.payPence * 0.5));
        expect(grade.creditsPerAnswer).toBe(grade.payPence + fee);
      }
      // Grades without members show 0 in the mix; those beyond the audience's too.
      for (let g = audience.grades.length + 1; g <= 5; g++) expect(audience.gradeMix[`grade${g}`]).toBe(0);
    }
  });

  it('filters by q, country, lang, category and open=1, each as documented', async () => {
    expect(slugs(await list('?q=climb'))).toEqual(['rock-climbers']);
    // Words are matched in tags' labels too, whatever the case and accents.
    const nurses = await list('?q=NURSÉ register');
    expect(slugs(nurses)).toEqual(['registered-nurses']);
    const restricted = SEED_AUDIENCES.filter((a) => a.countries.length && !a.countries.includes('IN')).map((a) => a.slug);
    expect(restricted.length).toBeGreaterThan(0);
    const inIndia = slugs(await list('?country=IN'));
    for (const slug of restricted) expect(inIndia).not.toContain(slug);
    expect(inIndia.length).toBe(SEED_AUDIENCES.length - restricted.length);
    expect(slugs(await list('?country=GB'))).toEqual(expect.arrayContaining(restricted));

    const english = SEED_AUDIENCES.filter((a) => !a.languages.length || a.languages.includes('en')).length;
    expect((await list('?lang=en-GB')).length).toBe(english);
    const german = slugs(await list('?lang=de'));
    expect(german).not.toContain('registered-nurses');

    const health = await list('?category=health');
    expect(health.length).toBeGreaterThan(0);
    expect(health.every((a) => a.category === 'health')).toBe(true);
    expect(health.length).toBe(SEED_AUDIENCES.filter((a) => a.category === 'health').length);

    const open = await list('?open=1');
    expect(open.length).toBe(SEED_AUDIENCES.filter((a) => a.openToJoin).length);
    expect(open.every((a) => a.openToJoin)).toBe(true);
    const openFromIndia = slugs(await list('?open=1&country=IN'));
    expect(openFromIndia).not.toContain('registered-nurses');
    expect(openFromIndia.length).toBe(SEED_AUDIENCES.filter((a) => a.openToJoin && (!a.countries.length || a.countries.includes('IN'))).length);
  });

  it('says plainly what is wrong with a query: 400 in the error envelope', async () => {
    for (const query of ['?category=knitting', '?country=gb', '?lang=toolong', `?q=${'x'.repeat(61)}`, '?open=yes', '?mine=all', '?colour=red']) {
      const response = await get(`/v1/interest-audiences${query}`);
      expect(response.status, query).toBe(400);
      expect(response.body.error.code, query).toBe('validation_failed');
    }
  });

  it('is cacheable for everyone, and a credential with mine=asking adds the private audiences the team sponsors', async () => {
    const anonymous = await get('/v1/interest-audiences');
    expect(anonymous.headers['cache-control']).toBe('public, max-age=60');
    expect(anonymous.headers.vary).toContain('Authorization');

    const noCredential = await get('/v1/interest-audiences?mine=asking');
    expect(noCredential.status).toBe(401);
    expect(noCredential.body.error.code).toBe('unauthorized');

    const sponsor = await get('/v1/interest-audiences?mine=asking', teamA);
    expect(sponsor.status).toBe(200);
    expect(sponsor.headers['cache-control']).toBe('private, no-store');
    const mine = sponsor.body.audiences.find((a: Json) => a.slug === PRIVATE);
    expect(mine).toMatchObject({ sponsored: true, status: 'open', sizeBand: 'under_50', simulated: false, gradeMix: { grade1: 67, grade2: 33, grade3: 0, grade4: 0, grade5: 0 } });
    expect(sponsor.body.audiences).toHaveLength(SEED_AUDIENCES.length + 1);
    // Filters apply to it too.
    expect(slugs(await list('?mine=asking&q=acme', teamA))).toEqual([PRIVATE]);
    // Without mine=asking even the sponsor sees only the public list.
    expect(slugs(await list('', teamA))).not.toContain(PRIVATE);

    expect(slugs(await list('?mine=asking', teamB))).not.toContain(PRIVATE);
  });
});

describe('one audience (GET /v1/interest-audiences/{slug})', () => {
  it('shows an audience by slug or id; unknown and draft audiences are 404', async () => {
    const climbers = await get('/v1/interest-audiences/rock-climbers');
    expect(climbers.status).toBe(200);
    expect(climbers.body.audience).toMatchObject({ slug: 'rock-climbers', name: seed('rock-climbers').name, description: seed('rock-climbers').description });
    expect(climbers.body.audience.grades[0]).toMatchObject({ grade: 1, name: seed('rock-climbers').grades[0].name, proves: seed('rock-climbers').grades[0].proves });
    const byId = await get(`/v1/interest-audiences/${climbers.body.audience.id}`);
    expect(byId.body).toEqual(climbers.body);

    expect((await get('/v1/interest-audiences/no-such-audience')).status).toBe(404);
    await t.container.audienceAdmin.create({ slug: 'draft-audience', name: 'Not yet', description: 'Being set up.', category: 'arts', grades: [{ name: 'One', proves: 'Something.', payPence: 20 }] });
    const draft = await get('/v1/interest-audiences/draft-audience');
    expect(draft.status).toBe(404);
    expect(draft.body.error.code).toBe('not_found');
    expect(slugs(await list())).not.toContain('draft-audience');
    // A path that cannot be a slug names nothing: 404, as everywhere (docs/api.md).
    expect((await get('/v1/interest-audiences/bad.slug')).status).toBe(404);
  });

  it('a private audience is 404 without a credential and for another team, as if it did not exist', async () => {
    const hidden = await get(`/v1/interest-audiences/${PRIVATE}`);
    expect(hidden.status).toBe(404);
    // Never cached: the sponsor asking the same URL must not get this 404 from a cache.
    expect(hidden.headers['cache-control']).toBe('private, no-store');
    expect(hidden.headers.vary).toContain('Authorization');
    expect((await get(`/v1/interest-audiences/${PRIVATE}`, teamB)).status).toBe(404);
    const sponsor = await get(`/v1/interest-audiences/${PRIVATE}`, teamA);
    expect(sponsor.status).toBe(200);
    expect(sponsor.body.audience.sponsored).toBe(true);
    expect(sponsor.headers['cache-control']).toBe('private, no-store');
  });
});

describe('estimating an audience draft', () => {
  it("prices it at the audience's pay at the grade, with its members as the pool", async () => {
    const climbers = (await get('/v1/interest-audiences/rock-climbers')).body.audience;
    const result = await estimate(question({ interestAudienceId: 'rock-climbers', minGrade: 1 }));
    expect(result.validation).toEqual([]);
    expect(result.creditsPerAnswer).toBe(climbers.grades[0].creditsPerAnswer);
    expect(result.creditsTotal).toBe(climbers.grades[0].creditsPerAnswer * 10);
    expect(result.payPerAnswer).toBe(climbers.grades[0].payPence);
    expect(result.traits).toBe(0);
    expect(result.poolSize).toBe(await members('rock-climbers'));
    expect(result.breakdown[0].label).toContain('Rock climbers, grade 1 and above');
    const sum = result.breakdown.reduce((s: number, line: Json) => s + Number(line.value.split(' ')[0]), 0);
    expect(sum).toBe(result.creditsTotal);

    // The same price whatever the type (a written answer costs as much as a tap), by id too.
    const written = await estimate({ type: 'free_text', text: 'What makes a climbing gym feel welcoming?', n: 10, interestAudienceId: climbers.id });
    expect(written.creditsPerAnswer).toBe(climbers.grades[0].creditsPerAnswer);
    // Rush adds half of pay and fee; a bonus goes to the head on top.
    const pay = climbers.grades[0].payPence;
    const rushed = await estimate(question({ interestAudienceId: 'rock-climbers', rush: true, interestPrice: { creditsPerAnswer: 1000, bonusCredits: 5 } }));
    expect(rushed.creditsPerAnswer).toBe(climbers.grades[0].creditsPerAnswer + Math.ceil(climbers.grades[0].creditsPerAnswer * 0.5) + 5);
    expect(rushed.payPerAnswer).toBe(pay + 5);
    expect(rushed.breakdown.map((l: Json) => l.label)).toEqual(expect.arrayContaining([expect.stringContaining('Bonus to heads: 5 credits')]));
  });

  it('lists every problem with the audience in validation[] and no pool', async () => {
    const problems = async (draft: Json, key?: TestKey) => {
      const result = await estimate(draft, key);
      return Object.fromEntries(result.validation.map((v: Json) => [v.field, v.code]));
    };
    expect(await problems(question({ interestAudienceId: 'no-such-audience' }))).toEqual({ 'draft.interestAudienceId': 'unknown_value' });
    expect((await estimate(question({ interestAudienceId: 'no-such-audience' }))).poolSize).toBeNull();
    expect(await problems(question({ interestAudienceId: 'rock-climbers', targeting: { countries: ['GB'], tags: [] } }))).toEqual({ 'draft.targeting': 'not_allowed' });
    // An empty targeting is no targeting.
    expect(await problems(question({ interestAudienceId: 'rock-climbers', targeting: { countries: [], tags: [] } }))).toEqual({});
    expect(await problems(question({ minGrade: 1, interestPrice: { creditsPerAnswer: 50, bonusCredits: 0 } }))).toEqual({ 'draft.minGrade': 'not_allowed', 'draft.interestPrice': 'not_allowed' });
    expect(await problems(question({ interestAudienceId: 'rock-climbers', interestPrice: { creditsPerAnswer: 50, bonusCredits: -20 } }))).toEqual({ 'draft.interestPrice.bonusCredits': 'out_of_range' });
    expect(await problems(question({ interestAudienceId: 'rock-climbers', interestPrice: { creditsPerAnswer: 10_001, bonusCredits: 0 } }))).toEqual({ 'draft.interestPrice.creditsPerAnswer': 'out_of_range' });
    const low = await estimate(question({ interestAudienceId: 'rock-climbers', interestPrice: { creditsPerAnswer: 10, bonusCredits: 0 } }));
    expect(low.validation).toEqual([expect.objectContaining({ field: 'draft.interestPrice', code: 'not_allowed', message: expect.stringContaining('above the 10 this draft accepts') })]);
    // minGrade is 1 only (the spec's rule), reported like every rule of the estimate.
    expect(await problems(question({ interestAudienceId: 'rock-climbers', minGrade: 2 }))).toEqual({ 'draft.minGrade': 'out_of_range' });
    // A private audience: unknown without a credential or for another team, priced for its sponsor.
    expect(await problems(question({ interestAudienceId: PRIVATE }))).toEqual({ 'draft.interestAudienceId': 'unknown_value' });
    expect(await problems(question({ interestAudienceId: PRIVATE }), teamB)).toEqual({ 'draft.interestAudienceId': 'unknown_value' });
    const sponsor = await estimate(question({ interestAudienceId: PRIVATE }), teamA);
    expect(sponsor.validation).toEqual([]);
    expect(sponsor.creditsPerAnswer).toBe(30 + 15);
    expect(sponsor.poolSize).toBe(12);
  });
});

describe('asking an audience', () => {
  it('asks a saved draft at the estimated price, reaches only members, keeps their grade and breaks the result down by grade', async () => {
    const draft = question({ interestAudienceId: 'rock-climbers', minGrade: 1, interestPrice: { creditsPerAnswer: 200, bonusCredits: 2 } });
    const priced = await estimate(draft);
    const available = async () => {
      const balance = await balanceOf(t, teamA);
      return balance.credits - balance.reserved;
    };
    const before = await available();
    const draftId = await saveDraft(teamA, draft);
    const response = await askDraft(teamA, draftId, draft);
    expect(response.statusCode, response.body).toBe(201);
    const asked = response.json().question;
    const climbers = (await get('/v1/interest-audiences/rock-climbers')).body.audience;
    expect(asked).toMatchObject({ interestAudienceId: climbers.id, minGrade: 1, creditsPerAnswer: priced.creditsPerAnswer, creditsReserved: priced.creditsTotal, status: 'live' });
    expect(await available()).toBe(before - priced.creditsTotal);

    // A head outside the audience is refused; a member is taken with its grade.
    const { rows: outsiders } = await sql<{ id: string; tier: number; country: string }>`
      SELECT h.id, h.tier, h.country FROM heads h WHERE NOT EXISTS (SELECT 1 FROM audience_members m WHERE m.head_id = h.id AND m.audience_id = ${climbers.id}) ORDER BY h.created_at LIMIT 1`.execute(t.db);
    const refused = await t.container.answers.record(asked.id, { headId: outsiders[0].id, source: 'panel', tier: 1, country: outsiders[0].country }, { option: 0 });
    expect(refused).toMatchObject({ accepted: false, reason: 'not_eligible' });

    // The simulator answers it from members only.
    const simulator = createSimulator({ heads: t.container.heads, clock: t.clock, recorder: t.container.answers, answersPerMinute: 600, seed: 5 });
    for (let i = 0; i < 60 && (await t.db.selectFrom('questions').select('answered').where('id', '=', asked.id).executeTakeFirstOrThrow()).answered < 10; i++) {
      await simulator.tick(1000);
    }
    const { rows: answers } = await sql<{ head_id: string; grade: number | null; member_grade: number | null }>`
      SELECT a.head_id, a.grade, m.grade AS member_grade FROM answers a LEFT JOIN audience_members m ON m.head_id = a.head_id AND m.audience_id = ${climbers.id} WHERE a.question_id = ${asked.id}`.execute(t.db);
    expect(answers).toHaveLength(10);
    for (const row of answers) {
      expect(row.member_grade, row.head_id).not.toBeNull();
      expect(row.grade).toBe(row.member_grade);
    }

    const result = (await get(`/v2/questions/${asked.id}/result`, teamA)).body.result;
    expect(result.status).toBe('complete');
    expect(result.creditsSpent).toBe(priced.creditsTotal);
    expect(result.verificationLine).toMatch(/simulated/i);
    const grades = result.breakdowns.find((b: Json) => b.dimension === 'grade');
    expect(grades).toBeDefined();
    const byGrade = new Map<number, number>();
    for (const row of answers) byGrade.set(row.grade!, (byGrade.get(row.grade!) ?? 0) + 1);
    expect(grades.segments.map((s: Json) => [s.label, s.n])).toEqual([...byGrade.entries()].sort((a, b) => a[0] - b[0]).map(([g, n]) => [`Grade ${g}`, n]));
    for (const segment of grades.segments) expect(segment.distribution.reduce((s: number, d: Json) => s + d.count, 0)).toBe(segment.n);

    // The CSV carries each answer's grade.
    const csv = await t.inject({ method: 'GET', url: `/v2/questions/${asked.id}/export.csv`, headers: teamA.auth });
    const parsed = Papa.parse<Json>(csv.body.replace(/^\uFEFF/, ''), { header: true, skipEmptyLines: true });
    expect(parsed.data).toHaveLength(10);
    expect(parsed.data.map((r) => Number(r.grade)).sort()).toEqual(answers.map((r) => r.grade).sort());
    await expectReconciled(t);
  });

  it('a question asked with targeting has no grade breakdown', async () => {
    const response = await askRaw(t, teamA, { draft: question() });
    expect(response.statusCode, response.body).toBe(201);
    const id = response.json().question.id;
    expect(response.json().question.interestAudienceId).toBeUndefined();
    const result = (await get(`/v2/questions/${id}/result`, teamA)).body.result;
    expect(result.breakdowns.map((b: Json) => b.dimension)).toEqual(['country', 'tier', 'age_band', 'gender', 'tag']);
  });

  it('refuses a closed audience, a price the draft did not accept, and targeting beside it, spending nothing', async () => {
    await t.container.audienceAdmin.create({ slug: 'closing-soon', name: 'Closing soon', description: 'About to close.', category: 'arts', grades: [{ name: 'One', proves: 'Something.', payPence: 20 }] });
    await t.container.audienceAdmin.setStatus('closing-soon', 'closed');
    expect((await get('/v1/interest-audiences/closing-soon')).body.audience.status).toBe('closed');
    const before = await balanceOf(t, teamB);
    const cases: Array<[Json, string, string]> = [
      [question({ interestAudienceId: 'closing-soon' }), 'draft.interestAudienceId', 'not_allowed'],
      [question({ interestAudienceId: 'rock-climbers', interestPrice: { creditsPerAnswer: 5, bonusCredits: 0 } }), 'draft.interestPrice', 'not_allowed'],
      [question({ interestAudienceId: 'rock-climbers', targeting: { countries: ['GB'], tags: [] } }), 'draft.targeting', 'not_allowed'],
    ];
    for (const [draft, field, code] of cases) {
      const response = await askDraft(teamB, await saveDraft(teamB, draft), draft);
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json().error.details.validation).toEqual([expect.objectContaining({ field, code })]);
    }
    // Targeting given in the ask's own draft over an audience draft is refused the same way.
    const overridden = await askRaw(t, teamB, { fromDraftId: await saveDraft(teamB, question({ interestAudienceId: 'rock-climbers' })), draft: { type: 'single_choice', text: question().text, targeting: { countries: ['GB'], tags: [] } } });
    expect(overridden.statusCode).toBe(400);
    expect(await balanceOf(t, teamB)).toEqual(before);
  });

  it("a private audience: another team's ask is refused as unknown and spends nothing; the sponsor's is taken", async () => {
    const draft = question({ interestAudienceId: PRIVATE });
    const before = await balanceOf(t, teamB);
    const refused = await askDraft(teamB, await saveDraft(teamB, draft), draft);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.details.validation).toEqual([expect.objectContaining({ field: 'draft.interestAudienceId', code: 'unknown_value' })]);
    expect(JSON.stringify(refused.json())).not.toContain('Acme');
    expect(await balanceOf(t, teamB)).toEqual(before);

    const taken = await askDraft(teamA, await saveDraft(teamA, draft), draft);
    expect(taken.statusCode, taken.body).toBe(201);
    expect(taken.json().question).toMatchObject({ creditsPerAnswer: 45, minGrade: 1 });
    // A variant asks the same audience again, to other members.
    const variant = await askRaw(t, teamA, { variantOf: taken.json().question.id, draft: { type: 'single_choice', text: 'Which chalk would you buy next?' } });
    expect(variant.statusCode, variant.body).toBe(201);
    expect(variant.json().question).toMatchObject({ interestAudienceId: taken.json().question.interestAudienceId, creditsPerAnswer: 45 });
  });

  it('refuses a private question for an audience (it is answered through its link only)', async () => {
    const draft = question({ interestAudienceId: 'rock-climbers' });
    const response = await askRaw(t, teamA, { fromDraftId: await saveDraft(teamA, draft), draft: { type: draft.type, text: draft.text }, privateDeclaration: { recipients: 10 } });
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().error.details.validation).toEqual(expect.arrayContaining([expect.objectContaining({ field: 'privateDeclaration', code: 'not_allowed' })]));
  });
});

describe('running audiences (admin)', () => {
  it('grading a member stamps the audience tags on the head; bad grades and unknown heads are refused', async () => {
    const admin = t.container.audienceAdmin;
    const head = await t.db.selectFrom('heads').select(['id', 'tags']).where(sql<boolean>`NOT ('pet_cat' = ANY(tags))`).orderBy('created_at', 'desc').executeTakeFirstOrThrow();
    await admin.create({ slug: 'cat-people', name: 'Cat people', description: 'Showed vet records for a cat.', category: 'pets', grades: [{ name: 'Cat owner', proves: 'Vet record.', payPence: 20 }], tags: ['pet_cat'] });
    expect(await admin.grade('cat-people', head.id, 1)).toMatchObject({ grade: 1, previousGrade: null });
    const after = await t.db.selectFrom('heads').select('tags').where('id', '=', head.id).executeTakeFirstOrThrow();
    expect(after.tags).toEqual(expect.arrayContaining([...head.tags, 'pet_cat']));
    await expect(admin.grade('cat-people', head.id, 2)).rejects.toMatchObject({ code: 'validation_failed' });
    await expect(admin.grade('cat-people', 'hd_nobody', 1)).rejects.toMatchObject({ code: 'not_found' });
    await expect(admin.sponsor('rock-climbers', teamB.accountId)).rejects.toMatchObject({ code: 'conflict' });
    await expect(admin.create({ slug: 'Bad Slug', name: '', description: 'x', category: 'knitting', grades: [] })).rejects.toMatchObject({ code: 'validation_failed' });
    expect(await admin.grade('cat-people', head.id, null)).toMatchObject({ grade: null });
    expect(await members('cat-people')).toBe(0);
  });
});

describe('the simulated audiences seed (development start-up)', () => {
  it('seeds once: a second start finds its marker and adds nothing', async () => {
    const count = async () => Number((await t.db.selectFrom('audience_members').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    const before = await count();
    expect(await seedSimulatedAudiences(t.db, { clock: t.clock })).toBe(0);
    expect(await count()).toBe(before);
  });

  it('on a database without a panel it seeds nothing, and seeds once a panel exists', async () => {
    const fresh = await createTestApp({ env: NO_RATE_LIMITS });
    try {
      expect(await seedSimulatedAudiences(fresh.db, { clock: fresh.clock })).toBe(0);
      expect(await fresh.db.selectFrom('audiences').select('id').execute()).toEqual([]);
      await seedHeads(fresh, 300);
      expect(await seedSimulatedAudiences(fresh.db, { clock: fresh.clock })).toBe(SEED_AUDIENCES.length);
      expect(await seedSimulatedAudiences(fresh.db, { clock: fresh.clock })).toBe(0);
    } finally {
      await fresh.close();
    }
  });
});
