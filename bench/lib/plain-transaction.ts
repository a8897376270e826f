import type pg from 'pg';

/**
 * BEGIN; one statement; COMMIT on a client of `pool`, as the write rows' baselines send them (the
 * plain insert, the ask's own rows): nothing of the app's transaction code, so they measure the
 * database and the round trips alone.
 */
export async function plainTransaction(pool: pg.Pool, text: string, values: unknown[]): Promise<'ok'> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query(text, values);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
  return 'ok';
}
