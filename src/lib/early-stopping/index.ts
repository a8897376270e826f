/**
 * Early stopping that keeps its error guarantee (issue 17 point 2): pure rules, no I/O.
 * docs/early-stopping.md explains them; each file cites its paper.
 */
export { leaderRule, logPairEvidence, type LeaderRuleResult } from './leader-rule.ts';
export {
  logShareEvidence,
  shareConfidenceInterval,
  shareConfidenceIntervals,
  shareMarginRule,
  type BetaPrior,
  type Interval,
  type ShareMarginResult,
} from './share-confidence-sequence.ts';
export {
  createBettingConfidenceSequence,
  observe,
  meanInterval,
  isRejected,
  meanPrecisionSettled,
  differenceSeparated,
  type BettingOptions,
  type BettingState,
  type MeanInterval,
} from './betting-confidence-sequence.ts';
export { meanIntervalFromCounts, type CountMeanInterval } from './count-betting.ts';
export { minimumBeforeStop, floorReached } from './stopping-floor.ts';
export { anytimeWidthRatio, wilsonInterval, type WidthComparison } from './interval-width.ts';
export { logGamma, logBeta, logFactorial } from './log-gamma.ts';
export { normalQuantile } from './normal-quantile.ts';
