import type { Updateable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { QuestionsTable } from '../../db/schema.ts';
import { inTransaction } from '../../db/transaction.ts';
import type { Clock } from '../../lib/clock.ts';
import { cursorRowId, invalidCursor, rowCursor } from '../../lib/cursor.ts';
import { AppError, notFound, validationError } from '../../lib/errors.ts';
import type { Actor } from '../../lib/actor.ts';
import { parseUtcInstant } from '../draft/draft-validator.ts';
import type { ProjectsRepository } from '../projects/projects.repository.ts';
import type { LifecycleService } from './lifecycle.service.ts';
import type { QuestionsRepository } from './questions.repository.ts';
import { questionView } from './question-view.ts';
import type { ListQuestionsQuery, PatchQuestionBody, Question } from './questions.schemas.ts';
import { startOfUtcDay } from '../../lib/dates.ts';

export const DEFAULT_PAGE = 20;

/** Reading and organising questions: get, list, labels, PATCH. Transitions live in lifecycle. */
export function createQuestionsService(deps: {
  db: Db;
  clock: Clock;
  repo: QuestionsRepository;
  projects: Pick<ProjectsRepository, 'exists'>;
  lifecycle: LifecycleService;
  publicBaseUrl: string;
}) {
  const { db, clock, repo, projects, lifecycle } = deps;

  async function get(actor: Actor, id: string): Promise<Question> {
    const row = await repo.find(actor.accountId, id);
    if (!row) throw notFound('No such question on this account.');
    return questionView(row, deps.publicBaseUrl);
  }

  return {
    get,

    async list(actor: Actor, query: ListQuestionsQuery): Promise<{ questions: Question[]; nextCursor: string | null }> {
      let since: Date | undefined;
      if (query.since !== undefined) {
        const parsed = parseUtcInstant(query.since) ?? (/^\d{4}-\d{2}-\d{2}T.*([+-]\d{2}:\d{2})$/.test(query.since) ? new Date(query.since) : null);
        if (!parsed || Number.isNaN(parsed.getTime())) {
          throw validationError([{ field: 'since', code: 'invalid_format', message: 'since must be an ISO 8601 instant such as 2026-11-01T00:00:00Z.' }]);
        }
        since = parsed;
      }
      const limit = query.limit ?? DEFAULT_PAGE;
      // The cursor names the last question of the previous page; another account's finds nothing.
      let beforeSeq: number | undefined;
      if (query.cursor !== undefined) {
        beforeSeq = await repo.listPosition(actor.accountId, cursorRowId(query.cursor, 'q_'));
        if (beforeSeq === undefined) throw invalidCursor();
      }
      const rows = await repo.list({
        accountId: actor.accountId,
        status: query.status,
        since,
        projectId: query.projectId,
        label: query.label,
        externalRef: query.externalRef,
        parentId: query.parentId,
        archived: query.archived ?? 'exclude',
        bookmarked: query.bookmarked,
        // mine: the calling key's questions, or a signed-in person's own.
        ...(query.mine ? (actor.session ? { personId: actor.session.personId } : { keyId: actor.keyId }) : {}),
        beforeSeq,
        limit: limit + 1,
      });
      const page = rows.slice(0, limit);
      return { questions: page.map((row) => questionView(row, deps.publicBaseUrl)), nextCursor: rows.length > limit ? rowCursor(page[page.length - 1].id) : null };
    },

    /** Today's private question (one a day is free): for the balance's freeQuestionToday (in `tx` when an event's balance is read). */
    async privateToday(accountId: string, at: Date, tx?: Db): Promise<{ freeQuestionToday: boolean; privateDeclaredAt?: string }> {
      const today = await repo.countPrivateSince(accountId, startOfUtcDay(at), tx);
      return { freeQuestionToday: today.count === 0, ...(today.first ? { privateDeclaredAt: new Date(today.first).toISOString() } : {}) };
    },

    async labels(actor: Actor): Promise<Array<{ label: string; count: number }>> {
      return repo.labels(actor.accountId);
    },

    async patch(actor: Actor, id: string, body: PatchQuestionBody): Promise<Question> {
      const current = await repo.find(actor.accountId, id);
      if (!current) throw notFound('No such question on this account.');
      if (Object.keys(body).length === 0) throw validationError([{ field: 'body', code: 'required', message: 'Send at least one field to change.' }]);
      if (body.externalRef !== undefined && current.external_ref !== null && current.external_ref !== body.externalRef) {
        throw new AppError('external_ref_set', `externalRef is already "${current.external_ref}" and cannot be changed.`);
      }
      // An empty string is an id too (one no project has), not "no project": only null is that.
      if (body.projectId != null && !(await projects.exists(actor.accountId, body.projectId))) throw notFound('No such project on this account (projectId).');
      const values: Updateable<QuestionsTable> = { updated_at: clock.now() };
      if (body.projectId !== undefined) values.project_id = body.projectId;
      if (body.labels !== undefined) values.labels = [...new Set(body.labels)];
      if (body.archived !== undefined) values.archived = body.archived;
      if (body.bookmarked !== undefined) values.bookmarked = body.bookmarked;
      if (body.externalRef !== undefined) values.external_ref = body.externalRef;
      if (body.minAnswers !== undefined) {
        if (body.minAnswers > current.n) {
          throw validationError([{ field: 'minAnswers', code: 'out_of_range', message: `minAnswers cannot exceed the ${current.n} answers asked for.` }]);
        }
        values.min_answers = body.minAnswers;
      }
      await inTransaction(db, async (tx) => {
        // The labels column is text[]: hand it over as an array literal the driver understands.
        await repo.update(id, values, tx);
      });
      // Completes at once when enough heads have already answered (spec: PATCH minAnswers).
      if (body.minAnswers !== undefined) await lifecycle.closeEarly(actor.accountId, id, body.minAnswers);
      return get(actor, id);
    },
  };
}
export type QuestionsService = ReturnType<typeof createQuestionsService>;
