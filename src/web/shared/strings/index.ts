import { QUESTION_LANGUAGES, type QuestionLanguage } from '../../../modules/draft/question-types.ts';
import { en, type Strings } from './en.ts';
import { preferredLanguage } from '../../../lib/accept-language.ts';
import { es } from './es.ts';
import { pt } from './pt.ts';
import { hi } from './hi.ts';
import { fr } from './fr.ts';
import { de } from './de.ts';
import { id } from './id.ts';
import { tl } from './tl.ts';

export type { StringKey, Strings } from './en.ts';

/**
 * The answer page's own words, in the eight question languages (spec QuestionDraft `language`).
 * The page speaks the question's language, not the phone's: a person answering a Spanish question
 * reads Spanish buttons around it. Kept in TypeScript (not in the browser bundle) so tsc checks
 * that every language has every string; the server embeds only the page's language in the HTML.
 */
export const STRINGS: Record<QuestionLanguage, Strings> = { en, es, pt, hi, fr, de, id, tl };

/** The page language for a question's `language` ("pt-BR" → "pt"); English when it is not one of the eight. */
export function pageLanguage(tag: string | null | undefined): QuestionLanguage {
  const base = (tag ?? '').toLowerCase().split(/[-_]/)[0];
  return (QUESTION_LANGUAGES as readonly string[]).includes(base) ? (base as QuestionLanguage) : 'en';
}

/**
 * For pages with no question (an unknown link): the first of the eight languages the browser
 * asks for in Accept-Language, else English.
 */
export function languageFromAcceptLanguage(header: string | undefined): QuestionLanguage {
  return preferredLanguage(header, QUESTION_LANGUAGES);
}
