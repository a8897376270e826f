import type { Question } from './questions.schemas.ts';
import type { QuestionRow } from './questions.repository.ts';
import { storedDraft } from '../draft/stored-draft.ts';

/** Draft fields a Question echoes (the spec: "All QuestionDraft fields"). */
const DRAFT_FIELDS = ['type', 'text', 'context', 'language', 'options', 'neither', 'stimulus', 'tier', 'rush', 'targeting', 'clickTest', 'scheduledFor', 'publicResults', 'reason', 'contentFlag', 'stopWhen'] as const;

/**
 * The leader in plain words, from the running tally kept with each answer (no aggregate query):
 * "Penny leads with 23 of 50 answers (46%)".
 */
export function leaderLine(type: string, tally: Record<string, number>, answered: number): string | null {
  if (answered === 0 || type === 'free_text' || type === 'click_test') return null;
  if (type === 'scale_1_5') {
    let sum = 0;
    let count = 0;
    for (const [value, n] of Object.entries(tally)) {
      sum += Number(value) * n;
      count += n;
    }
    return count ? `Average ${(sum / count).toFixed(1)} out of 5 from ${count} answer${count === 1 ? '' : 's'}` : null;
  }
  const ranked = Object.entries(tally).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  if (ranked.length === 0) return null;
  const [top, second] = ranked;
  const basis = type === 'pairwise' ? 'wins' : 'answers';
  if (second && second[1] === top[1]) return `${top[0]} and ${second[0]} are tied at ${top[1]} ${basis} each`;
  const share = Math.round((top[1] / answered) * 100);
  return type === 'pairwise' ? `${top[0]} leads with ${top[1]} wins` : `${top[0]} leads with ${top[1]} of ${answered} answers (${share}%)`;
}

/** The answer link people open to answer (docs/answer-link.md); `baseUrl` is PUBLIC_BASE_URL. */
export const answerLinkUrl = (baseUrl: string, linkCode: string): string => `${baseUrl}/a/${linkCode}`;

/** `baseUrl` is PUBLIC_BASE_URL: the answer link is `{baseUrl}/a/{linkCode}` (docs/answer-link.md). */
export function questionView(row: QuestionRow, baseUrl: string): Question {
  const draft = storedDraft(row.draft);
  const view: Record<string, unknown> = {};
  for (const field of DRAFT_FIELDS) if (draft[field] !== undefined) view[field] = draft[field];
  return {
    id: row.id,
    ...(view as Pick<Question, (typeof DRAFT_FIELDS)[number]>),
    type: row.type as Question['type'],
    text: draft.text,
    language: draft.language,
    options: draft.options,
    neither: draft.neither,
    n: row.n,
    tier: row.tier as 1 | 2 | 3,
    rush: draft.rush,
    publicResults: draft.publicResults,
    reason: draft.reason,
    status: row.status as Question['status'],
    source: row.source as Question['source'],
    answered: row.answered,
    creditsPerAnswer: row.credits_per_answer,
    creditsReserved: row.credits_reserved,
    creditsSpent: row.credits_spent,
    etaMinutes: row.eta_minutes,
    // Answers removed after review are out of the tally, so out of the count too.
    leaderLine: leaderLine(row.type, row.tally, row.answered - row.removed_answers),
    refusedCategory: row.refused_category,
    publicCode: row.public_code,
    createdAt: row.created_at.toISOString(),
    liveAt: row.live_at?.toISOString() ?? null,
    closedAt: row.closed_at?.toISOString() ?? null,
    teamId: row.account_kind === 'team' ? row.account_id : null,
    // The person who asked through a portal session (their name, else their address), or the key.
    askedBy: row.person_id ? { id: row.person_id, name: row.person_name ?? row.person_email } : row.key_id ? { id: row.key_id, name: row.key_name } : null,
    projectId: row.project_id,
    labels: row.labels,
    archived: row.archived,
    bookmarked: row.bookmarked,
    externalRef: row.external_ref,
    linkCode: row.link_code,
    linkUrl: answerLinkUrl(baseUrl, row.link_code),
    ...(row.audience_id ? { interestAudienceId: row.audience_id, minGrade: row.min_grade ?? 1 } : {}),
    ...(row.parent_id ? { parentId: row.parent_id } : {}),
  };
}
