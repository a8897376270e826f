import { Type, type Static } from '@sinclair/typebox';
import { Closed, Nullable, StringEnum } from '../../lib/typebox.ts';
import { anytimeWidthRatio } from '../../lib/early-stopping/index.ts';
import { answerLabels } from '../draft/answer-format.ts';
import { normalizeDraft } from '../draft/draft-defaults.ts';
import type { QuestionDraft } from '../draft/draft.schemas.ts';
import { stopRuleOf, STOP_RULES, type StopRule } from '../draft/stop-when.ts';
import type { QuestionType } from '../draft/question-types.ts';
import { readRule } from '../settlement/settlement-rule.ts';

/**
 * Estimate.earlyStopping (issue 17 point 1): what a draft's stopWhen may save and what it costs,
 * before it is asked. The savings are read off the rule itself: for a few splits of the answers
 * (the leader at 90%, 70%, 60%, a tie; for a 1–5 scale, answers that mostly agree or spread out),
 * the first number of answers at which the rule is met if the answers came in exactly at that
 * split. Real answers wobble around their split, so a real question stops somewhat later on
 * average (70/30 with n = 200: 55 here, 57.5 averaged over 2,000 simulated questions; docs/early-
 * stopping.md); the note says so. The cost: the reserve is the whole n (a close race uses every
 * answer), and the intervals a stopped question shows are anytime-valid, `widthRatio` times as
 * wide as a one-time interval at that many answers.
 */
export const EarlyStoppingEstimateSchema = Closed({
  rule: StringEnum(STOP_RULES),
  confidence: Type.Number(),
  points: Nullable(Type.Number({ description: 'margin: percentage points (shares) or stars (1–5 mean); null for leader.' })),
  floor: Type.Integer({ minimum: 1 }),
  scenarios: Type.Array(
    Closed({
      label: Type.String({ description: 'The split of the answers, e.g. "70% for the leader".' }),
      stopsAt: Nullable(Type.Integer({ minimum: 1, description: 'Where the rule is met if the answers come in at exactly this split; null: not before n (every answer used).' })),
      creditsSaved: Type.Integer({ minimum: 0 }),
    }),
  ),
  widthRatio: Type.Number({ description: 'Anytime-valid interval width / one-time interval width, at the typical stop (or n).' }),
  note: Type.String(),
});
export type EarlyStoppingEstimate = Static<typeof EarlyStoppingEstimateSchema>;

type Scenario = { label: string; countsAt: (m: number) => number[] };

function choiceScenarios(k: number): Scenario[] {
  const split = (p: number) => (m: number) => {
    const leader = Math.round(p * m);
    return [leader, m - leader, ...Array.from({ length: k - 2 }, () => 0)];
  };
  return [
    { label: '90% for the leader', countsAt: split(0.9) },
    { label: '70% for the leader', countsAt: split(0.7) },
    { label: '60% for the leader', countsAt: split(0.6) },
    { label: 'a tie', countsAt: split(0.5) },
  ];
}

function scaleScenarios(): Scenario[] {
  const spread = (weights: number[]) => (m: number) => {
    const counts = weights.map((w) => Math.floor(w * m));
    counts[weights.indexOf(Math.max(...weights))] += m - counts.reduce((s, c) => s + c, 0);
    return counts;
  };
  return [
    { label: 'most answers agree (70% on one value)', countsAt: spread([0, 0.1, 0.1, 0.7, 0.1]) },
    { label: 'answers spread across the scale', countsAt: spread([0.2, 0.2, 0.2, 0.2, 0.2]) },
    { label: 'answers split between 1 and 5', countsAt: spread([0.5, 0, 0, 0, 0.5]) },
  ];
}

/** The first m in [floor, n) at which the rule is met at the scenario's split (bisection: evidence grows with m at a fixed split). */
function stopsAt(rule: StopRule, type: QuestionType, labels: string[], scenario: Scenario, n: number): number | null {
  const met = (m: number) => readRule(rule, type, labels, scenario.countsAt(m), m).met;
  if (rule.floor >= n || !met(n - 1)) return null;
  let lo = rule.floor - 1; // not met (or below the floor)
  let hi = n - 1; // met
  if (met(rule.floor)) return rule.floor;
  lo = rule.floor;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (met(mid)) hi = mid;
    else lo = mid;
  }
  return hi;
}

/** Null when the draft has no rule (or one its type cannot use: the validation says so). */
export function earlyStoppingEstimate(draft: QuestionDraft, creditsPerAnswer: number): EarlyStoppingEstimate | null {
  const normalized = normalizeDraft(draft);
  const type = normalized.type as QuestionType;
  const rule = stopRuleOf(type, normalized.n, normalized.stopWhen);
  if (!rule) return null;
  const labels = answerLabels(normalized); // a 1–5 scale's are its values, '1' … '5'
  if (labels.length < 2) return null;
  const k = labels.length;
  const scenarios = (rule.method === 'betting_dkelly' ? scaleScenarios() : choiceScenarios(k)).map((scenario) => {
    const at = stopsAt(rule, type, labels, scenario, normalized.n);
    return { label: scenario.label, stopsAt: at, creditsSaved: at === null ? 0 : (normalized.n - at) * creditsPerAnswer };
  });
  const typical = scenarios[1].stopsAt ?? normalized.n;
  const widthRatio = Number(anytimeWidthRatio(typical, 0.5, rule.alpha, k).ratio.toFixed(2));
  return {
    rule: rule.rule,
    confidence: rule.confidence,
    points: rule.rule === 'margin' ? rule.points : null,
    floor: rule.floor,
    scenarios,
    widthRatio,
    note:
      `The whole n is reserved and a close race uses every answer; a clear one stops early and the rest is refunded. ` +
      `Stops are read at exact splits: real answers vary, so expect a later stop on average. ` +
      `A stopped question shows anytime-valid intervals, about ${widthRatio.toFixed(1)}× as wide as one-time intervals at ${typical} answers.`,
  };
}
