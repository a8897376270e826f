import pg from 'pg';

/**
 * Runs `work` while this process holds a PostgreSQL session-level advisory lock named `name`, on a
 * connection of its own: processes that call it with the same name on the same database run
 * `work` one at a time, whatever connections `work` itself uses (pg-boss's own pool, say). The
 * lock goes with the connection, so a process that dies holding it releases it.
 */
export async function withSessionLock<T>(connection: pg.ClientConfig, name: string, work: () => Promise<T>): Promise<T> {
  const client = new pg.Client({ ...connection, application_name: 'headcount-lock' });
  // An error on the idle connection (the server restarting) must not crash the process; the
  // lock is gone with it, and `work` fails or finishes on its own connections.
  client.on('error', () => {});
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock(hashtext($1))', [name]);
    return await work();
  } finally {
    await client.end().catch(() => {});
  }
}
