import { createHash } from 'node:crypto';
import type { Question } from '../questions/questions.schemas.ts';
import type { Result } from '../results/results.schemas.ts';

/**
 * What people outside the account see of a question and its result (docs/sharing.md). Both are
 * ALLOW lists, so a field added to Question or Result later stays private until it is added here.
 */
const PUBLIC_QUESTION_FIELDS = [
  'id', 'type', 'text', 'context', 'language', 'options', 'neither', 'stimulus', 'n', 'tier', 'rush', 'targeting', 'clickTest', 'scheduledFor',
  'publicResults', 'reason', 'contentFlag', 'status', 'source', 'answered', 'creditsPerAnswer', 'creditsReserved', 'creditsSpent', 'etaMinutes',
  'leaderLine', 'refusedCategory', 'publicCode', 'createdAt', 'liveAt', 'closedAt',
] as const satisfies ReadonlyArray<keyof Question>;
// Left out: askedBy (the key and its name), teamId, projectId, labels, archived, bookmarked,
// externalRef (the requester's own organisation of its questions) and linkCode/linkUrl (the
// answer link: a viewer must not be able to answer, and spend the requester's credits).

/**
 * Aggregates only: no individual answers, no insights (their quotes come from written answers), no
 * facets (counts for the owner's filters). Breakdowns come as the builder makes them: country and
 * age band segments of fewer than 5 answers dropped (`suppressed`). `settlement` (early stopping)
 * says why the distribution's intervals are anytime-valid after a stop; its refund adds nothing
 * to `refundCredits`, already here.
 */
const PUBLIC_RESULT_FIELDS = [
  'questionId', 'status', 'nRequested', 'nAccepted', 'distribution', 'mean', 'summary', 'tier', 'language', 'verificationLine', 'medianSeconds',
  'creditsSpent', 'refundCredits', 'breakdown', 'breakdowns', 'suppressed', 'clicks', 'sentiment', 'settlement',
] as const satisfies ReadonlyArray<keyof Result>;

/** Everything a share link shows: the full result with written answers, less moderation and real references. */
const SHARED_RESULT_FIELDS = [...PUBLIC_RESULT_FIELDS, 'translationLanguage', 'insights'] as const satisfies ReadonlyArray<keyof Result>;

function pick<T extends object, K extends keyof T>(value: T, keys: readonly K[]): Pick<T, K> {
  const out = {} as Pick<T, K>;
  for (const key of keys) if (value[key] !== undefined) out[key] = value[key];
  return out;
}

export function publicQuestion(question: Question): Question {
  return pick(question, PUBLIC_QUESTION_FIELDS) as Question;
}

/**
 * An answer's attestation reference names it in the requester's flag and pin calls and may be on
 * the head's own receipt, so it is never shown outside the account: shared answers carry a
 * stand-in derived from it (stable, so a page can key its list on it).
 */
export function sharedAnswerRef(questionId: string, attestationRef: string): string {
  return `shr_${createHash('sha256').update(`${questionId}\n${attestationRef}`).digest('base64url').slice(0, 22)}`;
}

export function publicResult(result: Result): Result {
  return { ...(pick(result, PUBLIC_RESULT_FIELDS) as Result), answers: [] };
}

export function sharedResult(result: Result): Result {
  return {
    ...(pick(result, SHARED_RESULT_FIELDS) as Result),
    answers: result.answers.map((answer) => {
      const { flag: _flag, attestationRef, ...rest } = answer;
      return { ...rest, attestationRef: sharedAnswerRef(result.questionId, attestationRef) };
    }),
  };
}
