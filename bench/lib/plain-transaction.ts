import type pg from 'pg';

/**
 * BEGIN; one statement; COMMIT on a client of `pool`, as the write rows' baselines send them (the
 * plain insert, the ask's own rows): nothing of the app's transaction code, so they measure the
 * database and the round trips alone.
 *
 * The statement is prepared, once per connection, under `name`: the cheapest way there is to send
 * it again and again, as the app's own repeated statements are (src/db/prepared-statements.ts).
 * Unprepared, PostgreSQL parses and plans it every time: for the ask's own rows, a statement of
 * nine writes and some 60 parameters, that was half their database CPU (docs/performance.md, the
 * ninth session), so the limit they gave was half what the database can do. The name is made per
 * connection: on the embedded database every connection shares PGlite's one session, where two
 * connections preparing one name would collide.
 */
const connectionIds = new WeakMap<pg.PoolClient, number>();
let connections = 0;

export async function plainTransaction(pool: pg.Pool, name: string, text: string, values: unknown[]): Promise<'ok'> {
  const client = await pool.connect();
  let id = connectionIds.get(client);
  if (id === undefined) connectionIds.set(client, (id = ++connections));
  try {
    await client.query('BEGIN');
    await client.query({ name: `${name}_${id}`, text, values });
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
  return 'ok';
}
