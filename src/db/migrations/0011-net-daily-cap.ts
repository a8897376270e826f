import { sql, type Kysely } from 'kysely';

/**
 * The daily cap counts net spend (docs/credits.md "Daily spend cap"): what a capped key reserved
 * for a question on a UTC day, so that a refund of that question on the same day gives the key's
 * cap back (once: `returned` never passes `amount`). One row per (question, key, day): the
 * question is the one whose reservation it was (the parent for follow-ups), the key the one that
 * asked or added heads. Rows are written only for keys with a cap.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE key_cap_charges (
      question_id  text NOT NULL REFERENCES questions(id) DEFERRABLE INITIALLY DEFERRED,
      key_id       text NOT NULL REFERENCES api_keys(id),
      day          date NOT NULL,
      amount       bigint NOT NULL CHECK (amount > 0),
      returned     bigint NOT NULL DEFAULT 0 CHECK (returned >= 0 AND returned <= amount),
      PRIMARY KEY (question_id, key_id, day)
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE key_cap_charges`.execute(db);
}
