import { createPostgresStore } from '../../../lib/store/postgres/pg-store';
import { describeWithPostgres, freshSchema } from '../../helpers/postgres';
import { backupSuite } from '../backup-suite';
import { storeSuite } from '../store-suite';

describeWithPostgres('the store contract, on PostgreSQL', () => {
  const db = freshSchema();
  storeSuite({ open: (options) => createPostgresStore(db.url, options) });
  describe('backups', () => {
    backupSuite({ open: () => createPostgresStore(db.url) });
  });
});

test('a PostgreSQL that cannot be reached fails the opening with 503', async () => {
  await expect(createPostgresStore('postgres://user:pw@127.0.0.1:1/none')).rejects.toMatchObject({
    status: 503,
    code: 'STORE_UNAVAILABLE_X',
    message: expect.stringMatching(/^The database store is unavailable: connect ECONNREFUSED 127\.0\.0\.1:1/),
  });
});
