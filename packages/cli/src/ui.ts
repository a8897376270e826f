import pc from 'picocolors';

/** The streams and environment a run of the tool sees (the real process's, or a test's). */
export interface OutStream {
  write(chunk: string | Uint8Array): boolean;
  isTTY?: boolean;
  columns?: number;
}

export interface Io {
  stdout: OutStream;
  stderr: OutStream;
  stdin: NodeJS.ReadableStream;
  env: NodeJS.ProcessEnv;
  /** Wall clock, in ms (tests may move it). */
  now(): number;
}

export type Colors = ReturnType<typeof pc.createColors>;

/**
 * Colour only on a terminal, and never with NO_COLOR set to anything (https://no-color.org),
 * TERM=dumb or --no-color; each stream decides for itself (`headcount result q_… | less` keeps
 * the progress on the terminal coloured and the chart plain).
 */
export function colorEnabled(stream: OutStream, env: NodeJS.ProcessEnv, flag = true): boolean {
  if (!flag) return false;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.TERM === 'dumb') return false;
  return stream.isTTY === true;
}

/**
 * The live progress bar: only on a terminal that can redraw a line, and, like colour, not with
 * NO_COLOR or --no-color (plain lines instead, which a screen reader or a captured terminal reads
 * as well as a log does).
 */
export function progressBarEnabled(stream: OutStream, env: NodeJS.ProcessEnv, flag = true): boolean {
  return colorEnabled(stream, env, flag);
}

/** How a command writes: results to stdout, progress and hints to stderr, JSON alone with --json. */
export class Ui {
  readonly out: Colors;
  readonly err: Colors;
  constructor(
    readonly io: Io,
    readonly json: boolean,
    /** False with --no-color. */
    readonly color = true,
  ) {
    this.out = pc.createColors(colorEnabled(io.stdout, io.env, color));
    this.err = pc.createColors(colorEnabled(io.stderr, io.env, color));
  }

  /** A line of the command's human output (never with --json). */
  print(line = ''): void {
    if (!this.json) this.io.stdout.write(`${line}\n`);
  }

  /** The one JSON document of --json. */
  printJson(value: unknown): void {
    this.io.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
  }

  /** A hint or a progress line for the person, on stderr (also with --json). */
  note(line: string): void {
    this.io.stderr.write(`${line}\n`);
  }

  /** Columns for the chart: the terminal's, else $COLUMNS, else 80. */
  get width(): number {
    const columns = this.io.stdout.isTTY ? this.io.stdout.columns : Number(this.io.env.COLUMNS);
    return typeof columns === 'number' && columns >= 40 ? columns : 80;
  }

  /** Columns a table may take: cut to the terminal's; never cut when piped (grep, a file) unless $COLUMNS says so. */
  get tableWidth(): number {
    if (this.io.stdout.isTTY || this.io.env.COLUMNS) return this.width;
    return Number.POSITIVE_INFINITY;
  }

  get stderrWidth(): number {
    const columns = this.io.stderr.columns;
    return typeof columns === 'number' && columns >= 40 ? columns : 80;
  }
}

/** Visible width of a string (escape sequences left out; each code point one column). */
export function visibleLength(text: string): number {
  // eslint-disable-next-line no-control-regex
  return [...text.replace(/\u001b\[[0-9;]*m/g, '')].length;
}

export function padEnd(text: string, width: number): string {
  return text + ' '.repeat(Math.max(0, width - visibleLength(text)));
}

export function padStart(text: string, width: number): string {
  return ' '.repeat(Math.max(0, width - visibleLength(text))) + text;
}

/** Cut to `width` columns with an ellipsis. */
export function truncate(text: string, width: number): string {
  const chars = [...text.replace(/\s+/g, ' ')];
  if (chars.length <= width) return chars.join('');
  if (width <= 1) return chars.slice(0, width).join('');
  return `${chars.slice(0, width - 1).join('')}…`;
}
