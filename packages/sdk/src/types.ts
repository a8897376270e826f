/**
 * Types derived from the generated `operations` (openapi.ts): what each operation takes and
 * what it answers. Kept apart from the client so the mapping rules are in one place:
 * - a part the operation does not have (no path parameters, no body) cannot be passed;
 * - a part with something required in it (a path id, a required body) must be passed;
 * - the answer is the JSON of the operation's 2xx response, or the raw bytes (Uint8Array) when
 *   that response is not JSON (CSV, PDF, PNG, SVG exports; uploads).
 */
import type { components, operations } from './openapi.ts';

/** Every named schema of the document: `Schemas['Question']`, `Schemas['Result']`, … */
export type Schemas = components['schemas'];

/** The operationId of every operation in /openapi.json. */
export type OperationId = keyof operations;

type Operation<K extends OperationId> = operations[K];

/** The path parameters of an operation (`never` when it has none). */
export type PathParamsOf<K extends OperationId> = Exclude<Operation<K>['parameters']['path'], undefined>;
/** The query parameters of an operation (`never` when it has none). */
export type QueryOf<K extends OperationId> = Exclude<Operation<K>['parameters']['query'], undefined>;

/** A request body that is not JSON (an upload's bytes): sent as given, with your Content-Type header. */
export type BinaryBody = Uint8Array | ArrayBuffer | Blob | string;

type ContentBody<C> = C extends { 'application/json': infer B } ? B : BinaryBody;
type RequestBodyContent<K extends OperationId> = Exclude<Operation<K>['requestBody'], undefined> extends { content: infer C } ? ContentBody<C> : never;
/** The body of an operation (`never` when it takes none). */
export type BodyOf<K extends OperationId> = RequestBodyContent<K>;

type SuccessStatus = 200 | 201 | 202 | 203 | 204 | 206;
type Responses<K extends OperationId> = Operation<K>['responses'];
type SuccessResponse<K extends OperationId> = Responses<K>[Extract<keyof Responses<K>, SuccessStatus>];
type DecodedContent<R> = R extends { content: infer C } ? ('application/json' extends keyof C ? C['application/json'] : Uint8Array) : undefined;
/** What `hc.request(operationId)` resolves to: the 2xx JSON, or the bytes of a non-JSON 2xx. */
export type ResponseOf<K extends OperationId> = DecodedContent<SuccessResponse<K>>;

/** Options every call takes (the resource methods and `hc.request` alike). */
export interface CallOptions {
  /** Aborts the call, its retries and the waits between them; the call rejects with the signal's reason. */
  signal?: AbortSignal | undefined;
  /** Extra request headers (e.g. `Headcount-Account` for a portal session acting for a team). */
  headers?: Record<string, string> | undefined;
  /** This call's per-attempt timeout instead of the client's `timeoutMs`. */
  timeoutMs?: number | undefined;
  /** This call's retries instead of the client's `maxRetries` (0: no retry). */
  maxRetries?: number | undefined;
}

/** Options of calls that can spend or change money and so carry an Idempotency-Key. */
export interface IdempotentCallOptions extends CallOptions {
  /**
   * The Idempotency-Key to send. Without it the SDK makes a fresh UUID for the call and sends the
   * same key on every retry of it. Pass your own to make a retry of the whole call (after a crash,
   * from another process) safe too: the service then answers the stored response.
   */
  idempotencyKey?: string | undefined;
}

type PathPart<K extends OperationId> = [PathParamsOf<K>] extends [never] ? { path?: undefined } : { path: PathParamsOf<K> };
type QueryPart<K extends OperationId> = [QueryOf<K>] extends [never]
  ? { query?: undefined }
  : {} extends QueryOf<K>
    ? { query?: QueryOf<K> | undefined }
    : { query: QueryOf<K> };
type BodyPart<K extends OperationId> = [BodyOf<K>] extends [never]
  ? { body?: undefined }
  : undefined extends Operation<K>['requestBody']
    ? { body?: BodyOf<K> | undefined }
    : { body: BodyOf<K> };

/** The second argument of `hc.request(operationId, …)`, typed by that operation. */
export type RequestOptions<K extends OperationId> = PathPart<K> & QueryPart<K> & BodyPart<K> & IdempotentCallOptions;

/** `[options]` when something in it is required, else `[options?]`. */
export type RequestArgs<K extends OperationId> = {} extends RequestOptions<K> ? [options?: RequestOptions<K>] : [options: RequestOptions<K>];

/** A response with its status and headers, from `hc.requestWithResponse`. */
export interface HeadcountResponse<T> {
  data: T;
  status: number;
  headers: Headers;
  /** The X-Request-Id the service answered with: quote it when asking for help. */
  requestId: string | null;
}
