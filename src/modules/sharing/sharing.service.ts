import { createHash } from 'node:crypto';
import type { Selectable } from 'kysely';
import type { Db } from '../../db/database.ts';
import { inTransaction } from '../../db/transaction.ts';
import type { QuestionsTable } from '../../db/schema.ts';
import type { Clock } from '../../lib/clock.ts';
import { randomBase62 } from '../../lib/base62.ts';
import { newId, newPublicCode } from '../../lib/ids.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import type { Actor } from '../../lib/actor.ts';
import { storedDraft } from '../draft/stored-draft.ts';
import type { QuestionsRepository } from '../questions/questions.repository.ts';
import { questionView } from '../questions/question-view.ts';
import type { Question } from '../questions/questions.schemas.ts';
import type { ResultService } from '../results/results.service.ts';
import type { Result } from '../results/results.schemas.ts';
import { heatmapUrls } from './heatmap-urls.ts';
import { stimulusAspect } from '../results/stimulus-aspect.ts';
import { publicQuestion, publicResult, sharedResult } from './public-view.ts';
import type { ShareLinkRow, SharingRepository } from './sharing.repository.ts';
import { SHARE_LINK_DEFAULT_DAYS, type CreateShareLinkBody, type PublicResults, type ShareLink } from './sharing.schemas.ts';
import { DAY_MS } from '../../lib/dates.ts';

/**
 * The public results page and private share links (docs/sharing.md).
 *
 * Public page: `publicResults` on the question (in its draft, where asking put it) and a random
 * `publicCode`. Turning it off clears the code; turning it on again makes a NEW code, so a code
 * that leaked can be killed for good by turning the page off and on.
 *
 * Share links: a random 32-character base62 token (~190 bits), shown once; only its SHA-256 is
 * stored, so a stolen database does not open any link. Unknown, tampered, expired (by the
 * injected clock) and revoked tokens all get the same 404.
 */
type QuestionRow = Selectable<QuestionsTable>;

export const SHARE_TOKEN_LENGTH = 32;
/** Live (not revoked, not expired) share links a question can have at once. */
export const MAX_ACTIVE_SHARE_LINKS = 50;
const TOKEN_FORMAT = new RegExp(`^[0-9A-Za-z]{${SHARE_TOKEN_LENGTH}}$`);

export const hashShareToken = (token: string): Buffer => createHash('sha256').update(token, 'utf8').digest();

function linkView(row: ShareLinkRow): ShareLink {
  return {
    id: row.id,
    label: row.label,
    createdAt: row.created_at.toISOString(),
    expiresAt: row.expires_at.toISOString(),
    revokedAt: row.revoked_at?.toISOString() ?? null,
  };
}

/**
 * A key-protected heatmap URL is of no use outside the account: the public page and share links
 * point at their own heatmap routes (docs/sharing.md), which need no credential and stop working
 * with the page or the link.
 */
function withHeatmapUrl(result: Result, url: string): Result {
  return result.clicks ? { ...result, clicks: { ...result.clicks, heatmapUrl: url } } : result;
}

/** A refused question is never shown outside its account. */
const showable = (row: QuestionRow) => row.status !== 'refused';

export function createSharingService(deps: { db: Db; clock: Clock; repo: SharingRepository; questions: QuestionsRepository; results: Pick<ResultService, 'build'>; publicBaseUrl: string }) {
  const { db, clock, repo, questions, results, publicBaseUrl } = deps;
  const urls = heatmapUrls(publicBaseUrl);

  async function ownQuestion(actor: Actor, id: string) {
    const q = await questions.find(actor.accountId, id);
    if (!q) throw notFound('No such question on this account.');
    return q;
  }

  async function view(accountId: string, id: string): Promise<Question> {
    return questionView((await questions.find(accountId, id))!, publicBaseUrl);
  }

  /** A question whose public results page is on (and not refused), by its public code. */
  async function publicRow(code: string): Promise<QuestionRow> {
    const row = await repo.findQuestionByPublicCode(code);
    if (!row || storedDraft(row.draft).publicResults !== true || !showable(row)) throw notFound('There are no public results at this address.');
    return row;
  }

  /** The question of a working (known, not expired, not revoked) share link. */
  async function sharedRow(token: string): Promise<QuestionRow> {
    const gone = () => notFound('This share link does not exist, has expired or was revoked.');
    if (!TOKEN_FORMAT.test(token)) throw gone();
    const link = await repo.findLinkByTokenHash(hashShareToken(token));
    if (!link || link.revoked_at !== null || link.expires_at <= clock.now()) throw gone();
    const row = await questions.findRow(link.account_id, link.question_id);
    if (!row || !showable(row)) throw gone();
    return row;
  }

  return {
    /** POST /v2/questions/{id}/share: the public results page on or off. Turning it on when it is on changes nothing. */
    async setPublic(actor: Actor, id: string, on: boolean): Promise<Question> {
      await ownQuestion(actor, id);
      await inTransaction(db, async (tx) => {
        const q = await questions.lock(id, tx);
        if (!q || q.account_id !== actor.accountId) throw notFound('No such question on this account.');
        const flagged = storedDraft(q.draft).publicResults === true;
        if (on ? flagged && q.public_code !== null : !flagged && q.public_code === null) return;
        if (on && !showable(q)) throw new AppError('conflict', 'A question refused in review cannot have a public results page.', { status: q.status });
        await repo.setPublicPage(id, { on, publicCode: on ? newPublicCode() : null, at: clock.now() }, tx);
      });
      return view(actor.accountId, id);
    },

    /** GET /v1/public/results/{code}: aggregates only (see public-view.ts). */
    async publicResults(code: string): Promise<PublicResults> {
      const row = await publicRow(code);
      const [question, result] = await Promise.all([view(row.account_id, row.id), results.build(row)]);
      return { question: publicQuestion(question), result: withHeatmapUrl(publicResult(result), urls.publicResults(code, stimulusAspect(row))) };
    },

    /** The question behind a public results code (its heatmap uses it); 404 as for the page. */
    publicRow,

    /** POST /v2/questions/{id}/share-links: the token is in this response only. */
    async createLink(actor: Actor, id: string, body: CreateShareLinkBody): Promise<ShareLink> {
      const q = await ownQuestion(actor, id);
      if (!showable(q)) throw new AppError('conflict', 'A question refused in review cannot be shared.', { status: q.status });
      const now = clock.now();
      if ((await repo.countActiveLinks(id, now)) >= MAX_ACTIVE_SHARE_LINKS) {
        throw new AppError('conflict', `This question already has ${MAX_ACTIVE_SHARE_LINKS} share links that work; revoke one first.`, { limit: MAX_ACTIVE_SHARE_LINKS });
      }
      const token = randomBase62(SHARE_TOKEN_LENGTH);
      const label = body.label?.trim() ? body.label.trim() : null;
      const row = await repo.insertLink({
        id: newId('shareLink'),
        account_id: actor.accountId,
        question_id: id,
        key_id: actor.keyId,
        label,
        token_hash: hashShareToken(token),
        created_at: now,
        expires_at: new Date(now.getTime() + (body.expiresInDays ?? SHARE_LINK_DEFAULT_DAYS) * DAY_MS),
        revoked_at: null,
      });
      return { ...linkView(row), url: `${publicBaseUrl}/s/${token}`, token };
    },

    /** GET /v2/questions/{id}/share-links: newest first, revoked and expired ones too; never tokens. */
    async listLinks(actor: Actor, id: string): Promise<ShareLink[]> {
      await ownQuestion(actor, id);
      return (await repo.listLinks(actor.accountId, id)).map(linkView);
    },

    /** DELETE …/share-links/{linkId}: works at once; revoking a revoked link is fine. */
    async revokeLink(actor: Actor, id: string, linkId: string): Promise<void> {
      await ownQuestion(actor, id);
      const link = await repo.findLink(actor.accountId, id, linkId);
      if (!link) throw notFound('No such share link on this question.');
      if (link.revoked_at) return;
      await repo.revokeLink(linkId, clock.now());
    },

    /** GET /v1/public/shared/{token}: the full result with written answers (see public-view.ts). */
    async shared(token: string): Promise<PublicResults> {
      const row = await sharedRow(token);
      const [question, result] = await Promise.all([view(row.account_id, row.id), results.build(row)]);
      return { question: publicQuestion(question), result: withHeatmapUrl(sharedResult(result), urls.shared(token, stimulusAspect(row))) };
    },

    /** The question behind a share link token (its heatmap uses it); 404 as for the link. */
    sharedRow,
  };
}
export type SharingService = ReturnType<typeof createSharingService>;
