import { sql } from 'kysely';
import type { Db } from './database.ts';
import type { JobQueueCount } from '../lib/metrics.ts';

/** Not there yet: pg-boss makes its schema when the job runner first starts (never, in tests that run no jobs). */
const NO_SUCH_TABLE = new Set(['42P01', '3F000']);

/**
 * pg-boss's own table, read for the operators' metrics (docs/operations.md "Metrics"): one
 * statement, grouped by queue and state. Completed jobs are left out (pg-boss keeps them for
 * hours; they say nothing about a backlog); a created or retrying job is `due` once its
 * start_after has passed, `scheduled` before (the questions' timers wait there for days).
 */
export function createJobQueueRepository(db: Db) {
  return {
    async counts(): Promise<JobQueueCount[]> {
      try {
        const { rows } = await sql<JobQueueCount>`
          SELECT name AS queue,
                 CASE WHEN state IN ('created', 'retry') THEN CASE WHEN start_after > now() THEN 'scheduled' ELSE 'due' END ELSE state::text END AS state,
                 count(*)::int AS jobs
          FROM pgboss.job
          WHERE state <> 'completed'
          GROUP BY 1, 2
          ORDER BY 1, 2`.execute(db);
        return rows;
      } catch (error) {
        if (NO_SUCH_TABLE.has((error as { code?: string }).code ?? '')) return [];
        throw error;
      }
    },
  };
}
