/**
 * A scenario is one kind of request hammered for a fixed time against one server. To add one
 * (asks/s, answers/s, …): write a file in bench/scenarios exporting Scenario objects and list them
 * in scenarios/index.ts. Scenarios that need state first (an API key with credits for asks) will
 * get an optional `prepare(server)` step here when the first of them lands; ones that are not
 * request/response throughput (10,000 held long-polls) will get their own kind next to this one.
 */
export type TargetName = 'bare' | 'app';

export interface Scenario {
  /** Short id: table row, JSON key, BENCH_SCENARIOS filter. */
  id: string;
  /** What is measured, for the report. */
  title: string;
  target: TargetName;
  method: 'GET' | 'POST';
  path: string;
  /**
   * JSON bodies sent in turn, one per request (one body = the same request every time). Several
   * bodies let a scenario defeat a cache on purpose.
   */
  bodies?: unknown[];
  /**
   * Problems with a sample 200 response body; empty when it has the expected shape. Run before the
   * warm-up: a benchmark of an endpoint that answers the wrong thing measures nothing.
   */
  check(body: unknown): string[];
}

/** Small shape helpers for `check`, returning a problem or nothing. */
export const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

export function expectKeys(body: unknown, keys: string[]): string[] {
  if (!isObject(body)) return ['body is not a JSON object'];
  return keys.filter((key) => !(key in body)).map((key) => `missing "${key}"`);
}
