/** Two servers over one fresh PostgreSQL database per test (the store shared by several servers). */
import { freshDatabase } from './postgres';
import { startTestServer, type TestServer } from './rest';

export interface TwoServers {
  readonly db: { readonly url: string };
  readonly one: TestServer;
  readonly two: TestServer;
}

/** The database and its two servers, started before each test and closed after it; read them inside tests. */
export function twoServersOnFreshDatabase(): TwoServers {
  const db = freshDatabase();
  const servers = { db } as { db: { readonly url: string }; one: TestServer; two: TestServer };
  beforeEach(async () => {
    servers.one = await startTestServer({ storeUrl: db.url });
    servers.two = await startTestServer({ storeUrl: db.url, adminPassword: 'ignored: admin exists' });
  });
  afterEach(async () => {
    await servers.one.close();
    await servers.two.close();
  });
  return servers;
}
