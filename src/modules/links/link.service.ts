import type { Selectable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { QuestionsTable } from '../../db/schema.ts';
import type { Clock } from '../../lib/clock.ts';
import { AppError, notFound } from '../../http/errors.ts';
import type { AnswerRecordingService } from '../answers/answer-recording.service.ts';
import type { AnswerInput } from '../answers/answer-format.ts';
import type { NormalizedDraft } from '../questions/draft-defaults.ts';
import { TYPE_RULES, type QuestionType } from '../questions/question-types.ts';
import type { HumanCheck } from './turnstile.ts';
import type { LinkState, LinkView, SubmitBody } from './link.schemas.ts';

/**
 * What the answer page needs (docs/answer-link.md): the question as a person sees it, its state,
 * anonymous answers through the one answer-recording service, and page-load counts.
 */
type Row = Selectable<QuestionsTable>;

export function linkState(row: Row, now: Date): LinkState {
  switch (row.status) {
    case 'live':
      return row.closes_at && row.closes_at <= now ? 'closed' : row.answered >= row.n ? 'full' : 'live';
    case 'scheduled':
      return 'scheduled';
    case 'draft':
      return 'paused';
    case 'complete':
      return 'full';
    default:
      return 'closed';
  }
}

function linkQuestion(row: Row): LinkView['question'] {
  const draft = row.draft as unknown as NormalizedDraft & { shownAs?: string };
  const rule = TYPE_RULES[row.type as QuestionType];
  const choices = rule.fixedOptions
    ? rule.fixedOptions.map((label) => ({ label, imageUrl: null }))
    : rule.options
      ? draft.options.map((o) => ({ label: o.label, imageUrl: o.imageUrl ?? null }))
      : [];
  const stimulus = draft.stimulus
    ? { imageUrl: draft.stimulus.imageUrl ?? null, audioUrl: draft.stimulus.audioUrl ?? null, text: draft.stimulus.text ?? null, exposureMs: draft.stimulus.exposureMs ?? null }
    : null;
  return {
    type: row.type as LinkView['question']['type'],
    text: draft.text,
    context: draft.context ?? null,
    language: draft.language,
    choices,
    neither: draft.neither && rule.neitherAllowed,
    stimulus,
    maxTaps: rule.clickTest ? (draft.clickTest?.maxTaps ?? 1) : null,
    reason: draft.reason,
  };
}

export function createLinkService(deps: { db: Db; clock: Clock; recorder: AnswerRecordingService; humanCheck: HumanCheck }) {
  const { db, clock, recorder, humanCheck } = deps;

  async function byCode(code: string): Promise<Row> {
    const row = await db.selectFrom('questions').selectAll().where('link_code', '=', code).executeTakeFirst();
    if (!row) throw notFound('There is no question at this link.');
    return row;
  }

  const resultOf = (row: Row) => {
    const show = (row.draft as unknown as NormalizedDraft).publicResults === true && row.public_code !== null;
    return { showResult: show, resultCode: show ? row.public_code : null };
  };

  return {
    async view(code: string): Promise<LinkView> {
      const row = await byCode(code);
      const draft = row.draft as unknown as { shownAs?: string };
      return {
        state: linkState(row, clock.now()),
        shownAs: draft.shownAs ?? null,
        question: linkQuestion(row),
        opensAt: row.status === 'scheduled' && row.scheduled_for ? row.scheduled_for.toISOString() : null,
        ...resultOf(row),
      };
    },

    async submit(code: string, body: SubmitBody, remoteIp: string) {
      const row = await byCode(code);
      if (humanCheck.enabled && !(await humanCheck.verify(body.humanCheckToken, remoteIp))) {
        throw new AppError('human_check_failed');
      }
      // An anonymous answer counts as tier 1 with no profile (ARCHITECTURE §4).
      const outcome = await recorder.record(row.id, { headId: null, source: 'link', tier: 1 }, body.answer as AnswerInput, {
        nonce: body.nonce,
        dwellMs: body.dwellMs ?? 0,
        interrupted: body.interrupted ?? false,
        locale: body.locale,
      });
      const after = await byCode(code);
      return { accepted: outcome.accepted, state: linkState(after, clock.now()), ...resultOf(after) };
    },

    async started(code: string, nonce: string): Promise<void> {
      const row = await byCode(code);
      await db.insertInto('link_starts').values({ nonce, question_id: row.id, created_at: clock.now() }).onConflict((oc) => oc.column('nonce').doNothing()).execute();
    },
  };
}
export type LinkService = ReturnType<typeof createLinkService>;
