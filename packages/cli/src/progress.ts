import cliProgress from 'cli-progress';
import type { Colors, OutStream } from './ui.ts';

/**
 * Progress while a question is answered: how many answers so far of how many, and how long is
 * left. The service's own estimate (the question's `etaMinutes`, counted from `liveAt`) comes
 * first while it still has time to run; after that (or without one) the tool uses the rate it has
 * seen answers arrive at.
 */
export interface ProgressState {
  answered: number;
  n: number;
  /** The question's etaMinutes, when known. */
  etaMinutes?: number | null;
  /** When the question went live (ms), when known. */
  liveAt?: number | null;
  /** The first progress seen by this run: when, and how many answers there were. */
  firstSeenAt: number;
  firstAnswered: number;
  /** When the count last went up (ms). */
  lastChangeAt: number;
}

export function startProgress(answered: number, n: number, now: number, meta: { etaMinutes?: number | null; liveAt?: string | null } = {}): ProgressState {
  const liveAt = meta.liveAt ? Date.parse(meta.liveAt) : NaN;
  return { answered, n, etaMinutes: meta.etaMinutes ?? null, liveAt: Number.isFinite(liveAt) ? liveAt : null, firstSeenAt: now, firstAnswered: answered, lastChangeAt: now };
}

export function advanceProgress(state: ProgressState, answered: number, n: number, now: number): ProgressState {
  return { ...state, answered, n, lastChangeAt: answered !== state.answered ? now : state.lastChangeAt };
}

export interface Eta {
  seconds: number | null;
  source: 'service' | 'rate' | null;
}

/** Seconds left, and where the figure comes from. */
export function estimateRemaining(state: ProgressState, now: number): Eta {
  const left = Math.max(0, state.n - state.answered);
  if (left === 0) return { seconds: 0, source: null };
  if (state.etaMinutes !== null && state.etaMinutes !== undefined && state.etaMinutes > 0) {
    const full = state.etaMinutes * 60;
    const from = state.liveAt ?? state.firstSeenAt;
    // Never more than the whole estimate (a clock ahead of ours), never past its end.
    const remaining = Math.min(full, (from + full * 1000 - now) / 1000);
    if (remaining > 0) return { seconds: remaining, source: 'service' };
  }
  const gained = state.answered - state.firstAnswered;
  const elapsed = (state.lastChangeAt - state.firstSeenAt) / 1000;
  if (gained > 0 && elapsed > 0) {
    const perSecond = gained / elapsed;
    const sinceLast = (now - state.lastChangeAt) / 1000;
    return { seconds: Math.max(0, left / perSecond - sinceLast), source: 'rate' };
  }
  return { seconds: null, source: null };
}

/** 42 → "about 45 s"; 200 → "about 3 min"; 4000 → "about 1 h 7 min". */
export function formatDuration(seconds: number): string {
  if (seconds < 60) return `about ${Math.max(5, Math.round(seconds / 5) * 5)} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `about ${minutes} min`;
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return `about ${hours} h${rest ? ` ${rest} min` : ''}`;
}

export function etaText(state: ProgressState, now: number): string {
  const eta = estimateRemaining(state, now);
  if (eta.seconds === null) return state.answered === 0 ? 'waiting for the first answers' : 'time left unknown';
  if (eta.seconds === 0) return state.answered >= state.n ? 'done' : 'any moment now';
  return `${formatDuration(eta.seconds)} left`;
}

/** The plain line (no terminal): "12 of 50 answers (24%), about 3 min left". */
export function progressText(state: ProgressState, now: number): string {
  const percent = state.n > 0 ? Math.floor((Math.min(state.answered, state.n) / state.n) * 100) : 0;
  return `${state.answered} of ${state.n} answers (${percent}%), ${etaText(state, now)}`;
}

/** The bar's line on a terminal: "▕██████░░░░░░▏ 12/50 answers  24%  about 3 min left". */
export function progressLine(state: ProgressState, now: number, options: { width: number; colors: Colors }): string {
  const c = options.colors;
  const counts = `${state.answered}/${state.n} answers`;
  const percent = `${state.n > 0 ? Math.floor((Math.min(state.answered, state.n) / state.n) * 100) : 0}%`;
  const eta = etaText(state, now);
  const text = `${counts}  ${percent.padStart(4)}  ${eta}`;
  const barWidth = Math.max(10, Math.min(40, options.width - text.length - 4));
  const filled = state.n > 0 ? Math.round((Math.min(state.answered, state.n) / state.n) * barWidth) : 0;
  const line = `${c.green('█'.repeat(filled))}${c.dim('░'.repeat(barWidth - filled))} ${c.bold(counts)}  ${percent.padStart(4)}  ${c.dim(eta)}`;
  return line;
}

/**
 * Shows progress on a stream: a live bar redrawn in place on a terminal (cli-progress), or a
 * plain line each time the count changes elsewhere (a log, a pipe).
 */
export class ProgressView {
  private state: ProgressState | null = null;
  private bar: cliProgress.SingleBar | null = null;
  /** The counts of the last plain line: a new line only when they change, not for the ETA alone. */
  private lastPlain = '';

  constructor(
    private readonly stream: OutStream,
    private readonly options: { live: boolean; colors: Colors; now: () => number; width: () => number },
  ) {}

  update(answered: number, n: number, meta: { etaMinutes?: number | null; liveAt?: string | null } = {}): void {
    const now = this.options.now();
    this.state = this.state ? advanceProgress(this.state, answered, n, now) : startProgress(answered, n, now, meta);
    if (this.options.live) {
      const state = this.state;
      if (!this.bar) {
        this.bar = new cliProgress.SingleBar({
          stream: this.stream as NodeJS.WritableStream,
          format: () => (this.state ? progressLine(this.state, this.options.now(), { width: this.options.width(), colors: this.options.colors }) : ''),
          hideCursor: true,
          clearOnComplete: false,
          stopOnComplete: false,
          linewrap: false,
          gracefulExit: false,
          fps: 4,
          etaBuffer: 1,
        });
        this.bar.start(Math.max(1, state.n), Math.min(state.answered, state.n));
      } else {
        this.bar.setTotal(Math.max(1, state.n));
        this.bar.update(Math.min(state.answered, state.n));
      }
      return;
    }
    const key = `${this.state.answered}/${this.state.n}`;
    if (key !== this.lastPlain) {
      this.lastPlain = key;
      this.stream.write(`${progressText(this.state, now)}\n`);
    }
  }

  /** Stops redrawing and leaves the last bar on its own line. */
  stop(): void {
    if (this.bar) {
      this.bar.render();
      this.bar.stop();
      this.bar = null;
    }
  }

  get current(): ProgressState | null {
    return this.state;
  }
}
