/**
 * The store on PostgreSQL: databases, resources, options and backups in tables (schema.ts),
 * shared by any number of servers. A read or write takes a pooled connection, its advisory locks
 * (lock-keys.ts) and, for a write, one transaction: PostgreSQL makes the write atomic and durable
 * at COMMIT, and a server that dies mid-write leaves neither changes nor locks behind.
 *
 * A read that locks no database (a query or script that names none) holds no connection: each of
 * its statements, if any, takes one from the pool and returns it at once, so that a request that
 * waits for a query worker, or runs long without reading, keeps no connection from others. The
 * users and the health probe have a small pool of their own (`controlPool`), so that requests
 * holding every connection of the main pool never hold up authentication.
 *
 * A commit stamps the changed databases (modification time, version) and announces them with
 * NOTIFY on CHANGES_CHANNEL (`{store id} {database}`); `subscribe` hears this store's commits at
 * once and other servers' through LISTEN (notifications.ts).
 */
import crypto from 'node:crypto';
import { Pool, type PoolClient, type PoolConfig } from 'pg';
import { InFlight } from '../in-flight';
import { LockManager } from '../locks';
import { ChangeListeners } from '../change-listeners';
import type { FullTextTokenizer, LockSet, ReadView, Store, WriteView } from '../types';
import { collectBlobs, sessionChunkReader } from './blobs';
import { lockPlan, lockStatement } from './lock-keys';
import { Listener } from './notifications';
import { PgReadView } from './read-view';
import { migrate } from './schema';
import { storeError } from './driver-errors';
import { Session } from './session';
import { PgWriteView } from './write-view';

/** The channel of database change notifications. */
export const CHANGES_CHANNEL = 'xmldb_changes';

export interface PostgresStoreOptions {
  /** Longest wait for the locks of a read or write, in ms; default: no limit. */
  readonly lockWaitMs?: number;
  /** Longest wait for a new connection to PostgreSQL to open, in ms. Default 10 s. */
  readonly connectTimeoutMs?: number;
  /** Connections to PostgreSQL this store opens at most. Default 10. */
  readonly poolSize?: number;
  /** How long an unreferenced blob is kept before it is collected, in ms. Default 5 minutes. */
  readonly blobGraceMs?: number;
  /**
   * The engine's tokenizer: with it the full-text index of databases with FTINDEX is kept in the
   * tables (fulltext.ts); without it the engine derives the index from the documents.
   */
  readonly fullText?: FullTextTokenizer;
  /**
   * What to keep of each XML document put, in its row, for the queries that read it: the engine's
   * summary (accelerators/leaf-summaries/summary-record.ts), undefined for none (ReadView `summaries`).
   */
  readonly summarize?: (xml: Buffer) => Uint8Array | undefined;
}

const DEFAULT_POOL_SIZE = 10;
/** Connections of the control pool (users, health). */
const CONTROL_POOL_SIZE = 2;
const DEFAULT_GRACE_MS = 5 * 60_000;
/** pg-pool's error when no connection was had within its connectionTimeoutMillis. */
const POOL_TIMEOUT = /^timeout exceeded when trying to connect$/;
/** Collect blobs at most this often per store (after writes that orphaned some). */
const COLLECT_EVERY_MS = 60_000;

/** Connects to `url` (`postgres://user:password@host:port/database`), migrating the schema. */
export async function createPostgresStore(url: string, options: PostgresStoreOptions = {}): Promise<PostgresStore> {
  return PostgresStore.open(url, options);
}

export class PostgresStore implements Store {
  /** Tells this store's notifications from other servers'. */
  readonly id = crypto.randomBytes(8).toString('hex');
  private readonly listeners = new ChangeListeners();
  private readonly inFlight = new InFlight();
  private readonly localLocks: LockManager;
  private listener: Listener | undefined;
  private closing: Promise<void> | undefined;
  private lastCollect = 0;
  private collecting: Promise<unknown> | undefined;

  /** Connections for the users and the health probe, apart from the requests' pool. */
  readonly controlPool: Pool;

  private constructor(
    readonly pool: Pool,
    private readonly config: PoolConfig,
    private readonly options: PostgresStoreOptions,
  ) {
    this.localLocks = new LockManager(options.lockWaitMs);
    this.controlPool = new Pool({ ...config, max: CONTROL_POOL_SIZE });
    this.controlPool.on('error', () => undefined);
  }

  private get poolSize(): number {
    return this.options.poolSize ?? DEFAULT_POOL_SIZE;
  }

  static async open(url: string, options: PostgresStoreOptions = {}): Promise<PostgresStore> {
    // A PostgreSQL that does not answer fails requests with 503 after 10 s instead of holding them.
    // The lock wait limit is a parameter of each connection's start: a SET sent on connecting
    // would race the first statement of whoever took the new connection.
    const config: PoolConfig = {
      connectionString: url,
      max: options.poolSize ?? DEFAULT_POOL_SIZE,
      connectionTimeoutMillis: options.connectTimeoutMs ?? 10_000,
      application_name: 'xmldb-rest',
      ...(options.lockWaitMs === undefined ? {} : { lock_timeout: Math.max(1, Math.floor(options.lockWaitMs)) }),
    };
    const pool = new Pool(config);
    // An idle connection that breaks (PostgreSQL restarted) is dropped by the pool; the error
    // must not reach the process as an unhandled 'error' event.
    pool.on('error', () => undefined);
    const store = new PostgresStore(pool, config, options);
    try {
      const client = await pool.connect();
      try {
        await migrate(client);
      } finally {
        client.release();
      }
    } catch (error) {
      await pool.end();
      await store.controlPool.end();
      throw storeError(error, options.lockWaitMs);
    }
    store.lastCollect = Date.now();
    store.collect();
    return store;
  }

  read<T>(dbs: LockSet, fn: (view: ReadView) => Promise<T>): Promise<T> {
    const run = async (session: Session): Promise<T> => {
      const view = new PgReadView({ session, laterChunks: (blob, seq) => this.readChunk(blob, seq) });
      try {
        return await fn(view);
      } finally {
        view.end();
      }
    };
    if (dbs !== '*' && dbs.length === 0) return this.track(() => run(new Session(this.pool, this.options.lockWaitMs)));
    return this.track(() => this.locked(dbs, false, run));
  }

  write<T>(dbs: LockSet, fn: (view: WriteView) => Promise<T>): Promise<T> {
    return this.track(async () => {
      const changed = new Set<string>();
      const commit = async (session: Session, view: PgWriteView): Promise<void> => {
        const dirty = [...view.dirty];
        if (dirty.length > 0) {
          await session.query(
            `WITH stamped AS (
               UPDATE xmldb_databases SET modified = $1, version = version + 1 WHERE name = ANY($2::text[]) RETURNING name
             )
             SELECT pg_notify('${CHANGES_CHANNEL}', $3 || ' ' || d) FROM unnest($2::text[]) d`,
            [Date.now(), dirty, this.id],
          );
        }
        await session.query('COMMIT');
        dirty.forEach((db) => changed.add(db));
        view.dirty.clear();
      };
      try {
        return await this.locked(dbs, true, async (session) => {
          await session.query('BEGIN');
          const view = new PgWriteView({
            session,
            locked: dbs,
            laterChunks: sessionChunkReader(session),
            ...(this.options.fullText ? { fullText: this.options.fullText } : {}),
            ...(this.options.summarize ? { summarize: this.options.summarize } : {}),
            checkpoint: async (v, last) => {
              await commit(session, v);
              if (!last) await session.query('BEGIN');
            },
          });
          try {
            const result = await fn(view);
            await view.commit();
            return result;
          } catch (error) {
            if (!view.committed) await session.query('ROLLBACK').catch(() => undefined);
            throw error;
          } finally {
            view.end();
          }
        });
      } finally {
        this.listeners.notify([...changed]);
        if (changed.size > 0) this.collect();
      }
    });
  }

  subscribe(fn: (db: string) => void): () => void {
    const unsubscribe = this.listeners.add(fn);
    if (!this.listener && !this.inFlight.closed) {
      this.listener = new Listener(
        this.config,
        CHANGES_CHANNEL,
        (payload) => {
          const space = payload.indexOf(' ');
          if (space > 0 && payload.slice(0, space) !== this.id) this.listeners.notify([payload.slice(space + 1)]);
        },
        () => void this.notifyAll(),
      );
    }
    return unsubscribe;
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      await this.inFlight.close();
      await this.collecting;
      await this.listener?.close();
      await this.pool.end();
      await this.controlPool.end();
    })();
    return this.closing;
  }

  /**
   * Runs `fn` on a pooled connection holding the locks of `dbs`. This server's own requests queue
   * for the locks here first (locks.ts, FIFO, bounded by the lock wait limit), so that a request
   * waiting for another one of this server holds no connection; then PostgreSQL's locks order
   * the servers. The locks are released after `fn`; a connection whose locks cannot be released
   * for sure is closed instead (PostgreSQL then releases them).
   */
  private async locked<T>(dbs: LockSet, exclusive: boolean, fn: (session: Session) => Promise<T>): Promise<T> {
    const release = await this.localLocks.acquire(dbs, exclusive);
    try {
      return await this.lockedOnServer(dbs, exclusive, fn);
    } finally {
      release();
    }
  }

  private async lockedOnServer<T>(dbs: LockSet, exclusive: boolean, fn: (session: Session) => Promise<T>): Promise<T> {
    const client = await this.connection();
    // A connection that breaks between statements reports it here; the next statement fails.
    const ignore = () => undefined;
    client.on('error', ignore);
    const session = new Session(client, this.options.lockWaitMs);
    let broken: Error | undefined;
    try {
      await session.query(lockStatement(lockPlan(dbs, exclusive)));
      return await fn(session);
    } finally {
      try {
        await client.query('SELECT pg_advisory_unlock_all()');
      } catch (error) {
        broken = error as Error;
      }
      client.off('error', ignore);
      client.release(broken);
    }
  }

  /**
   * A pooled connection. The pool's timeout bounds both opening a connection and waiting for a
   * free one; a wait for a free one (every connection open and in use) goes on up to the lock
   * wait limit, as a wait for a lock does: requests that the file store would queue are queued.
   */
  private async connection(): Promise<PoolClient> {
    const deadline = Date.now() + (this.options.lockWaitMs ?? Infinity);
    for (;;) {
      try {
        return await this.pool.connect();
      } catch (error) {
        const allBusy = this.pool.totalCount >= this.poolSize && POOL_TIMEOUT.test((error as Error).message);
        if (!allBusy || Date.now() >= deadline || this.inFlight.closed) throw storeError(error, this.options.lockWaitMs);
      }
    }
  }

  private async readChunk(blob: number, seq: number): Promise<Buffer> {
    try {
      const { rows } = await this.pool.query<{ data: Buffer }>('SELECT data FROM xmldb_chunks WHERE blob = $1 AND seq = $2', [blob, seq]);
      return rows[0]?.data ?? Buffer.alloc(0);
    } catch (error) {
      throw storeError(error, this.options.lockWaitMs);
    }
  }

  /** Starts collecting unreferenced blobs, unless that ran recently. */
  private collect(): void {
    const now = Date.now();
    if (this.collecting || this.inFlight.closed || now - this.lastCollect < COLLECT_EVERY_MS) return;
    this.lastCollect = now;
    this.collecting = this.collectNow().finally(() => {
      this.collecting = undefined;
    });
  }

  /** Collects blobs orphaned longer than the grace period; answers how many. Failures wait for the next run. */
  collectNow(): Promise<number> {
    return collectBlobs(this.pool, Date.now() - (this.options.blobGraceMs ?? DEFAULT_GRACE_MS)).catch(() => 0);
  }

  /** Answers once PostgreSQL answers a statement (on the control pool: never behind requests). */
  async ping(): Promise<void> {
    try {
      await this.controlPool.query('SELECT 1');
    } catch (error) {
      throw storeError(error, this.options.lockWaitMs);
    }
  }

  private track<T>(run: () => Promise<T>): Promise<T> {
    return this.inFlight.track(run);
  }

  /** After notifications may have been missed: every database counts as changed. */
  private async notifyAll(): Promise<void> {
    try {
      const { rows } = await this.pool.query<{ name: string }>('SELECT name FROM xmldb_databases');
      this.listeners.notify(rows.map((r) => r.name));
    } catch {
      // PostgreSQL is unreachable again: the next reconnection tries again.
    }
  }

  /** Resolves once other servers' changes are heard (after the first `subscribe`). */
  async listening(): Promise<void> {
    await this.listener?.whenReady();
  }
}
