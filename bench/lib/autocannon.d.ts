/**
 * The part of autocannon 9's programmatic API the benchmark uses. autocannon ships no types and
 * @types/autocannon describes v7, so this small declaration keeps the dependency tree unchanged and
 * lists exactly what we rely on (read from node_modules/autocannon/lib/run.js and init.js).
 */
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';

  interface RequestData {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string | Buffer;
  }

  interface RequestOptions extends RequestData {
    /** Called before each request on a connection; returns the request to send. */
    setupRequest?: (request: RequestData, context: Record<string, unknown>) => RequestData;
    /** Called with every response to this request: status and the whole body as a string (requestIterator.js recordBody). */
    onResponse?: (status: number, body: string, context: Record<string, unknown>, headers: Record<string, string>) => void;
  }

  interface Options {
    url: string;
    connections?: number;
    /** Seconds. */
    duration?: number;
    pipelining?: number;
    /** Seconds before a request counts as a timeout. */
    timeout?: number;
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    requests?: RequestOptions[];
  }

  /** Percentile keys of autocannon's histograms (hdr-histogram-percentiles-obj). */
  interface Histogram {
    average: number;
    mean: number;
    stddev: number;
    min: number;
    max: number;
    total: number;
    p50: number;
    p90: number;
    p97_5: number;
    p99: number;
  }

  interface Result {
    duration: number;
    errors: number;
    timeouts: number;
    non2xx: number;
    resets: number;
    '1xx': number;
    '2xx': number;
    '3xx': number;
    '4xx': number;
    '5xx': number;
    statusCodeStats: Record<string, { count: number }>;
    /** Milliseconds, recorded as whole milliseconds (integer resolution). */
    latency: Histogram & { totalCount: number };
    /** Per-second samples of completed requests. */
    requests: Histogram & { sent: number };
    throughput: Histogram;
  }

  /** Emits 'response' (client, statusCode, bytes, responseTimeMs) for every response. */
  interface Instance extends EventEmitter, PromiseLike<Result> {
    stop(): void;
  }

  function autocannon(options: Options): Instance;
  export default autocannon;
  export type { Options, Result, Instance, RequestData, RequestOptions };
}
