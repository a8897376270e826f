import { Readable } from 'node:stream';
import { loadOnce } from '../../lib/load-once.ts';
import type { AnswerRow } from '../results/results.repository.ts';
import type { QuestionContext } from '../results/result-view.ts';

/**
 * GET /v2/questions/{id}/export.csv (docs/exports.md "CSV"): one record per answer, oldest first,
 * RFC 4180 (CRLF between records, quotes doubled, every field that needs it quoted) through
 * `csv-stringify`, UTF-8 with a byte order mark so spreadsheets read accents and Devanagari right.
 *
 * Streamed: the answers are the result cache's rows (already in memory for the result); the CSV
 * text is made a record at a time as the client reads, never as one string, and a slow
 * client holds back the producer (stream back-pressure) instead of growing a buffer.
 *
 * Formula injection (OWASP "CSV Injection"): a text cell that begins with `=`, `+`, `-`, `@`, a
 * tab or a carriage return would be run as a formula by Excel, LibreOffice or Google Sheets.
 * Such a cell gets a leading apostrophe, which spreadsheets show as text and never evaluate.
 * Only text a person wrote or chose can start that way: numbers and dates are ours.
 */
export const CSV_COLUMNS = [
  'answered_at',
  'attestation_ref',
  'tier',
  'option',
  'option_index',
  'options',
  'text',
  'reason',
  'translated_text',
  'translated_reason',
  'translated_to',
  'taps',
  'tap_count',
  'seconds',
  'pinned',
  'simulated',
  'grade',
  'options_indexes',
] as const;

type Column = (typeof CSV_COLUMNS)[number];
type Cell = string | number | boolean | null;

const FORMULA_START = /^[=+\-@\t\r]/;

/** A text cell a spreadsheet will show as text, never run (see above). */
export function neutralised(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

const labelsOf = (indexes: readonly number[] | undefined, labels: readonly string[], joiner: string): string | null =>
  indexes && indexes.length ? indexes.map((i) => labels[i] ?? String(i)).join(joiner) : null;

/**
 * The `options` column: every option an answer names beyond `option`: ticked (multi choice,
 * ` | `), the whole order (ranking, ` > `, best first) or the pair shown (pairwise, ` vs `).
 */
function optionsOf(row: AnswerRow, ctx: QuestionContext): string | null {
  switch (ctx.type) {
    case 'multi_choice':
      return labelsOf(row.options, ctx.labels, ' | ');
    case 'ranking':
      return labelsOf(row.order, ctx.labels, ' > ');
    case 'pairwise':
      return labelsOf(row.pair, ctx.labels, ' vs ');
    default:
      return null;
  }
}

/**
 * `options_indexes`: the same options as `options`, as their indexes with a space between: a
 * label may itself hold ` | `, ` > ` or ` vs `, an index never does, so a program reads this
 * column and `options` is for people.
 */
function optionIndexesOf(row: AnswerRow, ctx: QuestionContext): string | null {
  const indexes = ctx.type === 'multi_choice' ? row.options : ctx.type === 'ranking' ? row.order : ctx.type === 'pairwise' ? row.pair : undefined;
  return indexes && indexes.length ? indexes.join(' ') : null;
}

/** Taps as `x y` pairs (0 to 1 from the top left, three decimals) separated by `; `. */
const tapsOf = (row: AnswerRow): string | null => (row.taps?.length ? row.taps.map((p) => `${p.x.toFixed(3)} ${p.y.toFixed(3)}`).join('; ') : null);

export function csvRecord(row: AnswerRow, ctx: QuestionContext): Record<Column, Cell> {
  return {
    answered_at: row.answeredAt,
    attestation_ref: row.attestationRef,
    tier: row.tier,
    option: row.optionLabel,
    option_index: row.option ?? null,
    options: optionsOf(row, ctx),
    text: row.text,
    reason: row.reason,
    translated_text: row.translatedText,
    translated_reason: row.translatedReason,
    translated_to: row.translatedTo,
    taps: tapsOf(row),
    tap_count: row.taps ? row.taps.length : null,
    seconds: row.dwellMs === null ? null : Math.round(row.dwellMs / 100) / 10,
    pinned: row.pinned,
    simulated: row.simulated,
    grade: row.grade,
    options_indexes: optionIndexesOf(row, ctx),
  };
}

/** `rows` newest first, as the result cache keeps them; the CSV lists them oldest first. */
function* records(rows: readonly AnswerRow[], ctx: QuestionContext): Generator<Record<Column, Cell>> {
  for (let i = rows.length - 1; i >= 0; i--) yield csvRecord(rows[i], ctx);
}

/** csv-stringify loads with the first export, not at start-up (issue 15). */
const csvStringify = loadOnce(() => import('csv-stringify'));

/**
 * The CSV as a byte stream: header, then the records, each made when the stringifier asks for it
 * (Readable.from pulls the generator only while the client keeps reading).
 */
export async function answersCsv(rows: readonly AnswerRow[], ctx: QuestionContext): Promise<Readable> {
  const { stringify } = await csvStringify();
  const csv = stringify({
    header: true,
    columns: [...CSV_COLUMNS],
    bom: true,
    record_delimiter: 'windows',
    cast: {
      string: (value) => neutralised(value),
      boolean: (value) => (value ? 'true' : 'false'),
      number: (value) => String(value),
    },
  });
  return Readable.from(records(rows, ctx)).pipe(csv);
}
