/**
 * Users kept in the PostgreSQL store (table `xmldb_users`, store/postgres/schema.ts), shared by
 * every server on it. A change locks the `users` counter row, applies the change to the users as
 * they are in the database and bumps the counter, in one transaction: changes from several
 * servers are applied one after the other and none is lost. A server compares the counter with
 * the one it last saw (`changed`, once per request) to take in other servers' changes.
 */
import type { Pool, PoolClient } from 'pg';
import { storeError } from '../store/postgres/driver-errors';
import { validateUsers, type User, type UserBackend } from './backend';

const SELECT_USERS = `
  SELECT (SELECT value FROM xmldb_counters WHERE name = 'users') AS version,
         coalesce((SELECT jsonb_agg(jsonb_build_object('name', name, 'perm', perm, 'grants', grants, 'password', password) ORDER BY name)
                   FROM xmldb_users), '[]'::jsonb) AS users`;

export class PgUsers implements UserBackend {
  private version = 0;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly pool: Pool) {}

  async load(): Promise<readonly User[]> {
    const { users, version } = await this.fetch(this.pool);
    this.version = version;
    return users;
  }

  /** One change at a time from this server, so that the last one answered is the newest. */
  change(fn: (users: readonly User[]) => readonly User[]): Promise<readonly User[]> {
    const next = this.queue.then(() => this.transaction(fn));
    this.queue = next.catch(() => undefined);
    return next;
  }

  async changed(): Promise<readonly User[] | undefined> {
    try {
      const { rows } = await this.pool.query<{ value: string }>("SELECT value FROM xmldb_counters WHERE name = 'users'");
      if (Number(rows[0]?.value ?? 0) <= this.version) return undefined;
    } catch (error) {
      throw storeError(error, undefined);
    }
    const { users, version } = await this.fetch(this.pool);
    if (version <= this.version) return undefined; // a change of ours answered meanwhile is newer
    this.version = version;
    return users;
  }

  async close(): Promise<void> {
    await this.queue;
  }

  private async transaction(fn: (users: readonly User[]) => readonly User[]): Promise<readonly User[]> {
    let client: PoolClient;
    try {
      client = await this.pool.connect();
    } catch (error) {
      throw storeError(error, undefined);
    }
    const ignore = () => undefined;
    client.on('error', ignore);
    try {
      await client.query('BEGIN');
      await client.query("UPDATE xmldb_counters SET value = value + 1 WHERE name = 'users'");
      const { users: before, version } = await this.fetch(client);
      const after = fn(before);
      const old = new Map(before.map((u) => [u.name, JSON.stringify(u)]));
      const changed = after.filter((u) => old.get(u.name) !== JSON.stringify(u));
      await client.query('DELETE FROM xmldb_users WHERE NOT (name = ANY($1::text[]))', [after.map((u) => u.name)]);
      if (changed.length > 0) {
        await client.query(
          `INSERT INTO xmldb_users (name, perm, grants, password)
           SELECT name, perm, grants, password FROM jsonb_to_recordset($1::jsonb) AS u(name text, perm text, grants jsonb, password jsonb)
           ON CONFLICT (name) DO UPDATE SET perm = EXCLUDED.perm, grants = EXCLUDED.grants, password = EXCLUDED.password`,
          [JSON.stringify(changed)],
        );
      }
      await client.query('COMMIT');
      this.version = Math.max(this.version, version);
      return after;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw storeError(error, undefined);
    } finally {
      client.off('error', ignore);
      client.release();
    }
  }

  private async fetch(on: Pool | PoolClient): Promise<{ users: User[]; version: number }> {
    try {
      const { rows } = await on.query<{ version: string; users: unknown }>(SELECT_USERS);
      return { users: validateUsers(rows[0].users), version: Number(rows[0].version) };
    } catch (error) {
      throw storeError(error, undefined);
    }
  }
}
