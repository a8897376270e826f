import { describe, expect, it } from 'vitest';
import { seededRng } from '../../lib/random.ts';
import { readAnswer, type AnswerInput } from '../draft/answer-format.ts';
import { normalizeDraft, type NormalizedDraft } from '../draft/draft-defaults.ts';
import type { QuestionDraft } from '../draft/draft.schemas.ts';
import { QUESTION_LANGUAGES, QUESTION_TYPES, type QuestionType } from '../draft/question-types.ts';
import { deriveSeed, dwellMs, generateAnswer, poisson, questionProfile } from './simulated-answers.ts';
import { PHRASES, phrasesFor } from './simulated-phrases.ts';

const labels = (k: number) => ['Blue jar', 'Green tin', 'Paper bag', 'Glass bottle', 'Box', 'Pouch', 'Tube', 'Crate'].slice(0, k).map((label) => ({ label }));

function draftOf(type: QuestionType, extra: Partial<QuestionDraft> = {}): NormalizedDraft {
  const base: QuestionDraft = { type, text: 'Which one would you pick?' };
  if (type === 'ab_image') base.options = labels(2).map((o, i) => ({ ...o, imageUrl: `https://example.com/${i}.png` }));
  else if (['single_choice', 'multi_choice', 'reaction'].includes(type)) base.options = labels(4);
  else if (['pairwise', 'ranking'].includes(type)) base.options = labels(5);
  if (type === 'reaction') base.stimulus = { text: 'A new logo', exposureMs: 3000 };
  if (type === 'click_test') {
    base.stimulus = { imageUrl: 'https://example.com/page.png' };
    base.clickTest = { maxTaps: 3 };
  }
  return normalizeDraft({ ...base, ...extra });
}

function answers(draft: NormalizedDraft, seed: number, count: number): AnswerInput[] {
  const profile = questionProfile(draft, seededRng(deriveSeed(seed, 'profile')));
  const rng = seededRng(deriveSeed(seed, 'answers'));
  return Array.from({ length: count }, () => {
    const answer = generateAnswer(draft, profile, rng);
    if (!answer) throw new Error(`no answer for ${draft.type}`);
    return answer;
  });
}

const NEITHER_TYPES: QuestionType[] = ['single_choice', 'multi_choice', 'ab_image'];

describe('simulated answers', () => {
  for (const type of QUESTION_TYPES) {
    it(`${type}: every generated answer passes readAnswer, over many seeds, with and without reasons`, () => {
      const modes = type === 'free_text' ? (['off'] as const) : (['off', 'optional', 'required'] as const);
      for (const reason of modes) {
        for (const neither of NEITHER_TYPES.includes(type) ? [false, true] : [false]) {
          for (let seed = 1; seed <= 25; seed++) {
            const draft = draftOf(type, { reason, neither, language: QUESTION_LANGUAGES[seed % QUESTION_LANGUAGES.length] });
            for (const answer of answers(draft, seed, 40)) {
              const read = readAnswer(draft, answer);
              expect(read, JSON.stringify({ seed, reason, neither, answer })).not.toBeInstanceOf(Array);
              if (reason === 'off') expect(answer.reason).toBeUndefined();
              if (reason === 'required') expect(answer.reason?.trim()).toBeTruthy();
            }
          }
        }
      }
    });
  }

  it('picks "Neither" now and then when the question offers it, never when it does not', () => {
    for (const type of NEITHER_TYPES) {
      const withNeither = draftOf(type, { neither: true });
      const k = withNeither.options.length;
      let chosen = 0;
      for (let seed = 1; seed <= 20; seed++) {
        for (const a of answers(withNeither, seed, 200)) if (a.option === k || a.options?.includes(k)) chosen++;
      }
      const share = chosen / 4000;
      expect(share).toBeGreaterThan(0.02);
      expect(share).toBeLessThan(0.15);
      const without = draftOf(type);
      for (const a of answers(without, 3, 300)) expect(a.option === k || Boolean(a.options?.includes(k))).toBe(false);
    }
    // A reaction has no "Neither" even if the draft says so.
    const reaction = draftOf('reaction', { neither: true });
    for (const a of answers(reaction, 4, 300)) expect(a.option).toBeLessThan(reaction.options.length);
  });

  it('an optional reason is given about half the time; a reason names the chosen option in the question language', () => {
    const optional = draftOf('single_choice', { reason: 'optional' });
    const given = answers(optional, 11, 1000).filter((a) => a.reason).length;
    expect(given).toBeGreaterThan(300);
    expect(given).toBeLessThan(700);

    for (const language of ['en', 'es', 'de', 'hi', 'tl'] as const) {
      const draft = draftOf('single_choice', { reason: 'required', language });
      for (const a of answers(draft, 5, 50)) {
        expect(a.reason).toContain(draft.options[a.option!].label);
        // The language's own wording: some "because" phrase of that language ends the reason.
        expect(PHRASES[language].because.some((b) => a.reason!.endsWith(b))).toBe(true);
      }
    }
    const ynm = draftOf('yes_mostly_no', { reason: 'required', language: 'fr' });
    for (const a of answers(ynm, 6, 30)) expect(a.reason).toContain(PHRASES.fr.yesMostlyNo[a.option!]);
  });

  it('has a leader: the top option of a 3-option single choice gets clearly more than a third', () => {
    const draft = normalizeDraft({ type: 'single_choice', text: 'Pick one', options: labels(3) });
    const shares: number[] = [];
    for (let seed = 1; seed <= 30; seed++) {
      const counts = [0, 0, 0];
      for (const a of answers(draft, seed, 500)) counts[a.option!]++;
      shares.push(Math.max(...counts) / 500);
    }
    for (const share of shares) expect(share).toBeGreaterThan(0.4);
    expect(shares.reduce((s, v) => s + v, 0) / shares.length).toBeGreaterThan(0.55);
    // Not one option forever: different questions have different leaders.
    const leaders = new Set<number>();
    for (let seed = 1; seed <= 30; seed++) {
      const counts = [0, 0, 0];
      for (const a of answers(draft, seed, 200)) counts[a.option!]++;
      leaders.add(counts.indexOf(Math.max(...counts)));
    }
    expect(leaders.size).toBe(3);
  });

  it('ranking, pairwise and multi choice follow the same preferences; a scale clusters round its mean', () => {
    const ranking = draftOf('ranking');
    const pairwise = draftOf('pairwise');
    const profile = questionProfile(ranking, seededRng(deriveSeed(9, 'profile')));
    const best = profile.weights.indexOf(Math.max(...profile.weights));
    const firsts = answers(ranking, 9, 1000).filter((a) => a.order![0] === best).length;
    expect(firsts / 1000).toBeGreaterThan(profile.weights[best] - 0.06);
    expect(firsts / 1000).toBeLessThan(profile.weights[best] + 0.06);

    let appearances = 0;
    let wins = 0;
    for (const a of answers(pairwise, 9, 2000)) {
      if (!a.pair!.includes(best)) continue;
      appearances++;
      if (a.option === best) wins++;
    }
    expect(wins / appearances).toBeGreaterThan(0.55);

    const multi = draftOf('multi_choice');
    const counts = multi.options.map(() => 0);
    for (const a of answers(multi, 9, 1000)) for (const i of a.options!) counts[i]++;
    expect(Math.max(...counts)).toBeGreaterThan(1.5 * Math.min(...counts));

    const scale = draftOf('scale_1_5');
    const scores = answers(scale, 13, 1000).map((a) => a.option! + 1);
    const mean = scores.reduce((s, v) => s + v, 0) / scores.length;
    const sp = questionProfile(scale, seededRng(deriveSeed(13, 'profile')));
    expect(Math.abs(mean - sp.scaleMean)).toBeLessThan(0.4);
    expect(new Set(scores).size).toBeGreaterThan(2);
  });

  it('click-test taps cluster round the hotspots and respect maxTaps', () => {
    const draft = draftOf('click_test');
    const profile = questionProfile(draft, seededRng(deriveSeed(21, 'profile')));
    const taps = answers(draft, 21, 500).flatMap((a) => {
      expect(a.taps!.length).toBeLessThanOrEqual(3);
      return a.taps!;
    });
    const near = taps.filter((t) => profile.hotspots.some((h) => Math.hypot(t.x - h.x, t.y - h.y) < 4 * h.spread)).length;
    expect(near / taps.length).toBeGreaterThan(0.75);
  });

  it('free text is written in the question language and varies', () => {
    for (const language of QUESTION_LANGUAGES) {
      const texts = answers(draftOf('free_text', { language }), 3, 100).map((a) => a.text!);
      expect(new Set(texts).size).toBeGreaterThan(20);
      for (const text of texts) expect(phrasesFor(language).thoughts.some((t) => text.includes(t))).toBe(true);
    }
    expect(phrasesFor('pt-BR')).toBe(PHRASES.pt);
    expect(phrasesFor('sw')).toBe(PHRASES.en);
  });

  it('is deterministic under a seed, and a different seed differs', () => {
    const draft = draftOf('single_choice', { reason: 'optional', neither: true });
    expect(answers(draft, 77, 50)).toEqual(answers(draft, 77, 50));
    expect(answers(draft, 77, 50)).not.toEqual(answers(draft, 78, 50));
  });

  it('dwell times are 3–40 s and vary', () => {
    const rng = seededRng(5);
    for (const type of QUESTION_TYPES) {
      const draft = draftOf(type);
      const values = answers(draft, 5, 200).map((a) => dwellMs(draft, a, rng));
      for (const v of values) {
        expect(Number.isInteger(v)).toBe(true);
        expect(v).toBeGreaterThanOrEqual(3000);
        expect(v).toBeLessThanOrEqual(40_000);
      }
      expect(new Set(values).size).toBeGreaterThan(50);
    }
  });

  it('poisson counts have the asked mean', () => {
    const rng = seededRng(8);
    for (const lambda of [0.4, 3, 50]) {
      let sum = 0;
      for (let i = 0; i < 5000; i++) sum += poisson(rng, lambda);
      expect(sum / 5000).toBeGreaterThan(lambda * 0.93);
      expect(sum / 5000).toBeLessThan(lambda * 1.07);
    }
    expect(poisson(rng, 0)).toBe(0);
  });
});
