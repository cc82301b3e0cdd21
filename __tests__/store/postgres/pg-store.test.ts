import { createPostgresStore } from '../../../lib/store/postgres/pg-store';
import { describeWithPostgres, freshDatabase } from '../../helpers/postgres';
import { backupSuite } from '../backup-suite';
import { storeSuite } from '../store-suite';

describeWithPostgres('the store contract, on PostgreSQL', () => {
  const db = freshDatabase();
  storeSuite({ open: () => createPostgresStore(db.url) });
  describe('backups', () => {
    backupSuite({ open: () => createPostgresStore(db.url) });
  });
});
