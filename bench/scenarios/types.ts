import type { RunningServer } from '../lib/child.ts';
import type { DriveResult, DriveSettings } from '../lib/protocol.ts';
import type { Outcome } from '../lib/drive.ts';
import type { WaitsReport, WebhooksReport } from '../lib/report.ts';

/**
 * Four kinds of scenario, each listed in scenarios/index.ts (the order they run and are reported):
 *
 * - `Scenario` (kind 'http', the default): one kind of request hammered for a fixed time against
 *   one server with autocannon. Each row is paired with a run of the bare route right after it.
 *   A scenario that needs state first (an API key with credits for asks) has `prepare`, run once
 *   on the app child's control channel before the sample request; it returns the headers every
 *   request carries (a function, so each request can get its own Idempotency-Key), and may make
 *   each request's path and body (a question it made, a fresh nonce) and do something around
 *   the measured run (RequestSetup).
 * - `InAppScenario` (kind 'in-app'): work that has no HTTP route (the answer path) driven in a
 *   closed loop inside the app child, through its container; no bare pairing.
 * - `WaitScenario` (kind 'waits'): not throughput: thousands of held long-polls, the memory they
 *   take and how fast they wake; reported in its own section.
 * - `WebhookScenario` (kind 'webhooks'): asks over HTTP and their webhook deliveries to a
 *   receiver in this process, phase by phase; reported in its own section.
 *
 * Write paths (`insertBaseline`) are also paired with a plain single-row INSERT transaction (BEGIN;
 * INSERT; COMMIT through `pg`, in the app child, same concurrency, same database), measured right
 * after the row: the floor any transaction on that database pays, so the ratio says how many
 * plain transactions one ask or answer costs.
 */
export type TargetName = 'bare' | 'app';

/** The servers of the run, for a scenario whose set-up needs the other one too (a same-bytes baseline reads the app's response). */
export interface Servers {
  get(name: TargetName): RunningServer | undefined;
}

/** What `prepare` set up for the requests of an HTTP scenario. */
export interface RequestSetup {
  /** Headers for one request, called for every request (and the sample). */
  headers(): Record<string, string>;
  /**
   * The path of one request, called for every request (and the sample), when it depends on what
   * prepare made (a question id, a link code); default: the scenario's `path`.
   */
  path?(): string;
  /** The JSON body of one request, called for every request (and the sample): a fresh nonce each; default: the scenario's `bodies`. */
  body?(): unknown;
  /**
   * Around the measured run only (not the sample or warm-up): `start` before the server's
   * counters are read for it, `end` after they are read again (so their own statements are not in
   * the row); what `end` returns is added to the row's set-up facts (cache hits during the run,
   * answers interleaved, answers stored).
   */
  measured?: { start(): Promise<void>; end(): Promise<Record<string, unknown>> };
  /** Facts for the report (accounts made, credits granted). */
  facts?: Record<string, unknown>;
}

export interface Scenario {
  kind?: 'http';
  /** Short id: table row, JSON key, BENCH_SCENARIOS filter. */
  id: string;
  /** What is measured, for the report. */
  title: string;
  target: TargetName;
  method: 'GET' | 'POST';
  /** The request path; for the report only when prepare's RequestSetup.path gives the real one ('/v2/questions/{id}/result'). */
  path: string;
  /**
   * JSON bodies sent in turn, one per request (one body = the same request every time). Several
   * bodies let a scenario defeat a cache on purpose. (A body made per request: RequestSetup.body.)
   */
  bodies?: unknown[];
  /** The status every response should have (200 unless given); others count as non-2xx only when outside 2xx. */
  status?: number;
  /** Once, before the sample request, on the server of `target` (`servers` has both). */
  prepare?(server: RunningServer, servers: Servers): Promise<RequestSetup>;
  /**
   * The row whose request is measured right after this one as its baseline, and its ratio's
   * denominator (default: `bare`). A row sending big bodies names a row of the bare server sending
   * the same bytes (`result` → `result-bare`): what any server would need, so the ratio is against
   * the real limit. That row runs too whenever this one is selected, before it.
   */
  baseline?: string;
  /**
   * Concurrent connections for this row and its baselines (default BENCH_CONNECTIONS): a row that
   * shows how a path behaves under more callers than the table's common concurrency.
   */
  connections?: number;
  /** Pair the row with the plain-insert transaction baseline too. */
  insertBaseline?: boolean;
  /**
   * The asks rows: pair the row with the ask's own rows written in one statement in one
   * transaction too (servers/ask-rows.ts), over this many accounts in turn.
   */
  askRowsBaseline?: { accounts: number };
  /**
   * Sorts each 2xx response body of the measured run into an outcome: 'ok' when the request did
   * its work, a reason when it returned without doing it (an answer not accepted: `full`). The
   * counts are reported, and any outcome other than 'ok' flags the row, as in the in-app rows.
   */
  outcome?(body: unknown): Outcome;
  /**
   * The requests pass the answer page's human check (Turnstile): the orchestrator starts a
   * stand-in for siteverify (servers/siteverify.ts) and points the app at it.
   */
  humanCheck?: boolean;
  /**
   * Problems with a sample response body; empty when it has the expected shape. Run before the
   * warm-up: a benchmark of an endpoint that answers the wrong thing measures nothing.
   */
  check(body: unknown): string[];
}

export interface InAppScenario {
  kind: 'in-app';
  id: string;
  title: string;
  target: 'app';
  /** What the report's request column shows (there is no HTTP request). */
  request: string;
  /** Once, before the warm-up; returns facts for the report. */
  prepare(app: RunningServer): Promise<Record<string, unknown>>;
  /** One closed-loop run inside the app child (the warm-up and the measured run both call it). */
  run(app: RunningServer, settings: DriveSettings): Promise<DriveResult>;
  insertBaseline: boolean;
}

export interface WaitSettings {
  waiters: number;
  questions: number;
  /** The `seconds` query parameter of every wait. */
  waitSeconds: number;
}

export interface WaitScenario {
  kind: 'waits';
  id: string;
  title: string;
  target: 'app';
  run(app: RunningServer, settings: WaitSettings, log: (line: string) => void): Promise<WaitsReport>;
}

export interface WebhookSettings {
  /** Asks per phase, so deliveries per endpoint (BENCH_WEBHOOK_EVENTS). */
  events: number;
  /** Asks in flight at once. */
  concurrency: number;
}

export interface WebhookScenario {
  kind: 'webhooks';
  id: string;
  title: string;
  target: 'app';
  run(app: RunningServer, settings: WebhookSettings, log: (line: string) => void): Promise<WebhooksReport>;
}

export type AnyScenario = Scenario | InAppScenario | WaitScenario | WebhookScenario;

/** Small shape helpers for `check`, returning a problem or nothing. */
export const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

export function expectKeys(body: unknown, keys: string[]): string[] {
  if (!isObject(body)) return ['body is not a JSON object'];
  return keys.filter((key) => !(key in body)).map((key) => `missing "${key}"`);
}
