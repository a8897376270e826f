import type { Clock } from '../../lib/clock.ts';
import { seededRng, type Rng } from '../../lib/random.ts';
import type { AnswerInput } from '../draft/answer-format.ts';
import { storedDraft, type StoredDraft } from '../draft/stored-draft.ts';
import type { HeadsRepository, SimulatedQuestionRow } from './heads.repository.ts';
import { deriveSeed, dwellMs, generateAnswer, poisson, questionProfile, type QuestionProfile } from './simulated-answers.ts';

/**
 * The development panel at work (ARCHITECTURE §4 "Panel"): simulated heads answer live questions
 * through the same answer-recording service real answers use, at about `answersPerMinute` per
 * question. Each tick, for every live, non-private question that still wants answers, it draws a
 * Poisson number of answers for the time that passed, picks that many eligible simulated heads
 * and records an answer from each.
 *
 * Reproducible: for one seed, database state and sequence of tick() calls, the same heads give
 * the same answers. Every random choice of a question comes from its own stream, seeded by
 * (seed, question id), so one question does not shift another's draws. Head ids are random per
 * database, so heads are ordered by what the panel seed determines (creation time and profile),
 * never by id alone.
 */
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

export interface SimulatorDeps {
  heads: HeadsRepository;
  clock: Clock;
  recorder: SimulatedAnswerRecorder;
  answersPerMinute: number;
  seed: number;
  log?: SimulatorLog;
}

export interface Simulator {
  /** One step covering `elapsedMs` of time; returns how many answers were accepted. */
  tick(elapsedMs: number): Promise<number>;
  /** Ticks every `intervalMs` with the real time elapsed since the previous tick. */
  start(intervalMs?: number): void;
  /** Stops ticking; resolves when a running tick has finished. */
  stop(): Promise<void>;
}

type LiveQuestion = Omit<SimulatedQuestionRow, 'draft'> & { draft: StoredDraft };

/** A paused process (a laptop lid) does not come back to a flood: at most this much time per tick. */
const MAX_TICK_MS = 60_000;

export function createSimulator(deps: SimulatorDeps): Simulator {
  const { heads: repo, clock, recorder, log } = deps;
  /** Per question: its profile and its random stream (dropped once it is no longer answerable). */
  const states = new Map<string, { profile: QuestionProfile; rng: Rng }>();
  let chain: Promise<unknown> = Promise.resolve();
  let timer: NodeJS.Timeout | null = null;
  let running = false;
  /** Bumped by every start(), so a tick still finishing from before a stop() does not reschedule. */
  let generation = 0;

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
      targeting: q.parent_id ? {} : q.draft.targeting,
      tier: q.parent_id ? null : q.tier,
      salt,
      limit,
    });
  }

  /** Answers of one question for this tick; adds the heads whose answer was accepted to `answeredBy`. */
  async function answerQuestion(row: SimulatedQuestionRow, elapsedMs: number, answeredBy: string[]): Promise<void> {
    const q: LiveQuestion = { ...row, draft: storedDraft(row.draft) };
    const { profile, rng } = stateOf(q);
    const expected = (deps.answersPerMinute * elapsedMs) / 60_000;
    const want = Math.min(poisson(rng, expected), q.n - q.answered);
    if (want <= 0) return;
    const salt = Math.floor(rng() * 2 ** 31);
    const heads = await candidates(q, salt, want);
    for (const head of heads) {
      const answer = generateAnswer(q.draft, profile, rng);
      if (!answer) return;
      const dwell = dwellMs(q.draft, answer, rng);
      const outcome = await recorder.record(
        q.id,
        { headId: head.id, source: 'simulator', tier: head.tier, country: head.country, ageBand: head.age_band, gender: head.gender, tags: head.tags ?? [] },
        answer,
        { dwellMs: dwell },
      );
      if (outcome.accepted) answeredBy.push(head.id);
      if (outcome.completed) log?.info({ questionId: q.id, n: q.n }, 'simulated heads completed a question');
      // Closed or filled meanwhile (by a link answer, a cancel, the expiry job): stop here.
      if (outcome.reason === 'not_live' || outcome.reason === 'full') return;
      // 'not_eligible' / 'already_answered': a race with another answer; skip the head.
    }
  }

  async function runTick(elapsedMs: number): Promise<number> {
    if (!(deps.answersPerMinute > 0) || !(elapsedMs > 0)) return 0;
    const slice = Math.min(elapsedMs, MAX_TICK_MS);
    const questions = await repo.liveQuestionsToSimulate(clock.now());
    const live = new Set(questions.map((q) => q.id));
    for (const id of states.keys()) if (!live.has(id)) states.delete(id);

    const answeredBy: string[] = [];
    for (const q of questions) {
      try {
        await answerQuestion(q, slice, answeredBy);
      } catch (error) {
        log?.error({ err: error, questionId: q.id }, 'simulator could not answer a question');
      }
    }
    if (answeredBy.length) {
      try {
        await repo.markSeen([...new Set(answeredBy)], clock.now());
      } catch (error) {
        log?.error({ err: error }, 'simulator could not update last_seen_at');
      }
    }
    return answeredBy.length;
  }

  function tick(elapsedMs: number): Promise<number> {
    // Ticks never overlap: a manual tick while start() is running waits for the running one.
    const next = chain.then(() => runTick(elapsedMs));
    chain = next.catch(() => undefined);
    return next;
  }

  return {
    tick,

    start(intervalMs = 1000) {
      if (running || !(deps.answersPerMinute > 0)) return;
      running = true;
      const mine = ++generation;
      let last = performance.now();
      const schedule = () => {
        timer = setTimeout(async () => {
          timer = null;
          const at = performance.now();
          const elapsed = at - last;
          last = at;
          try {
            await tick(elapsed);
          } catch (error) {
            log?.error({ err: error }, 'simulator tick failed');
          }
          if (running && generation === mine) schedule();
        }, intervalMs);
        timer.unref?.();
      };
      schedule();
      log?.info({ answersPerMinute: deps.answersPerMinute, intervalMs }, 'simulated heads are answering live questions (development only)');
    },

    async stop() {
      running = false;
      if (timer) clearTimeout(timer);
      timer = null;
      await chain;
    },
  };
}
