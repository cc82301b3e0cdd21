/**
 * Tests against PostgreSQL: `describeWithPostgres` runs its body when PostgreSQL binaries (or
 * `XMLDB_TEST_PG_URL`) are available, against the run's shared throwaway cluster (pg-cluster.ts).
 * Without them the suite is skipped with a test named for the reason and a line on stderr, except
 * under CI, where their absence fails the run (`.ci/run` installs them).
 *
 *   describeWithPostgres('the store on PostgreSQL', () => {
 *     const db = freshDatabase();  // a new empty database per test: db.url
 *     ...
 *   });
 */
import crypto from 'node:crypto';
import type { Client } from 'pg';
import { findPgBin, PG_URL_ENV, sharedCluster } from './pg-cluster';
import { underCi } from './shared-data';

/** A client of `url`. The driver is loaded on first use: test files on the file store never load it. */
export function pgClient(url: string): Client {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { Client: PgClient } = require('pg') as typeof import('pg');
  return new PgClient({ connectionString: url });
}

/** Whether PostgreSQL can be used by the tests here. */
export function postgresAvailable(): boolean {
  return Boolean(process.env[PG_URL_ENV]) || findPgBin() !== undefined;
}

export function describeWithPostgres(name: string, body: () => void): void {
  if (postgresAvailable()) {
    describe(name, () => {
      beforeAll(async () => {
        await sharedCluster();
      }, 120_000);
      body();
    });
    return;
  }
  const why = 'needs PostgreSQL (initdb and pg_ctl, e.g. Debian\'s "postgresql" package, or XMLDB_TEST_PG_URL)';
  if (underCi()) {
    describe(name, () => {
      test(`${why} (required under CI)`, () => {
        throw new Error(`${name}: ${why}, and CI is set: PostgreSQL must be installed here.`);
      });
    });
    return;
  }
  process.stderr.write(`Skipped "${name}": it ${why}.\n`);
  describe(name, () => {
    test.skip(`skipped: ${why}`, () => undefined);
  });
}

/** The URL of database `name` on the cluster. */
function databaseUrl(clusterUrl: string, name: string): string {
  const url = new URL(clusterUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function withAdmin<T>(fn: (client: Client) => Promise<T>): Promise<T> {
  const client = pgClient((await sharedCluster()).url);
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** Creates a new empty database on the cluster; answers its URL and a function that drops it. */
export async function createTestDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `t_${crypto.randomBytes(8).toString('hex')}`;
  const cluster = await sharedCluster();
  await withAdmin((c) => c.query(`CREATE DATABASE ${name}`));
  return {
    url: databaseUrl(cluster.url, name),
    drop: () => withAdmin((c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => undefined),
  };
}

/**
 * A new empty schema before each test, in one database of the describe block, dropped after it;
 * read `.url` (its `search_path` names the schema) inside tests. A schema costs milliseconds, a
 * database a quarter of a second (CREATE DATABASE copies a template). Only for tests whose stores
 * run one at a time: advisory locks and notification channels belong to the database, which the
 * schemas share.
 */
export function freshSchema(): { readonly url: string } {
  const holder = { url: '' };
  let database: { url: string; drop: () => Promise<void> } | undefined;
  let schema: string | undefined;
  const inDatabase = async (sql: string): Promise<void> => {
    const client = pgClient(database!.url);
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database?.drop();
  });
  beforeEach(async () => {
    schema = `s_${crypto.randomBytes(8).toString('hex')}`;
    await inDatabase(`CREATE SCHEMA ${schema}`);
    holder.url = `${database!.url}?options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  });
  afterEach(async () => {
    if (schema !== undefined) await inDatabase(`DROP SCHEMA ${schema} CASCADE`);
    schema = undefined;
  });
  return holder;
}

/** A new empty database before each test, dropped after it; read `.url` inside tests. */
export function freshDatabase(): { readonly url: string } {
  const holder = { url: '' };
  let drop: (() => Promise<void>) | undefined;
  beforeEach(async () => {
    ({ url: holder.url, drop } = await createTestDatabase());
  });
  afterEach(async () => {
    await drop?.();
    drop = undefined;
  });
  return holder;
}
