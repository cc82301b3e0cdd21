/** What the PostgreSQL store adds to the contract: several stores (servers) over one database. */
import { Client } from 'pg';
import { createPostgresStore, type PostgresStore } from '../../../lib/store/postgres/pg-store';
import { CHUNK_BYTES } from '../../../lib/store/postgres/blobs';
import { SCHEMA_VERSION } from '../../../lib/store/postgres/schema';
import { describeWithPostgres, freshDatabase } from '../../helpers/postgres';
import { bin, codeOf, xml } from '../helpers';
import { readAll } from '../store-suite';

describeWithPostgres('the PostgreSQL store across servers', () => {
  const db = freshDatabase();
  let a: PostgresStore;
  let b: PostgresStore;

  beforeEach(async () => {
    [a, b] = await Promise.all([createPostgresStore(db.url, { lockWaitMs: 2000 }), createPostgresStore(db.url, { lockWaitMs: 2000 })]);
    await a.write(['db'], (w) => w.createDatabase('db'));
  });
  afterEach(async () => {
    await Promise.all([a.close(), b.close()]);
  });

  const text = (s: PostgresStore, p: string) => s.read(['db'], async (r) => (await r.readBytes('db', p)).toString());

  test('several stores opening one empty database at once migrate it once', async () => {
    const more = await Promise.all([1, 2, 3].map(() => createPostgresStore(db.url)));
    await Promise.all(more.map((s) => s.close()));
    const client = new Client({ connectionString: db.url });
    await client.connect();
    const { rows } = await client.query('SELECT version FROM xmldb_schema ORDER BY version');
    await client.end();
    // every migration applied once
    expect(rows).toEqual(Array.from({ length: SCHEMA_VERSION }, (_, i) => ({ version: i + 1 })));
  });

  test('a write acknowledged by one store is seen by the next read of the other', async () => {
    for (let i = 0; i < 5; i++) {
      await a.write(['db'], (w) => w.putResource('db', 'x.xml', xml(`<x>${i}</x>`)));
      expect(await text(b, 'x.xml')).toBe(`<x>${i}</x>`);
    }
  });

  test('writes from both stores to one resource are serialised: no update is lost', async () => {
    await a.write(['db'], (w) => w.putResource('db', 'n.txt', bin('0')));
    const increment = (s: PostgresStore) =>
      s.write(['db'], async (w) => {
        const n = Number((await w.readBytes('db', 'n.txt')).toString());
        await w.putResource('db', 'n.txt', bin(String(n + 1)));
      });
    await Promise.all(Array.from({ length: 20 }, (_, i) => increment(i % 2 === 0 ? a : b)));
    expect(await text(a, 'n.txt')).toBe('20');
  });

  test('a lock held by one store makes the other wait, up to its lock wait limit', async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    let entered: () => void = () => undefined;
    const inside = new Promise<void>((resolve) => (entered = resolve));
    const writing = a.write(['db'], async (w) => {
      await w.putResource('db', 'held.xml', xml('<held/>'));
      entered();
      await held;
    });
    await inside;
    expect(await codeOf(() => b.write(['db'], (w) => w.putResource('db', 'other.xml', xml('<o/>'))))).toBe('LOCK_TIMEOUT_X');
    // Readers of other databases are not held up.
    expect(await b.read(['elsewhere'], (r) => r.database('elsewhere'))).toBeUndefined();
    release();
    await writing;
    await b.write(['db'], (w) => w.putResource('db', 'other.xml', xml('<o/>')));
    expect((await b.read(['db'], (r) => r.listResources('db'))).map((r) => r.path)).toEqual(['held.xml', 'other.xml']);
  });

  test('a server whose connection dies mid-write leaves neither changes nor locks', async () => {
    let entered: () => void = () => undefined;
    const inside = new Promise<void>((resolve) => (entered = resolve));
    const dying = a.write(['db'], async (w) => {
      await w.putResource('db', 'lost.xml', xml('<lost/>'));
      entered();
      await new Promise((resolve) => setTimeout(resolve, 1500));
    });
    const failed = expect(dying).rejects.toMatchObject({ status: 503 });
    await inside;
    const admin = new Client({ connectionString: db.url });
    await admin.connect();
    await admin.query(
      "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND state LIKE 'idle in transaction%'",
    );
    await admin.end();
    // The other store gets the lock at once (the dying write still waits on its own).
    await b.write(['db'], (w) => w.putResource('db', 'next.xml', xml('<next/>')));
    expect((await b.read(['db'], (r) => r.listResources('db'))).map((r) => r.path)).toEqual(['next.xml']);
    await failed;
  });

  test('subscribers hear the changes committed by other stores', async () => {
    const heard: string[] = [];
    b.subscribe((name) => heard.push(name));
    await b.listening();
    await a.write(['db', 'two'], async (w) => {
      await w.putResource('db', 'a.xml', xml('<a/>'));
      await w.createDatabase('two');
    });
    for (let i = 0; i < 100 && heard.length < 2; i++) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(heard.sort()).toEqual(['db', 'two']);
  });

  test('large resources are kept in chunks and streamed by ranges across them', async () => {
    const data = Buffer.alloc(2 * CHUNK_BYTES + 1000);
    for (let i = 0; i < data.length; i++) data[i] = i % 251;
    await a.write(['db'], (w) => w.putResource('db', 'big.bin', bin(data)));
    expect((await b.read(['db'], (r) => r.readBytes('db', 'big.bin'))).equals(data)).toBe(true);
    const start = CHUNK_BYTES - 10;
    const end = 2 * CHUNK_BYTES + 5;
    const stream = await b.read(['db'], async (r) => r.openStream('db', 'big.bin', { start, end }));
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).equals(data.subarray(start, end + 1))).toBe(true);
  });

  test('blobs nothing refers to are collected after the grace period; shared ones stay', async () => {
    const quick = await createPostgresStore(db.url, { blobGraceMs: 0 });
    try {
      await quick.write(['db'], async (w) => {
        await w.putResource('db', 'kept.bin', bin('kept'));
        await w.putResource('db', 'old.bin', bin('old'));
        await w.createBackup('db', 'db-2026-01-01-00-00-00');
      });
      await quick.write(['db'], async (w) => {
        await w.putResource('db', 'old.bin', bin('new'));
        await w.putResource('db', 'gone.bin', bin('gone'));
        await w.deleteResources('db', 'gone.bin');
      });
      await new Promise((resolve) => setTimeout(resolve, 5));
      expect(await quick.collectNow()).toBe(1); // gone.bin's blob; old.bin's is in the backup
      expect(await quick.read(['db'], async (r) => readAll(r.openStream('db', 'old.bin')))).toBe('new');
      await quick.write(['db'], (w) => w.restoreBackup('db-2026-01-01-00-00-00', 'db'));
      expect(await text(quick, 'old.bin')).toBe('old');
    } finally {
      await quick.close();
    }
  });

  test('requests of one server waiting for its own lock holder wait without a connection', async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    let entered: () => void = () => undefined;
    const inside = new Promise<void>((resolve) => (entered = resolve));
    const first = a.write(['db'], async (w) => {
      await w.putResource('db', 'n.txt', bin('0'));
      entered();
      await held;
    });
    await inside;
    const more = Array.from({ length: 6 }, (_, i) => a.write(['db'], (w) => w.putResource('db', `w${i}.txt`, bin(String(i)))));
    await new Promise((resolve) => setTimeout(resolve, 200));
    // the holder's connection only (the store's first write opened one more, idle now)
    expect(a.pool.totalCount - a.pool.idleCount).toBe(1);
    release();
    await Promise.all([first, ...more]);
    expect((await b.read(['db'], (r) => r.listResources('db'))).length).toBe(7);
  });

  test('a request waiting for a free connection waits up to the lock wait limit, not the connect timeout', async () => {
    const small = await createPostgresStore(db.url, { poolSize: 1, connectTimeoutMs: 300, lockWaitMs: 20_000 });
    try {
      let release: () => void = () => undefined;
      const held = new Promise<void>((resolve) => (release = resolve));
      let entered: () => void = () => undefined;
      const inside = new Promise<void>((resolve) => (entered = resolve));
      const first = small.read(['db'], async () => {
        entered();
        await held;
      });
      await inside;
      const second = small.read(['other'], (r) => r.database('other'));
      await new Promise((resolve) => setTimeout(resolve, 1000)); // beyond the connect timeout
      release();
      await first;
      expect(await second).toBeUndefined();
    } finally {
      await small.close();
    }
  });

  test('a stream read after its blob was collected fails instead of ending short', async () => {
    const quick = await createPostgresStore(db.url, { blobGraceMs: 0 });
    try {
      await quick.write(['db'], (w) => w.putResource('db', 'big.bin', bin(Buffer.alloc(CHUNK_BYTES + 10, 7))));
      const stream = await quick.read(['db'], async (r) => r.openStream('db', 'big.bin'));
      await quick.write(['db'], (w) => w.putResource('db', 'big.bin', bin('replaced')));
      await new Promise((resolve) => setTimeout(resolve, 5));
      expect(await quick.collectNow()).toBe(1);
      await expect(readAll(stream)).rejects.toThrow(/^chunk 0 of blob \d+ is gone$/);
    } finally {
      await quick.close();
    }
  });

  test('file paths do not exist on PostgreSQL', async () => {
    await a.write(['db'], (w) => w.putResource('db', 'a.xml', xml('<a/>')));
    // the seam has no file paths (types.ts): queries read through the views
    expect(await a.read(['db'], async (r) => 'filePath' in r)).toBe(false);
    expect(await a.read(['db'], async (r) => (await r.versions(['db', 'nope'])).size)).toBe(1);
  });
});
