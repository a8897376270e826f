import { baseLanguage } from '../text/stopwords.ts';

/**
 * The takeaway sentence of the local engine, written from the numbers in the question's own
 * language (labels and quotes are in that language too; a configured translator turns the whole
 * summary into the account's language afterwards). One template set per question language of the
 * spec; an unknown language gets English.
 */
export type Quantifier = 'most' | 'many' | 'some';

interface Templates {
  /** `c` of `n` written answers mention `label`. */
  mention(c: number, n: number, label: string): string;
  /** A share (most/many/some) of the people who picked `option` mention `label`. */
  picked(q: Quantifier, option: string, label: string): string;
  /** `c` of `n` are critical and mention `label`. */
  concern(c: number, n: number, label: string): string;
  /** No theme yet among `n` written answers. */
  none(n: number): string;
  /** Joins two theme words into one label. */
  and: string;
  /** The end of a sentence. */
  stop: string;
}

const TEMPLATES: Record<string, Templates> = {
  en: {
    mention: (c, n, l) => `${c} of ${n} mention “${l}”`,
    picked: (q, o, l) => `${{ most: 'Most', many: 'Many', some: 'Some' }[q]} people who picked ${o} mention “${l}”`,
    concern: (c, n, l) => `${c} of ${n} are critical, mentioning “${l}”`,
    none: (n) => `${n} written answers, with no theme shared by two or more of them yet`,
    and: 'and',
    stop: '.',
  },
  es: {
    mention: (c, n, l) => `${c} de ${n} mencionan «${l}»`,
    picked: (q, o, l) => `${{ most: 'La mayoría', many: 'Muchos', some: 'Algunos' }[q]} de quienes eligieron ${o} mencionan «${l}»`,
    concern: (c, n, l) => `${c} de ${n} son críticos y mencionan «${l}»`,
    none: (n) => `${n} respuestas escritas, sin un tema común todavía`,
    and: 'y',
    stop: '.',
  },
  pt: {
    mention: (c, n, l) => `${c} de ${n} mencionam “${l}”`,
    picked: (q, o, l) => `${{ most: 'A maioria', many: 'Muitos', some: 'Alguns' }[q]} de quem escolheu ${o} ${q === 'most' ? 'menciona' : 'mencionam'} “${l}”`,
    concern: (c, n, l) => `${c} de ${n} são críticos e mencionam “${l}”`,
    none: (n) => `${n} respostas escritas, ainda sem um tema em comum`,
    and: 'e',
    stop: '.',
  },
  fr: {
    mention: (c, n, l) => `${c} sur ${n} mentionnent « ${l} »`,
    picked: (q, o, l) => `${{ most: 'La plupart', many: 'Beaucoup', some: 'Certains' }[q]} de ceux qui ont choisi ${o} mentionnent « ${l} »`,
    concern: (c, n, l) => `${c} sur ${n} sont critiques et mentionnent « ${l} »`,
    none: (n) => `${n} réponses écrites, sans thème commun pour l’instant`,
    and: 'et',
    stop: '.',
  },
  de: {
    mention: (c, n, l) => `${c} von ${n} erwähnen „${l}“`,
    picked: (q, o, l) => `${{ most: 'Die meisten', many: 'Viele', some: 'Einige' }[q]}, die ${o} gewählt haben, erwähnen „${l}“`,
    concern: (c, n, l) => `${c} von ${n} sind kritisch und erwähnen „${l}“`,
    none: (n) => `${n} schriftliche Antworten, noch ohne gemeinsames Thema`,
    and: 'und',
    stop: '.',
  },
  id: {
    mention: (c, n, l) => `${c} dari ${n} menyebut “${l}”`,
    picked: (q, o, l) => `${{ most: 'Sebagian besar', many: 'Banyak', some: 'Beberapa' }[q]} yang memilih ${o} menyebut “${l}”`,
    concern: (c, n, l) => `${c} dari ${n} bernada negatif dan menyebut “${l}”`,
    none: (n) => `${n} jawaban tertulis, belum ada tema yang sama`,
    and: 'dan',
    stop: '.',
  },
  tl: {
    mention: (c, n, l) => `${c} sa ${n} ang bumanggit ng “${l}”`,
    picked: (q, o, l) => `${{ most: 'Karamihan', many: 'Marami', some: 'Ilan' }[q]} sa mga pumili ng ${o} ang bumanggit ng “${l}”`,
    concern: (c, n, l) => `${c} sa ${n} ang negatibo at bumanggit ng “${l}”`,
    none: (n) => `${n} nakasulat na sagot, wala pang iisang tema`,
    and: 'at',
    stop: '.',
  },
  hi: {
    mention: (c, n, l) => `${n} में से ${c} ने “${l}” का ज़िक्र किया`,
    picked: (q, o, l) => `${o} चुनने वालों में से ${{ most: 'ज़्यादातर', many: 'कई', some: 'कुछ' }[q]} ने “${l}” का ज़िक्र किया`,
    concern: (c, n, l) => `${n} में से ${c} ने नकारात्मक राय देते हुए “${l}” का ज़िक्र किया`,
    none: (n) => `${n} लिखित जवाब, अभी कोई साझा विषय नहीं`,
    and: 'और',
    stop: '।',
  },
};

export function templatesFor(language: string): Templates {
  return TEMPLATES[baseLanguage(language)] ?? TEMPLATES.en;
}

export interface TakeawayTheme {
  label: string;
  count: number;
  sentiment: 'positive' | 'neutral' | 'negative';
  option: string | null;
  /** Of the theme's answers, how many chose `option`. */
  optionCount: number;
}

/**
 * One sentence: the largest theme (tied to the option most of its people picked, when it is
 * clearly theirs), then the largest negative theme, or else the second theme.
 */
export function writeTakeaway(language: string, basedOn: number, themes: TakeawayTheme[], pickers: Map<string, number>): string {
  const t = templatesFor(language);
  if (themes.length === 0) return t.none(basedOn) + t.stop;
  const [first, ...rest] = themes;
  let opening = t.mention(first.count, basedOn, first.label);
  const picked = first.option === null ? 0 : pickers.get(first.option) ?? 0;
  // Only when the theme belongs to one option (at least 60% of its answers chose it).
  if (first.option !== null && picked >= 2 && first.optionCount >= 0.6 * first.count) {
    const ratio = first.optionCount / picked;
    opening = t.picked(ratio > 0.5 ? 'most' : ratio >= 0.25 ? 'many' : 'some', first.option, first.label);
  }
  const negative = rest.find((theme) => theme.sentiment === 'negative');
  const second = negative ?? rest[0];
  if (!second) return opening + t.stop;
  const clause = negative ? t.concern(second.count, basedOn, second.label) : t.mention(second.count, basedOn, second.label);
  return `${opening}; ${clause}${t.stop}`;
}
