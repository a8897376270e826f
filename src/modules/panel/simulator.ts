import type { Clock } from '../../lib/clock.ts';
import type { HeadsRepository } from './heads.repository.ts';
import { createQuestionAnswerer, type SimulatedAnswerRecorder, type SimulatorLog } from './simulator-question.ts';

export type { SimulatedAnswerRecorder, SimulatorLog } from './simulator-question.ts';

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

/** A paused process (a laptop lid) does not come back to a flood: at most this much time per tick. */
const MAX_TICK_MS = 60_000;

export function createSimulator(deps: SimulatorDeps): Simulator {
  const { heads: repo, clock, log } = deps;
  const answerer = createQuestionAnswerer(deps);
  let chain: Promise<unknown> = Promise.resolve();
  let timer: NodeJS.Timeout | null = null;
  let running = false;
  /** Bumped by every start(), so a tick still finishing from before a stop() does not reschedule. */
  let generation = 0;

  async function runTick(elapsedMs: number): Promise<number> {
    if (!(deps.answersPerMinute > 0) || !(elapsedMs > 0)) return 0;
    const slice = Math.min(elapsedMs, MAX_TICK_MS);
    const questions = await repo.liveQuestionsToSimulate(clock.now());
    const live = new Set(questions.map((q) => q.id));
    answerer.keepOnly(live);

    const answeredBy: string[] = [];
    for (const q of questions) {
      try {
        await answerer.answerQuestion(q, slice, answeredBy);
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
