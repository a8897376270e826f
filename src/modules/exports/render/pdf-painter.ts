import { fontBuffer, type Script, type Weight } from './fonts.ts';
import { scriptRuns } from './glyphs.ts';
import type { Shape, TextShape } from './shapes.ts';
import { measure, scriptOf } from './text-measure.ts';

/**
 * Paints the renderer's shapes (shapes.ts) on a pdfkit page, as vectors and real text: the PDF's
 * words can be searched, copied and read aloud, and its bars stay sharp at any zoom. Text goes
 * through pdfkit with the shipped Noto faces, never its built-in Helvetica.
 */
type Doc = PDFKit.PDFDocument;

const fontName = (script: Script, weight: Weight) => `${script === 'latin' ? 'NotoSans' : 'NotoSansDevanagari'}-${weight}`;

/** Registers the four Noto faces under the names `paint` uses. */
export function registerFonts(doc: Doc): void {
  for (const script of ['latin', 'devanagari'] as const) {
    for (const weight of ['regular', 'bold'] as const) doc.registerFont(fontName(script, weight), fontBuffer(script, weight));
  }
}

/**
 * One line of text with its baseline at `y`. It is drawn run by run where the script changes, at
 * the positions measured for the PNG, because pdfkit, like fontkit, shapes a whole string with
 * the shaper of its first letters (glyphs.ts scriptRuns).
 */
function paintText(doc: Doc, shape: TextShape): void {
  const font = fontName(scriptOf(shape.text), shape.weight);
  const width = measure(shape.text, shape);
  let x = shape.x - (shape.anchor === 'end' ? width : shape.anchor === 'middle' ? width / 2 : 0);
  doc.font(font).fontSize(shape.size).fillColor(shape.fill);
  for (const run of scriptRuns(shape.text)) {
    // Devanagari glyphs are stored in visual order (the i-matra before its consonant) and a
    // conjunct is one glyph, so copying them gives scrambled text; ActualText (ISO 32000-1
    // §14.9.4) tells readers, search and copy the words as written.
    if (run.devanagari) doc.markContent('Span', { actual: run.text, lang: 'hi' });
    doc.text(run.text, x, shape.y, { lineBreak: false, baseline: 'alphabetic' });
    if (run.devanagari) doc.endMarkedContent();
    x += measure(run.text, shape);
  }
}

export function paint(doc: Doc, shapes: Shape[]): void {
  for (const shape of shapes) {
    switch (shape.kind) {
      case 'rect': {
        if (shape.w <= 0 || shape.h <= 0) break;
        doc.save();
        const path = () => (shape.r ? doc.roundedRect(shape.x, shape.y, shape.w, shape.h, Math.min(shape.r, shape.w / 2, shape.h / 2)) : doc.rect(shape.x, shape.y, shape.w, shape.h));
        if (shape.fill) path().fill(shape.fill);
        if (shape.stroke) {
          doc.lineWidth(shape.strokeWidth ?? 1);
          if (shape.dash) doc.dash(shape.dash, { space: shape.dash });
          path().stroke(shape.stroke);
        }
        doc.restore();
        break;
      }
      case 'line':
        doc.save().lineWidth(shape.width).lineCap(shape.round ? 'round' : 'butt').moveTo(shape.x1, shape.y1).lineTo(shape.x2, shape.y2).stroke(shape.stroke).restore();
        break;
      case 'circle':
        doc.circle(shape.cx, shape.cy, shape.r).fill(shape.fill);
        break;
      case 'path':
        doc.save().translate(shape.x, shape.y).scale(shape.scale).path(shape.d).fill(shape.fill).restore();
        break;
      case 'text':
        paintText(doc, shape);
        break;
    }
  }
}
