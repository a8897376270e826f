/**
 * Autovacuum's work, for the embedded database. PGlite runs PostgreSQL as a single session with no
 * autovacuum launcher, so nothing ever ANALYZEs or VACUUMs its tables on its own: the planner
 * keeps the statistics a table had when it was small, a cached generic plan (db/prepared-
 * statements.ts) made then is never planned again, and the space of deleted and updated rows is
 * never reused. Measured: after a few thousand asks, the recorder's check of the answering heads
 * kept a sequential scan of `questions` chosen when the table had a few rows, 20 ms a batch
 * instead of 0.4 (docs/performance.md "The embedded database's upkeep").
 *
 * So every few seconds (createTableUpkeep, started by main.ts on the embedded database only; a
 * server has autovacuum) the tables autovacuum would pick, by its own default thresholds, are
 * analyzed or vacuumed, one statement per table, so the other connections' statements go between
 * them. More often than autovacuum's one minute: the check is one statement, and a burst of
 * writes (a fresh database's first minutes, thousands of asks) is caught before plans made on the
 * small tables serve for long. Written by hand: no library does autovacuum's choice.
 */

/** How often the embedded database's tables are checked. */
export const TABLE_UPKEEP_EVERY_MS = 10_000;

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

export interface TableUpkeep {
  /** Checks every `everyMs` from now, one pass at a time. */
  start(): void;
  /** No further pass; resolves once a pass under way has finished. */
  stop(): Promise<void>;
}

/**
 * The upkeep loop: a pass (upkeepTables) every `everyMs`, never two at once. A failed pass is
 * logged and the next one tries again (a VACUUM refused while the database shuts down, say).
 */
export function createTableUpkeep(options: {
  client: UpkeepClient;
  everyMs?: number;
  limits?: AutovacuumLimits;
  log: { debug(obj: object, msg: string): void; error(obj: object, msg: string): void };
}): TableUpkeep {
  const { client, log, everyMs = TABLE_UPKEEP_EVERY_MS, limits = AUTOVACUUM_DEFAULTS } = options;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  let stopped = true;

  async function pass(): Promise<void> {
    const started = performance.now();
    try {
      const done = await upkeepTables(client, limits);
      if (done.analyzed.length || done.vacuumed.length) log.debug({ ...done, ms: Math.round(performance.now() - started) }, 'table upkeep');
    } catch (error) {
      log.error({ err: error }, 'table upkeep failed; the next pass tries again');
    }
  }

  function schedule(): void {
    if (stopped) return;
    timer = setTimeout(() => {
      timer = null;
      running = pass().finally(() => {
        running = null;
        schedule();
      });
    }, everyMs);
    // Never what keeps a process alive that is otherwise done (a test that did not stop it).
    timer.unref();
  }

  return {
    start() {
      if (!stopped) return;
      stopped = false;
      schedule();
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = null;
      await running;
    },
  };
}
