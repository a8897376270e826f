import type { Insertable } from 'kysely';
import type { QuestionsTable } from '../../db/schema.ts';
import { personOf, type Actor } from '../../lib/actor.ts';
import { newId, newPublicCode } from '../../lib/ids.ts';
import { normalizeDraft } from '../draft/draft-defaults.ts';
import type { AskBody } from './ask.schemas.ts';
import type { AskPlan } from './ask-plan.ts';
import { questionRow } from './question-row.ts';

/** The ask as the transaction received it. */
export interface AskRequest {
  actor: Actor;
  body: AskBody;
  source: 'api' | 'mcp';
  plan: AskPlan;
  now: Date;
}

/** What the transaction decided for the question itself (its price depends on today's private asks). */
export interface AskTerms {
  id: string;
  status: 'live' | 'scheduled';
  creditsPerAnswer: number;
  creditsReserved: number;
  scheduledFor: Date | null;
  closesAt: Date;
}

/** The rows an ask inserts: the question, then each follow-up (`status: 'draft'`, waiting for it). */
export function askRows(ask: AskRequest, terms: AskTerms): { question: Insertable<QuestionsTable>; followUps: Insertable<QuestionsTable>[] } {
  const { actor, body, source, plan, now } = ask;
  const { main, shownAs } = plan;
  // What the question and its follow-ups share: who asked, how, when, filed where.
  const common = {
    accountId: actor.accountId,
    keyId: actor.keyId,
    personId: personOf(actor),
    source,
    etaMinutes: plan.eta,
    openForDays: plan.openForDays,
    at: now,
    projectId: body.projectId ?? null,
    labels: [...new Set(body.labels ?? [])],
  };
  const question = questionRow({
    ...common,
    id: terms.id,
    status: terms.status,
    // shownAs (from a saved draft) is kept with the draft: the answer page shows it.
    draft: shownAs ? { ...main, shownAs } : main,
    creditsPerAnswer: terms.creditsPerAnswer,
    creditsReserved: terms.creditsReserved,
    scheduledFor: terms.scheduledFor,
    liveAt: terms.scheduledFor ? null : now,
    closesAt: terms.closesAt,
    externalRef: body.externalRef ?? null,
    publicCode: main.publicResults ? newPublicCode() : null,
    variantGroup: plan.variantGroup,
    parentId: null,
    minConfidence: null,
    private: plan.isPrivate,
  });
  const followUps = plan.followUps.map((followUp, i) =>
    questionRow({
      ...common,
      id: newId('question'),
      status: 'draft',
      draft: normalizeDraft(followUp),
      creditsPerAnswer: plan.followPrices[i].creditsPerAnswer,
      creditsReserved: plan.followPrices[i].creditsTotal,
      scheduledFor: null,
      liveAt: null,
      closesAt: null,
      externalRef: null,
      publicCode: null,
      variantGroup: null,
      parentId: terms.id,
      minConfidence: body.then![i].minConfidence ?? null,
      private: false,
    }),
  );
  return { question, followUps };
}
