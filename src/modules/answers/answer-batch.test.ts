import { describe, expect, it } from 'vitest';
import type { Selectable } from 'kysely';
import type { QuestionsTable } from '../../db/schema.ts';
import { normalizeDraft } from '../draft/draft-defaults.ts';
import type { AnsweringHead } from '../panel/heads.repository.ts';
import { planBatch, type AnswerSubmission } from './answer-batch.ts';

/**
 * The batch planner judges each answer against the question as the batch's earlier answers left
 * it: the same outcomes, in the same order, as one transaction per answer would give.
 */
const AT = new Date('2026-11-25T10:00:00Z');
const draft = normalizeDraft({ type: 'single_choice', text: 'Which name?', options: [{ label: 'Penny' }, { label: 'Pocket' }], n: 10 } as never);

function question(id: string, values: Partial<Selectable<QuestionsTable>> = {}): Selectable<QuestionsTable> {
  return {
    id,
    account_id: 'acc_1',
    status: 'live',
    n: 10,
    answered: 0,
    credits_spent: 0,
    credits_per_answer: 12,
    credits_reserved: 120,
    credits_refunded: 0,
    min_answers: null,
    closes_at: null,
    parent_id: null,
    variant_group: null,
    tally: {},
    draft,
    type: 'single_choice',
    removed_answers: 0,
    settlement: null,
    ...values,
  } as Selectable<QuestionsTable>;
}

const link = (questionId: string, option: number, nonce?: string): AnswerSubmission => ({ questionId, from: { headId: null, source: 'link', tier: 1 }, answer: { option }, extra: { nonce } });
const panel = (questionId: string, headId: string): AnswerSubmission => ({ questionId, from: { headId, source: 'panel', tier: 1 }, answer: { option: 0 }, extra: {} });
const head = (questionId: string, id: string, flags: Partial<AnsweringHead> = {}): AnsweringHead => ({
  question_id: questionId,
  id,
  tier: 2,
  country: 'PT',
  age_band: '25-34',
  gender: 'f',
  tags: [],
  grade: null,
  answered: false,
  answered_parent: true,
  answered_other_variant: false,
  ...flags,
});

function plan(submissions: AnswerSubmission[], rows: Array<Selectable<QuestionsTable>>, heads: AnsweringHead[] = [], earlierNonces: Array<{ question_id: string; nonce: string; attestation_ref: string }> = []) {
  return planBatch(submissions, { questions: new Map(rows.map((r) => [r.id, r])), earlierNonces, heads }, AT);
}
const values = (p: ReturnType<typeof plan>) => p.outcomes.map((o) => (o.ok ? o.value : { error: (o.error as { code?: string }).code }));

describe('planBatch', () => {
  it('the answer that reaches minAnswers completes the question; the next is refused as closed, with the question as it was left', () => {
    const p = plan([link('q1', 0), link('q1', 1), link('q1', 0)], [question('q1', { n: 20, credits_reserved: 240, answered: 8, min_answers: 10, credits_spent: 96 })]);
    expect(values(p).map((v) => ('state' in v ? v.state : v))).toEqual(['live', 'closed', 'closed']);
    expect(p.outcomes[1]).toMatchObject({ ok: true, value: { accepted: true, completed: true } });
    expect(p.outcomes[2]).toMatchObject({ ok: true, value: { accepted: false, reason: 'not_live' } });
    expect(p.counts).toEqual([{ id: 'q1', answered: 10, creditsSpent: 120, tally: { Penny: 1, Pocket: 1 }, settlement: null }]);
    expect(p.closes.map((q) => [q.id, q.answered, q.credits_spent])).toEqual([['q1', 10, 120]]);
    expect(p.spends).toEqual(new Map([['acc_1', 24]]));
    expect(p.answers).toHaveLength(2);
  });

  it('a nonce recorded before, or earlier in the batch, replays its attestation', () => {
    const p = plan([link('q1', 0, 'AAAA'), link('q1', 1, 'bbbb'), link('q1', 1, 'BBBB')], [question('q1')], [], [{ question_id: 'q1', nonce: 'aaaa', attestation_ref: 'att_old' }]);
    expect(p.outcomes[0]).toMatchObject({ ok: true, value: { accepted: true, replayed: true, attestationRef: 'att_old' } });
    expect(p.outcomes[2]).toMatchObject({ ok: true, value: { accepted: true, replayed: true, attestationRef: p.answers[0].attestation_ref } });
    expect(p.answers.map((a) => a.option_label)).toEqual(['Pocket']);
  });

  it('panel heads: the profile comes from the panel; not reached, a variant or a missing parent answer is not_eligible; a second answer is already_answered', () => {
    const rows = [question('q1'), question('q2', { variant_group: 'q1' }), question('f1', { parent_id: 'q0' })];
    const heads = [head('q1', 'h1'), head('q2', 'h1'), head('q1', 'h3', { answered: true }), head('f1', 'h4', { answered_parent: false }), head('q2', 'h5', { answered_other_variant: true })];
    const p = plan([panel('q1', 'h1'), panel('q2', 'h1'), panel('q1', 'h2'), panel('q1', 'h3'), panel('f1', 'h4'), panel('q2', 'h5'), panel('q1', 'h1')], rows, heads);
    expect(values(p).map((v) => ('accepted' in v ? (v.accepted ? 'accepted' : v.reason) : v))).toEqual(['accepted', 'not_eligible', 'not_eligible', 'already_answered', 'not_eligible', 'not_eligible', 'already_answered']);
    expect(p.answers).toHaveLength(1);
    expect(p.answers[0]).toMatchObject({ head_id: 'h1', tier: 2, country: 'PT', age_band: '25-34', gender: 'f' });
  });

  it('a follow-up answered in the same batch as its parent counts the parent answer', () => {
    const rows = [question('p1'), question('f1', { parent_id: 'p1' })];
    const p = plan([panel('p1', 'h1'), panel('f1', 'h1')], rows, [head('p1', 'h1'), head('f1', 'h1', { answered_parent: false })]);
    expect(p.outcomes.map((o) => o.ok && o.value.accepted)).toEqual([true, true]);
  });

  it('an unknown question, a scheduled one, one past its window and an answer that does not fit are refused alone', () => {
    const rows = [question('q1'), question('s1', { status: 'scheduled' }), question('w1', { closes_at: new Date(AT.getTime() - 1) })];
    const p = plan([link('nope', 0), link('s1', 0), link('w1', 0), link('q1', 5), link('q1', 1)], rows);
    expect(values(p)).toEqual([
      { error: 'not_found' },
      { accepted: false, state: 'scheduled', reason: 'not_live' },
      { accepted: false, state: 'closed', reason: 'not_live' },
      { error: 'validation_failed' },
      expect.objectContaining({ accepted: true, state: 'live' }),
    ]);
    expect(p.counts.map((c) => c.id)).toEqual(['q1']);
  });

  describe('stopWhen (docs/early-stopping.md)', () => {
    const stopping = normalizeDraft({ ...draft, n: 50, stopWhen: { rule: 'leader', floor: 1 } } as never);

    it('the answer that meets the rule completes the question mid-batch; the next answer of the batch is refused as closed', () => {
      const p = plan(
        [link('q1', 0), link('q1', 0), link('q1', 0)],
        [question('q1', { n: 50, credits_reserved: 600, answered: 6, credits_spent: 72, tally: { Penny: 6 }, draft: stopping })],
      );
      // 7–0 (evidence 16) does not settle; 8–0 (2^8/9 ≈ 28.4 ≥ 20) does.
      expect(values(p)).toMatchObject([
        { accepted: true, state: 'live' },
        { accepted: true, state: 'closed', completed: true },
        { accepted: false, state: 'closed', reason: 'not_live' },
      ]);
      expect(p.closes.map((q) => [q.id, q.answered, q.credits_spent])).toEqual([['q1', 8, 96]]);
      expect(p.counts[0].settlement).toMatchObject({ asked: true, stopped: true, answers: 8, nRequested: 50, leader: 'Penny', threshold: 20, refundedCredits: 0, withdrawn: null });
      expect(p.stopped.get('q1')).toEqual(p.counts[0].settlement);
      expect(p.spends).toEqual(new Map([['acc_1', 24]]));
    });

    it('counts only answers not removed in review, for the floor and for the rule', () => {
      // 8 answered, 2 of them removed: the tally is 6–0 and the floor of 8 is not reached yet
      const floorDraft = normalizeDraft({ ...draft, n: 50, stopWhen: { rule: 'leader', floor: 8 } } as never);
      const p = plan([link('q1', 0)], [question('q1', { n: 50, credits_reserved: 600, answered: 8, removed_answers: 2, tally: { Penny: 6 }, draft: floorDraft })]);
      expect(values(p)).toMatchObject([{ accepted: true, state: 'live' }]);
      expect(p.counts[0].settlement).toBeNull();
      const q = plan([link('q1', 0), link('q1', 0)], [question('q1', { n: 50, credits_reserved: 600, answered: 8, removed_answers: 2, tally: { Penny: 6 }, draft: floorDraft })]);
      expect(q.counts[0].settlement).toMatchObject({ answers: 8, stopped: true });
    });

    it('a question asked without one records where the reference rule is met, and goes on to n', () => {
      const p = plan(
        Array.from({ length: 3 }, () => link('q1', 0)),
        [question('q1', { n: 20, credits_reserved: 240, answered: 9, tally: { Penny: 9 } })],
      );
      expect(values(p).every((v) => 'accepted' in v && v.accepted && v.state === 'live')).toBe(true);
      expect(p.closes).toEqual([]);
      expect(p.counts[0].settlement).toMatchObject({ asked: false, stopped: false, answers: 10, floor: 10, rule: 'leader' });
    });

    it('is never read again once met: heads added after an early stop run to the new n', () => {
      const met = { asked: true, stopped: true, answers: 8 };
      const p = plan([link('q1', 0), link('q1', 0)], [question('q1', { n: 60, answered: 8, tally: { Penny: 8 }, draft: stopping, settlement: met })]);
      expect(values(p)).toMatchObject([{ accepted: true, state: 'live' }, { accepted: true, state: 'live' }]);
      expect(p.counts[0].settlement).toBeNull();
    });
  });
});
