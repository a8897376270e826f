import { Type } from '@sinclair/typebox';
import type { Database } from '../db/database.ts';
import { upkeepTables } from '../db/table-upkeep.ts';
import { defineJob, type JobDefinition } from '../lib/job.ts';

/**
 * The embedded database's upkeep (db/table-upkeep.ts): once a minute, autovacuum's naptime, the
 * tables autovacuum would pick are analyzed or vacuumed. Only where this process owns PGlite; a
 * PostgreSQL server runs its own autovacuum.
 */
export function tableUpkeepJobs(database: Pick<Database, 'kind' | 'pool'>): JobDefinition[] {
  if (database.kind !== 'embedded') return [];
  return [
    defineJob({
      name: 'table-upkeep',
      cron: '* * * * *',
      payload: Type.Object({}),
      handler: () => upkeepTables(database.pool),
    }),
  ];
}
