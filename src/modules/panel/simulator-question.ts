import { seededRng, type Rng } from '../../lib/random.ts';
import type { AnswerInput } from '../draft/answer-format.ts';
import { storedDraft, type StoredDraft } from '../draft/stored-draft.ts';
import type { HeadsRepository, SimulatedQuestionRow } from './heads.repository.ts';
import { reachOf } from './targeting.ts';
import { deriveSeed, dwellMs, generateAnswer, poisson, questionProfile, type QuestionProfile } from './simulated-answers.ts';

export interface SimulatorLog {
  info(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

/**
 * What the simulator needs of the answer-recording service (answers/answer-recording.service.ts),
 * which the container hands in. Said here rather than imported: the answers folder imports the
 * panel's (targeting, heads), so the panel folder must not import it back (no folder loop).
 */
export interface SimulatedAnswerRecorder {
  record(
    questionId: string,
    from: { headId: string; source: 'simulator'; tier: number; country: string; ageBand: string; gender: string; tags: string[] },
    answer: AnswerInput,
    extra: { dwellMs: number },
  ): Promise<{ accepted: boolean; completed?: boolean; reason?: string }>;
}

export interface QuestionAnswererDeps {
  heads: Pick<HeadsRepository, 'simulatedCandidates'>;
  recorder: SimulatedAnswerRecorder;
  answersPerMinute: number;
  seed: number;
  log?: SimulatorLog;
}

type LiveQuestion = Omit<SimulatedQuestionRow, 'draft'> & { draft: StoredDraft };

/**
 * One live question answered by simulated heads during a tick of the simulator (simulator.ts):
 * how many answers this slice of time brings, which heads give them, and what each answers.
 * Every random choice of a question comes from its own stream, seeded by (seed, question id).
 */
export function createQuestionAnswerer(deps: QuestionAnswererDeps) {
  const { heads: repo, recorder, log } = deps;
  /** Per question: its profile and its random stream (dropped once it is no longer answerable). */
  const states = new Map<string, { profile: QuestionProfile; rng: Rng }>();

  function stateOf(q: LiveQuestion) {
    let state = states.get(q.id);
    if (!state) {
      state = { profile: questionProfile(q.draft, seededRng(deriveSeed(deps.seed, `profile:${q.id}`))), rng: seededRng(deriveSeed(deps.seed, `answers:${q.id}`)) };
      states.set(q.id, state);
    }
    return state;
  }

  /**
   * Simulated heads who may answer `q`, in an order fixed by `salt`, at most `limit`: reached by
   * its targeting and tier, and eligible as the recorder checks it (heads.repository.ts).
   */
  function candidates(q: LiveQuestion, salt: number, limit: number) {
    return repo.simulatedCandidates({
      questionId: q.id,
      parentId: q.parent_id,
      // Variants of one question go to disjoint heads; a question without variants is its own group.
      group: q.variant_group ?? q.id,
      // A follow-up goes to the heads who answered its parent, whatever their profile.
      targeting: q.parent_id ? {} : reachOf(q.draft.targeting, q),
      tier: q.parent_id ? null : q.tier,
      salt,
      limit,
    });
  }

  return {
    /** Drops the state of every question not in `live` (closed, filled or gone). */
    keepOnly(live: Set<string>): void {
      for (const id of states.keys()) if (!live.has(id)) states.delete(id);
    },

    /** Answers of one question for this tick; adds the heads whose answer was accepted to `answeredBy`. */
    async answerQuestion(row: SimulatedQuestionRow, elapsedMs: number, answeredBy: string[]): Promise<void> {
      const q: LiveQuestion = { ...row, draft: storedDraft(row.draft) };
      const { profile, rng } = stateOf(q);
      const expected = (deps.answersPerMinute * elapsedMs) / 60_000;
      const want = Math.min(poisson(rng, expected), q.n - q.answered);
      if (want <= 0) return;
      const salt = Math.floor(rng() * 2 ** 31);
      const heads = await candidates(q, salt, want);
      // The tick's answers go to the recorder together, so they share one transaction (group
      // commit); each is still checked alone, in this order, as if it came by itself.
      const answers: Array<{ head: (typeof heads)[number]; answer: AnswerInput; dwell: number }> = [];
      for (const head of heads) {
        const answer = generateAnswer(q.draft, profile, rng);
        if (!answer) break;
        answers.push({ head, answer, dwell: dwellMs(q.draft, answer, rng) });
      }
      const outcomes = await Promise.all(
        answers.map(({ head, answer, dwell }) =>
          recorder.record(
            q.id,
            { headId: head.id, source: 'simulator', tier: head.tier, country: head.country, ageBand: head.age_band, gender: head.gender, tags: head.tags ?? [] },
            answer,
            { dwellMs: dwell },
          ),
        ),
      );
      // Refused ones: closed or filled meanwhile (by a link answer, a cancel, the expiry job), or
      // a race with another answer ('not_eligible' / 'already_answered'): those heads are skipped.
      outcomes.forEach((outcome, i) => {
        if (outcome.accepted) answeredBy.push(answers[i].head.id);
        if (outcome.completed) log?.info({ questionId: q.id, n: q.n }, 'simulated heads completed a question');
      });
    },
  };
}
