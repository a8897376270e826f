import type { Db } from '../../db/database.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Actor } from '../../lib/actor.ts';
import type { CreditsRepository } from '../credits/credits.repository.ts';
import type { QuestionRow, QuestionsRepository } from '../questions/questions.repository.ts';
import type { ModerationRepository } from './moderation.repository.ts';
import type { ServiceCounters } from '../../lib/service-counters.ts';

/** What both halves of moderation (flags.service.ts, disputes.service.ts) are built from. */
export interface ModerationDeps {
  db: Db;
  clock: Clock;
  repo: ModerationRepository;
  questions: QuestionsRepository;
  credits: CreditsRepository;
  changed(questionId: string): void;
  /** Operators' counters (docs/operations.md "Metrics"): refunds; default: none. */
  counters?: Pick<ServiceCounters, 'refunded'>;
}

/** The actor's question, or a 404 (moderation.service.ts makes it once for both halves). */
export type OwnQuestion = (actor: Actor, id: string) => Promise<QuestionRow>;
