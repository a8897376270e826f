import { sql, type Kysely } from 'kysely';

/**
 * Uploads (issue 13; docs/uploads.md): images and audio a requester uploads (POST /v1/uploads,
 * then a PUT to the upload URL) or has the service import from a public https URL, served at
 * their publicUrl (GET /v1/files/{id}.{ext}).
 *
 * uploads: one row per upload. The upload URL's token is stored only as its SHA-256
 * (`token_hash`; imports have none). `status`: `pending` until the PUT, `receiving` while one PUT
 * is being checked (so two PUTs at once cannot both store), `ready` once the checked bytes are
 * stored; only `ready` rows are served. `expires_at` ends the upload URL (15 minutes); the daily
 * `uploads-sweep` job deletes rows never finished by then, with any bytes stored for them.
 * `content_type`/`ext` are the declared (and, once ready, checked) type; `declared_bytes` the
 * size the PUT must have; `stored_bytes`, `width`, `height`, `duration_ms` and `etag` describe
 * what is served.
 *
 * upload_blobs: the bytes, for UPLOAD_STORAGE=postgres (every node of a deployment reads the same
 * files); keyed by the upload id. With UPLOAD_STORAGE=filesystem they are files under DATA_DIR
 * and this table stays empty.
 *
 * questions.stimulus_width/height: the size of a click test's stimulus image when it is one of
 * our uploads, looked up once at ask time, so results can give the heatmap the image's aspect
 * without a query on the result path.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE uploads (
      id              text PRIMARY KEY,
      account_id      text NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      kind            text NOT NULL CHECK (kind IN ('image', 'audio')),
      source          text NOT NULL CHECK (source IN ('upload', 'import')),
      status          text NOT NULL CHECK (status IN ('pending', 'receiving', 'ready')),
      content_type    text NOT NULL,
      ext             text NOT NULL,
      declared_bytes  integer NOT NULL CHECK (declared_bytes > 0),
      token_hash      bytea UNIQUE,
      source_url      text,
      stored_bytes    integer,
      width           integer,
      height          integer,
      duration_ms     integer,
      etag            text,
      created_at      timestamptz NOT NULL,
      expires_at      timestamptz NOT NULL,
      completed_at    timestamptz,
      CHECK ((status = 'ready') = (completed_at IS NOT NULL)),
      CHECK (source = 'import' OR token_hash IS NOT NULL)
    )`.execute(db);
  await sql`CREATE INDEX uploads_unfinished ON uploads (expires_at) WHERE status <> 'ready'`.execute(db);
  await sql`CREATE INDEX uploads_account ON uploads (account_id, created_at)`.execute(db);
  await sql`
    CREATE TABLE upload_blobs (
      key         text PRIMARY KEY,
      bytes       bytea NOT NULL,
      created_at  timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  // Images and audio are compressed already: stored out of line without trying to compress them again.
  await sql`ALTER TABLE upload_blobs ALTER COLUMN bytes SET STORAGE EXTERNAL`.execute(db);
  await sql`ALTER TABLE questions ADD COLUMN stimulus_width integer, ADD COLUMN stimulus_height integer`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE questions DROP COLUMN stimulus_width, DROP COLUMN stimulus_height`.execute(db);
  await sql`DROP TABLE upload_blobs`.execute(db);
  await sql`DROP TABLE uploads`.execute(db);
}
