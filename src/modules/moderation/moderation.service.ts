import { notFound } from '../../lib/errors.ts';
import type { Actor } from '../../lib/actor.ts';
import type { QuestionRow } from '../questions/questions.repository.ts';
import { createDisputeService } from './disputes.service.ts';
import { createFlagService, type InsightsAfterRemoval } from './flags.service.ts';
import type { ModerationDeps } from './moderation.deps.ts';

/**
 * Flags, pins and disputes (docs/moderation.md): one service over the two halves, flags and pins
 * of answers (flags.service.ts) and disputes of closed questions (disputes.service.ts). Each moves
 * money only on an upheld decision, through the ledger, in the decision's transaction, once.
 */
export function createModerationService(deps: ModerationDeps & { insights: InsightsAfterRemoval }) {
  /** Both halves act only on the actor's own questions; another account's id finds nothing (a 404). */
  async function ownQuestion(actor: Actor, id: string): Promise<QuestionRow> {
    const q = await deps.questions.find(actor.accountId, id);
    if (!q) throw notFound('No such question on this account.');
    return q;
  }

  return { ...createFlagService({ ...deps, ownQuestion }), ...createDisputeService({ ...deps, ownQuestion }) };
}
export type ModerationService = ReturnType<typeof createModerationService>;
