import { AppError } from '../../../lib/errors.ts';
import { QUESTION_LANGUAGES, type QuestionLanguage } from '../../../modules/draft/question-types.ts';
import { buttonForm, csrfField, escapeHtml, fill, formatters, LANGUAGE_NAMES, notice } from '../portal-html.ts';
import { formField, queryParam, type PortalPages } from '../portal-kit.ts';


/**
 * The person's own account (`/app/account`): their name (shown to teams and in `askedBy`), the
 * language of the portal and their mail, and where they are signed in, with a way to end any of
 * those sessions (a lost phone) or all the others at once.
 */
export const accountPages: PortalPages = (app, kit) => {
  const routes = kit.routes(app);
  const { people, sessions } = kit.deps;

  routes.get('/account', async (request, reply, ctx) => {
    const { s, person } = ctx;
    const f = formatters(ctx.lang);
    const csrf = kit.csrf(reply);
    const list = await sessions.list(ctx.actor);
    const rows = list.map(
      (x) => `<li class="row"><strong>${escapeHtml(x.current ? s.thisDevice : (x.userAgent ?? s.unknownDevice))}</strong>
<span class="row-meta">${fill(s.signedInAt, { date: f.dateTime(x.createdAt) })} · ${fill(s.lastSeen, { date: f.dateTime(x.lastSeenAt) })}${x.ip ? ` · ${escapeHtml(x.ip)}` : ''}</span>
${x.current ? '' : buttonForm({ action: `/app/account/sessions/${x.id}/end`, csrf, label: s.endSession, style: 'danger' })}</li>`,
    );
    const others = list.filter((x) => !x.current).length;
    return kit.page(
      request,
      reply,
      ctx,
      s.accountTitle,
      `${queryParam(request, 'done') === '1' ? notice('ok', s.done) : ''}<section class="card" aria-labelledby="profile"><h2 id="profile">${escapeHtml(person.email)}</h2>
<form method="post" action="/app/account" class="stack">${csrfField(csrf)}
<label for="person-name">${escapeHtml(s.yourName)}</label><input id="person-name" name="name" maxlength="80" value="${escapeHtml(person.name ?? '')}" autocomplete="name"><small class="muted">${escapeHtml(s.yourNameHint)}</small>
<label for="person-language">${escapeHtml(s.language)}</label><select id="person-language" name="language">${QUESTION_LANGUAGES.map((l) => `<option value="${l}"${l === person.language ? ' selected' : ''} lang="${l}">${escapeHtml(LANGUAGE_NAMES[l])}</option>`).join('')}</select>
<button type="submit" class="button">${escapeHtml(s.save)}</button>
</form></section>
<section class="card" aria-labelledby="sessions"><h2 id="sessions">${escapeHtml(s.sessionsTitle)}</h2><ul class="rows">${rows.join('\n')}</ul>
${others ? buttonForm({ action: '/app/account/sessions/end-others', csrf, label: s.signOutEverywhere, style: 'danger' }) : ''}</section>`,
    );
  });

  routes.post('/account', async (request, reply, ctx) => {
    const name = formField(request, 'name').trim();
    const chosen = formField(request, 'language');
    const language = (QUESTION_LANGUAGES as readonly string[]).includes(chosen) ? (chosen as QuestionLanguage) : undefined;
    if (name.length > 80) throw new AppError('validation_failed', `${ctx.s.yourName}: 80.`);
    await people.updateProfile(ctx.actor, { name: name === '' ? null : name, ...(language ? { language } : {}) });
    return reply.redirect('/app/account?done=1', 303);
  });

  routes.post('/account/sessions/:id/end', async (request, reply, ctx) => {
    await sessions.revoke(ctx.actor, request.params.id);
    return reply.redirect('/app/account?done=1', 303);
  });

  routes.post('/account/sessions/end-others', async (request, reply, ctx) => {
    for (const other of (await sessions.list(ctx.actor)).filter((x) => !x.current)) await sessions.revoke(ctx.actor, other.id);
    return reply.redirect('/app/account?done=1', 303);
  });
};
