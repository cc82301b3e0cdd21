/**
 * The store the REST test servers (rest.ts) run on: the file store of their data folder, or the
 * PostgreSQL store, so that the same suites check both (issue 16: PostgreSQL answers exactly as
 * the file store does).
 *
 * PostgreSQL is chosen for a whole run with `XMLDB_TEST_STORE=postgres`, or for one suite by
 * `onPostgres` (see __tests__/pg-parity). Each test file then gets a fresh database on the run's
 * shared cluster (pg-cluster.ts), and each data folder a schema of its own in it (the store's
 * tables live in the first schema of the URL's `search_path`): a server started again on the same
 * data folder finds its data, a new folder starts empty, as with the file store.
 */
import crypto from 'node:crypto';
import { pgStoreModule } from '../../lib/store/postgres/load-pg-store';
import { PgUsers } from '../../lib/users/pg-users';
import { UserStore } from '../../lib/users/user-store';
import { createTestDatabase, describeWithPostgres, pgClient } from './postgres';

/** The environment variable choosing the store of the REST test servers: `file` or `postgres`. */
export const TEST_STORE_ENV = 'XMLDB_TEST_STORE';

let chosen: 'file' | 'postgres' = process.env[TEST_STORE_ENV] === 'postgres' ? 'postgres' : 'file';

/** The database of this test file (created on first use) and the schema of each data folder. */
let database: Promise<{ url: string; drop: () => Promise<void> }> | undefined;
const schemas = new Map<string, string>();

/** Whether the test servers of this file run on PostgreSQL. */
export function onPostgresStore(): boolean {
  return chosen === 'postgres';
}

async function adminQuery(url: string, sql: string): Promise<void> {
  const client = pgClient(url);
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** The store URL of the data folder `dbPath`: a schema of this file's database, made on first use. */
export async function storeUrlFor(dbPath: string): Promise<string> {
  database ??= createTestDatabase();
  const { url } = await database;
  let schema = schemas.get(dbPath);
  if (schema === undefined) {
    schema = `s_${crypto.randomBytes(6).toString('hex')}`;
    schemas.set(dbPath, schema);
    await adminQuery(url, `CREATE SCHEMA ${schema}`);
  }
  const withSchema = new URL(url);
  withSchema.searchParams.set('options', `-c search_path=${schema}`);
  return withSchema.toString();
}

/** Drops the schema of a data folder whose server closed for good. */
export async function dropStoreOf(dbPath: string): Promise<void> {
  const schema = schemas.get(dbPath);
  if (schema === undefined || database === undefined) return;
  schemas.delete(dbPath);
  await adminQuery((await database).url, `DROP SCHEMA ${schema} CASCADE`);
}

/** Drops this file's database (after every server of the file closed). */
async function dropDatabase(): Promise<void> {
  const created = database;
  database = undefined;
  schemas.clear();
  if (created) await (await created).drop();
}

/** The users of the PostgreSQL store of `dbPath`, for seeding before a server starts on it. */
export async function withStoreUsers<T>(dbPath: string, fn: (users: UserStore) => Promise<T>): Promise<T> {
  const store = await pgStoreModule().createPostgresStore(await storeUrlFor(dbPath));
  try {
    const users = await UserStore.on(new PgUsers(store.pool));
    try {
      return await fn(users);
    } finally {
      await users.close();
    }
  } finally {
    await store.close();
  }
}

/**
 * Runs a REST suite on the PostgreSQL store: `load` requires the suite's file inside this
 * describe, so that its tests and hooks run here with every test server on PostgreSQL. Skipped
 * (visibly) where PostgreSQL is unavailable, as describeWithPostgres does.
 */
export function onPostgres(name: string, load: () => void): void {
  describeWithPostgres(`${name} (on PostgreSQL)`, () => {
    beforeAll(() => {
      chosen = 'postgres';
    });
    load();
    // after the suite's own afterAll hooks, which close its servers
    afterAll(async () => {
      await dropDatabase();
      chosen = 'file';
    });
  });
}

// A whole run on PostgreSQL: each file's database is dropped after the file.
if (chosen === 'postgres') afterAll(() => dropDatabase());
