import { sql } from 'kysely';
import type { Db } from './database.ts';
import { migrationsApplied } from './migrate.ts';

export interface Readiness {
  database: 'ok' | 'unreachable';
  migrations: 'applied' | 'pending' | 'unknown';
}

/** What GET /readyz reports: the database answers a query, and every migration is applied. */
export async function databaseReadiness(db: Db): Promise<Readiness> {
  try {
    await sql`SELECT 1`.execute(db);
    return { database: 'ok', migrations: (await migrationsApplied(db)) ? 'applied' : 'pending' };
  } catch {
    return { database: 'unreachable', migrations: 'unknown' };
  }
}
