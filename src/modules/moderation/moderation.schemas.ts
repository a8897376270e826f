import { Type, type Static } from '@sinclair/typebox';
import { Closed, DateTime, Nullable, StringEnum } from '../../lib/typebox.ts';
import { FLAG_REASONS, FLAG_STATUSES } from '../results/results.schemas.ts';

/** `/v2/questions/{id}/answers/{ref}/…`: the question id and the answer's attestation reference. */
export const AnswerParams = Closed({
  id: Type.String({ pattern: '^[A-Za-z0-9_]{1,64}$', description: 'The question id, e.g. q_4cYw…' }),
  ref: Type.String({ pattern: '^[A-Za-z0-9_]{1,64}$', description: "The answer's attestationRef (att_…), as in the result's answers." }),
});

export const FlagBodySchema = Closed({
  reason: StringEnum(FLAG_REASONS, { description: 'Why the answer should not count.' }),
  note: Type.Optional(Type.String({ maxLength: 500, description: 'Anything the reviewer should know.' })),
});
export type FlagBody = Static<typeof FlagBodySchema>;

/** A flag as the flag call returns it (the Answer's `flag` is the same without id and attestationRef). */
export const FlagSchema = Closed({
  id: Type.String({ description: 'flg_…' }),
  attestationRef: Type.String(),
  reason: StringEnum(FLAG_REASONS),
  status: StringEnum(FLAG_STATUSES),
  refundCredits: Type.Integer({ minimum: 0, description: 'Open: what upholding would refund (the credits the answer cost). Upheld: what was refunded. Dismissed: 0.' }),
  createdAt: DateTime(),
  decidedAt: Nullable(DateTime()),
});
export type Flag = Static<typeof FlagSchema>;

export const PinBodySchema = Closed({ pinned: Type.Boolean({ description: 'true pins the answer (pinned answers come first), false unpins it.' }) });

export const DisputeBodySchema = Closed({
  reason: Type.String({ minLength: 10, maxLength: 2000, description: 'What is wrong with the result, in words (10 to 2000 characters).' }),
});

export const DISPUTE_STATUSES = ['open', 'upheld', 'rejected'] as const;
export type DisputeStatus = (typeof DISPUTE_STATUSES)[number];

/** Extension: a dispute as its requester reads it back (the spec's POST answers only `{ok: true}`). */
export const DisputeSchema = Closed(
  {
    id: Type.String({ description: 'dsp_…' }),
    questionId: Type.String(),
    status: StringEnum(DISPUTE_STATUSES, { description: '`open` until an operator decides it; then `upheld` or `rejected`.' }),
    reason: Type.String({ description: 'What the requester wrote.' }),
    createdAt: DateTime(),
    decidedAt: Nullable(DateTime()),
    decision: Nullable(Type.String({ description: "The reviewer's note to the requester; null while open." })),
    refundCredits: Type.Integer({ minimum: 0, description: 'Credits refunded by the decision (also a `refund` row in the ledger); 0 while open or when none.' }),
  },
  { $id: 'Dispute', description: 'Extension: a dispute of a closed question and its decision (docs/moderation.md).' },
);
export type Dispute = Static<typeof DisputeSchema>;
