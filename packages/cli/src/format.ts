import type { Colors } from './ui.ts';
import { padEnd, padStart, truncate, visibleLength } from './ui.ts';

/** What people read for each command (never with --json). Pure: the tests read these lines. */

export function number(value: number): string {
  return value.toLocaleString('en-US');
}

export function credits(value: number): string {
  return `${number(value)} credit${Math.abs(value) === 1 ? '' : 's'}`;
}

/** `2026-11-24 10:15` in the local time zone (TZ). */
export function when(iso: string | null | undefined): string {
  if (!iso) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const two = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())} ${two(date.getHours())}:${two(date.getMinutes())}`;
}

export interface Column {
  header: string;
  align?: 'left' | 'right';
  /** May be cut (with …) to fit the width; the widest flexible column gives way first. */
  flex?: boolean;
  /** Colour of the cells (not of the header). */
  paint?: (text: string, raw: string) => string;
}

/** A plain table that fits `width` columns: a dim header, two spaces between columns. */
export function table(columns: Column[], rows: string[][], options: { width: number; colors: Colors }): string[] {
  const widths = columns.map((column, i) => Math.max(visibleLength(column.header), ...rows.map((row) => visibleLength(row[i] ?? ''))));
  const total = () => widths.reduce((sum, w) => sum + w, 0) + 2 * (columns.length - 1);
  while (total() > options.width) {
    let widest = -1;
    for (const [i, column] of columns.entries()) if (column.flex && widths[i]! > 12 && (widest < 0 || widths[i]! > widths[widest]!)) widest = i;
    if (widest < 0) break;
    widths[widest] = Math.max(12, widths[widest]! - (total() - options.width));
  }
  const cell = (text: string, i: number) => {
    const column = columns[i]!;
    const cut = visibleLength(text) > widths[i]! ? truncate(text, widths[i]!) : text;
    return column.align === 'right' ? padStart(cut, widths[i]!) : padEnd(cut, widths[i]!);
  };
  const lines = [options.colors.dim(columns.map((column, i) => cell(column.header, i)).join('  ').trimEnd())];
  for (const row of rows) {
    lines.push(
      columns
        .map((column, i) => {
          const text = cell(row[i] ?? '', i);
          return column.paint ? column.paint(text, row[i] ?? '') : text;
        })
        .join('  ')
        .trimEnd(),
    );
  }
  return lines;
}

export function statusColor(colors: Colors): (text: string, raw: string) => string {
  return (text, raw) => {
    switch (raw.trim()) {
      case 'live':
        return colors.yellow(text);
      case 'complete':
        return colors.green(text);
      case 'underfilled':
        return colors.magenta(text);
      case 'cancelled':
      case 'refused':
        return colors.red(text);
      default:
        return colors.blue(text);
    }
  };
}

export interface QuestionLike {
  id: string;
  type: string;
  text: string;
  status: string;
  answered: number;
  n: number;
  createdAt: string;
  creditsPerAnswer: number;
  creditsReserved: number;
  creditsSpent: number;
  etaMinutes: number;
  scheduledFor?: string;
  liveAt?: string | null;
  linkUrl?: string;
  refusedCategory?: string | null;
}

export function questionsTable(questions: QuestionLike[], options: { width: number; colors: Colors }): string[] {
  if (questions.length === 0) return ['No questions.'];
  return table(
    [{ header: 'ID' }, { header: 'STATUS', paint: statusColor(options.colors) }, { header: 'ANSWERS', align: 'right' }, { header: 'TYPE' }, { header: 'CREATED' }, { header: 'QUESTION', flex: true }],
    questions.map((q) => [q.id, q.status, `${q.answered}/${q.n}`, q.type, when(q.createdAt), q.text]),
    options,
  );
}

/** "Asked q_…: live, 0 of 10 answers, about 4 min to answer." and the money line. */
export function askedLines(q: QuestionLike): string[] {
  const state =
    q.status === 'scheduled' && q.scheduledFor
      ? `scheduled for ${when(q.scheduledFor)}`
      : q.status === 'live'
        ? `live, ${q.answered} of ${q.n} answers, about ${q.etaMinutes} min to answer`
        : `${q.status}, ${q.answered} of ${q.n} answers`;
  const lines = [`Asked ${q.id}: ${state}.`];
  lines.push(
    q.creditsReserved > 0
      ? `Reserved ${credits(q.creditsReserved)} (${q.n} answers × ${credits(q.creditsPerAnswer)}); credits of answers not given come back when it closes.`
      : 'Nothing reserved (the free private question of the day).',
  );
  if (q.linkUrl) lines.push(`Answer link: ${q.linkUrl}`);
  return lines;
}

export function cancelledLines(q: QuestionLike, refundCredits: number): string[] {
  return [`Cancelled ${q.id}: ${q.answered} of ${q.n} answers were given (${credits(q.creditsSpent)} spent).`, `Refunded ${credits(refundCredits)}.`];
}

export interface AnswerLike {
  option: string | null;
  text: string | null;
  reason?: string | null;
  translatedText?: string | null;
  translatedReason?: string | null;
  tier: number;
  attestationRef: string;
  answeredAt: string;
  pinned?: boolean;
  taps?: Array<{ x: number; y: number }>;
}

export function answersTable(answers: AnswerLike[], options: { width: number; colors: Colors }): string[] {
  if (answers.length === 0) return ['No answers yet.'];
  const withReason = answers.some((a) => a.reason || a.translatedReason);
  const answerText = (a: AnswerLike) => {
    if (a.taps?.length) return a.taps.map((t) => `(${t.x.toFixed(2)}, ${t.y.toFixed(2)})`).join(' ');
    const main = a.option ?? a.translatedText ?? a.text ?? '';
    return a.pinned ? `📌 ${main}` : main;
  };
  const columns: Column[] = [{ header: 'ANSWERED' }, { header: 'TIER', align: 'right' }, { header: 'ANSWER', flex: true }];
  if (withReason) columns.push({ header: 'REASON', flex: true });
  columns.push({ header: 'REF' });
  return table(
    columns,
    answers.map((a) => [when(a.answeredAt), String(a.tier), answerText(a), ...(withReason ? [a.translatedReason ?? a.reason ?? ''] : []), a.attestationRef]),
    options,
  );
}

export interface LedgerRowLike {
  id: string;
  at: string;
  title: string;
  kind: string;
  state: string;
  amount: number;
  ref: string | null;
}

export function ledgerTable(rows: LedgerRowLike[], options: { width: number; colors: Colors }): string[] {
  if (rows.length === 0) return ['No ledger rows.'];
  const c = options.colors;
  return table(
    [
      { header: 'DATE' },
      { header: 'KIND' },
      { header: 'AMOUNT', align: 'right', paint: (text, raw) => (raw.startsWith('-') ? c.red(text) : c.green(text)) },
      { header: 'STATE' },
      { header: 'TITLE', flex: true },
      { header: 'REF' },
    ],
    rows.map((row) => [when(row.at), row.kind, `${row.amount > 0 ? '+' : ''}${number(row.amount)}`, row.state, row.title, row.ref ?? '']),
    options,
  );
}

export interface BalanceLike {
  credits: number;
  reserved: number;
  currency: string;
  capRemaining: number | null;
  freeQuestionToday: boolean;
  expiring: Array<{ credits: number; expiresAt: string }>;
}

export function balanceLines(balance: BalanceLike, colors: Colors): string[] {
  const available = balance.credits - balance.reserved;
  const lines = [
    `${colors.bold(credits(available))} available to spend (balance ${number(balance.credits)} ${balance.currency} credits, of which ${number(balance.reserved)} reserved by open questions).`,
    balance.capRemaining === null ? 'No daily spend cap on this credential.' : `${credits(balance.capRemaining)} left under today's spend cap (UTC day).`,
  ];
  for (const lot of balance.expiring) lines.push(`${credits(lot.credits)} expire on ${when(lot.expiresAt)}.`);
  lines.push(balance.freeQuestionToday ? "Today's free private question is still unused." : "Today's free private question is used.");
  return lines;
}

export interface EstimateLike {
  creditsPerAnswer: number;
  creditsTotal: number;
  etaMinutes: number;
  breakdown: Array<{ label: string; value: string }>;
  breakdownLine: string;
  validation: Array<{ field: string; code: string; message: string }>;
  poolSize: number | null;
}

export function estimateLines(estimate: EstimateLike, n: number | undefined, colors: Colors): string[] {
  const lines = [`Price: ${colors.bold(credits(estimate.creditsTotal))}${n ? ` (${n} answers × ${credits(estimate.creditsPerAnswer)})` : ` (${credits(estimate.creditsPerAnswer)} per answer)`}.`];
  const width = Math.max(...estimate.breakdown.map((item) => item.label.length), 0);
  for (const item of estimate.breakdown) lines.push(`  ${padEnd(item.label, width)}  ${item.value}`);
  lines.push(`About ${estimate.etaMinutes} min to answer${estimate.poolSize === null ? '' : `; ${number(estimate.poolSize)} heads match the targeting`}.`);
  if (estimate.validation.length === 0) lines.push(colors.green('The draft can be asked as it is; ask reserves exactly this price.'));
  else {
    lines.push(colors.red('This draft cannot be asked yet:'));
    for (const item of estimate.validation) lines.push(`  - ${item.field}: ${item.message} (${item.code})`);
  }
  lines.push(colors.dim('Nothing was spent.'));
  return lines;
}
