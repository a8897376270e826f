import type { Insertable } from 'kysely';
import type { QuestionsTable } from '../../db/schema.ts';
import { newLinkCode } from '../../lib/ids.ts';
import type { StoredDraft } from '../draft/stored-draft.ts';

/** What differs between the questions an ask creates (the question itself and each follow-up). */
export interface NewQuestion {
  id: string;
  accountId: string;
  keyId: string | null;
  /** The person who asked through a portal session (askedBy); null for a key. */
  personId: string | null;
  source: string;
  status: 'live' | 'scheduled' | 'draft';
  /** The normalized draft (with shownAs when it came from a saved draft: the answer page shows it). */
  draft: StoredDraft;
  creditsPerAnswer: number;
  creditsReserved: number;
  etaMinutes: number;
  openForDays: number;
  scheduledFor: Date | null;
  liveAt: Date | null;
  closesAt: Date | null;
  at: Date;
  projectId: string | null;
  labels: string[];
  externalRef: string | null;
  publicCode: string | null;
  variantGroup: string | null;
  parentId: string | null;
  minConfidence: string | null;
  private: boolean;
}

/**
 * The row of a new question: type, n and tier come from its draft, every question gets its own
 * answer-link code (docs/answer-link.md), and nothing is answered, spent or closed yet.
 */
export function questionRow(q: NewQuestion): Insertable<QuestionsTable> {
  return {
    id: q.id,
    account_id: q.accountId,
    key_id: q.keyId,
    person_id: q.personId,
    source: q.source,
    status: q.status,
    type: q.draft.type,
    draft: JSON.stringify(q.draft),
    n: q.draft.n,
    tier: q.draft.tier,
    credits_per_answer: q.creditsPerAnswer,
    credits_reserved: q.creditsReserved,
    eta_minutes: q.etaMinutes,
    open_for_days: q.openForDays,
    scheduled_for: q.scheduledFor,
    live_at: q.liveAt,
    closes_at: q.closesAt,
    closed_at: null,
    created_at: q.at,
    updated_at: q.at,
    project_id: q.projectId,
    labels: q.labels,
    archived: false,
    bookmarked: false,
    external_ref: q.externalRef,
    public_code: q.publicCode,
    link_code: newLinkCode(),
    refused_category: null,
    variant_group: q.variantGroup,
    parent_id: q.parentId,
    min_confidence: q.minConfidence,
    private: q.private,
  };
}
