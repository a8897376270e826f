import type { FastifyReply } from 'fastify';
import { AppError } from '../../../lib/errors.ts';
import { MEMBER_ROLES, type MemberRole } from '../../../lib/actor.ts';
import { CURRENCIES, type Currency } from '../../../lib/currencies.ts';
import { TEAM_LIMITS } from '../../../modules/teams/teams.schemas.ts';
import { buttonForm, csrfField, escapeHtml, fill, formatters, notice } from '../portal-html.ts';
import { formField, queryParam, type PageRequest, type PortalPages } from '../portal-kit.ts';
import type { PortalContext } from '../portal-context.ts';
import type { PortalStrings } from '../strings/index.ts';


const roleLabel = (s: PortalStrings, role: string) => s[`role_${role}` as keyof PortalStrings] ?? role;
const isRole = (value: unknown): value is MemberRole => (MEMBER_ROLES as readonly unknown[]).includes(value);
const rank = (role: MemberRole) => MEMBER_ROLES.indexOf(role);

/**
 * The team (`/app/team`): on a personal account, making a team; on a team, its members with
 * their roles (owners change them), removing and leaving, inviting by email and the invitations
 * sent. `/app/invitations` is where an invited person accepts; `/app/switch` is the account
 * switcher of every page's header. What a role may do is the service's rule (teams.service.ts);
 * the page only leaves out the buttons that would be refused.
 */
export const teamPages: PortalPages = (app, kit) => {
  const routes = kit.routes(app);
  const { teams, sessions } = kit.deps;

  async function teamPage(request: PageRequest, reply: FastifyReply, ctx: PortalContext, shown: { error?: string; done?: boolean; status?: number } = {}) {
    const { s, acting } = ctx;
    const f = formatters(ctx.lang);
    const csrf = kit.csrf(reply);
    const teamsOf = ctx.accounts.filter((a) => !a.personal);
    const makeTeam = `<section class="card" aria-labelledby="make-team"><h2 id="make-team">${escapeHtml(s.makeTeam)}</h2>
<form method="post" action="/app/teams" class="stack">${csrfField(csrf)}
<label for="team-name">${escapeHtml(s.teamName)}</label><input id="team-name" name="name" required maxlength="${TEAM_LIMITS.name}">
<label for="team-currency">${escapeHtml(s.currency)}</label><select id="team-currency" name="currency">${CURRENCIES.map((c) => `<option${c === acting.currency ? ' selected' : ''}>${c}</option>`).join('')}</select>
<button type="submit" class="button">${escapeHtml(s.makeTeam)}</button>
</form></section>`;
    const status = shown.error ? notice('error', shown.error) : shown.done ? notice('ok', s.done) : '';
    if (shown.status) reply.status(shown.status);
    if (acting.personal) {
      const list = teamsOf.length
        ? `<section class="card"><h2>${escapeHtml(s.yourTeams)}</h2><ul class="rows">${teamsOf
            .map((t) => `<li class="row"><strong>${escapeHtml(t.name)}</strong> <span class="muted">${escapeHtml(roleLabel(s, t.role))}</span>${buttonForm({ action: '/app/switch', csrf, label: s.switchAccount, hidden: { account: t.accountId, next: '/app/team' } })}</li>`)
            .join('\n')}</ul></section>`
        : '';
      return kit.page(request, reply, ctx, s.teamTitle, `${status}<p class="lead">${escapeHtml(s.personalTeamLead)}</p>\n${list}\n${makeTeam}`);
    }
    const { members, invitations } = await teams.members(ctx.actor, acting.accountId);
    const mine = acting.role;
    const memberRows = members.map((m) => {
      const self = m.personId === ctx.person.id;
      const controls: string[] = [];
      if (mine === 'owner') {
        controls.push(`<form method="post" action="/app/team/members/${escapeHtml(m.personId)}/role" class="inline-form">${csrfField(csrf)}<label class="visually-hidden" for="role-${escapeHtml(m.personId)}">${escapeHtml(s.changeRole)}</label><select id="role-${escapeHtml(m.personId)}" name="role">${MEMBER_ROLES.map((r) => `<option value="${r}"${r === m.role ? ' selected' : ''}>${escapeHtml(roleLabel(s, r))}</option>`).join('')}</select><button type="submit" class="button secondary small">${escapeHtml(s.save)}</button></form>`);
      }
      if (self) controls.push(buttonForm({ action: `/app/team/members/${m.personId}/remove`, csrf, label: s.leave, style: 'danger' }));
      else if (rank(mine) >= rank('admin') && (m.role !== 'owner' || mine === 'owner')) controls.push(buttonForm({ action: `/app/team/members/${m.personId}/remove`, csrf, label: s.remove, style: 'danger' }));
      return `<li class="row"><strong>${escapeHtml(m.name ?? m.email)}</strong>${self ? ` <span class="muted">(${escapeHtml(s.you)})</span>` : ''} <span class="status-pill">${escapeHtml(roleLabel(s, m.role))}</span>
${m.name ? `<span class="row-meta">${escapeHtml(m.email)}</span>` : ''}
${controls.join('\n')}</li>`;
    });
    const canInvite = rank(mine) >= rank('admin');
    const invited = invitations.map(
      (i) => `<li class="row"><strong>${escapeHtml(i.email)}</strong><span class="row-meta">${escapeHtml(s.invitedAs.replace('{role}', roleLabel(s, i.role)).replace('{date}', f.date(i.expiresAt)))}</span>${canInvite ? buttonForm({ action: `/app/team/invitations/${i.id}/withdraw`, csrf, label: s.withdraw }) : ''}</li>`,
    );
    const inviteForm = canInvite
      ? `<section class="card" aria-labelledby="invite"><h2 id="invite">${escapeHtml(s.inviteSomeone)}</h2>
<form method="post" action="/app/team/invite" class="stack">${csrfField(csrf)}
<label for="invite-email">${escapeHtml(s.emailLabel)}</label><input id="invite-email" name="email" type="email" required maxlength="254" autocomplete="off">
<label for="invite-role">${escapeHtml(s.inviteRole)}</label><select id="invite-role" name="role">${MEMBER_ROLES.filter((r) => r !== 'owner' || mine === 'owner').map((r) => `<option value="${r}"${r === 'member' ? ' selected' : ''}>${escapeHtml(roleLabel(s, r))}</option>`).join('')}</select>
<button type="submit" class="button">${escapeHtml(s.invite)}</button>
</form>
${invited.length ? `<h3>${escapeHtml(s.invitationsOpen)}</h3><ul class="rows">${invited.join('\n')}</ul>` : ''}</section>`
      : '';
    return kit.page(
      request,
      reply,
      ctx,
      `${s.teamTitle}: ${acting.name}`,
      `${status}<p class="lead">${escapeHtml(s.roleHelp)}</p>
<section class="card" aria-labelledby="members"><h2 id="members">${escapeHtml(s.members)}</h2><ul class="rows">${memberRows.join('\n')}</ul></section>
${inviteForm}
${makeTeam}`,
    );
  }

  /** Runs a team change; its refusal (a role that may not, the last owner) is shown on the team page. */
  async function change(request: PageRequest, reply: FastifyReply, ctx: PortalContext, work: () => Promise<unknown>, after = '/app/team?done=1') {
    try {
      await work();
    } catch (error) {
      if (!(error instanceof AppError) || error.status >= 500 || error.code === 'not_found') throw error;
      return teamPage(request, reply, ctx, { error: error.message, status: error.status });
    }
    return reply.redirect(after, 303);
  }

  routes.get('/team', async (request, reply, ctx) => {
    return teamPage(request, reply, ctx, { done: queryParam(request, 'done') === '1' });
  });

  routes.post('/teams', async (request, reply, ctx) => {
    const chosen = formField(request, 'currency');
    const currency = (CURRENCIES as readonly string[]).includes(chosen) ? (chosen as Currency) : ctx.acting.currency;
    try {
      const name = formField(request, 'name').trim();
      if (!name) throw new AppError('validation_failed', `${ctx.s.teamName}?`);
      const team = await teams.create(ctx.actor, { name: name.slice(0, TEAM_LIMITS.name), currency });
      // The new team is where the person wants to be next: the pages act for it.
      await sessions.chooseAccount(ctx.actor, team.accountId);
      return reply.redirect('/app/team?done=1', 303);
    } catch (error) {
      if (!(error instanceof AppError) || error.status >= 500) throw error;
      return teamPage(request, reply, ctx, { error: error.message, status: error.status });
    }
  });

  routes.post('/team/invite', async (request, reply, ctx) =>
    change(request, reply, ctx, () => teams.invite(ctx.actor, ctx.acting.accountId, { email: formField(request, 'email'), role: isRole(formField(request, 'role')) ? (formField(request, 'role') as MemberRole) : 'member' })),
  );

  routes.post('/team/invitations/:id/withdraw', async (request, reply, ctx) => change(request, reply, ctx, () => teams.withdraw(ctx.actor, ctx.acting.accountId, request.params.id)));

  routes.post('/team/members/:personId/role', async (request, reply, ctx) =>
    change(request, reply, ctx, async () => {
      const role = formField(request, 'role');
      if (!isRole(role)) throw new AppError('validation_failed', ctx.s.changeRole);
      return teams.setRole(ctx.actor, ctx.acting.accountId, request.params.personId, role);
    }),
  );

  // Leaving a team ends acting for it: the overview of the personal account is next.
  routes.post('/team/members/:personId/remove', async (request, reply, ctx) =>
    change(request, reply, ctx, () => teams.remove(ctx.actor, ctx.acting.accountId, request.params.personId), ctx.person.id === request.params.personId ? '/app' : '/app/team?done=1'),
  );

  routes.get('/invitations', async (request, reply, ctx) => {
    const { s } = ctx;
    const f = formatters(ctx.lang);
    const csrf = kit.csrf(reply);
    const invitations = await teams.invitationsForMe(ctx.actor);
    const rows = invitations.map(
      (i) => `<li class="row"><p>${escapeHtml(s.invitedBy.replace('{name}', i.invitedBy.name).replace('{team}', i.teamName).replace('{role}', roleLabel(s, i.role)))}</p>
<span class="row-meta">${escapeHtml(f.date(i.expiresAt))}</span>
${buttonForm({ action: `/app/invitations/${i.id}/accept`, csrf, label: s.accept, style: 'primary' })} ${buttonForm({ action: `/app/invitations/${i.id}/decline`, csrf, label: s.decline })}</li>`,
    );
    return kit.page(request, reply, ctx, s.invitationsTitle, rows.length ? `<ul class="rows">${rows.join('\n')}</ul>` : `<p>${fill(s.invitationsEmpty, { email: ctx.person.email })}</p>`);
  });

  routes.post('/invitations/:id/accept', async (request, reply, ctx) => {
    const joined = await teams.accept(ctx.actor, request.params.id);
    await sessions.chooseAccount(ctx.actor, joined.accountId);
    return reply.redirect('/app/team', 303);
  });

  routes.post('/invitations/:id/decline', async (request, reply, ctx) => {
    await teams.decline(ctx.actor, request.params.id);
    return reply.redirect('/app/invitations', 303);
  });

  routes.post('/switch', async (request, reply, ctx) => {
    await sessions.chooseAccount(ctx.actor, formField(request, 'account'));
    const next = formField(request, 'next');
    return reply.redirect(next === '/app/team' ? '/app/team' : '/app', 303);
  });
};
