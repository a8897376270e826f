import { describe, expect, it } from 'vitest';
import { QUESTION_LANGUAGES } from '../../modules/draft/question-types.ts';
import { languageFromAcceptLanguage, pageLanguage, STRINGS } from '../shared/strings/index.ts';
import { contentSecurityPolicy } from '../../http/page-headers.ts';
import { jsonForScript } from '../shared/html.ts';
import { loadAssets } from '../shared/assets.ts';

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('answer page strings', () => {
  it('exist for the eight question languages, each with the same placeholders as English', () => {
    expect(Object.keys(STRINGS).sort()).toEqual([...QUESTION_LANGUAGES].sort());
    for (const [lang, strings] of Object.entries(STRINGS)) {
      for (const [key, text] of Object.entries(STRINGS.en)) {
        expect(placeholders(strings[key as keyof typeof strings]), `${lang}.${key}`).toEqual(placeholders(text));
        expect(strings[key as keyof typeof strings].trim(), `${lang}.${key}`).not.toBe('');
      }
    }
  });

  it('end the sentences shown as hints and messages with punctuation, in every language', () => {
    const sentences = ['rankHint', 'rankTop', 'multiHint', 'pairHint', 'scaleHint', 'tapKeys', 'chooseFirst', 'writeFirst', 'tapFirst', 'imageFailed', 'reasonMissing'] as const;
    for (const [lang, strings] of Object.entries(STRINGS)) {
      // Hindi ends a sentence with the danda (।).
      for (const key of sentences) expect(strings[key], `${lang}.${key}`).toMatch(/[.!?।]$/u);
    }
  });

  it('follow the base tag of the question language, English otherwise', () => {
    expect(pageLanguage('pt-BR')).toBe('pt');
    expect(pageLanguage('tl')).toBe('tl');
    expect(pageLanguage('ja')).toBe('en');
    expect(pageLanguage(undefined)).toBe('en');
  });

  it('pick the best supported Accept-Language by weight for pages without a question', () => {
    expect(languageFromAcceptLanguage('ja, de-CH;q=0.8, fr;q=0.9')).toBe('fr');
    expect(languageFromAcceptLanguage('id-ID')).toBe('id');
    expect(languageFromAcceptLanguage('es;q=0, ja')).toBe('en');
    expect(languageFromAcceptLanguage(undefined)).toBe('en');
  });
});

describe('answer page document', () => {
  it('embeds JSON that no question text can break out of', () => {
    const json = jsonForScript({ text: '</script><script>alert(1)</script>\u2028' });
    expect(json).not.toContain('<');
    expect(JSON.parse(json)).toEqual({ text: '</script><script>alert(1)</script>\u2028' });
  });

  it('allows Turnstile and local test images only when configured', () => {
    const plain = contentSecurityPolicy({ nodeEnv: 'production', turnstile: { siteKey: null, secret: null, verifyUrl: '' } });
    expect(plain).toContain("script-src 'self';");
    expect(plain).toContain("img-src 'self' https:;");
    expect(plain).not.toContain('cloudflare');
    expect(plain).not.toContain('127.0.0.1');
    const guarded = contentSecurityPolicy({ nodeEnv: 'test', turnstile: { siteKey: 'k', secret: 's', verifyUrl: '' } });
    expect(guarded).toContain("script-src 'self' https://challenges.cloudflare.com;");
    expect(guarded).toContain('frame-src https://challenges.cloudflare.com;');
    expect(guarded).toContain("img-src 'self' https: http://127.0.0.1:*;");
  });

  it('versions its assets by their content', () => {
    const bundle = loadAssets();
    expect(bundle.version).toMatch(/^[0-9a-f]{12}$/);
    expect([...bundle.files.keys()]).toEqual(expect.arrayContaining(['answer.js', 'answer.css', 'i18n.js']));
    expect(bundle.files.get('answer.css')!.contentType).toBe('text/css; charset=utf-8');
    expect(loadAssets().version).toBe(bundle.version);
  });
});
