import type { Db } from '../../db/database.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Actor } from '../../lib/actor.ts';
import type { CreditsRepository } from '../credits/credits.repository.ts';
import type { QuestionRow, QuestionsRepository } from '../questions/questions.repository.ts';
import type { ModerationRepository } from './moderation.repository.ts';

/** What both halves of moderation (flags.service.ts, disputes.service.ts) are built from. */
export interface ModerationDeps {
  db: Db;
  clock: Clock;
  repo: ModerationRepository;
  questions: QuestionsRepository;
  credits: CreditsRepository;
  changed(questionId: string): void;
}

/** The actor's question, or a 404 (moderation.service.ts makes it once for both halves). */
export type OwnQuestion = (actor: Actor, id: string) => Promise<QuestionRow>;
