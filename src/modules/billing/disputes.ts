import type { DisputeState } from '../../db/schema.ts';

/** What a payment's disputes hold, in minor units: the open ones and the lost ones (a won dispute gave its money back). */
export const disputedAmount = (disputes: Record<string, DisputeState>): number => Object.values(disputes).reduce((sum, d) => sum + (d.state === 'won' ? 0 : d.amount), 0);
