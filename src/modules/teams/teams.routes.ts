import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { Closed, IdParams, RefOf } from '../../lib/typebox.ts';
import { actorOf, PORTAL_SESSION_ONLY } from '../../http/auth.ts';
import { errorResponse } from '../../http/responses.ts';
import { MembershipSchema } from '../people/people.schemas.ts';
import type { TeamsService } from './teams.service.ts';
import {
  AccountAndInvitationParams,
  AccountAndPersonParams,
  CreateTeamBodySchema,
  InvitationForMeSchema,
  InvitationSchema,
  InviteBodySchema,
  MembersSchema,
  MemberSchema,
  RoleBodySchema,
} from './teams.schemas.ts';

const TAG = ['Teams'];
const Ok = Closed({ ok: Type.Literal(true) });
const PERSONAL = errorResponse('A personal account has one member (`conflict`, `details.reason` `personal_account`), or the address is already a member (`already_member`).');
const LAST_OWNER = errorResponse('The team would have no owner left (`conflict`, `details.reason` `last_owner`).');
const ROLES = 'Members see the team; admins also invite, withdraw invitations and remove members; owners also change roles and remove anyone. The last owner cannot leave or step down (409 `conflict`).';

export function teamsRoutes(deps: { teams: TeamsService }): FastifyPluginAsync {
  const { teams } = deps;
  return async (base) => {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();

    app.post('/v1/teams', {
      config: PORTAL_SESSION_ONLY,
      schema: {
        operationId: 'createTeam',
        tags: TAG,
        summary: 'Make a team account, owned by the signed-in person',
        description: 'Questions, keys, credits and webhooks of a team belong to the team. Act for it with the `Headcount-Account` header.',
        body: CreateTeamBodySchema,
        response: { 201: Closed({ account: RefOf(MembershipSchema) }) },
      },
    }, async (request, reply) => reply.status(201).send({ account: await teams.create(actorOf(request), request.body) }));

    app.get('/v1/accounts/:id/members', {
      config: PORTAL_SESSION_ONLY,
      schema: { operationId: 'listMembers', tags: TAG, summary: "An account's members and open invitations", description: ROLES, params: IdParams, response: { 200: MembersSchema } },
    }, async (request) => teams.members(actorOf(request), request.params.id));

    app.post('/v1/accounts/:id/invitations', {
      config: PORTAL_SESSION_ONLY,
      schema: {
        operationId: 'inviteMember',
        tags: TAG,
        summary: 'Invite an email address into a team, with a role',
        description: `The address gets an email; the person accepts after signing in with it. Invitations last 14 days; inviting again replaces the open one. ${ROLES}`,
        params: IdParams,
        body: InviteBodySchema,
        response: { 201: Closed({ invitation: RefOf(InvitationSchema) }), 409: PERSONAL },
      },
    }, async (request, reply) => reply.status(201).send({ invitation: await teams.invite(actorOf(request), request.params.id, request.body) }));

    app.delete('/v1/accounts/:id/invitations/:invitationId', {
      config: PORTAL_SESSION_ONLY,
      schema: { operationId: 'withdrawInvitation', tags: TAG, summary: 'Withdraw an open invitation', params: AccountAndInvitationParams, response: { 200: Ok, 409: PERSONAL } },
    }, async (request) => {
      await teams.withdraw(actorOf(request), request.params.id, request.params.invitationId);
      return { ok: true as const };
    });

    app.patch('/v1/accounts/:id/members/:personId', {
      config: PORTAL_SESSION_ONLY,
      schema: { operationId: 'setMemberRole', tags: TAG, summary: "Change a member's role (owners only)", description: ROLES, params: AccountAndPersonParams, body: RoleBodySchema, response: { 200: Closed({ member: RefOf(MemberSchema) }), 409: LAST_OWNER } },
    }, async (request) => ({ member: await teams.setRole(actorOf(request), request.params.id, request.params.personId, request.body.role) }));

    app.delete('/v1/accounts/:id/members/:personId', {
      config: PORTAL_SESSION_ONLY,
      schema: { operationId: 'removeMember', tags: TAG, summary: 'Remove a member, or leave the team with your own person id', description: ROLES, params: AccountAndPersonParams, response: { 200: Ok, 409: LAST_OWNER } },
    }, async (request) => {
      await teams.remove(actorOf(request), request.params.id, request.params.personId);
      return { ok: true as const };
    });

    app.get('/v1/invitations', {
      config: PORTAL_SESSION_ONLY,
      schema: { operationId: 'listMyInvitations', tags: TAG, summary: "Open invitations to the signed-in person's address", response: { 200: Closed({ invitations: Type.Array(RefOf(InvitationForMeSchema)) }) } },
    }, async (request) => ({ invitations: await teams.invitationsForMe(actorOf(request)) }));

    app.post('/v1/invitations/:id/accept', {
      config: PORTAL_SESSION_ONLY,
      schema: { operationId: 'acceptInvitation', tags: TAG, summary: 'Join the team of an invitation to your address', params: IdParams, response: { 200: Closed({ account: RefOf(MembershipSchema) }) } },
    }, async (request) => ({ account: await teams.accept(actorOf(request), request.params.id) }));

    app.post('/v1/invitations/:id/decline', {
      config: PORTAL_SESSION_ONLY,
      schema: { operationId: 'declineInvitation', tags: TAG, summary: 'Decline an invitation to your address', params: IdParams, response: { 200: Ok } },
    }, async (request) => {
      await teams.decline(actorOf(request), request.params.id);
      return { ok: true as const };
    });
  };
}
