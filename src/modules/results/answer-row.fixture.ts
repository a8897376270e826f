import type { AnswerRow } from './results.repository.ts';

/** Test fixture: an answer row with everything not given empty (a panel answer of tier 1). */
let seq = 1_000_000;
export function answerRow(fields: Partial<AnswerRow> = {}): AnswerRow {
  seq -= 1;
  const text = fields.text ?? null;
  const reason = fields.reason ?? null;
  return {
    seq,
    profiled: true,
    simulated: false,
    tier: 1,
    grade: null,
    country: null,
    ageBand: null,
    gender: null,
    tags: [],
    option: undefined,
    options: undefined,
    order: undefined,
    pair: undefined,
    taps: undefined,
    optionLabel: null,
    text,
    reason,
    search: [text, reason].filter((s): s is string => s !== null).map((s) => s.toLowerCase()),
    sentiment: null,
    translatedText: null,
    translatedReason: null,
    translatedTo: null,
    dwellMs: null,
    pinned: false,
    attestationRef: `att_${seq}`,
    answeredAt: new Date(Date.UTC(2026, 0, 1) + (1_000_000 - seq) * 1000).toISOString(),
    ...fields,
  };
}
