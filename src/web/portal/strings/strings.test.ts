import { describe, expect, it } from 'vitest';
import { QUESTION_LANGUAGES } from '../../../modules/draft/question-types.ts';
import { MAIL_STRINGS } from '../../../modules/people/mail-strings.ts';
import { PORTAL_STRINGS } from './index.ts';

const placeholders = (text: string) => [...new Set([...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]))].sort();

/** Every string of a table as [key, text], nested objects (the mail's `roles`) flattened to "roles.owner". */
function flatten(table: object, prefix = ''): [string, string][] {
  return Object.entries(table).flatMap(([key, value]): [string, string][] =>
    typeof value === 'string' ? [[`${prefix}${key}`, value]] : flatten(value as object, `${prefix}${key}.`),
  );
}

/** Long English sentences that may stay the same: mostly technical (scope names, the header to send). */
const mayMatchEnglish = (key: string, english: string) => key.startsWith('scope_') || english.includes('Authorization');

function checkTable(name: string, tables: Record<string, object>) {
  describe(name, () => {
    const english = new Map(flatten(tables.en));

    it('exists for the eight languages', () => {
      expect(Object.keys(tables).sort()).toEqual([...QUESTION_LANGUAGES].sort());
    });

    for (const lang of QUESTION_LANGUAGES.filter((l) => l !== 'en')) {
      it(`${lang}: every key, same placeholders as English, nothing empty, long sentences translated`, () => {
        const translated = new Map(flatten(tables[lang]));
        expect([...translated.keys()].sort()).toEqual([...english.keys()].sort());
        for (const [key, text] of english) {
          const own = translated.get(key) ?? '';
          expect(own.trim(), `${lang}.${key} is empty`).not.toBe('');
          expect(placeholders(own), `${lang}.${key} placeholders`).toEqual(placeholders(text));
          if (text.length > 25 && !mayMatchEnglish(key, text)) expect(own, `${lang}.${key} is still English`).not.toBe(text);
        }
      });
    }
  });
}

checkTable('PORTAL_STRINGS', PORTAL_STRINGS);
checkTable('MAIL_STRINGS', MAIL_STRINGS);
