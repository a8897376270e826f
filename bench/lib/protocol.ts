/**
 * Messages between the orchestrator (bench/run.ts) and a server child (bench/servers/*.ts).
 *
 * Servers run in child processes so that the load generator (autocannon, in the orchestrator) and
 * the server under test never share an event loop: in one process every request would also pay
 * for autocannon's own work and the numbers would measure both.
 */

/** What a server child reports once it listens. */
export interface ReadyMessage {
  type: 'ready';
  port: number;
  /** Free-form facts about the server (database kind, heads seeded, start-up timings). */
  info: Record<string, unknown>;
}

/** Counters the orchestrator samples before and after each measured run. */
export interface StatsMessage {
  type: 'stats';
  /** HTTP requests the server has received since start (so requests a client abandoned count too). */
  requests: number;
  /** SQL statements the app's own pool sent to the database since start (0 for servers without one). */
  queries: number;
  /**
   * Statements sent on the server's other connections (the job queue's pool, the LISTEN
   * connection), by application_name; the bench's own baseline connections are not counted.
   */
  otherQueries: number;
  rssBytes: number;
  /** CPU time the server process used since start (user + system), in microseconds. */
  cpuMicros: number;
}

export interface FailedMessage {
  type: 'failed';
  message: string;
}

/** The answer to a `call`: what the control operation returned, or why it failed. */
export type ReplyMessage = { type: 'reply'; id: number; ok: true; value: unknown } | { type: 'reply'; id: number; ok: false; error: string };

export type ChildMessage = ReadyMessage | StatsMessage | FailedMessage | ReplyMessage;
export type ParentMessage = { type: 'stats' } | { type: 'stop' } | { type: 'call'; id: number; op: string; args: unknown };

/**
 * The app child's control channel (IPC): work the orchestrator asks the app process to do inside
 * itself, through its container, where there is no HTTP route for it (set-up, the answer path)
 * or where timing must be taken on the server's side (closing the questions 10,000 requests wait on).
 */
export interface AppControls {
  /** Accounts with one key each (all scopes) and `credits` granted to each; returns the keys' secrets. */
  'accounts.create': { args: { accounts: number; credits: number }; result: { secrets: string[]; accountIds: string[] } };
  /** BEGIN; INSERT one row into a scratch table; COMMIT — in a closed loop on a pool like the app's. */
  'insert.run': { args: DriveSettings; result: DriveResult };
  /**
   * The asks rows' second limit (servers/ask-rows.ts): the rows one ask writes, copied from a
   * real ask, in one statement in one transaction, over `accounts` accounts in turn; closed loop,
   * on the baseline's pool.
   */
  'askRows.run': { args: DriveSettings & { accounts: number }; result: DriveResult };
  /** Panel heads, accounts and live questions for an answers workload (kept under `id`). */
  'answers.prepare': { args: AnswersWorkload; result: { heads: number; questions: number; accounts: number; ms: number } };
  /** container.answers.record in a closed loop; the workload keeps its cursor between runs. */
  'answers.run': { args: DriveSettings & { id: string }; result: DriveResult };
  /** Live questions with all but their last answer, asked from a fresh account; returns its key. */
  'waits.prepare': { args: { questions: number; n: number }; result: { secret: string; questionIds: string[]; ms: number } };
  /** How many requests are waiting in the wait service now. */
  'waits.count': { args: Record<string, never>; result: { waiting: number } };
  /** Records the last answer of every waited-on question at once (each completes its question). */
  'waits.complete': {
    args: Record<string, never>;
    /** Times are epoch milliseconds with fractions (performance.timeOrigin + performance.now()). */
    result: { startedAt: number; finishedAt: number; committedAt: Record<string, number>; failures: string[] };
  };
  /**
   * A question of a fresh account (returns its key) with `answers` accepted panel answers
   * (profiles from the panel, a reason on most), written in bulk with the question's counters,
   * tally, credits and the account's hold moved as the recorder would; when `answers` is its n, the
   * last one goes through the recorder, which completes it, and its final summary is made. Kept
   * under `id` (a second call returns the same question).
   */
  'results.prepare': { args: ResultsWorkload; result: ResultsSetup };
  /** One more panel answer to that question, through the recorder (the result's incremental refresh). */
  'results.answer': { args: { id: string }; result: { accepted: boolean; reason: string | null; answered: number } };
  /** The result cache's counters (ResultService.cacheStats). */
  'results.cache': { args: Record<string, never>; result: { hits: number; keptHits: number; loads: number; refreshes: number; entries: number; bytes: number } };
  /** Live questions of a fresh account, answerable through their links; returns the link codes. */
  'links.prepare': { args: { questions: number; n: number }; result: { codes: string[]; questionIds: string[]; ms: number } };
  /** Link answers stored so far to those questions. */
  'links.count': { args: { questionIds: string[] }; result: { answers: number } };
  /**
   * A fresh account (one API key, `credits` granted) with a webhook endpoint for each of `urls`,
   * subscribed to `events`, made through the endpoints service as its owner would (a portal
   * session actor); returns the key's secret and each endpoint's signing secret.
   */
  'webhooks.account': {
    args: { credits: number; urls: string[]; events: string[] };
    result: { accountId: string; apiSecret: string; endpoints: Array<{ id: string; url: string; secret: string }>; ms: number };
  };
  /** The app pool's statements and the webhook dispatcher's share of them, read at one instant. */
  'webhooks.counters': { args: Record<string, never>; result: WebhookCounters };
  /** Deliveries of these endpoints by status, and the attempts made at them (from the database). */
  'webhooks.deliveries': { args: { endpointIds: string[] }; result: Record<string, { succeeded: number; pending: number; failed: number; attempts: number }> };
  /** Deletes the endpoints (their deliveries go with them): nothing of the scenario keeps retrying afterwards. */
  'webhooks.remove': { args: { accountId: string; endpointIds: string[] }; result: { removed: number } };
  /** process.memoryUsage(), after two full garbage collections when `gc`. */
  memory: { args: { gc: boolean }; result: { rss: number; heapUsed: number; heapTotal: number; external: number; arrayBuffers: number } };
}
export type AppControlName = keyof AppControls;

/**
 * The bare server's control channel: a body to send as it is, so a row of the app can be
 * compared with bare Fastify sending the very same bytes (scenarios/results.ts `result-bare`).
 */
export interface BareControls {
  /** Serves `bytes` (base64) with `headers` at GET /same-bytes/{name} from now on; returns the body's length. */
  'bare.body': { args: { name: string; base64: string; headers: Record<string, string> }; result: { bytes: number } };
}

/** Every control operation, of either server (a server refuses the ones it does not have). */
export type Controls = AppControls & BareControls;
export type ControlName = keyof Controls;

/** A closed-loop run: `concurrency` callers, each starting its next call when the last one ends. */
export interface DriveSettings {
  seconds: number;
  concurrency: number;
}

export interface DriveResult {
  seconds: number;
  /** Calls that did their work, per second. */
  perSecond: number;
  completed: number;
  /** Latency of the calls that did their work. */
  latencyMs: { p50: number; p99: number; mean: number; max: number };
  /** Calls that returned without doing the work (an answer not accepted), by reason. */
  rejected: Record<string, number>;
  errors: number;
  firstError: string | null;
  /** Statements the app's pool sent during the run, and other connections of the server (job queue). */
  queries: number;
  otherQueries: number;
  /** CPU time of the app process during the run (user + system), in microseconds. */
  cpuMicros: number;
}

/**
 * Counters of the app child at one instant: its pool's statements, those the webhook dispatcher
 * sent (its claims and attempts, on a pool of its own in servers/app.ts), its other connections, the dispatcher's claims (calls, calls that claimed nothing, rows claimed),
 * its finished attempts per endpoint, and the process's CPU time.
 */
export interface WebhookCounters {
  queries: number;
  otherQueries: number;
  dispatcherQueries: number;
  claims: number;
  emptyClaims: number;
  claimed: number;
  attemptsEnded: Record<string, number>;
  cpuMicros: number;
}

/** What servers/app.ts counts around the dispatcher's calls (WebhookCounters without the pool totals). */
export type DispatcherCounters = Pick<WebhookCounters, 'dispatcherQueries' | 'claims' | 'emptyClaims' | 'claimed' | 'attemptsEnded'>;

export interface AnswersWorkload {
  id: string;
  /** Live questions answered at once (answer k goes to question k mod questions). */
  questions: number;
  /** Accounts the questions belong to, round robin (credits and their balance row are per account). */
  accounts: number;
  /** Answers each question wants; a full question is replaced by a new one. */
  n: number;
  /** Panel heads at least (added to the seeded panel when fewer). */
  heads: number;
}

export interface ResultsWorkload {
  id: string;
  /** Answers wanted (the question's n, at most 5,000). */
  n: number;
  /** Answers recorded before the run; n = a complete question, fewer = a live one. */
  answers: number;
  /** Panel heads at least (topped up when fewer): answers come from distinct heads. */
  heads: number;
}

export interface ResultsSetup {
  secret: string;
  questionId: string;
  status: string;
  answers: number;
  withReason: number;
  /** The country with the most answers, and how many of them are tier 1 (for a filtered view). */
  topCountry: string;
  topCountryAnswers: number;
  topCountryTier1: number;
  ms: number;
}

/** The siteverify stand-in (servers/siteverify.ts): the secret the app child is configured with, and its path. */
export const SITEVERIFY_SECRET = 'bench-turnstile-secret';
export const SITEVERIFY_PATH = '/turnstile/v0/siteverify';

/** Options handed to a server child as its one command-line argument (JSON). */
export interface AppServerOptions {
  dataDir: string;
  /** A PostgreSQL database made for this run; null = embedded PGlite under dataDir. */
  databaseUrl: string | null;
  heads: number;
  /** The siteverify stand-in (servers/siteverify.ts) when a scenario passes the human check; null = Cloudflare's (never reached). */
  turnstileVerifyUrl: string | null;
}
