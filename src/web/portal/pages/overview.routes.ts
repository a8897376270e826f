import { escapeHtml, fill, formatters, notice } from '../portal-html.ts';
import type { PortalPages } from '../portal-kit.ts';
import type { PortalStrings } from '../strings/index.ts';
import { resultsPage } from '../../results-page/results-page.html.ts';
import { STRINGS, pageLanguage } from '../../shared/strings/index.ts';

const statusLabel = (s: PortalStrings, status: string) => s[`status_${status}` as keyof PortalStrings] ?? status;

/**
 * The overview (`/app`): the balance (what can be spent, what live questions hold, what expires
 * and what bank transfers are on their way), invitations waiting, and the latest questions with
 * their status and a link to their results (`/app/questions/{id}`, the full results page).
 */
export const overviewPages: PortalPages = (app, kit) => {
  const routes = kit.routes(app);
  const { credits, questions, teams, checkouts, results, config } = kit.deps;

  routes.get('/', async (request, reply, ctx) => {
    const { s, actor } = ctx;
    const f = formatters(ctx.lang);
    const [balance, list, invitations, recent] = await Promise.all([
      credits.balance(actor),
      questions.list(actor, { limit: 10, archived: 'exclude' }),
      teams.invitationsForMe(actor),
      checkouts.recent(actor, 10),
    ]);
    const available = balance.credits - balance.reserved;
    const awaited = recent.filter((c) => c.status === 'pending');
    const balanceCard = `<section class="card" aria-labelledby="balance-heading">
<h2 id="balance-heading" class="visually-hidden">${escapeHtml(s.available)}</h2>
<dl class="stats">
<div><dt>${escapeHtml(s.available)}</dt><dd class="big" data-testid="available">${escapeHtml(fill(s.creditsUnit, { n: f.int(available) }))}</dd></div>
<div><dt>${escapeHtml(s.reserved)}</dt><dd>${escapeHtml(fill(s.creditsUnit, { n: f.int(balance.reserved) }))}</dd></div>
</dl>
${balance.expiring.map((e) => `<p class="muted">${escapeHtml(s.expiringLine.replace('{n}', f.int(e.credits)).replace('{date}', f.date(e.expiresAt)))}</p>`).join('\n')}
${awaited.map((c) => `<p class="muted">${escapeHtml(s.pendingLine.replace('{n}', f.int(c.credits)).replace('{reference}', c.bankTransfer?.reference ?? c.id))}</p>`).join('\n')}
<p><a class="button" href="/app/credits">${escapeHtml(s.buyCredits)}</a></p>
</section>`;
    const invited = invitations.length
      ? notice('ok', s.invitationsWaiting.replace('{team}', invitations.map((i) => i.teamName).join(', '))).replace('</p>', ` <a href="/app/invitations">${escapeHtml(s.seeInvitations)}</a></p>`)
      : '';
    const rows = list.questions.map(
      (q) => `<li class="row">
<a href="/app/questions/${escapeHtml(q.id)}"><strong>${escapeHtml(q.text)}</strong></a>
<span class="row-meta"><span class="status-pill ${q.status === 'live' ? 'live' : 'closed'}">${escapeHtml(statusLabel(s, q.status))}</span> ${escapeHtml(fill(s.answeredOf, { answered: f.int(q.answered), n: f.int(q.n) }))} · ${escapeHtml(f.date(q.createdAt))}${q.askedBy?.name ? ` · ${escapeHtml(q.askedBy.name)}` : ''}</span>
</li>`,
    );
    const sample = `curl -s ${config.publicBaseUrl}/v2/questions \\\n  -H "Authorization: Bearer hc_live_…" -H 'content-type: application/json' \\\n  -H "Idempotency-Key: $(node -p 'crypto.randomUUID()')" \\\n  -d '{"draft": {"type": "single_choice", "text": "Which name is best?", "options": [{"label": "Penny"}, {"label": "Pocket"}], "n": 20}}'`;
    const questionsCard = `<section class="card" aria-labelledby="questions-heading">
<h2 id="questions-heading">${escapeHtml(s.recentQuestions)}</h2>
${rows.length ? `<ul class="rows">${rows.join('\n')}</ul>` : `<p>${escapeHtml(s.noQuestions)}</p>\n<pre class="code"><code>${escapeHtml(sample)}</code></pre>\n<p><a href="/app/developers">${escapeHtml(s.navDevelopers)}</a></p>`}
</section>`;
    return kit.page(request, reply, ctx, `${s.overviewTitle}: ${ctx.acting.name}`, `${invited}\n${balanceCard}\n${questionsCard}`);
  });

  // A question's results for the account that asked it: the results page with the written
  // answers and the insights (what a private share link shows), in the question's language, and
  // what an early stop refunded in credits (the pages outside the account show no money).
  routes.get('/questions/:id', async (request, reply, ctx) => {
    if (!/^q_[0-9A-Za-z]{20}$/.test(request.params.id)) return reply.callNotFound();
    const question = await questions.get(ctx.actor, request.params.id);
    const result = await results.forAccount(ctx.actor.accountId, question.id);
    const lang = pageLanguage(question.language);
    return resultsPage({ data: { question, result }, lang, strings: STRINGS[lang], assets: kit.assets, publicBaseUrl: config.publicBaseUrl, variant: 'shared', backLink: { href: '/app', label: ctx.s.questionBack }, showCredits: true });
  });
};
