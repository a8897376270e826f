/**
 * The Headcount client: configuration, the typed `request` every method goes through, and the
 * resources (questions, billing, drafts, webhooks, keys). No runtime dependency and nothing
 * Node-only (fetch, AbortController, URL, crypto, setTimeout), so it runs in Node 20+, Deno and
 * browsers alike.
 */
import { HeadcountError } from './errors.ts';
import { Billing } from './resources/billing.ts';
import { Drafts } from './resources/drafts.ts';
import { Keys } from './resources/keys.ts';
import { Questions } from './resources/questions.ts';
import { Webhooks } from './resources/webhooks.ts';
import { isJson, parseJsonBody, Transport, type RawResponse, type SendOptions } from './transport.ts';
import type { HeadcountResponse, OperationId, RequestArgs, ResponseOf, Schemas } from './types.ts';
import { waitForResult, type WaitForResultOptions } from './wait-for-result.ts';

export interface HeadcountOptions {
  /** An API key (`hc_live_…` or `hc_test_…`, made in the portal under Developers). Used when given. */
  apiKey?: string | undefined;
  /** Else an OAuth access token (docs/agents.md) or a portal session token (`hc_ses_…`), sent the same way. */
  accessToken?: string | undefined;
  /** Where the service is. Default `http://localhost:8080` (the SDK reads no environment: pass `process.env.HEADCOUNT_BASE_URL` yourself). */
  baseUrl?: string | undefined;
  /** The fetch to use (a proxy-aware one, a test's stand-in). Default: the global fetch, looked up at each call. */
  fetch?: typeof fetch | undefined;
  /** Retries after a failed attempt that may be retried (retry.ts; README "Retries"). Default 2. */
  maxRetries?: number | undefined;
  /** Per attempt, in ms, including reading the answer. Default 60 000; a wait call gets its `seconds` + 15 s instead. */
  timeoutMs?: number | undefined;
  /** Sent as User-Agent (not in browsers, which do not allow it), e.g. `my-app/1.2`. */
  userAgent?: string | undefined;
  /** Sent as `Headcount-Account`: with a portal session, the team account to act for (docs/portal.md). */
  account?: string | undefined;
  /** Headers sent with every request. */
  headers?: Record<string, string> | undefined;
}

export const DEFAULT_BASE_URL = 'http://localhost:8080';
export const DEFAULT_MAX_RETRIES = 2;
export const DEFAULT_TIMEOUT_MS = 60_000;

export class Headcount {
  readonly questions: Questions;
  readonly billing: Billing;
  readonly drafts: Drafts;
  readonly webhooks: Webhooks;
  readonly keys: Keys;
  readonly baseUrl: string;
  readonly #transport: Transport;

  /**
   * Without apiKey or accessToken the client makes public calls only (an estimate, the public
   * catalogues); the others answer 401 `unauthorized`. A credential given but blank (an unset
   * environment variable read as "") is a mistake, not a wish to be anonymous: TypeError.
   */
  constructor(options: HeadcountOptions = {}) {
    const given = options.apiKey ?? options.accessToken;
    if (given !== undefined && (typeof given !== 'string' || given.trim() === '')) {
      throw new TypeError('new Headcount({ apiKey }) was given an empty API key or accessToken (an unset environment variable?)');
    }
    const credential = given?.trim() ?? null;
    const maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES;
    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    if (!Number.isInteger(maxRetries) || maxRetries < 0) throw new TypeError(`maxRetries must be a whole number ≥ 0, not ${maxRetries}`);
    if (!(timeoutMs > 0)) throw new TypeError(`timeoutMs must be > 0, not ${timeoutMs}`);
    this.baseUrl = (options.baseUrl ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
    new URL(this.baseUrl); // a TypeError now, rather than at the first call
    this.#transport = new Transport({
      baseUrl: this.baseUrl,
      credential,
      fetch: options.fetch,
      maxRetries,
      timeoutMs,
      userAgent: options.userAgent,
      headers: { ...(options.account ? { 'headcount-account': options.account } : {}), ...options.headers },
      random: () => Math.random(),
    });
    this.questions = new Questions(this);
    this.billing = new Billing(this);
    this.drafts = new Drafts(this);
    this.webhooks = new Webhooks(this);
    this.keys = new Keys(this);
  }

  /**
   * Any operation of /openapi.json by its operationId, typed by it: the path parameters, query
   * and body it takes, and the JSON it answers (bytes as a Uint8Array for CSV, PDF, PNG, SVG).
   * Retries, timeouts, idempotency keys and errors as for every other method.
   */
  async request<K extends OperationId>(operationId: K, ...args: RequestArgs<K>): Promise<ResponseOf<K>> {
    return (await this.requestWithResponse(operationId, ...args)).data;
  }

  /** As `request`, with the answer's status, headers and request id (e.g. `Idempotent-Replayed`). */
  async requestWithResponse<K extends OperationId>(operationId: K, ...args: RequestArgs<K>): Promise<HeadcountResponse<ResponseOf<K>>> {
    const raw = await this.#transport.send(operationId, (args[0] ?? {}) as SendOptions);
    return { data: decode(operationId, raw) as ResponseOf<K>, status: raw.status, headers: raw.headers, requestId: raw.requestId };
  }

  /**
   * Waits until the question is done (closed, or `minAnswers` reached) and returns its final
   * result, calling `onProgress` with each snapshot on the way. Throws HeadcountTimeoutError after
   * `timeoutMs` (no limit by default), the signal's reason when aborted.
   */
  waitForResult(id: string, options: WaitForResultOptions = {}): Promise<Schemas['Result']> {
    return waitForResult(this.questions, id, options);
  }
}

/** A 2xx answer: its JSON when it says JSON, else its bytes. */
function decode(operationId: string, raw: RawResponse): unknown {
  if (!isJson(raw)) return raw.bytes;
  try {
    return parseJsonBody(raw);
  } catch (error) {
    throw new HeadcountError({
      status: raw.status,
      code: 'invalid_response',
      message: `${operationId} answered ${raw.status} with a body that is not valid JSON: ${error instanceof Error ? error.message : String(error)}`,
      requestId: raw.requestId,
      headers: raw.headers,
      operationId,
    });
  }
}
