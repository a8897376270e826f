import { Value } from '@sinclair/typebox/value';
import type { Static, TSchema } from '@sinclair/typebox';

/**
 * A durable job (ARCHITECTURE §3 rule 7): declared once beside its feature in
 * `<feature>.jobs.ts` with its name, payload schema, schedule and handler; src/jobs/jobs.ts
 * gathers them and src/jobs/job-runner.ts runs them on pg-boss.
 */
export interface JobDefinition {
  name: string;
  /** Cron expression (UTC) for periodic jobs; absent for jobs sent one at a time. */
  cron?: string;
  /** Checks a payload before the handler sees it (a job sent with a bad payload is logged and dropped, not retried). */
  accepts(data: unknown): boolean;
  handler(data: unknown): Promise<unknown>;
}

/**
 * Runs one statement in a caller's open transaction (pg-boss's `db` option has this shape).
 * db/transaction.ts makes one from a transaction; a timer written alone there goes through it.
 */
export interface SqlExecutor {
  executeSql(text: string, values: unknown[]): Promise<{ rows: unknown[] }>;
}

/** When a job sent one at a time runs, and which sends are one job (pg-boss singletonKey). */
export interface JobSendOptions {
  startAfter?: Date;
  singletonKey?: string;
}

/** A statement with its parameters ($1, $2, …), as a library would have run it. */
export interface CapturedStatement {
  text: string;
  values: unknown[];
}

/** What services send jobs through (timers); main hands in the pg-boss runner, tests and the CLI none. */
export interface JobQueue {
  send(name: string, data: object, options?: JobSendOptions): Promise<void>;
  /**
   * The statement that writes this job, exactly as `send` would run it, not run: the caller runs
   * it in a statement of its own transaction (db/transaction.ts `statementRider`), so the job is
   * committed with the change that needs it and never without it (a crash between a commit and a
   * separate send would lose the timer), and costs no round trip of its own (the ask's timers).
   */
  sendStatement(name: string, data: object, options?: JobSendOptions): Promise<CapturedStatement>;
}

/** A job whose handler gets its payload typed by the schema it is checked against. */
export function defineJob<S extends TSchema>(job: { name: string; cron?: string; payload: S; handler: (data: Static<S>) => Promise<unknown> }): JobDefinition {
  return {
    name: job.name,
    cron: job.cron,
    accepts: (data) => Value.Check(job.payload, data),
    handler: (data) => job.handler(data as Static<S>),
  };
}
