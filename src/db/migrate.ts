import { Migrator, type Migration, type MigrationProvider } from 'kysely';
import type { Db } from './database.ts';
import { migrations } from './migrations/index.ts';

/**
 * Applies the versioned migrations in order. Kysely's migrator takes a PostgreSQL advisory lock
 * for the whole run, so two processes starting at once apply each migration exactly once, and a
 * second run is a no-op.
 */
class StaticProvider implements MigrationProvider {
  async getMigrations(): Promise<Record<string, Migration>> {
    return migrations;
  }
}

export async function migrateToLatest(db: Db): Promise<string[]> {
  const migrator = new Migrator({ db, provider: new StaticProvider() });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/** True when every known migration has been applied (readiness). */
export async function migrationsApplied(db: Db): Promise<boolean> {
  const migrator = new Migrator({ db, provider: new StaticProvider() });
  const list = await migrator.getMigrations();
  return list.every((m) => m.executedAt !== undefined);
}
