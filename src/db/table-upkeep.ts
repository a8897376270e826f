/**
 * Autovacuum's work, for the embedded database. PGlite runs PostgreSQL as a single session with no
 * autovacuum launcher, so nothing ever ANALYZEs or VACUUMs its tables on its own: the planner
 * keeps the statistics a table had when it was small, a cached generic plan (db/prepared-
 * statements.ts) made then is never planned again, and the space of deleted and updated rows is
 * never reused. Measured: after a few thousand asks, the recorder's check of the answering heads
 * kept a sequential scan of `questions` chosen when the table had a few rows, 20 ms a batch
 * instead of 0.4 (docs/performance.md "The embedded database's upkeep").
 *
 * So once a minute (the job `table-upkeep`, embedded only; a server has autovacuum) the tables
 * autovacuum would pick, by its own default thresholds, are analyzed or vacuumed, one statement
 * per table, so the other connections' statements go between them. Written by hand: no library
 * does autovacuum's choice, and it is one statement over `pg_stat_user_tables`.
 */

/** When a table is due: a threshold in rows plus a fraction of the table's rows, as autovacuum reckons. */
export interface AutovacuumLimits {
  analyzeThreshold: number;
  analyzeScale: number;
  vacuumThreshold: number;
  vacuumScale: number;
  insertThreshold: number;
  insertScale: number;
  freezeMaxAge: number;
}

/** PostgreSQL's defaults (autovacuum_analyze_threshold and _scale_factor, and so on). */
export const AUTOVACUUM_DEFAULTS: Readonly<AutovacuumLimits> = {
  analyzeThreshold: 50,
  analyzeScale: 0.1,
  vacuumThreshold: 50,
  vacuumScale: 0.2,
  /** Inserts alone also call for a vacuum (PostgreSQL 13+): it sets the visibility map, which index-only scans read. */
  insertThreshold: 1000,
  insertScale: 0.2,
  /**
   * autovacuum_freeze_max_age: a table whose oldest unfrozen transaction id is this old is vacuumed
   * whatever its counters say, so the database never nears transaction id wraparound (at ~2
   * billion PostgreSQL stops taking writes; a busy embedded instance makes 200 million in days).
   */
  freezeMaxAge: 200_000_000,
};

/** The plain pg client the upkeep talks through: VACUUM must go as a simple query, outside any transaction. */
export interface UpkeepClient {
  query<R>(text: string, values?: unknown[]): Promise<{ rows: R[] }>;
}

export interface TableDue {
  schema: string;
  table: string;
  /** Vacuum (and analyze) rather than only analyze. */
  vacuum: boolean;
}

export interface UpkeepDone {
  analyzed: string[];
  vacuumed: string[];
}

/**
 * The tables past a threshold, from the counters PostgreSQL keeps (`pg_stat_user_tables`). Plain
 * tables only: a partitioned table (pg-boss's `job`) is upkept through its partitions, as
 * autovacuum does. A table never analyzed counts as empty, so its first changes make it due.
 */
export async function tablesDue(client: UpkeepClient, limits: AutovacuumLimits = AUTOVACUUM_DEFAULTS): Promise<TableDue[]> {
  const { rows } = await client.query<TableDue>(
    `SELECT s.schemaname AS schema, s.relname AS "table",
            (s.n_dead_tup > $3 + $4 * t.tuples OR s.n_ins_since_vacuum > $5 + $6 * t.tuples OR age(c.relfrozenxid) > $7) AS vacuum
     FROM pg_stat_user_tables s
     JOIN pg_class c ON c.oid = s.relid
     CROSS JOIN LATERAL (SELECT greatest(c.reltuples, 0) AS tuples) t
     WHERE c.relkind = 'r'
       AND (s.n_mod_since_analyze > $1 + $2 * t.tuples
            OR s.n_dead_tup > $3 + $4 * t.tuples
            OR s.n_ins_since_vacuum > $5 + $6 * t.tuples
            OR age(c.relfrozenxid) > $7)
     ORDER BY s.schemaname, s.relname`,
    [limits.analyzeThreshold, limits.analyzeScale, limits.vacuumThreshold, limits.vacuumScale, limits.insertThreshold, limits.insertScale, limits.freezeMaxAge],
  );
  return rows;
}

const UNDEFINED_TABLE = '42P01';

/** A schema-qualified name, quoted as PostgreSQL's quote_ident would (the names come from the catalog). */
function qualified(schema: string, table: string): string {
  const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;
  return `${quote(schema)}.${quote(table)}`;
}

/** Analyzes or vacuums each table that is due; what was done, by qualified name. */
export async function upkeepTables(client: UpkeepClient, limits: AutovacuumLimits = AUTOVACUUM_DEFAULTS): Promise<UpkeepDone> {
  const done: UpkeepDone = { analyzed: [], vacuumed: [] };
  for (const due of await tablesDue(client, limits)) {
    const name = qualified(due.schema, due.table);
    try {
      // One simple query per table (no values: node-postgres sends it unprepared, which VACUUM needs).
      await client.query(due.vacuum ? `VACUUM (ANALYZE) ${name}` : `ANALYZE ${name}`);
    } catch (error) {
      // Dropped since it was read (pg-boss drops a deleted queue's partition): nothing to upkeep.
      if ((error as { code?: string }).code === UNDEFINED_TABLE) continue;
      throw error;
    }
    (due.vacuum ? done.vacuumed : done.analyzed).push(name);
  }
  return done;
}
