import PDFDocument from 'pdfkit';
import { NEITHER_LABEL } from '../../draft/answer-format.ts';
import { layoutChart } from './chart-layout.ts';
import { textBlock, textLine, type Drawn } from './chart-rows.ts';
import { header, questionBlock, simulatedBand } from './chrome.ts';
import { fontFile } from './fonts.ts';
import { paint, registerFonts } from './pdf-painter.ts';
import type { ChartInput } from './render.types.ts';
import { COLORS, shiftShapes, type Shape } from './shapes.ts';
import { cleanText, measure } from './text-measure.ts';
import { fill, simulatedShare, wordsFor, type Wording } from './words.ts';

/**
 * The result as one A4 page for a meeting (spec Exports: export.pdf): the question, the chart
 * (the same drawing as the PNG, painted as vectors), "What it means" (summary, confidence,
 * winner and margin), then the answers with pinned ones first, as many as fit, "and N more",
 * and the verification line at the foot.
 *
 * One page whatever the input: every block is laid out first and drawn only if it ends above
 * the foot, text is drawn line by line at set positions (pdfkit never wraps, so never adds a
 * page), and the page count is checked before the file is returned.
 */
type Answer = ChartInput['result']['answers'][number];

// A4 in points (ISO 216: 210 × 297 mm).
const PAGE = { width: 595.28, height: 841.89 };
const MARGIN = 48;
const WIDTH = PAGE.width - MARGIN * 2;
const TEXT = 10;
const SMALL = 8.5;
const HEADING = 12.5;

export interface PdfOptions {
  /**
   * The PDF's creation date. Passed in, not read from the clock (ARCHITECTURE §3 rule 5), so the
   * same input gives the same bytes; without it, the date the question closed (or was created).
   */
  generatedAt?: Date;
}

/** A heading, or nothing when there is nothing under it. */
function heading(text: string, y: number): Drawn {
  return textBlock(text, MARGIN, y, WIDTH, { size: HEADING, weight: 'bold', fill: COLORS.text, maxLines: 1 });
}

/** "What it means": who leads, how sure, the note and the follow-up question. */
function meaning(input: ChartInput, f: Wording, y: number): Drawn {
  const { question, result } = input;
  const { winner, margin, confidence, note, suggestedFollowUp } = result.summary;
  const shapes: Shape[] = [];
  let at = y;
  const add = (drawn: Drawn, gap = 3) => {
    shapes.push(...drawn.shapes);
    at += drawn.height + (drawn.height ? gap : 0);
  };
  add(heading(f.w.meaning, at), 4);
  const facts = [
    winner === null ? null : fill(f.w.winner, { label: optionName(question, f, winner) }),
    confidence === null ? null : fill(f.w.confidence, { level: f.w.levels[confidence] }),
    margin === null || winner === null ? null : fill(f.w.margin, { points: f.int(Math.round(margin * 100)) }),
  ].filter((fact): fact is string => fact !== null);
  if (facts.length) add(textBlock(facts.join(' · '), MARGIN, at, WIDTH, { size: TEXT, weight: 'bold', fill: COLORS.accent, maxLines: 2 }));
  if (note.trim()) add(textBlock(note, MARGIN, at, WIDTH, { size: TEXT, weight: 'regular', fill: COLORS.text, maxLines: 4 }));
  if (suggestedFollowUp) add(textBlock(fill(f.w.followUp, { text: suggestedFollowUp }), MARGIN, at, WIDTH, { size: SMALL + 0.5, weight: 'regular', fill: COLORS.muted, maxLines: 2 }));
  return { shapes, height: at - y };
}

/** An option an answer names, in the question's language where the export has a word for it. */
function optionName(question: ChartInput['question'], f: Wording, option: string): string {
  if (question.type === 'yes_mostly_no') {
    const fixed = ['yes', 'mostly', 'no'].indexOf(option.toLowerCase());
    if (fixed >= 0) return [f.w.yes, f.w.mostly, f.w.no][fixed];
  }
  if (question.neither && option === NEITHER_LABEL) return f.w.neither;
  return option;
}

/** One answer as a block: pinned mark and choice, the written words, the reason; a hairline under it. */
function answerBlock(input: ChartInput, answer: Answer, f: Wording, y: number, compact = false): Drawn {
  const { question } = input;
  const shapes: Shape[] = [];
  let at = y;
  const first: string[] = [];
  if (answer.option !== null && question.type !== 'free_text') {
    first.push(fill(question.type === 'ranking' ? f.w.rankedFirstAnswer : f.w.chose, { option: optionName(question, f, answer.option) }));
  }
  if (answer.taps?.length) first.push(fill(f.w.taps, { n: f.int(answer.taps.length) }));
  let x = MARGIN;
  if (answer.pinned) {
    const size = SMALL;
    const label = cleanText(f.w.pinned, 'bold');
    const line = textLine(label, x + 5, at + size + 1.5, WIDTH, size, 'bold', COLORS.accent);
    const w = line ? Math.min(WIDTH, measure(line.text, line) + 10) : 0;
    shapes.push({ kind: 'rect', x, y: at, w, h: size + 6, r: (size + 6) / 2, fill: COLORS.accentSoft });
    if (line) shapes.push(line);
    x += w + 6;
  }
  if (first.length) {
    const line = textLine(first.join(' · '), x, at + TEXT, MARGIN + WIDTH - x, TEXT, 'bold', COLORS.text);
    if (line) shapes.push(line);
  }
  if (first.length || answer.pinned) at += TEXT * 1.45;
  const text = answer.translatedText && answer.translatedText !== answer.text ? `${answer.text ?? ''} (${answer.translatedText})` : answer.text;
  if (text?.trim()) {
    const block = textBlock(`“${text.trim()}”`, MARGIN, at, WIDTH, { size: TEXT, weight: 'regular', fill: COLORS.text, maxLines: compact ? 1 : 3 });
    shapes.push(...block.shapes);
    at += block.height + 1;
  }
  if (answer.reason?.trim()) {
    const block = textBlock(fill(f.w.why, { reason: answer.reason.trim() }), MARGIN, at, WIDTH, { size: SMALL + 0.5, weight: 'regular', fill: COLORS.muted, maxLines: compact ? 1 : 2 });
    shapes.push(...block.shapes);
    at += block.height;
  }
  at += 5;
  shapes.push({ kind: 'line', x1: MARGIN, y1: at, x2: MARGIN + WIDTH, y2: at, stroke: COLORS.line, width: 0.6 });
  return { shapes, height: at + 6 - y };
}

/** The foot: a hairline and the verification line, laid out upwards from the bottom margin. */
function foot(input: ChartInput): Drawn {
  const verify = textBlock(input.result.verificationLine, MARGIN, 0, WIDTH, { size: SMALL, weight: 'regular', fill: COLORS.muted, maxLines: 2 });
  const top = PAGE.height - MARGIN + 12 - verify.height;
  return {
    shapes: [{ kind: 'line', x1: MARGIN, y1: top - 6, x2: MARGIN + WIDTH, y2: top - 6, stroke: COLORS.line, width: 0.8 }, ...shiftShapes(verify.shapes, top)],
    height: PAGE.height - (top - 6),
  };
}

/** Everything on the page, top to bottom, each block only if it ends above the foot. */
function pageShapes(input: ChartInput, f: Wording): Shape[] {
  const { question, result } = input;
  const shapes: Shape[] = [];
  const footer = foot(input);
  const bottom = PAGE.height - footer.height - 8;
  let y = MARGIN - 8;
  const add = (drawn: Drawn, gap: number) => {
    shapes.push(...drawn.shapes);
    y += drawn.height + (drawn.height ? gap : 0);
  };
  add(header(MARGIN, y, WIDTH, 22, 12, input, f), 14);
  const simulated = simulatedShare(result);
  if (simulated) add(simulatedBand(MARGIN, y, WIDTH, 10.5, f, simulated), 10);
  add(questionBlock(question.text, MARGIN, y, WIDTH, [[20, 3], [17, 4], [15, 5]], 0), 4);
  if (question.context) add(textBlock(question.context, MARGIN, y, WIDTH, { size: TEXT, weight: 'regular', fill: COLORS.muted, maxLines: 2 }), 2);
  add(textBlock(fill(f.w.received, { n: f.int(result.nAccepted), total: f.int(result.nRequested) }), MARGIN, y, WIDTH, { size: TEXT, weight: 'regular', fill: COLORS.muted, maxLines: 1 }), 14);

  // The chart gets up to 40% of the page, less when the question took more: what it means and a first answer keep their room.
  const reserve = result.nAccepted > 0 ? (result.answers.length ? 240 : 150) : 0;
  const chartBox = { x: MARGIN, y, w: WIDTH, h: Math.min(PAGE.height * 0.4, bottom - y - reserve) };
  const chart = layoutChart(input, chartBox, { max: 13, min: 8.5 }, f, { quotes: false });
  add(chart, 18);

  if (result.nAccepted > 0) {
    const means = meaning(input, f, y);
    if (y + means.height <= bottom) add(means, 14);
  }

  const pinnedFirst = [...result.answers.filter((a) => a.pinned), ...result.answers.filter((a) => !a.pinned)];
  const total = Math.max(result.nAccepted, result.answers.length);
  const moreH = TEXT * 1.6;
  let shown = 0;
  if (pinnedFirst.length) {
    const title = heading(f.w.answersHeading, y);
    const blocks: Drawn[] = [];
    let at = y + title.height + 6;
    for (const answer of pinnedFirst) {
      // Room is kept for the "and N more" line whenever answers are left over.
      const room = bottom - (total - blocks.length - 1 > 0 ? moreH : 0);
      let block = answerBlock(input, answer, f, at);
      // The first answer, when long, is shortened to a line each rather than left out.
      if (at + block.height > room && !blocks.length) block = answerBlock(input, answer, f, at, true);
      if (at + block.height > room) break;
      blocks.push(block);
      at += block.height;
    }
    // The heading only over answers that follow it.
    if (blocks.length) {
      add(title, 6);
      for (const block of blocks) add(block, 0);
      shown = blocks.length;
    }
  }
  const more = total - shown;
  if (more > 0) {
    const line = textLine(shown ? f.more(more) : f.answers(more), MARGIN, y + TEXT + 2, WIDTH, TEXT, 'bold', COLORS.muted);
    if (line && y + TEXT * 1.5 <= bottom) shapes.push(line);
  }
  shapes.push(...footer.shapes);
  return shapes;
}

/** The one-page A4 PDF of a result (spec Exports: export.pdf). */
export function renderChartPdf(input: ChartInput, options: PdfOptions = {}): Promise<Buffer> {
  const f = wordsFor(input.question.language);
  const { question } = input;
  const doc = new PDFDocument({
    size: 'A4',
    margin: 0,
    autoFirstPage: true,
    bufferPages: true,
    // The document's default font is a shipped Noto face, so pdfkit never loads its Helvetica.
    font: fontFile('latin', 'regular'),
    lang: f.lang,
    displayTitle: true,
    info: {
      Title: cleanText(question.text) || 'Headcount result',
      Subject: 'Headcount result',
      Producer: 'Headcount',
      Creator: 'Headcount',
      CreationDate: options.generatedAt ?? new Date(question.closedAt ?? question.createdAt),
    },
  });
  registerFonts(doc);
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  paint(doc, pageShapes(input, f));
  const pages = doc.bufferedPageRange().count;
  if (pages !== 1) throw new Error(`export PDF came out with ${pages} pages`);
  doc.end();
  return done;
}
