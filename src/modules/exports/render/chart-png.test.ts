import { Resvg } from '@resvg/resvg-js';
import { describe, expect, it } from 'vitest';
import { QUESTION_LANGUAGES } from '../../draft/question-types.ts';
import { renderChartPng, resvgOptions } from './chart-png.ts';
import { chartSvg } from './chart-svg.ts';
import { FIXTURES, inLanguage, items, LANGUAGE_TEXTS, question, result } from './chart.fixture.ts';
import { colourBox, decode, distinctColours, ink, inkSpan, notBackground } from './image-probe.fixture.ts';
import { EXPORT_SIZES, type ChartInput, type ExportSize } from './render.types.ts';
import { COLORS, toSvg } from './shapes.ts';
import { measure } from './text-measure.ts';

const SIZES = Object.keys(EXPORT_SIZES) as ExportSize[];
/** The words an SVG carries (each line of text is a group labelled with its words). */
const wordsOf = (svg: string) =>
  [...svg.matchAll(/aria-label="([^"]*)"/g)].map((m) => m[1].replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&amp;/g, '&'));

// The outer margins of each layout (chart-svg.ts), where nothing may be drawn.
const MARGIN: Record<ExportSize, { pad: number; background: string }> = {
  square: { pad: 72, background: COLORS.card },
  story: { pad: 90, background: COLORS.card },
  wide: { pad: 52, background: COLORS.bg },
};

describe('chart PNG', { timeout: 60_000 }, () => {
  it('is exactly 1080×1080, 1200×675 or 1080×1920, square by default, for every question type', () => {
    for (const [name, input] of Object.entries(FIXTURES)) {
      for (const size of SIZES) {
        const img = decode(renderChartPng(input, size));
        expect([name, size, img.width, img.height]).toEqual([name, size, EXPORT_SIZES[size].width, EXPORT_SIZES[size].height]);
        // Not blank: bars, text and anti-aliasing give many colours in the middle of the picture.
        const { width, height } = EXPORT_SIZES[size];
        expect(distinctColours(img, { x0: 0, y0: height * 0.25, x1: width, y1: height * 0.75 }), `${name} ${size}`).toBeGreaterThan(30);
      }
    }
    const byDefault = decode(renderChartPng(FIXTURES.single_choice));
    expect([byDefault.width, byDefault.height]).toEqual([1080, 1080]);
  });

  it('draws a 70% bar about 7/3 as long as the 30% one, at every size', () => {
    for (const size of SIZES) {
      const img = decode(renderChartPng(FIXTURES.seventy_thirty, size));
      // Below the Headcount mark, which is drawn in the accent too.
      const chart = { x0: 0, y0: 150, x1: img.width, y1: img.height };
      const tea = colourBox(img, COLORS.accent, chart); // the leader
      const coffee = colourBox(img, COLORS.accentMid, chart);
      const ratio = (tea.x1 - tea.x0 + 1) / (coffee.x1 - coffee.x0 + 1);
      expect(ratio, size).toBeGreaterThan(2.1);
      expect(ratio, size).toBeLessThan(2.6);
      // Both bars start at the same place: one axis.
      expect(Math.abs(tea.x0 - coffee.x0), size).toBeLessThanOrEqual(2);
    }
  });

  it('draws each 95% interval as a dark whisker across the end of its bar, and says what the thin lines are', () => {
    const svg = chartSvg(FIXTURES.seventy_thirty, 'square');
    const whiskers = [...svg.matchAll(new RegExp(`<line x1="([\\d.]+)" y1="([\\d.]+)" x2="([\\d.]+)" y2="\\2" stroke="${COLORS.text}"`, 'g'))].map((m) => [Number(m[1]), Number(m[3])]);
    // Tea 70/100 → Wilson [0.604, 0.781]; the legend's sample whisker comes last.
    const [tea] = whiskers;
    const barStart = 72;
    const barWidth = 1080 - 72 * 2;
    expect((tea[0] - barStart) / barWidth).toBeCloseTo(0.604, 2);
    expect((tea[1] - barStart) / barWidth).toBeCloseTo(0.781, 2);
    expect(wordsOf(svg)).toContain('Thin lines: the 95% range');
  });

  it('keeps every line inside the margins, however long the question, the labels and the note', () => {
    const longWord = 'Supercalifragilisticexpialidocious'.repeat(2);
    const stress: ChartInput = {
      question: question({ text: `${longWord} ${'very '.repeat(150)}`.slice(0, 600), context: 'x'.repeat(120), options: Array.from({ length: 8 }, (_, i) => ({ label: `${longWord}${i}`.slice(0, 40) })), neither: true }),
      result: result({
        distribution: items([...Array.from({ length: 8 }, (_, i): [string, number] => [`${longWord}${i}`.slice(0, 40), 10 + i * 7]), ['Neither', 3]]),
        summary: { winner: null, margin: null, confidence: null, note: `${longWord} `.repeat(30), suggestedFollowUp: null },
        verificationLine: `${longWord} `.repeat(12),
      }),
    };
    const inputs = { stress, long_question: FIXTURES.long_question, many_options: FIXTURES.many_options, hindi: FIXTURES.hindi, free_text: FIXTURES.free_text, click_test: FIXTURES.click_test };
    for (const [name, input] of Object.entries(inputs)) {
      for (const size of SIZES) {
        const img = decode(renderChartPng(input, size));
        const { pad, background } = MARGIN[size];
        const rightMargin = { x0: img.width - pad + 2, y0: 0, x1: img.width, y1: img.height };
        const bottomMargin = { x0: 0, y0: img.height - pad + 6, x1: img.width, y1: img.height };
        const leftMargin = { x0: 0, y0: 0, x1: pad - 2, y1: img.height };
        expect(notBackground(img, background, rightMargin), `${name} ${size}: right margin`).toBe(0);
        expect(notBackground(img, size === 'wide' ? COLORS.card : background, leftMargin), `${name} ${size}: left margin`).toBe(0);
        expect(notBackground(img, size === 'wide' ? COLORS.card : background, { ...bottomMargin, x1: size === 'wide' ? 492 : img.width }), `${name} ${size}: bottom margin`).toBe(0);
        if (size === 'wide') {
          // The gutter between the words on the left and the chart's panel.
          expect(notBackground(img, COLORS.card, { x0: 52 + 440 + 2, y0: 0, x1: 52 + 440 + 28, y1: img.height }), `${name}: gutter`).toBe(0);
        }
      }
    }
    // The ellipsis shows that the text goes on.
    expect(wordsOf(chartSvg(stress, 'square')).some((line) => line.endsWith('…'))).toBe(true);
  });

  it('draws text in all eight languages with the shipped fonts, as outlines: no <text>, no font of the machine', () => {
    for (const language of QUESTION_LANGUAGES) {
      const input = inLanguage(language);
      const svg = chartSvg(input, 'square');
      expect(svg).not.toMatch(/<text|font-family/);
      expect(wordsOf(svg)).toContain(LANGUAGE_TEXTS[language].options[0]);
      const img = decode(renderChartPng(input, 'square'));
      // The question, bold, under the mark.
      expect(ink(img, { x0: 72, y0: 140, x1: 1008, y1: 260 }), language).toBeGreaterThan(3000);
    }
    // Hindi is drawn with the Devanagari faces ("db…" = Devanagari bold glyphs in <defs>).
    expect(chartSvg(inLanguage('hi'), 'square')).toMatch(/<path id="db\d+"/);
    // resvg is given no font at all, and left to itself it draws nothing: every letter in an export comes from our outlines.
    expect(resvgOptions().font).toEqual({ loadSystemFonts: false });
    const bare = new Resvg('<svg xmlns="http://www.w3.org/2000/svg" width="400" height="100"><rect width="400" height="100" fill="#fff"/><text x="10" y="70" font-size="50" font-family="Noto Sans Devanagari, Noto Sans, sans-serif">जवाब Hello</text></svg>', resvgOptions());
    expect(ink(decode(bare.render().asPng()))).toBe(0);
  });

  it('shapes Devanagari: the aa-matra of "जवाब" takes its own room (resvg-js 2.6.2 would stack it on the next letter)', () => {
    const size = 120;
    const svg = toSvg(700, 200, [{ kind: 'rect', x: 0, y: 0, w: 700, h: 200, fill: '#ffffff' }, { kind: 'text', x: 20, y: 150, text: 'जवाब', size, weight: 'regular', fill: '#000000' }], 'test');
    const span = inkSpan(decode(new Resvg(svg, resvgOptions()).render().asPng()), { x0: 0, y0: 0, x1: 700, y1: 200 });
    expect(span).not.toBeNull();
    const width = span![1] - span![0];
    const withMatra = measure('जवाब', { size, weight: 'regular' });
    const withoutMatra = measure('जवब', { size, weight: 'regular' });
    expect(width).toBeGreaterThan(withoutMatra + (withMatra - withoutMatra) * 0.5);
    expect(width).toBeLessThanOrEqual(withMatra + 2); // anti-aliased edges
  });

  it('escapes what people wrote: markup stays text and a control character does not break the image', () => {
    const text = 'Is 5 < 6 & "quoted" \'single\' <script>alert(1)</script>\u0007\u202E?';
    const input = { ...FIXTURES.single_choice, question: question({ text, options: [{ label: '<b>Bold</b> & co' }, { label: 'Pocket' }, { label: 'Stash' }] }) };
    input.result = { ...input.result, distribution: items([['<b>Bold</b> & co', 58], ['Pocket', 112], ['Stash', 30]]) };
    const svg = chartSvg(input, 'square');
    expect(svg).not.toContain('<script');
    expect(svg).not.toContain('<b>');
    expect(svg).toContain('&lt;script&gt;');
    expect(wordsOf(svg)).toContain('<b>Bold</b> & co');
    expect(decode(renderChartPng(input, 'square')).width).toBe(1080);
  });

  it('says "No answers yet" instead of drawing empty bars', () => {
    for (const size of SIZES) {
      const svg = chartSvg(FIXTURES.empty, size);
      expect(wordsOf(svg), size).toContain('No answers yet');
      const img = decode(renderChartPng(FIXTURES.empty, size));
      expect(colourBox(img, COLORS.accentMid).count, size).toBe(0);
      expect(colourBox(img, COLORS.accent, { x0: 0, y0: 150, x1: img.width, y1: img.height }).count, size).toBe(0);
    }
    expect(wordsOf(chartSvg(FIXTURES.empty))).toContain('Still collecting answers');
  });

  it('says in red when the answers came from simulated heads', () => {
    for (const size of SIZES) {
      expect(wordsOf(chartSvg(FIXTURES.simulated, size))).toContain('Simulated answers, not real people');
      expect(colourBox(decode(renderChartPng(FIXTURES.simulated, size)), COLORS.danger).count, size).toBeGreaterThan(300);
      expect(colourBox(decode(renderChartPng(FIXTURES.single_choice, size)), COLORS.danger).count, size).toBe(0);
    }
    expect(wordsOf(chartSvg({ ...FIXTURES.hindi, result: { ...FIXTURES.hindi.result, verificationLine: FIXTURES.simulated.result.verificationLine } }))).toContain('सिम्युलेटेड जवाब, असली लोग नहीं');
    // Some simulated, some people through the link: the band says some, not all.
    const mixed = { ...FIXTURES.simulated, result: { ...FIXTURES.simulated.result, verificationLine: 'Answered by 6 simulated heads (development mode, not real people) and 6 people through the answer link (not verified).' } };
    expect(wordsOf(chartSvg(mixed))).toContain('Some answers simulated, not real people');
    expect(wordsOf(chartSvg(mixed))).not.toContain('Simulated answers, not real people');
  });

  it('draws each type the way the results page shows it', () => {
    const words = (name: keyof typeof FIXTURES) => wordsOf(chartSvg(FIXTURES[name], 'square'));
    expect(words('single_choice')).toEqual(expect.arrayContaining(['Pocket', '56%', '112 answers', 'Neither']));
    expect(words('multi_choice').join(' ')).toContain('People could choose more than one, so the shares can add up to more than 100%.');
    expect(words('scale_1_5')).toEqual(expect.arrayContaining(['Average', '3.9', '/ 5', '1', '5']));
    expect(words('yes_mostly_no')).toEqual(expect.arrayContaining(['Yes', 'Mostly', 'No']));
    expect(wordsOf(chartSvg({ ...FIXTURES.yes_mostly_no, question: { ...FIXTURES.yes_mostly_no.question, language: 'de' } }))).toEqual(expect.arrayContaining(['Ja', 'Größtenteils', 'Nein']));
    expect(words('ab_image')).toEqual(expect.arrayContaining(['Photo of a family', 'Illustration']));
    // Ranking and pairwise: best first, with their rank badges.
    const ranking = words('ranking');
    expect(ranking.indexOf('Brunch with friends')).toBeLessThan(ranking.indexOf('Hiking'));
    expect(ranking).toEqual(expect.arrayContaining(['1', '1.9', 'average rank 1.9 · ranked first in 81 answers (41%)']));
    const pairwise = words('pairwise');
    expect(pairwise.indexOf('Four-day week')).toBeLessThan(pairwise.indexOf('Better coffee'));
    expect(pairwise).toContain('36%');
    // Free text: the count, and the answers or the themes; no bars without themes.
    expect(words('free_text')).toEqual(expect.arrayContaining(['Written answers received: 186', '“Dark mode, please. My eyes at midnight.”']));
    expect(colourBox(decode(renderChartPng(FIXTURES.free_text)), COLORS.accentMid).count).toBe(0);
    expect(words('free_text_themes')).toEqual(expect.arrayContaining(['Bank sync breaks', '34%', 'What people wrote']));
    // Click test: taps and the busiest areas, no image fetched.
    expect(words('click_test')).toEqual(expect.arrayContaining(['Taps: 173', 'Busiest areas', '62%']));
    expect(chartSvg(FIXTURES.click_test)).not.toMatch(/<image|https?:\/\/cdn/);
    expect(words('reaction')).toEqual(expect.arrayContaining(['Curious', '44%']));
    // The summary note and the verification line, at every size.
    for (const size of SIZES) {
      const all = wordsOf(chartSvg(FIXTURES.single_choice, size)).join(' ');
      expect(all, size).toContain('Pocket leads with 56%');
      expect(all, size).toContain('Answered by 200 verified heads of tier 2 or above.');
      expect(all, size).toContain('Headcount');
    }
  });
});
