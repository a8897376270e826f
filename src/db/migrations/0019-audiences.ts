import { sql, type Kysely } from 'kysely';

/**
 * Interest audiences (issue 14; docs/audiences.md): panels of heads who proved a trait.
 *
 * audiences: one row per audience. `status` draft (being set up, invisible), open (can be asked)
 * or closed (listed by slug, refused in an ask). `grades` is the ordered list of grades, grade 1
 * first, each `{name, proves, payPence}`; its length (1 to 5) is the highest grade. `private`
 * audiences are seen and asked only by the accounts that sponsor them (audience_sponsors).
 * `tags` are the catalogue tags membership stamps on a head; `countries`/`languages` where it is
 * open (empty: everywhere).
 *
 * audience_members: a head's membership and grade (1 to 5, never above the audience's highest;
 * the service checks that). Asking an audience at `minGrade` reaches members at that grade or
 * above; the head_id index serves "which audiences is this head in".
 *
 * questions.audience_id/min_grade: the audience a question asks (it replaces targeting), and
 * answers.grade the answering member's grade when the answer was given (results break down by it).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE audiences (
      id            text PRIMARY KEY,
      slug          text NOT NULL UNIQUE CHECK (slug ~ '^[a-z0-9]+(-[a-z0-9]+)*$' AND length(slug) BETWEEN 3 AND 40),
      name          text NOT NULL,
      description   text NOT NULL,
      category      text NOT NULL,
      status        text NOT NULL CHECK (status IN ('draft', 'open', 'closed')),
      tags          text[] NOT NULL DEFAULT '{}',
      grades        jsonb NOT NULL CHECK (jsonb_typeof(grades) = 'array' AND jsonb_array_length(grades) BETWEEN 1 AND 5),
      open_to_join  boolean NOT NULL DEFAULT false,
      private       boolean NOT NULL DEFAULT false,
      countries     text[] NOT NULL DEFAULT '{}',
      languages     text[] NOT NULL DEFAULT '{}',
      simulated     boolean NOT NULL DEFAULT false,
      created_at    timestamptz NOT NULL,
      updated_at    timestamptz NOT NULL
    )`.execute(db);
  await sql`
    CREATE TABLE audience_sponsors (
      audience_id  text NOT NULL REFERENCES audiences(id) ON DELETE CASCADE,
      account_id   text NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      created_at   timestamptz NOT NULL,
      PRIMARY KEY (audience_id, account_id)
    )`.execute(db);
  await sql`CREATE INDEX audience_sponsors_account ON audience_sponsors (account_id)`.execute(db);
  await sql`
    CREATE TABLE audience_members (
      audience_id  text NOT NULL REFERENCES audiences(id) ON DELETE CASCADE,
      head_id      text NOT NULL REFERENCES heads(id) ON DELETE CASCADE,
      grade        smallint NOT NULL CHECK (grade BETWEEN 1 AND 5),
      graded_at    timestamptz NOT NULL,
      PRIMARY KEY (audience_id, head_id)
    )`.execute(db);
  await sql`CREATE INDEX audience_members_head ON audience_members (head_id)`.execute(db);
  await sql`ALTER TABLE questions ADD COLUMN audience_id text REFERENCES audiences(id), ADD COLUMN min_grade smallint`.execute(db);
  await sql`ALTER TABLE questions ADD CONSTRAINT questions_audience_grade CHECK ((audience_id IS NULL) = (min_grade IS NULL))`.execute(db);
  await sql`ALTER TABLE answers ADD COLUMN grade smallint`.execute(db);
}
