/**
 * The schema of the PostgreSQL store, as numbered migrations applied in order on start. The
 * applied version is kept in `xmldb_schema`; several servers starting at once take a session
 * advisory lock first, so exactly one applies each migration and the others find it done. A
 * migration runs in one transaction: it is applied whole or not at all.
 *
 * Tables live in the first schema of the connection's `search_path` (`public` unless the URL
 * sets `options=-c search_path=...`). Names are compared byte by byte (`COLLATE "C"`): resource
 * paths sort by code points and a directory is a range of paths (`dir/` up to `dir0`).
 *
 * Resource bytes are kept in blobs (`xmldb_blobs`, cut into `xmldb_chunks` so that large ones are
 * read and written a chunk at a time). A blob is never changed; copies of databases and backups
 * share blobs, and a blob no resource or backup refers to any more is collected later (blobs.ts).
 */
import type { PoolClient } from 'pg';
import { LOCK_CLASS } from './lock-keys';

/** Each migration: SQL run in one transaction. Append only; never edit an applied one. */
const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE xmldb_databases (
    name text COLLATE "C" PRIMARY KEY,
    created bigint NOT NULL,
    modified bigint NOT NULL,
    options jsonb NOT NULL,
    version bigint NOT NULL DEFAULT 1
  );
  CREATE TABLE xmldb_blobs (
    id bigserial PRIMARY KEY,
    bytes bigint NOT NULL
  );
  CREATE TABLE xmldb_chunks (
    blob bigint NOT NULL REFERENCES xmldb_blobs (id) ON DELETE CASCADE,
    seq integer NOT NULL,
    data bytea NOT NULL,
    PRIMARY KEY (blob, seq)
  );
  CREATE TABLE xmldb_resources (
    db text COLLATE "C" NOT NULL REFERENCES xmldb_databases (name) ON DELETE CASCADE ON UPDATE CASCADE,
    path text COLLATE "C" NOT NULL,
    type text NOT NULL,
    content_type text NOT NULL,
    size bigint NOT NULL,
    bytes bigint NOT NULL,
    modified bigint NOT NULL,
    etag text NOT NULL,
    blob bigint NOT NULL REFERENCES xmldb_blobs (id),
    PRIMARY KEY (db, path)
  );
  CREATE INDEX xmldb_resources_blob ON xmldb_resources (blob);
  CREATE TABLE xmldb_backups (
    name text COLLATE "C" PRIMARY KEY,
    created bigint NOT NULL,
    modified bigint NOT NULL,
    options jsonb NOT NULL
  );
  CREATE TABLE xmldb_backup_resources (
    backup text COLLATE "C" NOT NULL REFERENCES xmldb_backups (name) ON DELETE CASCADE ON UPDATE CASCADE,
    path text COLLATE "C" NOT NULL,
    type text NOT NULL,
    content_type text NOT NULL,
    size bigint NOT NULL,
    bytes bigint NOT NULL,
    modified bigint NOT NULL,
    etag text NOT NULL,
    blob bigint NOT NULL REFERENCES xmldb_blobs (id),
    PRIMARY KEY (backup, path)
  );
  CREATE INDEX xmldb_backup_resources_blob ON xmldb_backup_resources (blob);
  CREATE TABLE xmldb_orphans (
    blob bigint PRIMARY KEY,
    since bigint NOT NULL
  );
  CREATE TABLE xmldb_users (
    name text COLLATE "C" PRIMARY KEY,
    perm text NOT NULL,
    grants jsonb NOT NULL,
    password jsonb NOT NULL
  );
  CREATE TABLE xmldb_counters (
    name text PRIMARY KEY,
    value bigint NOT NULL
  );
  INSERT INTO xmldb_counters (name, value) VALUES ('users', 1);
  `,
  // the web console's saved queries and history, one row per user (console/saved-queries.ts)
  `
  CREATE TABLE xmldb_console (
    name text COLLATE "C" PRIMARY KEY,
    data jsonb NOT NULL
  );
  `,
  // the full-text index (fulltext.ts): per text node with tokens, its folded tokens in order;
  // the GIN index answers "nodes holding any of these tokens" (&&). Databases indexed before
  // start without rows (fulltext false): the engine derives their index until it is built again.
  `
  ALTER TABLE xmldb_databases ADD COLUMN fulltext boolean NOT NULL DEFAULT false;
  CREATE TABLE xmldb_fulltext (
    db text COLLATE "C" NOT NULL REFERENCES xmldb_databases (name) ON DELETE CASCADE ON UPDATE CASCADE,
    path text COLLATE "C" NOT NULL,
    node integer NOT NULL,
    tokens text[] NOT NULL
  );
  CREATE INDEX xmldb_fulltext_doc ON xmldb_fulltext (db, path);
  CREATE INDEX xmldb_fulltext_tokens ON xmldb_fulltext USING gin (tokens);
  `,
  // a summary of each XML document made when it is stored (PostgresStoreOptions `summarize`),
  // read by queries that count over a database (ReadView `summaries`); NULL: none kept, the
  // engine reads the document's text
  `
  ALTER TABLE xmldb_resources ADD COLUMN summary bytea;
  `,
];

/** The schema version this code needs. */
export const SCHEMA_VERSION = MIGRATIONS.length;

/** Key of the session lock held while migrating. */
const MIGRATION_LOCK = `${LOCK_CLASS.maintenance}, 0`;

/**
 * Brings the schema to SCHEMA_VERSION. Refuses a schema newer than this code knows (a newer
 * server migrated it): running old code on it could corrupt data.
 */
export async function migrate(client: PoolClient): Promise<void> {
  await client.query(`SELECT pg_advisory_lock(${MIGRATION_LOCK})`);
  try {
    await client.query('CREATE TABLE IF NOT EXISTS xmldb_schema (version integer NOT NULL)');
    const { rows } = await client.query<{ version: number }>('SELECT max(version) AS version FROM xmldb_schema');
    const current = rows[0]?.version ?? 0;
    if (current > SCHEMA_VERSION) {
      throw new Error(`the database's schema (version ${current}) is newer than this server's (${SCHEMA_VERSION}); upgrade the server`);
    }
    for (let version = current + 1; version <= SCHEMA_VERSION; version++) {
      await client.query('BEGIN');
      try {
        await client.query(MIGRATIONS[version - 1]);
        await client.query('INSERT INTO xmldb_schema (version) VALUES ($1)', [version]);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK');
        throw error;
      }
    }
  } finally {
    await client.query(`SELECT pg_advisory_unlock(${MIGRATION_LOCK})`);
  }
}
