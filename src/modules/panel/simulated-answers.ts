import type { Rng } from '../../lib/random.ts';
import type { AnswerInput } from '../draft/answer-format.ts';
import type { NormalizedDraft } from '../draft/draft-defaults.ts';
import { TYPE_RULES, type QuestionType } from '../draft/question-types.ts';
import { phrasesFor, type Phrases } from './simulated-phrases.ts';

/**
 * Answers of simulated heads (development only, ARCHITECTURE §4 "Panel"). Each question gets a
 * profile drawn once from the seed — how much the crowd likes each option, where the hotspots of
 * a click test are, how often people say "neither" — and each head's answer is a noisy draw from
 * it, so results have a leader and a spread instead of a flat, robotic split.
 *
 * One utility model serves every choice type: option i has preference weight p_i (a
 * Dirichlet-like draw with a leader). A single choice picks i with probability p_i; a ranking is a
 * Plackett–Luce draw (sort by ln p_i plus Gumbel noise, whose first place is again p_i); a
 * pairwise answer picks the winner of the pair by Bradley–Terry, p_i / (p_i + p_j).
 */
export interface QuestionProfile {
  /** Preference over the options the head can pick (draft options, or the type's fixed ones), summing to 1. */
  weights: number[];
  /** multi_choice: each option's own chance of being ticked. */
  ticks: number[];
  /** Chance of "Neither" when the question offers it. */
  neitherRate: number;
  /** scale_1_5: the crowd's mean score (1–5) and spread. */
  scaleMean: number;
  scaleSpread: number;
  /** click_test: where taps cluster, 0–1 from the top left. */
  hotspots: Array<{ x: number; y: number; spread: number; weight: number }>;
  /** reason 'optional': share of heads who write one. */
  optionalReasonRate: number;
}

/** A 32-bit seed for `key` under `seed` (FNV-1a, then a murmur finaliser), for seededRng. */
export function deriveSeed(seed: number, key: string): number {
  let h = 0x811c9dc5 ^ (seed >>> 0);
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Standard normal (Box–Muller). */
export function gaussian(rng: Rng): number {
  const u = 1 - rng();
  const v = rng();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}

/** A Poisson count with mean `lambda`: arrivals in a time slice are bursty, not one every 2.4 s. */
export function poisson(rng: Rng, lambda: number): number {
  if (!(lambda > 0)) return 0;
  if (lambda > 30) return Math.max(0, Math.round(lambda + Math.sqrt(lambda) * gaussian(rng)));
  const limit = Math.exp(-lambda);
  let k = 0;
  let p = rng();
  while (p > limit) {
    k++;
    p *= rng();
  }
  return k;
}

/** Gumbel(0, 1) noise: adding it to log-weights and sorting gives a Plackett–Luce order. */
function gumbel(rng: Rng): number {
  const u = 1e-12 + rng() * (1 - 2e-12);
  return -Math.log(-Math.log(u));
}

function pickIndex(rng: Rng, weights: readonly number[]): number {
  const total = weights.reduce((sum, w) => sum + w, 0);
  let r = rng() * total;
  for (let i = 0; i < weights.length; i++) {
    r -= weights[i];
    if (r < 0) return i;
  }
  return weights.length - 1;
}

function pick<T>(rng: Rng, items: readonly T[]): T {
  return items[Math.floor(rng() * items.length)];
}

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));
const round3 = (v: number) => Math.round(v * 1000) / 1000;

/**
 * A Dirichlet(1, …, 1) preference vector (normalised exponential draws) whose largest part is
 * boosted 1.6×, so one option leads clearly (for three options the leader's share is about 0.43
 * at the least and 0.65 typically), mixed with 15% uniform so no option is never chosen.
 */
function preference(rng: Rng, k: number): number[] {
  if (k <= 0) return [];
  const raw = Array.from({ length: k }, () => -Math.log(1 - rng()));
  raw[raw.indexOf(Math.max(...raw))] *= 1.6;
  const total = raw.reduce((sum, v) => sum + v, 0) || 1;
  return raw.map((v) => 0.85 * (v / total) + 0.15 / k);
}

/** How many options an answer to this draft picks among, "Neither" excluded. */
function choiceCount(draft: NormalizedDraft): number {
  const rule = TYPE_RULES[draft.type as QuestionType];
  return rule?.fixedOptions ? rule.fixedOptions.length : draft.options.length;
}

function offersNeither(draft: NormalizedDraft): boolean {
  return Boolean(draft.neither && TYPE_RULES[draft.type as QuestionType]?.neitherAllowed);
}

export function questionProfile(draft: NormalizedDraft, rng: Rng): QuestionProfile {
  const k = choiceCount(draft);
  const weights = preference(rng, k);
  // multi_choice: popular options are ticked more often; between about 10% and 80%.
  const top = Math.max(...weights, 0);
  const ticks = weights.map((w) => clamp(0.12 + 0.62 * (top > 0 ? w / top : 0) + 0.08 * gaussian(rng), 0.05, 0.85));
  const hotspots = Array.from({ length: rng() < 0.6 ? 1 : 2 }, (_, i) => ({
    x: 0.15 + 0.7 * rng(),
    y: 0.15 + 0.7 * rng(),
    spread: 0.03 + 0.06 * rng(),
    weight: i === 0 ? 1 : 0.3 + 0.5 * rng(),
  }));
  return {
    weights,
    ticks,
    neitherRate: 0.03 + 0.09 * rng(),
    scaleMean: 2.2 + 2.2 * rng(),
    scaleSpread: 0.7 + 0.5 * rng(),
    hotspots,
    optionalReasonRate: 0.4 + 0.2 * rng(),
  };
}

/** The answer one simulated head gives; null when the draft leaves nothing to answer. */
export function generateAnswer(draft: NormalizedDraft, profile: QuestionProfile, rng: Rng): AnswerInput | null {
  const type = draft.type as QuestionType;
  const k = choiceCount(draft);
  const neitherIndex = k;
  const neither = offersNeither(draft) && rng() < profile.neitherRate;
  const phrases = phrasesFor(draft.language);
  let answer: AnswerInput;
  /** What the reason names: option labels, a score, or nothing. */
  let named: Named;

  switch (type) {
    case 'single_choice':
    case 'ab_image':
    case 'reaction':
    case 'yes_mostly_no': {
      if (k === 0) return null;
      const option = neither ? neitherIndex : pickIndex(rng, profile.weights);
      answer = { option };
      named = neither ? { neither: true } : { labels: [reasonLabel(draft, phrases, option)], negative: type === 'yes_mostly_no' && option === 2 };
      break;
    }
    case 'scale_1_5': {
      const score = clamp(Math.round(profile.scaleMean + profile.scaleSpread * gaussian(rng)), 1, 5);
      answer = { option: score - 1 };
      named = { score };
      break;
    }
    case 'multi_choice': {
      if (k === 0) return null;
      if (neither) {
        answer = { options: [neitherIndex] };
        named = { neither: true };
        break;
      }
      let options = profile.ticks.flatMap((p, i) => (rng() < p ? [i] : []));
      if (options.length === 0) options = [pickIndex(rng, profile.weights)];
      answer = { options };
      named = { labels: options.map((i) => reasonLabel(draft, phrases, i)) };
      break;
    }
    case 'ranking': {
      if (k === 0) return null;
      const order = profile.weights
        .map((w, i) => ({ i, key: Math.log(w) + gumbel(rng) }))
        .sort((a, b) => b.key - a.key)
        .map((e) => e.i);
      answer = { order };
      named = { labels: [reasonLabel(draft, phrases, order[0])] };
      break;
    }
    case 'pairwise': {
      if (k < 2) return null;
      const a = Math.floor(rng() * k);
      let b = Math.floor(rng() * (k - 1));
      if (b >= a) b++;
      const [wa, wb] = [profile.weights[a], profile.weights[b]];
      const option = rng() < wa / (wa + wb) ? a : b;
      answer = { pair: [a, b], option };
      named = { labels: [reasonLabel(draft, phrases, option)] };
      break;
    }
    case 'free_text':
      answer = { text: freeText(phrases, rng) };
      named = { written: true };
      break;
    case 'click_test': {
      const maxTaps = Math.max(1, draft.clickTest?.maxTaps ?? 1);
      let count = 1;
      while (count < maxTaps && rng() < 0.45) count++;
      const weights = profile.hotspots.map((h) => h.weight);
      const taps = Array.from({ length: count }, () => {
        if (rng() < 0.12) return { x: round3(rng()), y: round3(rng()) }; // a stray tap
        const h = profile.hotspots[pickIndex(rng, weights)];
        return { x: round3(clamp(h.x + h.spread * gaussian(rng), 0, 1)), y: round3(clamp(h.y + h.spread * gaussian(rng), 0, 1)) };
      });
      answer = { taps };
      named = { tapped: true };
      break;
    }
    default:
      return null;
  }

  const wantsReason = draft.reason === 'required' || (draft.reason === 'optional' && rng() < profile.optionalReasonRate);
  if (wantsReason) answer.reason = reasonText(phrases, named, rng);
  return answer;
}

/** What a reason talks about: option labels, a score, "Neither", taps, or (free text) nothing in particular. */
type Named = { labels: string[]; negative?: boolean } | { score: number } | { neither: true } | { tapped: true } | { written: true };

/** The label a reason names: the option's label, or the fixed yes/mostly/no in the question's language. */
function reasonLabel(draft: NormalizedDraft, phrases: Phrases, index: number): string {
  if (draft.type === 'yes_mostly_no') return phrases.yesMostlyNo[index] ?? String(index);
  return draft.options[index]?.label ?? String(index + 1);
}

function reasonText(phrases: Phrases, named: Named, rng: Rng): string {
  const opener = rng() < 0.25 ? `${pick(rng, phrases.openers)} ` : '';
  let body: string;
  if ('neither' in named) body = pick(rng, phrases.neither);
  else if ('tapped' in named) body = pick(rng, phrases.tapped);
  else if ('written' in named) body = pick(rng, phrases.details);
  else if ('score' in named) {
    const negative = named.score <= 2 || (named.score === 3 && rng() < 0.5);
    body = `${pick(rng, phrases.scale).replace('{n}', String(named.score))} ${pick(rng, negative ? phrases.against : phrases.because)}`;
  } else body = `${pick(rng, phrases.chose).replace('{option}', named.labels.join(', '))} ${pick(rng, named.negative ? phrases.against : phrases.because)}`;
  return `${opener}${body}`;
}

/** A short written answer: a thought, sometimes opened, detailed or closed with another sentence. */
export function freeText(phrases: Phrases, rng: Rng): string {
  const parts: string[] = [];
  if (rng() < 0.3) parts.push(pick(rng, phrases.openers));
  parts.push(pick(rng, phrases.thoughts));
  if (rng() < 0.45) parts.push(pick(rng, phrases.details));
  if (rng() < 0.2) parts.push(pick(rng, phrases.closers));
  return parts.join(' ');
}

/** Seconds spent on the question: a lognormal around what the type takes to read and answer, 3–40 s. */
export function dwellMs(draft: NormalizedDraft, answer: AnswerInput, rng: Rng): number {
  const base: Record<QuestionType, number> = {
    single_choice: 7000, multi_choice: 10_000, ab_image: 6000, pairwise: 5000, scale_1_5: 4500,
    ranking: 15_000, yes_mostly_no: 4500, free_text: 22_000, click_test: 8000, reaction: 4000,
  };
  let ms = base[draft.type as QuestionType] ?? 7000;
  if (draft.type === 'reaction') ms += draft.stimulus?.exposureMs ?? 3000;
  if (answer.reason) ms += 9000;
  ms *= Math.exp(0.45 * gaussian(rng));
  return Math.round(clamp(ms, 3000, 40_000));
}
