import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { randomBase62 } from '../../src/lib/base62.ts';
import { plainTransaction } from '../lib/plain-transaction.ts';

/**
 * The ask's own rows, written by the cheapest route there is: one statement in one transaction
 * (BEGIN; a CTE of INSERTs and UPDATEs; COMMIT), with no HTTP, no validation, no pricing and no
 * round trip between the writes. It is the asks rows' second limit (bench/README.md): what an
 * ask must cost the database whatever the app does, beside the plain single-row insert that
 * issue 15's goal is measured against.
 *
 * The rows are copied from a real ask made through the container (the template): the question,
 * its Idempotency-Key with the stored response, its ledger row, its outbox event, its lot use and
 * pg-boss's close timer, plus the two updates (balance, lot). Each copy gets new ids and codes, and
 * the account of the caller's turn, so every copy is a new ask to the database: the same indexes,
 * constraints and triggers, the same bytes.
 */

/** A table's template rows and the columns a copy writes (identity and serial columns are left to their defaults). */
interface TableRows {
  table: string;
  columns: string[];
  /** The columns holding json or jsonb (their values go as JSON text, arrays included). */
  json: Set<string>;
  rows: Array<Record<string, unknown>>;
}

export interface AskRowsTemplate {
  tables: TableRows[];
  /** What the ask reserved (the balance and lot updates). */
  amount: number;
  /** Template values to replace in every copy: ids, codes, the account and its lot. */
  questionId: string;
  accountId: string;
  lotId: string;
  ids: string[];
  codes: string[];
  uuids: string[];
  idempotencyKey: string;
}

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** The columns of `table` a copy writes: all but identity and serial ones (seq), which number themselves. */
async function writableColumns(pool: pg.Pool, schema: string, table: string): Promise<Array<{ column_name: string; data_type: string }>> {
  const { rows } = await pool.query<{ column_name: string; data_type: string }>(
    `SELECT column_name, data_type FROM information_schema.columns
     WHERE table_schema = $1 AND table_name = $2 AND is_identity = 'NO' AND is_generated = 'NEVER' AND coalesce(column_default, '') NOT LIKE 'nextval(%'
     ORDER BY ordinal_position`,
    [schema, table],
  );
  return rows;
}

async function rowsOf(pool: pg.Pool, schema: string, table: string, where: string, values: unknown[]): Promise<TableRows> {
  const described = await writableColumns(pool, schema, table);
  const columns = described.map((c) => c.column_name);
  const json = new Set(described.filter((c) => c.data_type === 'json' || c.data_type === 'jsonb').map((c) => c.column_name));
  const { rows } = await pool.query(`SELECT ${columns.map(quote).join(', ')} FROM ${quote(schema)}.${quote(table)} WHERE ${where}`, values);
  if (rows.length === 0) throw new Error(`ask rows: the template ask has no row in ${schema}.${table}`);
  return { table: `${quote(schema)}.${quote(table)}`, columns, json, rows };
}

/** Reads the rows the ask of `questionId` wrote. */
export async function readAskRows(pool: pg.Pool, questionId: string): Promise<AskRowsTemplate> {
  const { rows: q } = await pool.query<{ account_id: string; credits_reserved: string }>('SELECT account_id, credits_reserved FROM questions WHERE id = $1', [questionId]);
  if (!q[0]) throw new Error(`ask rows: no question ${questionId}`);
  const accountId = q[0].account_id;
  const like = `%${questionId}%`;
  const tables = [
    await rowsOf(pool, 'public', 'questions', 'id = $1', [questionId]),
    await rowsOf(pool, 'public', 'idempotency_keys', 'account_id = $1 AND response_body::text LIKE $2', [accountId, like]),
    await rowsOf(pool, 'public', 'ledger_entries', 'unique_ref LIKE $1', [`${questionId}:%`]),
    await rowsOf(pool, 'public', 'outbox_events', 'unique_ref LIKE $1', [`${questionId}:%`]),
    await rowsOf(pool, 'public', 'lot_uses', 'question_id = $1', [questionId]),
    await rowsOf(pool, 'pgboss', 'job', 'data::text LIKE $1', [like]),
  ];
  const [questions, keys, ledger, outbox, uses, jobs] = tables;
  if (uses.rows.length !== 1) throw new Error(`ask rows: the template ask used ${uses.rows.length} lots, expected 1`);
  const codes = ['link_code', 'public_code'].flatMap((c) => (typeof questions.rows[0][c] === 'string' ? [questions.rows[0][c] as string] : []));
  return {
    tables,
    amount: Number(q[0].credits_reserved),
    questionId,
    accountId,
    lotId: String(uses.rows[0].lot_id),
    ids: [...ledger.rows, ...outbox.rows].map((r) => String(r.id)),
    codes,
    uuids: jobs.rows.map((r) => String(r.id)),
    idempotencyKey: String(keys.rows[0].key),
  };
}

/** A new id of the same kind as `id`: `prefix_` and 20 base62 characters (src/lib/ids.ts). */
const idLike = (id: string) => `${id.slice(0, id.indexOf('_') + 1)}${randomBase62(20)}`;

const swapped = (text: string, swap: Array<[string, string]>) => swap.reduce((out, [from, to]) => out.replaceAll(from, to), text);

/** A copy's value: every template id, code and account replaced, in text, text arrays and JSON alike. */
function replaced(value: unknown, json: boolean, swap: Array<[string, string]>): unknown {
  if (value === null) return null;
  if (json) return swapped(JSON.stringify(value), swap);
  if (typeof value === 'string') return swapped(value, swap);
  if (Array.isArray(value)) return value.map((v) => (typeof v === 'string' ? swapped(v, swap) : v));
  // Dates, numbers, booleans, intervals: node-postgres sends them as it read them.
  return value;
}

/**
 * One copy of the ask's rows for `account` (its own lot) in one transaction: BEGIN; the CTE;
 * COMMIT, as the plain insert baseline sends them.
 */
export function writeAskRows(pool: pg.Pool, template: AskRowsTemplate, account: { accountId: string; lotId: string }): Promise<'ok'> {
  const questionId = idLike(template.questionId);
  const swap: Array<[string, string]> = [
    [template.questionId, questionId],
    [template.accountId, account.accountId],
    [template.lotId, account.lotId],
    [template.idempotencyKey, randomUUID()],
    ...template.ids.map((id): [string, string] => [id, idLike(id)]),
    ...template.codes.map((code): [string, string] => [code, randomBase62(code.length)]),
    ...template.uuids.map((id): [string, string] => [id, randomUUID()]),
  ];
  const values: unknown[] = [];
  const param = (value: unknown) => `$${values.push(value)}`;
  const ctes = template.tables.flatMap((t, i) =>
    t.rows.map((row, j) => `w${i}_${j} AS (INSERT INTO ${t.table} (${t.columns.map(quote).join(', ')}) VALUES (${t.columns.map((c) => param(replaced(row[c], t.json.has(c), swap))).join(', ')}))`),
  );
  const amount = param(template.amount);
  ctes.push(`bal AS (UPDATE balances SET available = available - ${amount}::bigint, reserved = reserved + ${amount}::bigint WHERE account_id = ${param(account.accountId)})`);
  ctes.push(`lot AS (UPDATE credit_lots SET remaining = remaining - ${amount}::bigint WHERE id = ${param(account.lotId)})`);
  // The text is the same for every copy of one template (the values differ): one prepared statement.
  return plainTransaction(pool, 'bench_ask_rows', `WITH ${ctes.join(',\n')} SELECT 1`, values);
}
