/**
 * Resource bytes in PostgreSQL: a blob row and its chunks of CHUNK_BYTES, written one chunk per
 * statement and read one chunk at a time, so that a large resource never travels in one message
 * and a stream holds one chunk in memory.
 *
 * Blobs are immutable and shared (copies of databases and backups refer to the same blob). A
 * statement that drops a reference records the blob in `xmldb_orphans` (ORPHANS_OF); the
 * collector deletes blobs that stayed orphaned for a grace period and are still unreferenced.
 * The grace period lets a stream opened by an earlier read finish after a write replaced the
 * resource, like an open file of the file store.
 */
import { Readable } from 'node:stream';
import type { Pool } from 'pg';
import type { Session } from './session';
import { LOCK_CLASS } from './lock-keys';

export const CHUNK_BYTES = 512 * 1024;

/**
 * A data-modifying CTE recording the blobs of the rows a CTE named `gone` (with a `blob` column)
 * removed, at time `$since` (the parameter's number is given).
 */
export function orphansOf(since: number): string {
  return `orphaned AS (
    INSERT INTO xmldb_orphans (blob, since) SELECT DISTINCT blob, $${since}::bigint FROM gone
    ON CONFLICT (blob) DO UPDATE SET since = EXCLUDED.since
  )`;
}

/** Stores `data` as a new blob; answers its id. */
export async function insertBlob(session: Session, data: Buffer): Promise<number> {
  const first = data.subarray(0, CHUNK_BYTES);
  const [row] = await session.query<{ id: string }>(
    `WITH b AS (INSERT INTO xmldb_blobs (bytes) VALUES ($1) RETURNING id),
          c AS (INSERT INTO xmldb_chunks (blob, seq, data) SELECT id, 0, $2 FROM b)
     SELECT id FROM b`,
    [data.length, first],
  );
  const id = Number(row.id);
  for (let seq = 1; seq * CHUNK_BYTES < data.length; seq++) {
    const chunk = data.subarray(seq * CHUNK_BYTES, (seq + 1) * CHUNK_BYTES);
    await session.query('INSERT INTO xmldb_chunks (blob, seq, data) VALUES ($1, $2, $3)', [id, seq, chunk]);
  }
  return id;
}

/** Reads one chunk of a blob. */
export type ChunkReader = (blob: number, seq: number) => Promise<Buffer>;

export function sessionChunkReader(session: Session): ChunkReader {
  return async (blob, seq) => {
    const [row] = await session.query<{ data: Buffer }>('SELECT data FROM xmldb_chunks WHERE blob = $1 AND seq = $2', [blob, seq]);
    return row?.data ?? Buffer.alloc(0);
  };
}

/**
 * A stream of bytes `start`..`end` (inclusive) of a blob found by `locate` (which rejects when
 * there is none), read chunk by chunk as the consumer asks for them.
 */
export function blobStream(
  locate: Promise<{ blob: number; bytes: number }>,
  readChunk: ChunkReader,
  range: { start: number; end: number } | undefined,
): Readable {
  let seq = -1;
  let last = -1;
  let position = 0;
  let end = -1;
  let blob = 0;
  let bytes = 0;
  return new Readable({
    async read() {
      try {
        if (seq < 0) {
          const found = await locate;
          blob = found.blob;
          bytes = found.bytes;
          position = range?.start ?? 0;
          end = Math.min(range?.end ?? found.bytes - 1, found.bytes - 1);
          seq = Math.floor(position / CHUNK_BYTES);
          last = Math.floor(end / CHUNK_BYTES);
        }
        if (position > end || seq > last) {
          this.push(null);
          return;
        }
        const chunk = await readChunk(blob, seq);
        // A blob is collected only after its grace period (collectBlobs): a stream read slower
        // than that fails rather than ending short.
        if (chunk.length < Math.min(CHUNK_BYTES, bytes - seq * CHUNK_BYTES)) throw new Error(`chunk ${seq} of blob ${blob} is gone`);
        const from = position - seq * CHUNK_BYTES;
        const to = Math.min(chunk.length, end - seq * CHUNK_BYTES + 1);
        position = (seq + 1) * CHUNK_BYTES;
        seq++;
        this.push(chunk.subarray(from, to));
      } catch (error) {
        this.destroy(error as Error);
      }
    },
  });
}

/**
 * Deletes blobs orphaned before `before` that nothing refers to any more, a batch at a time;
 * answers how many. Orphans referred to again are forgotten (a later drop records them anyway).
 * One server collects at a time (a try-lock); a blob that a running transaction is about to
 * refer to again is locked by that reference, skipped, and kept.
 */
export async function collectBlobs(pool: Pool, before: number): Promise<number> {
  const client = await pool.connect();
  let total = 0;
  try {
    const [lock] = (await client.query<{ ok: boolean }>(`SELECT pg_try_advisory_lock(${LOCK_CLASS.maintenance}, 1) AS ok`)).rows;
    if (!lock.ok) return 0;
    try {
      for (;;) {
        const { rows } = await client.query<{ n: string; deleted: string }>(
          `WITH due AS (
             SELECT o.blob,
                    EXISTS (SELECT 1 FROM xmldb_resources r WHERE r.blob = o.blob)
                    OR EXISTS (SELECT 1 FROM xmldb_backup_resources r WHERE r.blob = o.blob) AS used
             FROM xmldb_orphans o WHERE o.since < $1 LIMIT 200
           ),
           doomed AS (
             SELECT b.id FROM xmldb_blobs b JOIN due ON due.blob = b.id AND NOT due.used FOR UPDATE OF b SKIP LOCKED
           ),
           deleted AS (DELETE FROM xmldb_blobs b USING doomed WHERE b.id = doomed.id RETURNING b.id),
           forgotten AS (
             DELETE FROM xmldb_orphans o USING due
             WHERE o.blob = due.blob AND (due.used OR o.blob IN (SELECT id FROM deleted) OR NOT EXISTS (SELECT 1 FROM xmldb_blobs b WHERE b.id = o.blob))
             RETURNING o.blob
           )
           SELECT (SELECT count(*) FROM forgotten) AS n, (SELECT count(*) FROM deleted) AS deleted`,
          [before],
        );
        const n = Number(rows[0]?.n ?? 0);
        total += Number(rows[0]?.deleted ?? 0);
        if (n === 0) break;
      }
    } finally {
      await client.query(`SELECT pg_advisory_unlock(${LOCK_CLASS.maintenance}, 1)`);
    }
  } finally {
    client.release();
  }
  return total;
}
