import type { QuestionLanguage } from '../../../modules/draft/question-types.ts';
import { en, type PortalStrings } from './en.ts';
import { es } from './es.ts';
import { pt } from './pt.ts';
import { hi } from './hi.ts';
import { fr } from './fr.ts';
import { de } from './de.ts';
import { id } from './id.ts';
import { tl } from './tl.ts';

export type { PortalStrings, PortalStringKey } from './en.ts';

/**
 * The portal's words in the eight languages of the answer page (issue 10 point 7: "the same look
 * and languages"). A signed-in person sees their own language (set under "Your account"); before
 * signing in, the browser's (Accept-Language).
 */
export const PORTAL_STRINGS: Record<QuestionLanguage, PortalStrings> = { en, es, pt, hi, fr, de, id, tl };
