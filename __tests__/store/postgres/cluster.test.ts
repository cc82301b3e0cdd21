import { Client } from 'pg';
import { describeWithPostgres, freshDatabase } from '../../helpers/postgres';

describeWithPostgres('the test cluster', () => {
  const db = freshDatabase();

  test('a fresh database per test, reachable on loopback', async () => {
    const client = new Client({ connectionString: db.url });
    await client.connect();
    try {
      const { rows } = await client.query<{ tables: string; host: string }>(
        "SELECT count(*)::text AS tables, inet_server_addr()::text AS host FROM pg_tables WHERE schemaname = 'public'",
      );
      expect(rows).toEqual([{ tables: '0', host: '127.0.0.1/32' }]);
    } finally {
      await client.end();
    }
  });
});
