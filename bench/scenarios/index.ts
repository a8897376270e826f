import { bare } from './bare.ts';
import { config, countries } from './catalogues.ts';
import { estimate, estimateBroken, estimateUncached } from './estimate.ts';
import { asks, asksSpread } from './asks.ts';
import { answersAccounts, answersHot, answersSpread } from './answers.ts';
import { waits } from './waits.ts';
import { webhooks } from './webhooks.ts';
import { result, resultAfterAnswer, resultBare, resultBr, resultBrBare, resultFields, resultFieldsBare, resultFiltered } from './results.ts';
import { linkAnswers, linkAnswersMany } from './links.ts';
import type { AnyScenario } from './types.ts';

/**
 * Every scenario, in the order they run and are reported (bench/README.md describes each). `bare`
 * must stay first: it is the baseline. The write paths come after the read paths (they add rows,
 * and the result and answers rows add heads to the panel, which the estimate rows count; so the
 * result rows, reads that seed a question first, come after the estimates; a row's same-bytes
 * baseline, `result-bare`, just before it), then the webhooks
 * (after `asks`, whose row its section compares with), and the waits last.
 */
export const SCENARIOS: AnyScenario[] = [
  bare, config, countries, estimate, estimateBroken, estimateUncached,
  resultBare, result, resultFiltered, resultBrBare, resultBr, resultFieldsBare, resultFields, resultAfterAnswer,
  asks, asksSpread, linkAnswers, linkAnswersMany, answersSpread, answersHot, answersAccounts, webhooks, waits,
];
export const BASELINE_ID = bare.id;
