import type { Selectable } from 'kysely';
import type { QuestionsTable } from '../../db/schema.ts';
import type { Clock } from '../../lib/clock.ts';
import { AppError, notFound, validationError } from '../../lib/errors.ts';
import { isDatabaseUnavailable } from '../../lib/database-errors.ts';
import { createGroupCommit } from '../../lib/group-commit.ts';
import type { AnswerRecordingService } from '../answers/answer-recording.service.ts';
import { readAnswer, type AnswerInput } from '../draft/answer-format.ts';
import { storedDraft } from '../draft/stored-draft.ts';
import { TYPE_RULES, type QuestionType } from '../draft/question-types.ts';
import type { HumanCheck } from './turnstile.ts';
import type { LinksRepository, SubmitQuestion, SubmitRead } from './links.repository.ts';
import type { LifecycleService } from '../questions/lifecycle.service.ts';
import type { LinkState, LinkView, SubmitBody } from './links.schemas.ts';

/**
 * What the answer page needs (docs/answer-link.md): the question as a person sees it, its state,
 * anonymous answers through the one answer-recording service, and page-load counts.
 */
type Row = Selectable<QuestionsTable>;

/** What linkState needs of a question: a row, or what the recorder reports after an answer. */
type StateOf = Pick<Row, 'status' | 'answered' | 'n' | 'closes_at'>;

/**
 * The state the page shows (docs/answer-link.md): `full` only when every answer asked for came in;
 * a question that closed with fewer (minAnswers reached, closed by its owner, its window ran out,
 * cancelled, refused) is `closed`; a follow-up still waiting for its first question is `paused`.
 */
export function linkState(q: StateOf, now: Date): LinkState {
  switch (q.status) {
    case 'live':
      return q.closes_at && q.closes_at <= now ? 'closed' : q.answered >= q.n ? 'full' : 'live';
    case 'scheduled':
      return 'scheduled';
    case 'draft':
      return 'paused';
    case 'complete':
      return q.answered >= q.n ? 'full' : 'closed';
    default:
      // underfilled, cancelled, refused
      return 'closed';
  }
}

function linkQuestion(row: Row): LinkView['question'] {
  const draft = storedDraft(row.draft);
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

export function createLinkService(deps: {
  repo: LinksRepository;
  clock: Clock;
  recorder: AnswerRecordingService;
  humanCheck: HumanCheck;
  /** Opens a scheduled question whose time has come (idempotent: the timer and sweep do the same). */
  lifecycle?: Pick<LifecycleService, 'goLive'>;
}) {
  const { repo, clock, recorder, humanCheck } = deps;

  /**
   * A scheduled question whose time has come but whose go-live timer has not run yet (timers and
   * the sweep can be up to a minute late) opens now, so a person who opens the link on time
   * can answer at once. True when it went live here (the caller reads it again).
   */
  async function dueNow(row: Pick<Row, 'id' | 'status' | 'scheduled_for'>): Promise<boolean> {
    if (row.status !== 'scheduled' || !row.scheduled_for || row.scheduled_for > clock.now() || !deps.lifecycle) return false;
    return deps.lifecycle.goLive(row.id);
  }

  async function byCode(code: string): Promise<Row> {
    const row = await repo.findQuestionByCode(code);
    if (!row) throw notFound('There is no question at this link.');
    return row;
  }

  /**
   * Every answer sent through a link reads its question and its nonce's earlier answer first.
   * Those that arrive together (or while the previous read runs) are read in one statement, as
   * the recorder writes them in one transaction: on PostgreSQL a statement's round trip costs the
   * app more than the read costs the database, and the embedded database runs one statement at a
   * time. Each read is still one snapshot taken after its request arrived.
   */
  const reads = createGroupCommit<{ code: string; nonce: string }, SubmitRead | undefined>({
    maxBatch: 64,
    write: async (loads) => (await repo.findQuestionsByCodeAndNonce(loads)).map((value) => ({ ok: true, value })),
    failsAll: isDatabaseUnavailable,
  });

  /** The question, and whether this page load's nonce already recorded an answer to it. */
  async function byCodeAndNonce(code: string, nonce: string): Promise<SubmitRead> {
    const row = await reads.submit({ code, nonce });
    if (!row) throw notFound('There is no question at this link.');
    return row;
  }

  const resultOf = (row: Pick<Row, 'draft' | 'public_code'>) => {
    const show = storedDraft(row.draft).publicResults === true && row.public_code !== null;
    return { showResult: show, resultCode: show ? row.public_code : null };
  };

  return {
    async view(code: string): Promise<LinkView> {
      let row = await byCode(code);
      if (await dueNow(row)) row = await byCode(code);
      return {
        state: linkState(row, clock.now()),
        shownAs: storedDraft(row.draft).shownAs ?? null,
        question: linkQuestion(row),
        opensAt: row.status === 'scheduled' && row.scheduled_for ? row.scheduled_for.toISOString() : null,
        ...resultOf(row),
      };
    },

    /**
     * Cheapest checks first, the human check last, so that nothing spends the person's
     * single-use token without need:
     * 1. a nonce that already recorded an answer to this question returns that outcome (a retry
     *    whose reply was lost): nothing is verified and nothing recorded, whatever the body says,
     *    so a replay can never carry a new answer past the human check;
     * 2. a question that takes no answers says so (the same state GET shows);
     * 3. an answer that does not fit the question is a 400;
     * 4. only then the human check, and the answer goes to the recorder, which reports the
     *    question as it left it (no second read).
     */
    async submit(code: string, body: SubmitBody, remoteIp: string) {
      let row = await byCodeAndNonce(code, body.nonce);
      if (await dueNow(row)) row = await byCodeAndNonce(code, body.nonce);
      const replay = (r: SubmitQuestion) => ({ accepted: true, state: linkState(r, clock.now()), ...resultOf(r) });
      if (row.replayOf) return replay(row);

      const before = linkState(row, clock.now());
      if (before !== 'live') return { accepted: false, state: before, ...resultOf(row) };

      const read = readAnswer(storedDraft(row.draft), body.answer as AnswerInput);
      if (Array.isArray(read)) throw validationError(read);

      if (humanCheck.enabled && !(await humanCheck.verify(body.humanCheckToken, remoteIp))) {
        // A retry sent while the first attempt was still being recorded reuses a spent token:
        // once that attempt has committed, its outcome is the answer. Otherwise the check failed.
        row = await byCodeAndNonce(code, body.nonce);
        if (row.replayOf) return replay(row);
        throw new AppError('human_check_failed');
      }
      // An anonymous answer counts as tier 1 with no profile (ARCHITECTURE §4).
      const outcome = await recorder.record(row.id, { headId: null, source: 'link', tier: 1 }, body.answer as AnswerInput, {
        nonce: body.nonce,
        dwellMs: body.dwellMs ?? 0,
        interrupted: body.interrupted ?? false,
        locale: body.locale,
        withQuestion: true,
      });
      return { accepted: outcome.accepted, state: linkState(outcome.question ?? row, clock.now()), ...resultOf(row) };
    },

    async started(code: string, nonce: string): Promise<void> {
      const row = await byCode(code);
      await repo.recordStart(nonce, row.id, clock.now());
    },
  };
}
export type LinkService = ReturnType<typeof createLinkService>;
