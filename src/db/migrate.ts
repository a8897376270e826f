import { Migrator, sql, type Migration, type MigrationProvider } from 'kysely';
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

/**
 * Names of the applied migrations in one plain SELECT (empty on a database never migrated).
 * Kysely's own check introspects the catalog first, several statements that cost a quarter of a
 * second on the embedded database, at every start and every /readyz.
 */
async function appliedMigrations(db: Db): Promise<Set<string>> {
  try {
    const { rows } = await sql<{ name: string }>`SELECT name FROM kysely_migration`.execute(db);
    return new Set(rows.map((row) => row.name));
  } catch (error) {
    if ((error as { code?: string }).code === '42P01') return new Set(); // undefined_table: never migrated
    throw error;
  }
}

/** True when every known migration has been applied (start-up, readiness). */
export async function migrationsApplied(db: Db): Promise<boolean> {
  const applied = await appliedMigrations(db);
  return Object.keys(migrations).every((name) => applied.has(name));
}

export async function migrateToLatest(db: Db): Promise<string[]> {
  // The usual start: nothing to do, known without the migrator's lock and introspection.
  if (await migrationsApplied(db)) return [];
  const migrator = new Migrator({ db, provider: new StaticProvider() });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
