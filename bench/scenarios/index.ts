import { bare } from './bare.ts';
import { config, countries } from './catalogues.ts';
import { estimate, estimateBroken, estimateUncached } from './estimate.ts';
import { asks, asksSpread } from './asks.ts';
import { answersAccounts, answersHot, answersSpread } from './answers.ts';
import { waits } from './waits.ts';
import type { AnyScenario } from './types.ts';

/**
 * Every scenario, in the order they run and are reported. `bare` must stay first: it is the
 * baseline. The write paths come after the read paths (they add rows, and the answers rows add
 * heads to the panel, which the estimate rows count), and the waits last.
 */
export const SCENARIOS: AnyScenario[] = [bare, config, countries, estimate, estimateBroken, estimateUncached, asks, asksSpread, answersSpread, answersHot, answersAccounts, waits];
export const BASELINE_ID = bare.id;
