import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { lastMailTo, newEmail, signIn, type SignedInPerson } from '../helpers/people.ts';
import { choiceDraft, grant, NO_RATE_LIMITS, seedHeads, expectReconciled } from '../helpers/questions.ts';

/**
 * Teams (issue 10 point 3; docs/teams.md): a person makes a team, invites people by email, sets
 * roles and removes members; the last owner cannot leave; questions asked on a team account carry
 * teamId and askedBy (the person, or the key's name); everything account-scoped checks membership.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: NO_RATE_LIMITS });
  await seedHeads(t, 20);
});
afterAll(async () => {
  await t?.close();
});

type Headers = Record<string, string>;
const errorOf = (response: LightMyRequestResponse) => response.json().error;
const get = (url: string, headers: Headers) => t.inject({ url, headers });
const post = (url: string, headers: Headers, payload: object = {}) => t.inject({ method: 'POST', url, headers, payload });
const patch = (url: string, headers: Headers, payload: object) => t.inject({ method: 'PATCH', url, headers, payload });
const del = (url: string, headers: Headers) => t.inject({ method: 'DELETE', url, headers });

async function makeTeam(owner: SignedInPerson, name = 'Ada Labs', currency = 'EUR'): Promise<string> {
  const response = await post('/v1/teams', owner.auth, { name, currency });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().account.accountId;
}

/** Invites `email` as `role` and has that person sign in and accept; returns them. */
async function join(team: string, by: SignedInPerson, role: 'owner' | 'admin' | 'member', email = newEmail()): Promise<SignedInPerson> {
  const invited = await post(`/v1/accounts/${team}/invitations`, by.auth, { email, role });
  expect(invited.statusCode, invited.body).toBe(201);
  const person = await signIn(t, email);
  const id = (await get('/v1/invitations', person.auth)).json().invitations.find((i: { accountId: string }) => i.accountId === team).id;
  const accepted = await post(`/v1/invitations/${id}/accept`, person.auth);
  expect(accepted.statusCode, accepted.body).toBe(200);
  return person;
}

const askAs = (headers: Headers, draft = choiceDraft()) => t.inject({ method: 'POST', url: '/v2/questions', headers: { ...headers, 'idempotency-key': randomUUID() }, payload: { draft } });

describe('making a team and inviting people', () => {
  it('the maker owns it; an invitation is emailed, listed for the invited address, and accepting makes a member', async () => {
    const ada = await signIn(t);
    const team = await makeTeam(ada, 'Ada Labs', 'EUR');
    const me = (await get('/v1/me', ada.auth)).json();
    expect(me.accounts).toEqual([
      expect.objectContaining({ accountId: ada.personalAccountId, personal: true, role: 'owner' }),
      { accountId: team, name: 'Ada Labs', kind: 'team', currency: 'EUR', role: 'owner', personal: false },
    ]);
    // The team is an account of its own: its balance, in its currency, through the header.
    expect((await get('/v1/billing/balance', ada.as(team))).json()).toMatchObject({ credits: 0, currency: 'EUR' });

    const bobEmail = newEmail('bob');
    const invited = await post(`/v1/accounts/${team}/invitations`, ada.auth, { email: bobEmail.toUpperCase(), role: 'member' });
    expect(invited.statusCode).toBe(201);
    expect(invited.json().invitation).toMatchObject({ accountId: team, email: bobEmail, role: 'member', invitedBy: ada.personId });
    const mail = lastMailTo(t, bobEmail);
    expect(mail.subject).toContain('Ada Labs');
    expect(mail.text).toContain(`${t.config.publicBaseUrl}/app/invitations`);

    const bob = await signIn(t, bobEmail);
    const waiting = (await get('/v1/invitations', bob.auth)).json().invitations;
    expect(waiting).toEqual([{ id: invited.json().invitation.id, accountId: team, teamName: 'Ada Labs', role: 'member', invitedBy: { id: ada.personId, name: ada.email }, expiresAt: expect.any(String) }]);
    // Before accepting, Bob is no member.
    expect((await get('/v1/billing/balance', bob.as(team))).statusCode).toBe(403);
    expect((await get(`/v1/accounts/${team}/members`, bob.auth)).statusCode).toBe(404);

    const accepted = await post(`/v1/invitations/${waiting[0].id}/accept`, bob.auth);
    expect(accepted.json().account).toMatchObject({ accountId: team, role: 'member', kind: 'team' });
    expect((await get('/v1/billing/balance', bob.as(team))).statusCode).toBe(200);
    const members = (await get(`/v1/accounts/${team}/members`, bob.auth)).json();
    expect(members.members.map((m: { email: string; role: string }) => [m.email, m.role])).toEqual([[ada.email, 'owner'], [bobEmail, 'member']]);
    expect(members.invitations).toEqual([]);
    // Used: accepting again is nothing.
    expect((await post(`/v1/invitations/${waiting[0].id}/accept`, bob.auth)).statusCode).toBe(404);
  });

  it('an invitation is for its address only, ends after 14 days, can be declined, withdrawn, or replaced', async () => {
    const ada = await signIn(t);
    const team = await makeTeam(ada);
    const target = newEmail('target');
    const first = (await post(`/v1/accounts/${team}/invitations`, ada.auth, { email: target, role: 'member' })).json().invitation;
    // Someone else who got hold of the id cannot use it.
    const mallory = await signIn(t);
    expect((await post(`/v1/invitations/${first.id}/accept`, mallory.auth)).statusCode).toBe(404);
    // Inviting again replaces it (one open invitation per address).
    const second = (await post(`/v1/accounts/${team}/invitations`, ada.auth, { email: target, role: 'admin' })).json().invitation;
    const open = (await get(`/v1/accounts/${team}/members`, ada.auth)).json().invitations;
    expect(open.map((i: { id: string }) => i.id)).toEqual([second.id]);
    const person = await signIn(t, target);
    expect((await post(`/v1/invitations/${first.id}/accept`, person.auth)).statusCode).toBe(404);
    expect((await post(`/v1/invitations/${second.id}/decline`, person.auth)).statusCode).toBe(200);
    expect((await get('/v1/invitations', person.auth)).json().invitations).toEqual([]);

    const third = (await post(`/v1/accounts/${team}/invitations`, ada.auth, { email: target, role: 'member' })).json().invitation;
    expect((await del(`/v1/accounts/${team}/invitations/${third.id}`, ada.auth)).statusCode).toBe(200);
    expect((await post(`/v1/invitations/${third.id}/accept`, person.auth)).statusCode).toBe(404);

    const fourth = (await post(`/v1/accounts/${team}/invitations`, ada.auth, { email: target, role: 'member' })).json().invitation;
    t.clock.advance(14 * 24 * 3600_000 + 1000);
    const fresh = await signIn(t, target);
    expect((await post(`/v1/invitations/${fourth.id}/accept`, fresh.auth)).statusCode).toBe(404);
  });

  it('a personal account takes no invitations; a member cannot be invited twice', async () => {
    const ada = await signIn(t);
    const refused = await post(`/v1/accounts/${ada.personalAccountId}/invitations`, ada.auth, { email: newEmail(), role: 'member' });
    expect(refused.statusCode).toBe(409);
    expect(errorOf(refused).details).toEqual({ reason: 'personal_account' });
    const team = await makeTeam(ada);
    const again = await post(`/v1/accounts/${team}/invitations`, ada.auth, { email: ada.email, role: 'member' });
    expect(errorOf(again).details).toEqual({ reason: 'already_member' });
  });
});

describe('roles', () => {
  it('members see the team but cannot invite, make keys or change roles; admins invite members and admins but not owners', async () => {
    const owner = await signIn(t);
    const team = await makeTeam(owner);
    const admin = await join(team, owner, 'admin');
    const member = await join(team, owner, 'member');

    expect((await get(`/v1/accounts/${team}/members`, member.auth)).statusCode).toBe(200);
    expect((await post(`/v1/accounts/${team}/invitations`, member.auth, { email: newEmail(), role: 'member' })).statusCode).toBe(403);
    expect((await post('/v1/keys', member.as(team), { name: 'mine', scopes: ['account:read'], dailyCapCredits: null })).statusCode).toBe(403);
    expect((await get('/v1/keys', member.as(team))).statusCode).toBe(200);
    expect((await patch(`/v1/accounts/${team}/members/${admin.personId}`, member.auth, { role: 'member' })).statusCode).toBe(403);

    expect((await post(`/v1/accounts/${team}/invitations`, admin.auth, { email: newEmail(), role: 'admin' })).statusCode).toBe(201);
    const ownerInvite = await post(`/v1/accounts/${team}/invitations`, admin.auth, { email: newEmail(), role: 'owner' });
    expect(ownerInvite.statusCode).toBe(403);
    expect(errorOf(ownerInvite).message).toMatch(/invite owners/);
    expect((await post('/v1/keys', admin.as(team), { name: 'CI', scopes: ['questions:read'], dailyCapCredits: 500 })).statusCode).toBe(201);
    // Only owners change roles; admins cannot remove owners.
    expect((await patch(`/v1/accounts/${team}/members/${member.personId}`, admin.auth, { role: 'admin' })).statusCode).toBe(403);
    expect((await del(`/v1/accounts/${team}/members/${owner.personId}`, admin.auth)).statusCode).toBe(403);
    const promoted = await patch(`/v1/accounts/${team}/members/${member.personId}`, owner.auth, { role: 'admin' });
    expect(promoted.json().member).toMatchObject({ personId: member.personId, role: 'admin' });
  });

  it('the last owner cannot leave or step down; with a second owner they can', async () => {
    const owner = await signIn(t);
    const team = await makeTeam(owner);
    const stepDown = await patch(`/v1/accounts/${team}/members/${owner.personId}`, owner.auth, { role: 'admin' });
    expect(stepDown.statusCode).toBe(409);
    expect(errorOf(stepDown).details).toEqual({ reason: 'last_owner' });
    expect(errorOf(await del(`/v1/accounts/${team}/members/${owner.personId}`, owner.auth)).details).toEqual({ reason: 'last_owner' });

    const second = await join(team, owner, 'owner');
    expect((await del(`/v1/accounts/${team}/members/${owner.personId}`, owner.auth)).statusCode).toBe(200);
    expect((await get(`/v1/accounts/${team}/members`, owner.auth)).statusCode).toBe(404);
    expect((await get('/v1/billing/balance', owner.as(team))).statusCode).toBe(403);
    expect(errorOf(await del(`/v1/accounts/${team}/members/${second.personId}`, second.auth)).details).toEqual({ reason: 'last_owner' });
  });

  it('two owners stepping down at once leave one owner', async () => {
    const a = await signIn(t);
    const team = await makeTeam(a);
    const b = await join(team, a, 'owner');
    const [x, y] = await Promise.all([
      patch(`/v1/accounts/${team}/members/${a.personId}`, a.auth, { role: 'member' }),
      patch(`/v1/accounts/${team}/members/${b.personId}`, b.auth, { role: 'member' }),
    ]);
    expect([x.statusCode, y.statusCode].sort()).toEqual([200, 409]);
    const owners = (await get(`/v1/accounts/${team}/members`, a.auth)).json().members.filter((m: { role: string }) => m.role === 'owner');
    expect(owners).toHaveLength(1);
  });

  it('a removed member loses the team at once, on the API and as the portal\'s chosen account', async () => {
    const owner = await signIn(t);
    const team = await makeTeam(owner);
    const member = await join(team, owner, 'member');
    await t.container.sessions.chooseAccount({ accountId: member.personalAccountId, keyId: null, scopes: [], dailyCapCredits: null, session: { id: member.sessionId, personId: member.personId, role: 'member' } }, team);
    expect((await t.container.sessions.authenticate(member.token, { portal: true })).accountId).toBe(team);
    expect((await del(`/v1/accounts/${team}/members/${member.personId}`, owner.auth)).statusCode).toBe(200);
    expect((await get('/v1/billing/balance', member.as(team))).statusCode).toBe(403);
    // The portal falls back to the person's own account rather than locking them out.
    expect((await t.container.sessions.authenticate(member.token, { portal: true })).accountId).toBe(member.personalAccountId);
  });
});

describe('questions on a team account', () => {
  it('carry teamId and askedBy: the person who asked, or the key', async () => {
    const ada = await signIn(t);
    const team = await makeTeam(ada, 'Research', 'GBP');
    const bob = await join(team, ada, 'member');
    await grant(t, team, 10_000);

    const byBob = await askAs(bob.as(team));
    expect(byBob.statusCode, byBob.body).toBe(201);
    expect(byBob.json().question).toMatchObject({ teamId: team, askedBy: { id: bob.personId, name: bob.email }, source: 'api' });
    await patch('/v1/me', bob.auth, { name: 'Bob Builder' });
    expect((await get(`/v2/questions/${byBob.json().question.id}`, ada.as(team))).json().question.askedBy).toEqual({ id: bob.personId, name: 'Bob Builder' });

    const made = (await post('/v1/keys', ada.as(team), { name: 'Research agent', scopes: ['questions:read', 'questions:write'], dailyCapCredits: null })).json();
    const byKey = await askAs({ authorization: `Bearer ${made.secret}` });
    expect(byKey.json().question).toMatchObject({ teamId: team, askedBy: { id: made.key.id, name: 'Research agent' } });

    // Everyone on the team sees both; `mine` is the person's own.
    const all = (await get('/v2/questions', ada.as(team))).json().questions.map((q: { id: string }) => q.id);
    expect(all).toEqual(expect.arrayContaining([byBob.json().question.id, byKey.json().question.id]));
    const mine = (await get('/v2/questions?mine=true', bob.as(team))).json().questions.map((q: { id: string }) => q.id);
    expect(mine).toEqual([byBob.json().question.id]);
    // A question on a personal account has no teamId.
    await grant(t, ada.personalAccountId, 1000);
    expect((await askAs(ada.auth)).json().question).toMatchObject({ teamId: null, askedBy: { id: ada.personId } });
    // And the team's credits paid for the team's questions.
    expect((await get('/v1/billing/balance', bob.as(team))).json().reserved).toBe(240);
    await expectReconciled(t);
  });

  it('a person who is not a member cannot touch the team\'s questions, even with the id', async () => {
    const ada = await signIn(t);
    const team = await makeTeam(ada);
    await grant(t, team, 1000);
    const id = (await askAs(ada.as(team))).json().question.id;
    const eve = await signIn(t);
    expect((await get(`/v2/questions/${id}`, eve.auth)).statusCode).toBe(404);
    expect((await get(`/v2/questions/${id}`, eve.as(team))).statusCode).toBe(403);
    expect((await post(`/v2/questions/${id}/cancel`, eve.auth)).statusCode).toBe(404);
  });
});
