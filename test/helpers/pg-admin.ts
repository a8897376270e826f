import pg from 'pg';

/**
 * What test/global-setup.ts hands to the test files: where the one migrated template is.
 * Plain data only (it crosses from the main process to the workers).
 */
export type TemplateInfo =
  | { kind: 'embedded'; runDir: string; templateDir: string }
  | { kind: 'server'; adminUrl: string; templateName: string; runId: string };

/** `postgres://u@h:5432/test` with the database name replaced. */
export function withDatabaseName(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}

/** Only the names the tests make themselves (hc_tpl_…, hc_t_…) are ever interpolated. */
export function quoteIdent(name: string): string {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(name)) throw new Error(`Refusing unexpected database name ${JSON.stringify(name)}`);
  return `"${name}"`;
}

/** Runs one statement on the admin connection (TEST_DATABASE_URL), which CREATE/DROP DATABASE need. */
export async function adminQuery(adminUrl: string, text: string): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 5_000, application_name: 'headcount-tests' });
  await client.connect();
  try {
    return await client.query(text);
  } finally {
    await client.end();
  }
}
