/** How the PostgreSQL store uses its connections. */
import { Client } from 'pg';
import { createPostgresStore } from '../../../lib/store/postgres/pg-store';
import { describeWithPostgres, freshDatabase } from '../../helpers/postgres';

/**
 * Records every statement sent on a connection while another one still runs there: node-postgres
 * queues it and warns (DeprecationWarning; an error from pg 9 on).
 */
function watchOverlaps(): { overlaps: string[]; restore: () => void } {
  const running = new WeakMap<object, number>();
  const overlaps: string[] = [];
  const original = Client.prototype.query;
  const spy = jest.spyOn(Client.prototype, 'query').mockImplementation(function (this: Client, ...args: unknown[]) {
    const count = running.get(this) ?? 0;
    if (count > 0) overlaps.push(String(typeof args[0] === 'string' ? args[0] : (args[0] as { text?: string }).text));
    running.set(this, count + 1);
    const done = () => running.set(this, (running.get(this) ?? 1) - 1);
    const last = args[args.length - 1];
    if (typeof last === 'function') {
      args[args.length - 1] = (...results: unknown[]) => {
        done();
        return (last as (...r: unknown[]) => unknown)(...results);
      };
      return (original as (...a: unknown[]) => unknown).apply(this, args);
    }
    const result = (original as (...a: unknown[]) => unknown).apply(this, args) as Promise<unknown>;
    return result.finally(done);
  } as never);
  return { overlaps, restore: () => spy.mockRestore() };
}

describeWithPostgres('the PostgreSQL store’s connections', () => {
  const db = freshDatabase();

  // The lock time limit is a setting of the connection's start, not a statement that races the
  // first one sent on a new connection.
  test('every connection has the lock time limit from its start, with no statement queued behind another', async () => {
    const watch = watchOverlaps();
    const store = await createPostgresStore(db.url, { lockWaitMs: 1500 });
    try {
      const answers = await Promise.all([1, 2, 3].map(() => store.pool.query<{ lock_timeout: string }>('SHOW lock_timeout')));
      expect(answers.map((a) => a.rows)).toEqual([1, 2, 3].map(() => [{ lock_timeout: '1500ms' }]));
    } finally {
      await store.close();
      watch.restore();
    }
    expect(watch.overlaps).toEqual([]);
  });
});
