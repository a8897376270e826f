import { describe, expect, it } from 'vitest';
import { normalizeDraft } from '../draft/draft-defaults.ts';
import { wilson } from '../draft/confidence.ts';
import type { StoredDraft } from '../draft/stored-draft.ts';
import { anytimeIntervals, settlementView, type SettlementInput } from './settlement-view.ts';
import { metSettlement, readRule } from './settlement-rule.ts';
import { stopRuleOf } from '../draft/stop-when.ts';

const AT = new Date('2026-11-28T12:00:00Z');
const draftOf = (extra: object = {}) => normalizeDraft({ type: 'single_choice', text: 'Which name?', options: [{ label: 'Penny' }, { label: 'Pocket' }], n: 50, ...extra } as never) as StoredDraft;
const labels = ['Penny', 'Pocket'];

function input(over: Partial<SettlementInput>): SettlementInput {
  return { type: 'single_choice', status: 'live', n: 50, draft: draftOf(), stored: null, labels, counts: [0, 0], counted: 0, ...over };
}

const leaderRule = stopRuleOf('single_choice', 50, { rule: 'leader', floor: 1 })!;
const stopped = (refunded: number) => ({
  ...metSettlement({ rule: leaderRule, asked: true, reading: readRule(leaderRule, 'single_choice', labels, [8, 0], 8), answers: 8, at: AT, nRequested: 50, stopped: true }),
  refundedCredits: refunded,
});

describe('Result.settlement', () => {
  it('a question its rule stopped: the claim, the refund, anytime-valid intervals', () => {
    const view = settlementView(input({ status: 'complete', draft: draftOf({ stopWhen: { rule: 'leader', floor: 1 } }), stored: stopped(504), counts: [8, 0], counted: 8 }))!;
    expect(view).toMatchObject({ rule: 'leader', method: 'ppr_1v1', asked: true, stopped: true, settledAt: 8, settledAtTime: AT.toISOString(), nRequested: 50, leader: 'Penny', threshold: 20, refundedCredits: 504, withdrawn: false, intervals: 'anytime_valid', points: null, floor: 1 });
    expect(view.evidence).toBeCloseTo(256 / 9, 5);
    expect(view.note).toMatch(/^Stopped early at 8 of 50 answers: Penny is the favourite \(evidence 28\.44 to 1 against a tie, 20 needed\), at 95% confidence\./);
    expect(view.note).toContain('504 credits for the places not answered were refunded.');
    expect(view.note).toMatch(/anytime-valid: about \d\.\d× as wide as a one-time interval/);
  });

  it('a withdrawn claim says why, and that the refund stands', () => {
    const stored = { ...stopped(504), withdrawn: { at: AT.toISOString(), answers: 7, note: 'Withdrawn: after answers were removed in review, the 7 answers left never meet the rule.' } };
    const view = settlementView(input({ status: 'complete', stored, counts: [7, 0], counted: 7 }))!;
    expect(view).toMatchObject({ stopped: true, withdrawn: true });
    expect(view.note).toBe('Withdrawn: after answers were removed in review, the 7 answers left never meet the rule. The refund of 504 credits stands.');
  });

  it('a rule not met: live, closed complete, closed otherwise', () => {
    const draft = draftOf({ stopWhen: { rule: 'leader' } });
    expect(settlementView(input({ draft, counts: [3, 2], counted: 5 }))!.note).toBe('Not settled yet after 5 answers: the leader rule at 95% is checked after every answer, with no stop before 10.');
    expect(settlementView(input({ draft, status: 'complete', counts: [25, 25], counted: 50 }))!.note).toBe('Never settled: the race stayed close, so every answer was used.');
    expect(settlementView(input({ draft, status: 'cancelled', counts: [3, 2], counted: 5 }))!.note).toBe('Not settled when the question closed (cancelled) after 5 answers.');
    const live = settlementView(input({ draft, counts: [3, 2], counted: 5 }))!;
    expect(live).toMatchObject({ asked: true, stopped: false, settledAt: null, leader: 'Penny', intervals: 'wilson' });
  });

  it('asked without a rule: where the reference rule would have settled, or that it would not have', () => {
    const reference = stopRuleOf('single_choice', 30, { rule: 'leader' })!;
    const met = metSettlement({ rule: reference, asked: false, reading: readRule(reference, 'single_choice', labels, [10, 0], 10), answers: 10, at: AT, nRequested: 30, stopped: false });
    expect(settlementView(input({ n: 30, status: 'complete', stored: met, counts: [20, 10], counted: 30 }))!.note).toBe(
      'Asked for all 30 answers (no stopWhen). Under the leader rule at 95% it would have settled at 10 answers: Penny is the favourite (evidence 93.09 to 1 against a tie, 20 needed).',
    );
    expect(settlementView(input({ status: 'complete', counts: [25, 25], counted: 50 }))!.note).toBe('Asked for all 50 answers (no stopWhen). Under the leader rule at 95% it would not have settled: every answer was needed.');
    expect(settlementView(input({ status: 'underfilled', counts: [5, 5], counted: 10 }))!.note).toBe('Asked for all 50 answers (no stopWhen). Under the leader rule at 95% it had not settled when the question closed (underfilled).');
  });

  it('types no rule judges have none', () => {
    const draft = normalizeDraft({ type: 'free_text', text: 'Why?', n: 20 } as never) as StoredDraft;
    expect(settlementView(input({ type: 'free_text', draft, labels: [], counts: [], counted: 3 }))).toBeNull();
  });
});

describe('anytime-valid intervals of a stopped question', () => {
  it('hold all options together: wider than the Wilson interval of the same counts, around the share', () => {
    type Item = { count: number; share: number; low?: number; high?: number; appearances?: number };
    const [penny, pocket] = anytimeIntervals<Item>([{ count: 30, share: 0.75 }, { count: 10, share: 0.25 }], 40, 0.05);
    const w = wilson(30, 40, 1.96);
    expect(penny.low!).toBeLessThan(w.low);
    expect(penny.high!).toBeGreaterThan(w.high);
    expect(penny.low!).toBeLessThan(0.75);
    expect(penny.high!).toBeGreaterThan(0.75);
    expect(pocket.low!).toBeLessThan(0.25);
  });

  it('pairwise: each share is out of its own appearances', () => {
    const [a] = anytimeIntervals<{ count: number; share: number; appearances: number; low?: number; high?: number }>(
      [{ count: 9, share: 0.9, appearances: 10 }, { count: 1, share: 0.1, appearances: 10 }],
      10,
      0.05,
    );
    expect(a.low!).toBeGreaterThan(0.3);
    expect(a.high!).toBeGreaterThan(0.9);
  });
});
