import { QUESTION_LANGUAGES, type QuestionLanguage } from '../../draft/question-types.ts';
import type { Result } from '../../results/results.schemas.ts';
import { en, type Words } from './words-en.ts';
import { de, es, fr, hi, id, pt, tl } from './words-translations.ts';

/**
 * The export's own words, in the question's language, as on the public results page (which
 * speaks the question's language around it; these follow its wording in
 * src/web/shared/strings). Kept here because a module may not import pages (ARCHITECTURE §3);
 * the summary note and the verification line come from the result as they are.
 */
const WORDS: Record<QuestionLanguage, Words> = { en, es, pt, hi, fr, de, id, tl };

/** The export language for a question's `language` ("pt-BR" → "pt"); English when it is not one of the eight. */
export function exportLanguage(tag: string | null | undefined): QuestionLanguage {
  const base = (tag ?? '').toLowerCase().split(/[-_]/)[0];
  return (QUESTION_LANGUAGES as readonly string[]).includes(base) ? (base as QuestionLanguage) : 'en';
}

/** `{name}` placeholders filled in. */
export const fill = (template: string, values: Record<string, string | number>): string =>
  template.replace(/\{(\w+)\}/g, (m, k: string) => (k in values ? String(values[k]) : m));

/** The words and number formats of one language. */
export function wordsFor(language: string | null | undefined) {
  const lang = exportLanguage(language);
  const w = WORDS[lang];
  const percent = new Intl.NumberFormat(lang, { style: 'percent', maximumFractionDigits: 0 });
  const decimal = new Intl.NumberFormat(lang, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
  const integer = new Intl.NumberFormat(lang);
  const plural = new Intl.PluralRules(lang);
  const many = (n: number, one: string, other: string) => fill(plural.select(n) === 'one' ? one : other, { n: integer.format(n) });
  return {
    lang,
    w,
    pct: (x: number) => percent.format(Number.isFinite(x) ? x : 0),
    dec: (x: number) => decimal.format(x),
    int: (x: number) => integer.format(x),
    answers: (n: number) => many(n, w.answersOne, w.answersMany),
    more: (n: number) => many(n, w.moreOne, w.moreMany),
  };
}
export type Wording = ReturnType<typeof wordsFor>;

/*
 * Answers from simulated heads (development mode) must never pass for real people in an image
 * that leaves the product; the result says so only in its verification line (results'
 * result-builder.ts), so that line is what is read: "Answered by simulated heads …" when all
 * are, "Answered by 6 simulated heads … and 6 people through the answer link …" when some are.
 */
export function simulatedShare(result: Pick<Result, 'verificationLine'>): 'all' | 'some' | null {
  if (!/\bsimulated\b/i.test(result.verificationLine)) return null;
  return /^Answered by simulated heads\b/.test(result.verificationLine) ? 'all' : 'some';
}
