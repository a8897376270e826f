import { bare } from './bare.ts';
import { config, countries } from './catalogues.ts';
import { estimate, estimateBroken, estimateUncached } from './estimate.ts';
import type { Scenario } from './types.ts';

/** Every scenario, in the order they run and are reported. `bare` must stay first: it is the baseline. */
export const SCENARIOS: Scenario[] = [bare, config, countries, estimate, estimateBroken, estimateUncached];
export const BASELINE_ID = bare.id;
