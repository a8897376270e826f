import { Type, type Static } from '@sinclair/typebox';
import { Closed, DateTime, Nullable, StringEnum } from '../../lib/typebox.ts';
import { STOP_RULES } from '../draft/stop-when.ts';

/**
 * The two shapes of a settlement (issue 17; docs/early-stopping.md): what questions.settlement
 * stores when a rule is first met (migration 0021), and the `settlement` object every Result carries.
 */
const METHODS = ['ppr_1v1', 'beta_binomial_mixture', 'betting_dkelly'] as const;
const MeanIntervalSchema = Closed({ lower: Type.Number(), upper: Type.Number() });

/** questions.settlement: written once, when the rule is first met; the close adds the refund. */
export const StoredSettlementSchema = Closed({
  /** The question's own stopWhen (true) or the reference rule a result reports (false). */
  asked: Type.Boolean(),
  rule: StringEnum(STOP_RULES),
  method: StringEnum(METHODS),
  confidence: Type.Number(),
  alpha: Type.Number(),
  points: Type.Number(),
  floor: Type.Integer(),
  /** Answers counted (not removed) when the rule was met. */
  answers: Type.Integer(),
  at: DateTime(),
  nRequested: Type.Integer(),
  leader: Nullable(Type.String()),
  evidence: Nullable(Type.Number()),
  threshold: Type.Number(),
  interval: Type.Optional(MeanIntervalSchema),
  /** The question stopped there (its own rule, before n). */
  stopped: Type.Boolean(),
  refundedCredits: Type.Integer(),
  withdrawn: Nullable(Closed({ at: DateTime(), answers: Type.Integer(), note: Type.String() })),
});
export type StoredSettlement = Static<typeof StoredSettlementSchema>;

/** The column's JSON as its type (written only from a StoredSettlement); null when no rule was met. */
export function storedSettlement(value: unknown): StoredSettlement | null {
  if (value === null || value === undefined) return null;
  if (typeof value !== 'object' || typeof (value as { answers?: unknown }).answers !== 'number') {
    throw new Error('questions.settlement is not a stored settlement');
  }
  return value as StoredSettlement;
}

export const SettlementSchema = Closed(
  {
    rule: StringEnum(STOP_RULES),
    method: StringEnum(METHODS, { description: '`ppr_1v1` (leader rule, Jain et al. 2022), `beta_binomial_mixture` (shares), `betting_dkelly` (1–5 mean); docs/early-stopping.md.' }),
    asked: Type.Boolean({ description: 'true: the question was asked with this `stopWhen`. false: it was asked without one, and this is the reference rule (leader at 95%, or margin at 95%) it is read under, for information.' }),
    confidence: Type.Number(),
    alpha: Type.Number({ description: '1 − confidence: the chance the claim is wrong, however often the rule was checked.' }),
    points: Nullable(Type.Number({ description: 'margin: percentage points (shares) or stars (1–5 mean); null for leader.' })),
    floor: Type.Integer({ minimum: 1, description: 'No stop before this many answers.' }),
    stopped: Type.Boolean({ description: 'The question stopped early because its rule was met.' }),
    settledAt: Nullable(Type.Integer({ minimum: 1, description: 'Answers counted when the rule was first met (for `asked: false`, where it would have stopped); null while it is not met.' })),
    settledAtTime: Nullable(DateTime()),
    nRequested: Type.Integer({ minimum: 0, description: 'n when the rule was met (or now, while it is not).' }),
    leader: Nullable(Type.String({ description: 'The option the claim is about; null for a mean or with a tie for first.' })),
    evidence: Nullable(
      Type.Number({ description: 'leader: the evidence ratio against the closest rival (capped at 1e300); shares: the lead proven, in points; mean: the half-width of its interval, in stars. At the settlement, or now while not met.' }),
    ),
    threshold: Type.Number({ description: 'What evidence must reach: (K − 1)/α; points; for a mean, at most points.' }),
    interval: Type.Optional(Closed({ lower: Type.Number(), upper: Type.Number() }, { description: '1–5 mean: its anytime-valid interval at the settlement (or now).' })),
    refundedCredits: Type.Integer({ minimum: 0, description: 'What the early stop refunded.' }),
    withdrawn: Type.Boolean({ description: 'Answers removed after review left the claim unproven: it is withdrawn (the refund stands).' }),
    intervals: StringEnum(['anytime_valid', 'wilson'], { description: 'What the distribution\'s `low`/`high` are: anytime-valid (all options together, at `confidence`) for a question that stopped by its rule; otherwise 95% Wilson.' }),
    note: Type.String({ description: 'What happened, in plain words.' }),
  },
  { $id: 'Settlement', description: 'Extension (docs/early-stopping.md): the stopping rule and what it found.' },
);
export type Settlement = Static<typeof SettlementSchema>;
