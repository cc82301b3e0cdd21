/**
 * One connection's share of a read or write: queries with PostgreSQL's failures turned into the
 * store's errors (driver-errors.ts).
 */
import type { Pool, PoolClient, QueryResultRow } from 'pg';
import { storeError } from './driver-errors';

/**
 * Statements of one read or write: on the connection that holds its locks, or, for a read that
 * locks nothing, each on a pooled connection of its own, returned at once.
 */
export class Session {
  constructor(
    private readonly client: PoolClient | Pool,
    private readonly lockWaitMs?: number,
  ) {}

  async query<R extends QueryResultRow = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<R[]> {
    try {
      return (await this.client.query<R>(sql, params)).rows;
    } catch (error) {
      throw storeError(error, this.lockWaitMs);
    }
  }
}
