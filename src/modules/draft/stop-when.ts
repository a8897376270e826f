import { Type, type Static } from '@sinclair/typebox';
import { Closed, StringEnum } from '../../lib/typebox.ts';
import { minimumBeforeStop } from '../../lib/early-stopping/index.ts';
import type { QuestionType } from './question-types.ts';

/**
 * `stopWhen` (issue 17; docs/early-stopping.md): an extension of the QuestionDraft. Without it, or
 * with `"never"`, a question is the spec's contract: n answers. With a rule, the question completes
 * as soon as the rule is met after an answer (no earlier than the floor), and the places not
 * answered are refunded.
 */
export const STOP_RULES = ['leader', 'margin'] as const;
export type StopRuleName = (typeof STOP_RULES)[number];

export const STOP_CONFIDENCE = { min: 0.8, max: 0.999, default: 0.95 } as const;

/** The question types each rule can judge, and what `points` means for margin. */
export const LEADER_TYPES: readonly QuestionType[] = ['single_choice', 'ab_image', 'yes_mostly_no', 'reaction', 'pairwise', 'ranking'];
export const SHARE_MARGIN_TYPES: readonly QuestionType[] = ['single_choice', 'ab_image', 'yes_mostly_no', 'reaction', 'multi_choice'];
export const MEAN_MARGIN_TYPES: readonly QuestionType[] = ['scale_1_5'];
/**
 * The most a 1–5 mean's half-width can be asked to be, in stars. ± 2 stars is the whole scale (met
 * before any answer), so the loosest question worth asking is ± 1: "somewhere in 2 to 4, or better".
 */
export const MAX_MEAN_POINTS = 1;

export const StopRuleSchema = Closed(
  {
    rule: StringEnum(STOP_RULES, {
      description:
        '`leader`: stop when the option in front is, at `confidence`, the true favourite (single choice, A/B image, yes/mostly/no, reaction, pairwise: wins, ranking: first places). ' +
        '`margin`: for shares (single choice, A/B image, yes/mostly/no, reaction, multi choice) stop when the leader is ahead of every other option by at least `points` percentage points; for the 1–5 scale stop when the mean is known to ± `points` stars.',
    }),
    confidence: Type.Optional(
      Type.Number({ minimum: STOP_CONFIDENCE.min, maximum: STOP_CONFIDENCE.max, default: STOP_CONFIDENCE.default, description: '1 − α: the chance the claim made on stopping is right, however often it was checked.' }),
    ),
    points: Type.Optional(
      Type.Number({ minimum: 0, maximum: 99, description: '`margin` only, and required there: percentage points between the leader\'s share and every other (0 to 99), or for the 1–5 scale the half-width of the mean in stars (more than 0, at most 1).' }),
    ),
    floor: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 5000, description: 'No stop before this many answers. Default max(10, ⌈n/10⌉); at most n.' }),
    ),
  },
  { description: 'A rule for stopping early (docs/early-stopping.md).' },
);

export const StopWhenSchema = Type.Union([StringEnum(['never']), StopRuleSchema], {
  default: 'never',
  description:
    'Extension (docs/early-stopping.md): stop early once the answer is settled, keeping the error guarantee however often it is checked; the places not answered are refunded. `never` (default): n answers, as the spec says.',
});
export type StopWhen = Static<typeof StopWhenSchema>;
export type StopRuleInput = Static<typeof StopRuleSchema>;

/** A rule with every default filled in, as the engine evaluates it. */
export interface StopRule {
  rule: StopRuleName;
  /** ppr_1v1 (leader), beta_binomial_mixture (margin of shares), betting_dkelly (margin of a mean). */
  method: 'ppr_1v1' | 'beta_binomial_mixture' | 'betting_dkelly';
  confidence: number;
  alpha: number;
  /** margin: shares in percentage points, a mean in stars; 0 for leader. */
  points: number;
  floor: number;
}

function methodOf(type: QuestionType, rule: StopRuleName): StopRule['method'] {
  if (rule === 'leader') return 'ppr_1v1';
  return MEAN_MARGIN_TYPES.includes(type) ? 'betting_dkelly' : 'beta_binomial_mixture';
}

/** Which rules a question type can be asked with. */
export function rulesFor(type: QuestionType): StopRuleName[] {
  const rules: StopRuleName[] = [];
  if (LEADER_TYPES.includes(type)) rules.push('leader');
  if (SHARE_MARGIN_TYPES.includes(type) || MEAN_MARGIN_TYPES.includes(type)) rules.push('margin');
  return rules;
}

/** The rule a question was asked with, defaults filled in; null for `never` or none. */
export function stopRuleOf(type: QuestionType, n: number, stopWhen: StopWhen | undefined): StopRule | null {
  if (stopWhen === undefined || stopWhen === 'never') return null;
  const confidence = stopWhen.confidence ?? STOP_CONFIDENCE.default;
  return {
    rule: stopWhen.rule,
    method: methodOf(type, stopWhen.rule),
    confidence,
    alpha: Number((1 - confidence).toPrecision(12)),
    points: stopWhen.points ?? 0,
    floor: stopWhen.floor ?? minimumBeforeStop(n),
  };
}

/**
 * The rule a result reports "where it would have settled" under, for a question asked without one:
 * the leader rule at 95% where it applies, else the margin rule at 95% (multi choice: the leader
 * ahead at all, 0 points; the 1–5 scale: ± 0.25 stars). Null for types no rule judges.
 */
export function referenceRuleOf(type: QuestionType, n: number): StopRule | null {
  const rules = rulesFor(type);
  if (rules.length === 0) return null;
  if (rules.includes('leader')) return stopRuleOf(type, n, { rule: 'leader' });
  return stopRuleOf(type, n, { rule: 'margin', points: MEAN_MARGIN_TYPES.includes(type) ? 0.25 : 0 });
}

export interface StopWhenProblem {
  path: string;
  code: 'not_allowed' | 'required' | 'out_of_range';
  message: string;
}

/**
 * The rules JSON Schema cannot say: which types a rule judges, `points` per rule and type, the
 * floor within n. `stopWhen` has passed the schema (or is absent).
 */
export function stopWhenProblems(type: QuestionType, n: number, stopWhen: StopWhen | undefined): StopWhenProblem[] {
  if (stopWhen === undefined || stopWhen === 'never' || typeof stopWhen !== 'object') return [];
  const problems: StopWhenProblem[] = [];
  const allowed = rulesFor(type);
  if (!allowed.includes(stopWhen.rule)) {
    const offer = allowed.length ? `it can use ${allowed.map((r) => `"${r}"`).join(' or ')}` : 'its answers have no leader or share to settle, so it always takes n answers';
    problems.push({ path: 'stopWhen.rule', code: 'not_allowed', message: `A ${type} question cannot stop by the "${stopWhen.rule}" rule: ${offer}.` });
    return problems;
  }
  if (stopWhen.rule === 'leader' && stopWhen.points !== undefined) {
    problems.push({ path: 'stopWhen.points', code: 'not_allowed', message: 'points is for the margin rule; the leader rule stops when the leader is the true favourite.' });
  }
  if (stopWhen.rule === 'margin') {
    if (stopWhen.points === undefined) {
      const what = MEAN_MARGIN_TYPES.includes(type) ? 'the half-width of the mean in stars, e.g. 0.25' : 'the lead in percentage points, e.g. 10 (0: ahead at all)';
      problems.push({ path: 'stopWhen.points', code: 'required', message: `The margin rule needs points: ${what}.` });
    } else if (MEAN_MARGIN_TYPES.includes(type) && !(stopWhen.points > 0 && stopWhen.points <= MAX_MEAN_POINTS)) {
      problems.push({ path: 'stopWhen.points', code: 'out_of_range', message: `For a 1–5 scale points is the half-width of the mean in stars: more than 0, at most ${MAX_MEAN_POINTS}.` });
    }
  }
  if (stopWhen.floor !== undefined && stopWhen.floor > n) {
    problems.push({ path: 'stopWhen.floor', code: 'out_of_range', message: `floor must be at most n (${n}): no question can stop after its last answer.` });
  }
  return problems;
}
