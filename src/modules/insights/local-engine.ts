import {
  MAX_QUOTES,
  MAX_THEMES,
  leadingOption,
  pickersOf,
  writtenOf,
  type InsightsEngine,
  type Sentiment,
  type Summary,
  type SummaryRequest,
  type Theme,
  type WrittenAnswer,
} from './insights.engine.ts';
import { baseLanguage, stopWordsOf } from '../text/stopwords.ts';
import { classifySentiment } from '../text/sentiment.ts';
import { loadWink, type Wink } from '../text/wink.ts';
import { templatesFor, writeTakeaway } from './takeaway.ts';

/**
 * The local engine (ARCHITECTURE §2; docs/insights.md). English answers go through wink-nlp with
 * its English lite model (shipped inside the npm package: nothing is downloaded): lemmas and
 * part-of-speech tags give the candidate terms (nouns, adjectives, verbs and adjacent pairs ending
 * in a noun, like "hidden fees"), and wink's sentiment scores each answer. Other languages fall
 * back to word and word-pair frequency with a small stop-word list, and neutral sentiment.
 *
 * Themes are picked greedily: the term that covers the most answers not yet in a theme (weighted
 * by what kind of word it is) becomes a theme and takes those answers, up to 8. Themes are
 * disjoint, so their counts add up to at most basedOn. Every tie is broken by a fixed order, so
 * the same answers always give the same summary.
 */
export const LOCAL_ENGINE = 'wink-nlp-local/1';
export const KEYWORD_ENGINE = 'keywords-local/1';

const CONTENT_POS: Record<string, number> = { NOUN: 1, PROPN: 1, ADJ: 0.9, VERB: 0.6 };
const KIND: Record<string, Term['kind']> = { NOUN: 'noun', PROPN: 'propn', ADJ: 'adj', VERB: 'verb' };
const PAIR_WEIGHT = 1.3;
/** Terms that are in the question itself say little about the answers. */
const QUESTION_WORD_WEIGHT = 0.5;
/** Quotes of about this length read best in a summary. */
const QUOTE_IDEAL = 90;

interface Term {
  key: string;
  surface: string;
  weight: number;
  /** What kind of word: a theme's label pairs words of one kind ("short and friendly"). */
  kind: 'noun' | 'propn' | 'adj' | 'verb' | 'pair' | 'word';
}

interface Posting {
  term: Term;
  /** Answers the term appears in, in answer order. */
  answers: number[];
  /** How often the tagger gave each kind. */
  kinds: Map<Term['kind'], number>;
}

/**
 * The kind a term has most often. The lite model tags a capitalised adjective that opens a
 * sentence ("Short and friendly.") as a proper noun, so proper-noun votes count only when nothing
 * else was seen.
 */
function kindOf(posting: Posting): Term['kind'] {
  const votes = [...posting.kinds.entries()].filter(([k]) => k !== 'propn' || posting.kinds.size === 1);
  const kind = votes.sort((a, b) => b[1] - a[1] || byText(a[0], b[0]))[0][0];
  return kind === 'propn' ? 'noun' : kind;
}

interface Analysis {
  /** Terms per verbatim string of the answer (text, then reason). */
  strings: Array<{ value: string; terms: Map<string, Term>; score: number }>;
  terms: Map<string, Term>;
  score: number;
}

let wink: Wink | null = null;
/** Loading the model takes a few hundred milliseconds, so it happens on first use. */
function nlp(): Wink {
  return (wink ??= loadWink(['sbd', 'negation', 'sentiment', 'pos']));
}

const tokenize = (text: string, language: string): string[] =>
  (text.toLocaleLowerCase(language).match(/[\p{L}\p{M}\p{N}]+(?:['’-][\p{L}\p{M}]+)*/gu) ?? []);

/** English: wink's tokens, lemmas, parts of speech, stop words and sentiment. */
function analyzeEnglish(text: string, exclude: Set<string>, questionWords: Set<string>): { terms: Map<string, Term>; score: number } {
  const w = nlp();
  const doc = w.readDoc(text);
  const tokens = doc.tokens();
  const types = tokens.out(w.its.type) as string[];
  const pos = tokens.out(w.its.pos) as string[];
  // (wink's typings give its.lemma a signature `out` does not accept; it works as documented.)
  const lemmas = (tokens.out(w.its.lemma as never) as string[]).map((l) => l.toLowerCase());
  const normals = tokens.out(w.its.normal) as string[];
  const stops = tokens.out(w.its.stopWordFlag) as boolean[];
  const english = stopWordsOf('en');
  const content = lemmas.map(
    (lemma, i) => types[i] === 'word' && CONTENT_POS[pos[i]] !== undefined && !stops[i] && lemma.length >= 3 && !english.has(lemma) && !english.has(normals[i]),
  );
  // An option's own words are no theme alone, but may start or end one ("nest egg").
  const excluded = (i: number) => exclude.has(lemmas[i]) || exclude.has(normals[i]);
  const terms = new Map<string, Term>();
  const add = (key: string, surface: string, weight: number, kind: Term['kind']) => {
    const damped = key.split(' ').every((part) => questionWords.has(part)) ? weight * QUESTION_WORD_WEIGHT : weight;
    if (!terms.has(key)) terms.set(key, { key, surface, weight: damped, kind });
  };
  for (let i = 0; i < lemmas.length; i++) {
    if (!content[i]) continue;
    if (!excluded(i)) add(lemmas[i], normals[i], CONTENT_POS[pos[i]], KIND[pos[i]]);
    const pair = i + 1 < lemmas.length && content[i + 1] && (pos[i + 1] === 'NOUN' || pos[i + 1] === 'PROPN') && lemmas[i] !== lemmas[i + 1];
    // A pair is keyed by the modifier as written and the noun's lemma: the lite model lemmatises
    // "hidden" as "hide" or "hidden" depending on the sentence, but "fees" always as "fee".
    if (pair && !(excluded(i) && excluded(i + 1))) add(`${normals[i]} ${lemmas[i + 1]}`, `${normals[i]} ${normals[i + 1]}`, PAIR_WEIGHT, 'pair');
  }
  return { terms, score: doc.out(w.its.sentiment) as number };
}

/** Other languages: words and adjacent word pairs that are not stop words; no sentiment. */
function analyzeKeywords(text: string, language: string, exclude: Set<string>, questionWords: Set<string>): { terms: Map<string, Term>; score: number } {
  const stop = stopWordsOf(language);
  const minLength = baseLanguage(language) === 'hi' ? 2 : 3;
  const tokens = tokenize(text, language);
  const content = tokens.map((t) => [...t].length >= minLength && !stop.has(t) && !/^\p{N}+$/u.test(t));
  const terms = new Map<string, Term>();
  const add = (key: string, weight: number, kind: Term['kind']) => {
    const damped = key.split(' ').every((part) => questionWords.has(part)) ? weight * QUESTION_WORD_WEIGHT : weight;
    if (!terms.has(key)) terms.set(key, { key, surface: key, weight: damped, kind });
  };
  for (let i = 0; i < tokens.length; i++) {
    if (!content[i]) continue;
    if (!exclude.has(tokens[i])) add(tokens[i], 1, 'word');
    const pair = i + 1 < tokens.length && content[i + 1] && tokens[i] !== tokens[i + 1];
    if (pair && !(exclude.has(tokens[i]) && exclude.has(tokens[i + 1]))) add(`${tokens[i]} ${tokens[i + 1]}`, PAIR_WEIGHT, 'pair');
  }
  return { terms, score: 0 };
}

/** Results classify an answer's score the same way (text/sentiment.ts). */
const classify = classifySentiment;

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The label of a key: the surface form seen most often (ties: the first in order of text). */
function surfaceOf(key: string, members: number[], analyses: Analysis[]): string {
  const counts = new Map<string, number>();
  for (const i of members) {
    const term = analyses[i].terms.get(key);
    if (term) counts.set(term.surface, (counts.get(term.surface) ?? 0) + 1);
  }
  return [...counts.entries()].sort((a, b) => b[1] - a[1] || byText(a[0], b[0]))[0]?.[0] ?? key;
}

export function summarizeLocally(request: SummaryRequest): Summary {
  const answers: WrittenAnswer[] = writtenOf(request.answers);
  const language = request.sourceLanguage;
  const english = baseLanguage(language) === 'en';
  const lower = (s: string) => s.toLocaleLowerCase(language);
  // Option labels name the choice, which `option` already shows; they are not themes.
  const exclude = new Set(request.options.flatMap((o) => tokenize(o, language)).concat(['neither']));
  const questionWords = new Set(tokenize(request.questionText, language));
  if (english) for (const w of [...questionWords]) questionWords.add(lower(w).replace(/s$/, ''));

  const analyses: Analysis[] = answers.map((answer) => {
    const strings = [answer.text, answer.reason]
      .filter((s): s is string => s !== null)
      .map((value) => ({ value, ...(english ? analyzeEnglish(value, exclude, questionWords) : analyzeKeywords(value, language, exclude, questionWords)) }));
    const terms = new Map<string, Term>();
    for (const s of strings) for (const [key, term] of s.terms) if (!terms.has(key)) terms.set(key, term);
    const score = strings.reduce((sum, s) => sum + s.score, 0) / strings.length;
    return { strings, terms, score };
  });
  const sentimentOf = analyses.map((a) => (english ? classify(a.score) : 'neutral'));

  // Which answers each term appears in, in answer order.
  const postings = new Map<string, Posting>();
  analyses.forEach((analysis, i) => {
    for (const [key, term] of analysis.terms) {
      const entry = postings.get(key) ?? postings.set(key, { term, answers: [], kinds: new Map() }).get(key)!;
      entry.answers.push(i);
      entry.kinds.set(term.kind, (entry.kinds.get(term.kind) ?? 0) + 1);
    }
  });
  const keys = [...postings.keys()].sort(byText);

  const basedOn = answers.length;
  const minSupport = Math.max(2, Math.ceil(0.03 * basedOn));
  const free = new Set(answers.map((_, i) => i));
  const picked: Array<{ key: string; members: number[] }> = [];
  while (picked.length < MAX_THEMES && free.size >= minSupport) {
    let best: { key: string; members: number[]; score: number; df: number } | null = null;
    for (const key of keys) {
      const { term, answers: docs } = postings.get(key)!;
      const members = docs.filter((i) => free.has(i));
      if (members.length < minSupport) continue;
      const score = members.length * term.weight;
      if (!best || score > best.score || (score === best.score && docs.length > best.df)) best = { key, members, score, df: docs.length };
    }
    if (!best) break;
    for (const i of best.members) free.delete(i);
    picked.push({ key: best.key, members: best.members });
  }

  const and = templatesFor(language).and;
  const themes: Array<Theme & { optionCount: number; members: number[] }> = picked.map(({ key, members }) => {
    const label = labelOf(key, members, analyses, postings, and);
    const tally = { positive: 0, neutral: 0, negative: 0 };
    for (const i of members) tally[sentimentOf[i]] += 1;
    // The mood most of the theme's answers have; a tie for first is neutral.
    const ranked = (['positive', 'neutral', 'negative'] as const).map((s) => [s, tally[s]] as const).sort((a, b) => b[1] - a[1]);
    const sentiment: Sentiment = ranked[0][1] === ranked[1][1] ? 'neutral' : ranked[0][0];
    const { option, count: optionCount } = leadingOption(answers, members);
    return { label, count: members.length, share: members.length / basedOn, sentiment, option, quotes: quotesOf(key, members, analyses, sentiment, english), optionCount, members };
  });
  themes.sort((a, b) => b.count - a.count);

  const sentiment = { positive: 0, neutral: 0, negative: 0 };
  for (const s of sentimentOf) sentiment[s] += 1;
  return {
    engine: english ? LOCAL_ENGINE : KEYWORD_ENGINE,
    takeaway: writeTakeaway(language, basedOn, themes, pickersOf(answers)),
    themes: themes.map(({ label, count, share, sentiment: s, option, quotes }) => ({ label, count, share, sentiment: s, option, quotes })),
    sentiment,
    basedOn,
  };
}

/**
 * A theme's label: the surface of its term, made a phrase when most of its answers share more:
 * a pair that contains the word ("hidden fees" for "fees"), or a second word of the same kind
 * ("short and friendly").
 */
function labelOf(key: string, members: number[], analyses: Analysis[], postings: Map<string, Posting>, and: string): string {
  const seedParts = new Set(key.split(' '));
  const counts = new Map<string, number>();
  for (const i of members) for (const other of analyses[i].terms.keys()) if (other !== key) counts.set(other, (counts.get(other) ?? 0) + 1);
  const most = (filter: (posting: Posting, c: number) => boolean) =>
    [...counts.entries()].filter(([other, c]) => filter(postings.get(other)!, c)).sort((a, b) => b[1] - a[1] || byText(a[0], b[0]))[0]?.[0];
  const kind = kindOf(postings.get(key)!);
  if (kind !== 'pair') {
    const wider = most((p, c) => kindOf(p) === 'pair' && p.term.key.split(' ').includes(key) && c >= Math.max(2, 0.6 * members.length));
    if (wider) return surfaceOf(wider, members, analyses);
  }
  const partner = most(
    (p, c) => kindOf(p) === kind && kind !== 'pair' && kind !== 'verb' && !seedParts.has(p.term.key) && c >= Math.max(2, members.length / 2),
  );
  return partner ? `${surfaceOf(key, members, analyses)} ${and} ${surfaceOf(partner, members, analyses)}` : surfaceOf(key, members, analyses);
}

/**
 * Up to three exact answer strings of the theme: ones that contain its term, whose own mood
 * matches the theme's, of a readable length, each string once.
 */
function quotesOf(key: string, members: number[], analyses: Analysis[], sentiment: Sentiment, english: boolean): string[] {
  const candidates: Array<{ value: string; rank: number[] }> = [];
  for (const [order, i] of members.entries()) {
    for (const s of analyses[i].strings) {
      const length = [...s.value].length;
      candidates.push({
        value: s.value,
        rank: [s.terms.has(key) ? 0 : 1, !english || classify(s.score) === sentiment ? 0 : 1, length >= 20 && length <= 240 ? 0 : 1, Math.abs(length - QUOTE_IDEAL), order],
      });
    }
  }
  candidates.sort((a, b) => {
    for (let k = 0; k < a.rank.length; k++) if (a.rank[k] !== b.rank[k]) return a.rank[k] - b.rank[k];
    return byText(a.value, b.value);
  });
  const quotes: string[] = [];
  for (const c of candidates) {
    if (quotes.length === MAX_QUOTES) break;
    if (!quotes.includes(c.value)) quotes.push(c.value);
  }
  return quotes;
}

export function createLocalEngine(): InsightsEngine {
  return { summarize: async (request) => summarizeLocally(request) };
}
