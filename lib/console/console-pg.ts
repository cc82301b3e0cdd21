/**
 * The console's data on the PostgreSQL store: a row per user in `xmldb_console`
 * (store/postgres/schema.ts), shared by every server on the store. A change locks the user's
 * row (`FOR UPDATE`) in one transaction, so changes from several servers never overwrite each
 * other.
 */
import type { Pool, PoolClient } from 'pg';
import { storeError } from '../store/postgres/driver-errors';
import { emptyUserData, type ConsoleBackend, type UserData } from './saved-queries';

function userData(value: unknown): UserData {
  const data = value as Partial<UserData> | null;
  return { saved: Array.isArray(data?.saved) ? data.saved : [], history: Array.isArray(data?.history) ? data.history : [] };
}

export class ConsolePg implements ConsoleBackend {
  constructor(private readonly pool: Pool) {}

  async read(user: string): Promise<UserData> {
    try {
      const { rows } = await this.pool.query<{ data: unknown }>('SELECT data FROM xmldb_console WHERE name = $1', [user]);
      return rows.length === 0 ? emptyUserData() : userData(rows[0].data);
    } catch (error) {
      throw storeError(error, undefined);
    }
  }

  async change<T>(user: string, fn: (data: UserData) => T): Promise<T> {
    let client: PoolClient;
    try {
      client = await this.pool.connect();
    } catch (error) {
      throw storeError(error, undefined);
    }
    try {
      await client.query('BEGIN');
      await client.query(`INSERT INTO xmldb_console (name, data) VALUES ($1, '{}') ON CONFLICT (name) DO NOTHING`, [user]);
      const { rows } = await client.query<{ data: unknown }>('SELECT data FROM xmldb_console WHERE name = $1 FOR UPDATE', [user]);
      const data = userData(rows[0]?.data);
      const result = fn(data);
      await client.query('UPDATE xmldb_console SET data = $2 WHERE name = $1', [user, JSON.stringify(data)]);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw storeError(error, undefined);
    } finally {
      client.release();
    }
  }
}
