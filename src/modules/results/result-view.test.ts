import { describe, expect, it } from 'vitest';
import { answerRow } from './answer-row.fixture.ts';
import { facetsOf } from './breakdowns.ts';
import { applyFilter } from './filters.ts';
import { medianSeconds, sentimentOf, shownAnswers, viewOf } from './result-view.ts';
import type { QuestionType } from '../draft/question-types.ts';

describe('shown answers and median time', () => {
  it('pinned first (newest first among them), then newest, up to the limit', () => {
    // rows newest first: r0 … r4; r1 and r3 are pinned.
    const rows = Array.from({ length: 5 }, (_, i) => answerRow({ pinned: i === 1 || i === 3 }));
    const shown = shownAnswers(rows, 4).map((a) => a.attestationRef);
    expect(shown).toEqual([rows[1], rows[3], rows[0], rows[2]].map((r) => r.attestationRef));
  });

  it('median dwell in seconds to 0.1 s, ignoring answers without one', () => {
    // 4.2 s, 8.0 s, 6.04 s → median 6.04 → 6.0
    expect(medianSeconds([answerRow({ dwellMs: 4200 }), answerRow({ dwellMs: 8000 }), answerRow({ dwellMs: 6040 }), answerRow({})])).toBe(6);
    expect(medianSeconds([answerRow({})])).toBeNull();
  });
});

/**
 * Speed of the pure part (logged, not asserted; ARCHITECTURE §5): 5,000 answers with profiles,
 * the unfiltered view with all breakdowns, then a filtered one.
 */
describe('5,000 answers', () => {
  const countries = ['GB', 'US', 'IN', 'PH', 'NG', 'DE', 'FR', 'BR', 'ID', 'KE'];
  const bands = ['18-24', '25-34', '35-44', '45-54', '55-64', '65+'];
  const tags = ['student', 'pet_dog', 'retired', 'tech_iphone', 'tech_android', 'new_parent'];
  const make = (type: QuestionType, i: number) =>
    answerRow({
      country: countries[i % countries.length],
      ageBand: bands[i % bands.length],
      gender: i % 2 ? 'woman' : 'man',
      tier: 1 + (i % 3),
      tags: [tags[i % tags.length], tags[(i + 3) % tags.length]],
      reason: i % 4 ? `reason number ${i}` : null,
      dwellMs: 3000 + (i % 50) * 100,
      ...(type === 'pairwise' ? { pair: [i % 5, (i + 1) % 5], option: i % 3 ? i % 5 : (i + 1) % 5 } : { option: i % 5 }),
      ...(type === 'ranking' ? { order: [i % 5, (i + 1) % 5, (i + 2) % 5, (i + 3) % 5, (i + 4) % 5], option: undefined } : {}),
    });

  for (const type of ['single_choice', 'pairwise', 'ranking'] as const) {
    it(`${type}: view with breakdowns, facets and a filter`, () => {
      const rows = Array.from({ length: 5000 }, (_, i) => make(type, i));
      const ctx = { type, labels: ['A', 'B', 'C', 'D', 'E'], imageUrl: null, graded: false };
      viewOf(ctx, rows.slice(0, 100)); // warm up the JIT
      // The machine may be busy: five runs each, the fastest and the median logged.
      const full: number[] = [];
      const filtered: number[] = [];
      let view = viewOf(ctx, rows);
      let matching = rows;
      for (let run = 0; run < 5; run++) {
        let started = performance.now();
        view = viewOf(ctx, rows);
        facetsOf(rows);
        full.push(performance.now() - started);
        started = performance.now();
        matching = applyFilter(rows, { country: 'GB', q: 'number' }, type).rows;
        viewOf(ctx, matching);
        filtered.push(performance.now() - started);
      }
      const fmt = (xs: number[]) => `${Math.min(...xs).toFixed(1)} ms (median ${[...xs].sort((a, b) => a - b)[2].toFixed(1)})`;
      console.log(`[results timing] ${type}, 5000 answers: unfiltered view + breakdowns + facets ${fmt(full)}; filtered to ${matching.length}: ${fmt(filtered)}`);
      expect(view.n).toBe(5000);
      expect(view.breakdowns.breakdowns.find((b) => b.dimension === 'country')?.segments).toHaveLength(10);
    });
  }
});

describe('sentimentOf (Result.sentiment)', () => {
  it('shares among scored answers only; undefined when none is scored', () => {
    const rows = [0.5, 0.2, -0.4, 0, null, null].map((sentiment) => answerRow({ sentiment }));
    expect(sentimentOf(rows)).toEqual({ positive: 2 / 4, neutral: 1 / 4, negative: 1 / 4 });
    expect(sentimentOf([answerRow(), answerRow()])).toBeUndefined();
    expect(sentimentOf([])).toBeUndefined();
  });
});
