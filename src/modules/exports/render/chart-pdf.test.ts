import { describe, expect, it } from 'vitest';
import { renderChartPdf } from './chart-pdf.ts';
import { answer, answers, FIXTURES, items, question, result } from './chart.fixture.ts';
import { distinctColours, inspectPdf, notBackground } from './image-probe.fixture.ts';
import type { ChartInput } from './render.types.ts';

const pagesOf = (info: string) => Number(/^Pages:\s+(\d+)/m.exec(info)?.[1]);
/** pdftotext -layout output as one line of single spaces. */
const flat = (text: string) => text.replace(/\s+/g, ' ');

describe('chart PDF', { timeout: 60_000 }, () => {
  it('is one A4 page: question, chart, what it means, pinned answers first, "and N more", the verification line', async () => {
    const input = FIXTURES.single_choice;
    const pdf = await renderChartPdf(input);
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    const { info, text, page } = inspectPdf(pdf);
    expect(pagesOf(info)).toBe(1);
    expect(info).toMatch(/Page size:\s+595\.28 x 841\.89 pts \(A4\)/);
    const words = flat(text);
    expect(words).toContain('Which name should our budgeting app launch with?');
    expect(words).toContain('Pocket 112 answers 56%');
    expect(words).toContain('What it means');
    expect(words).toContain('Winner: Pocket · Confidence: high · ahead by 27 points');
    expect(words).toContain('Pocket leads with 56%, 27 points ahead of Penny; the lead is clear (99% intervals apart).');
    expect(words).toContain('Ask next: Ask which logo suits Pocket best.');
    // Pinned answers (the 6th and 10th of the list) come before the first one that is not.
    expect(words.indexOf('Pinned')).toBeGreaterThan(words.indexOf('Answers'));
    expect(words.indexOf('PINNED-ONE')).toBeLessThan(words.indexOf('Short and easy to remember.'));
    // "and N more answers": N is what was not listed.
    const listed = words.match(/Chose: /g)!.length;
    const more = Number(/and (\d+) more answers/.exec(words)?.[1]);
    expect(listed).toBeGreaterThan(3);
    expect(listed + more).toBe(200);
    expect(words).toContain('Answered by 200 verified heads of tier 2 or above.');
    // Rendered, the page is not blank: bars, text, colours.
    expect(distinctColours(page)).toBeGreaterThan(40);
    expect(notBackground(page, '#ffffff')).toBeGreaterThan(page.width * page.height * 0.03);
  });

  it('stays one page with 5,000 answers, or a 600-character question, nine long options, a long note and long answers', async () => {
    const many: ChartInput = { question: FIXTURES.single_choice.question, result: { ...FIXTURES.single_choice.result, nAccepted: 5000, nRequested: 5000, answers: answers(5000, ['Pocket', 'Penny', 'Stash']) } };
    const big = inspectPdf(await renderChartPdf(many));
    expect(pagesOf(big.info)).toBe(1);
    const shown = flat(big.text).match(/Chose: /g)!.length;
    expect(flat(big.text)).toContain(`and ${(5000 - shown).toLocaleString('en')} more answers`);

    const long = 'Supercalifragilisticexpialidocious '.repeat(30);
    const worst: ChartInput = {
      question: question({ text: long.slice(0, 600), context: long.slice(0, 120), options: FIXTURES.many_options.question.options, neither: true }),
      result: {
        ...FIXTURES.many_options.result,
        summary: { ...FIXTURES.many_options.result.summary, note: long, suggestedFollowUp: long },
        answers: Array.from({ length: 60 }, (_, i) => answer(i, { option: 'Neither', text: long, reason: long, pinned: i % 7 === 0 })),
        verificationLine: long,
      },
    };
    const tall = inspectPdf(await renderChartPdf(worst));
    expect(pagesOf(tall.info)).toBe(1);
    expect(flat(tall.text)).toMatch(/and \d+ more answers/);
  });

  it('draws every question type on one page, and a question without answers says so', async () => {
    for (const [name, input] of Object.entries(FIXTURES)) {
      const { info, text } = inspectPdf(await renderChartPdf(input));
      expect(pagesOf(info), name).toBe(1);
      expect(flat(text), name).toContain(flat(input.question.text).slice(0, 40));
    }
    const empty = flat(inspectPdf(await renderChartPdf(FIXTURES.empty)).text);
    expect(empty).toContain('No answers yet');
    expect(empty).not.toContain('What it means');
    // Free text lists its answers once, in the answers, not again as quotes in the chart.
    const free = flat(inspectPdf(await renderChartPdf(FIXTURES.free_text)).text);
    expect(free.split('Dark mode, please.').length - 1).toBe(1);
    expect(free).toContain('Written answers received: 186');
    expect(flat(inspectPdf(await renderChartPdf(FIXTURES.simulated)).text)).toContain('Simulated answers, not real people');
  });

  it('embeds the Noto subsets it draws with, never a standard font, and Hindi copies out as written', async () => {
    const { fonts, text } = inspectPdf(await renderChartPdf(FIXTURES.hindi));
    const rows = fonts.split('\n').slice(2).filter(Boolean);
    expect(rows.map((row) => row.split(/\s+/)[0].replace(/^[A-Z]{6}\+/, '')).sort()).toEqual(['NotoSans-Bold', 'NotoSans-Regular', 'NotoSansDevanagari-Bold', 'NotoSansDevanagari-Regular']);
    // Embedded, subset, with a Unicode map; nothing else (no Helvetica for anyone's words).
    for (const row of rows) expect(row).toMatch(/CID TrueType\s+Identity-H\s+yes yes yes/);
    expect(fonts).not.toMatch(/Helvetica|Times|Courier/);
    const words = flat(text);
    expect(words).toContain('आप ऑनलाइन ख़रीदारी के लिए सबसे ज़्यादा किस ऐप का');
    expect(words).toContain('इस्तेमाल करते हैं?');
    expect(words).toContain('फ़्लिपकार्ट');
    expect(words).toContain('इसका मतलब');
    expect(words).toContain('क्यों: कपड़े सस्ते मिलते हैं और डिलीवरी मुफ़्त है।');
  });

  it('says what it is in its metadata, and the same input gives the same bytes', async () => {
    const input = { question: question({ text: 'Which name is best? <Pocket> & "Penny"' }), result: result({ distribution: items([['Penny', 120], ['Pocket', 80]]) }) };
    const generatedAt = new Date('2026-03-04T05:06:07Z');
    const pdf = await renderChartPdf(input, { generatedAt });
    const { info } = inspectPdf(pdf);
    expect(info).toMatch(/^Title:\s+Which name is best\? <Pocket> & "Penny"$/m);
    expect(info).toMatch(/^Producer:\s+Headcount$/m);
    expect(info).toMatch(/^Creator:\s+Headcount$/m);
    expect(info).toMatch(/^CreationDate:\s+.*2026/m);
    expect((await renderChartPdf(input, { generatedAt })).equals(pdf)).toBe(true);
  });
});
