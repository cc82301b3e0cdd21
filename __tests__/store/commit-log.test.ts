import fsSync from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import * as atomic from '../../lib/atomic-files';
import { contentDigest } from '../../lib/atomic-files';
import { Catalog, CATALOG_DIR, newMeta, SHARD_COUNT, SHARD_ENTRIES, shardOf, type CatalogEntry } from '../../lib/store/file/catalog';
import { COMMIT_LOG, CommitLog } from '../../lib/store/file/commit-log';
import { createFileStore } from '../../lib/store/file/file-store';
import * as journal from '../../lib/store/file/journal';
import type { FileStore } from '../../lib/store/file/file-store';
import { bin, closeLogsOfCrashedStores, codeOf, listFiles, tempFolder, xml } from './helpers';

const dir = tempFolder();
const logFile = () => path.join(dir.path, journal.STORE_DIR, COMMIT_LOG);

closeLogsOfCrashedStores();

afterEach(() => {
  jest.restoreAllMocks();
});

async function setUp(): Promise<FileStore> {
  const store = await createFileStore(dir.path);
  await store.write(['db'], async (w) => {
    await w.createDatabase('db');
    await w.putResource('db', 'old.xml', xml('<old/>'));
  });
  return store;
}

/** Every resource of every database with its content, as a store opened on the folder now sees it. */
async function contents(): Promise<Record<string, string>> {
  const store = await createFileStore(dir.path);
  const result: Record<string, string> = {};
  await store.read('*', async (r) => {
    for (const db of await r.listDatabases()) {
      for (const res of await r.listResources(db.name)) {
        result[`${db.name}/${res.path}`] = (await r.readBytes(db.name, res.path)).toString();
      }
    }
  });
  await store.close();
  return result;
}

/** The operations of every record in the log. */
async function loggedOps(): Promise<journal.JournalOp[]> {
  const text = await fs.readFile(logFile(), 'utf8');
  return text
    .split('\n')
    .filter((l) => l !== '')
    .flatMap((line) => (JSON.parse(line.slice(line.indexOf(' ') + 1)) as { ops: journal.JournalOp[] }).ops);
}

/**
 * Empties every file a logged record renames (temp, and target unless `targets` is false: they
 * were flushed before), and cuts every catalog file it writes in place to half its length (unless
 * `targets` is false): the worst a crash can leave of files written since the last checkpoint.
 */
async function tearUnflushedFiles(targets = true): Promise<void> {
  for (const op of await loggedOps()) {
    if (op.op === 'rename') {
      for (const file of targets ? [op.from, op.to] : [op.from]) await fs.truncate(path.join(dir.path, file), 0).catch(() => undefined);
    } else if (op.op === 'write' && targets) {
      const file = path.join(dir.path, op.file);
      const size = await fs.stat(file).then((s) => s.size, () => undefined);
      if (size !== undefined) await fs.truncate(file, Math.floor(size / 2));
    }
  }
}

/** Runs a write that crashes right after its record was logged, before any file was renamed. */
async function crashAfterLogging(store: FileStore, fn: Parameters<FileStore['write']>[1]): Promise<void> {
  jest.spyOn(journal, 'applyOps').mockRejectedValueOnce(new Error('simulated crash'));
  expect(await codeOf(() => store.write(['db'], fn))).toBe('STORE_FAILED_X');
  jest.restoreAllMocks();
}

describe('commit log', () => {
  test('a commit is one logged record; closing the store flushes its files and removes the log', async () => {
    const store = await setUp();
    await store.write(['db'], (w) => w.putResource('db', 'a/new.xml', xml('<new/>')).then(() => undefined));
    const lines = (await fs.readFile(logFile(), 'utf8')).split('\n');
    expect(lines).toHaveLength(3); // the create, the put, and the empty tail
    expect(lines[2]).toBe('');
    await store.close();
    await expect(fs.stat(logFile())).rejects.toMatchObject({ code: 'ENOENT' });
    expect(await contents()).toEqual({ 'db/old.xml': '<old/>', 'db/a/new.xml': '<new/>' });
  });

  test('a crash after the record was logged, before any file was renamed, is finished from the log alone', async () => {
    await setUp();
    const store = await createFileStore(dir.path);
    await crashAfterLogging(store, async (w) => {
      await w.putResource('db', 'a/new.xml', xml('<new/>'));
      await w.putResource('db', 'old.xml', xml('<changed/>'));
    });
    // The temps were never flushed: the crash may have left them empty.
    await tearUnflushedFiles();
    expect(await contents()).toEqual({ 'db/old.xml': '<changed/>', 'db/a/new.xml': '<new/>' });
    const left = (await listFiles(dir.path)).filter((f) => /\.tmp\.$|commit\.log/.test(f));
    expect(left).toEqual([]);
  });

  test('a crash after a commit that doubles the shard files was logged is finished from the log: every entry in the new layout', async () => {
    // a database at the limit of its 64 shard files (its resources' files are not needed here)
    const db = path.join(dir.path, 'db');
    const full = SHARD_COUNT * SHARD_ENTRIES;
    const entries = new Map<string, CatalogEntry>();
    for (let i = 0; i < full; i++) entries.set(`d${i % 5}/r${i}.xml`, { type: 'xml', contentType: 'application/xml', size: 2, bytes: 10, modified: 1, etag: `etag-${i}` });
    await Catalog.of(db, entries, SHARD_COUNT).write(db, { ...newMeta({}, 1), resources: full, size: full * 10 });
    const store = await createFileStore(dir.path);
    await crashAfterLogging(store, (w) => w.putResource('db', 'd0/over.xml', xml('<over/>')).then(() => undefined));
    // every catalog file the record writes in place cut to half, the put's temp emptied
    await tearUnflushedFiles();
    const reopened = await createFileStore(dir.path);
    expect(await reopened.read(['db'], (r) => r.database('db'))).toMatchObject({ resources: full + 1 });
    expect((await reopened.read(['db'], (r) => r.readBytes('db', 'd0/over.xml'))).toString()).toBe('<over/>');
    const listed = (await reopened.read(['db'], (r) => r.listResources('db', 'd1'))).map((res) => res.path);
    expect(listed.sort()).toEqual([...entries.keys()].filter((p) => p.startsWith('d1/')).sort());
    await reopened.close();
    const meta = JSON.parse(await fs.readFile(path.join(db, CATALOG_DIR, 'meta.json'), 'utf8')) as { shards: number };
    expect(meta.shards).toBe(2 * SHARD_COUNT);
  });

  test('files renamed into place but not flushed yet are written again from the log after a crash', async () => {
    await setUp();
    const store = await createFileStore(dir.path);
    await store.write(['db'], (w) => w.putResource('db', 'a/new.bin', bin('new bytes')).then(() => undefined));
    await store.write(['db'], (w) => w.putResource('db', 'a/new.bin', bin('newer bytes')).then(() => undefined));
    // No close: a crash. New files, shards and meta come back empty.
    await tearUnflushedFiles();
    expect(await contents()).toEqual({ 'db/old.xml': '<old/>', 'db/a/new.bin': 'newer bytes' });
  });

  test('a commit writes its catalog shard and meta in place, after its record, which holds their content', async () => {
    const store = await setUp();
    const catalog = path.join(dir.path, 'db', CATALOG_DIR);
    const inodes = async () => new Map(await Promise.all((await fs.readdir(catalog)).map(async (n) => [n, (await fs.stat(path.join(catalog, n))).ino] as const)));
    const before = await inodes();
    await store.write(['db'], (w) => w.putResource('db', 'old.xml', xml('<changed/>')).then(() => undefined));
    // The same files (no temp renamed over them), with the new content the record carries.
    expect(await inodes()).toEqual(before);
    const writes = (await loggedOps()).filter((op) => op.op === 'write');
    expect(writes.map((op) => path.basename(op.op === 'write' ? op.file : '')).sort()).toEqual(
      [`shard-${shardOf('old.xml', SHARD_COUNT).toString(16).padStart(2, '0')}.json`, 'meta.json'].sort(),
    );
    for (const op of writes) {
      if (op.op === 'write') expect(await fs.readFile(path.join(dir.path, op.file), 'base64')).toBe(op.data);
    }
    expect((await listFiles(dir.path)).filter((f) => /\.tmp\.$/.test(f))).toEqual([]);
  });

  test('a catalog file that cannot be written in place stops the store; the restart writes it from the log', async () => {
    const store = await setUp();
    jest.spyOn(atomic, 'overwriteFileSync').mockImplementation(() => {
      throw Object.assign(new Error('no space left'), { code: 'ENOSPC' });
    });
    const put = store.write(['db'], (w) => w.putResource('db', 'a/new.xml', xml('<new/>')).then(() => undefined));
    expect(await codeOf(() => put)).toBe('STORE_FAILED_X');
    jest.restoreAllMocks();
    expect(await codeOf(() => store.read(['db'], (r) => r.listResources('db')))).toBe('STORE_FAILED_X');
    // No close: the store is stopped. Its record was logged, so the put is there after a restart.
    await tearUnflushedFiles();
    expect(await contents()).toEqual({ 'db/old.xml': '<old/>', 'db/a/new.xml': '<new/>' });
    expect((await listFiles(dir.path)).filter((f) => /\.tmp\.$|commit\.log/.test(f))).toEqual([]);
  });

  test('a catalog file written in place that gets shorter keeps no bytes of its old content', async () => {
    const store = await setUp();
    // Two paths in one shard: its file holds both entries, then one.
    const first = 'a/x.xml';
    const second = Array.from({ length: 500 }, (_, i) => `b/y${i}.xml`).find((p) => shardOf(p, SHARD_COUNT) === shardOf(first, SHARD_COUNT)) as string;
    await store.write(['db'], async (w) => {
      await w.putResource('db', first, xml('<x/>'));
      await w.putResource('db', second, xml('<y/>'));
    });
    const shard = path.join(dir.path, 'db', CATALOG_DIR, `shard-${shardOf(first, SHARD_COUNT).toString(16).padStart(2, '0')}.json`);
    const longer = (await fs.stat(shard)).size;
    await store.write(['db'], (w) => w.deleteResources('db', 'b').then(() => undefined));
    expect((await fs.stat(shard)).size).toBeLessThan(longer);
    expect(Object.keys((JSON.parse(await fs.readFile(shard, 'utf8')) as { entries: object }).entries)).toEqual([first]);
    // No close: a crash after the checkpoint the delete took.
    expect(await contents()).toEqual({ 'db/old.xml': '<old/>', 'db/a/x.xml': '<x/>' });
  });

  test('a commit whose record could not be logged changes nothing and leaves no temp file', async () => {
    const store = await setUp();
    jest.spyOn(CommitLog.prototype, 'append').mockRejectedValueOnce(Object.assign(new Error('I/O error'), { code: 'EIO' }));
    const put = store.write(['db'], (w) => w.putResource('db', 'a/new.xml', xml('<new/>')).then(() => undefined));
    await expect(put).rejects.toMatchObject({ code: 'EIO' });
    jest.restoreAllMocks();
    expect((await listFiles(dir.path)).filter((f) => /\.tmp\.$/.test(f))).toEqual([]);
    await store.write(['db'], (w) => w.putResource('db', 'b.xml', xml('<b/>')).then(() => undefined));
    await store.close();
    expect(await contents()).toEqual({ 'db/old.xml': '<old/>', 'db/b.xml': '<b/>' });
  });

  test('an append that fails part way is cut off: the log keeps whole records only, and later commits go on', async () => {
    const store = await setUp();
    const log = fsSync.readFileSync(logFile());
    const realWrite = fsSync.writeSync;
    let calls = 0;
    // The first write lands half of the record, the second fails: a disk that fills up.
    jest.spyOn(fsSync, 'writeSync').mockImplementation(((fd: number, data: Buffer, offset: number, length: number) => {
      calls++;
      if (calls === 1) return realWrite(fd, data, offset, Math.ceil(length / 2));
      throw Object.assign(new Error('no space left'), { code: 'ENOSPC' });
    }) as typeof fsSync.writeSync);
    const put = store.write(['db'], (w) => w.putResource('db', 'a/lost.xml', xml('<lost/>')).then(() => undefined));
    await expect(put).rejects.toMatchObject({ code: 'ENOSPC' });
    jest.restoreAllMocks();
    expect(calls).toBe(2);
    expect(fsSync.readFileSync(logFile())).toEqual(log);
    await store.write(['db'], (w) => w.putResource('db', 'b.xml', xml('<b/>')).then(() => undefined));
    // No close: a crash. The log's records are whole, and the one that failed is not among them.
    await tearUnflushedFiles();
    expect(await contents()).toEqual({ 'db/old.xml': '<old/>', 'db/b.xml': '<b/>' });
  });

  test('the renames of one commit all land, whatever order they finish in', async () => {
    const store = await setUp();
    await store.write(['db'], async (w) => {
      for (let i = 0; i < 40; i++) await w.putResource('db', `m/${i % 4}/r${i}.xml`, xml(`<r n="${i}"/>`));
      await w.putResource('db', 'old.xml', xml('<replaced/>'));
    });
    await store.close();
    const all = await contents();
    expect(Object.keys(all)).toHaveLength(41);
    expect(all['db/m/3/r39.xml']).toBe('<r n="39"/>');
    expect(all['db/old.xml']).toBe('<replaced/>');
  });

  test('a record cut short by a crash is discarded; the records before it are replayed', async () => {
    await setUp();
    const store = await createFileStore(dir.path);
    await store.write(['db'], (w) => w.putResource('db', 'kept.xml', xml('<kept/>')).then(() => undefined));
    await crashAfterLogging(store, (w) => w.putResource('db', 'cut.xml', xml('<cut/>')).then(() => undefined));
    await tearUnflushedFiles();
    // The last record loses its end, as if the crash came before its flush returned.
    const text = await fs.readFile(logFile(), 'utf8');
    const last = text.lastIndexOf('\n', text.length - 2);
    await fs.writeFile(logFile(), text.slice(0, last + 1) + text.slice(last + 1, last + 60));
    expect(await contents()).toEqual({ 'db/old.xml': '<old/>', 'db/kept.xml': '<kept/>' });
  });

  test('a record whose content does not match its digest ends the replay', async () => {
    await setUp();
    const store = await createFileStore(dir.path);
    await crashAfterLogging(store, (w) => w.putResource('db', 'x.xml', xml('<x/>')).then(() => undefined));
    await tearUnflushedFiles(false);
    const text = await fs.readFile(logFile(), 'utf8');
    await fs.writeFile(logFile(), text.replace(/"data":"[^"]+"/, '"data":"AAAA"'));
    expect(await contents()).toEqual({ 'db/old.xml': '<old/>' });
    expect((await listFiles(dir.path)).filter((f) => /\.tmp\.$|commit\.log/.test(f))).toEqual([]);
  });

  test('a logged record pointing outside the data folder is refused', async () => {
    const store = await setUp();
    await store.close();
    const json = JSON.stringify({ ops: [{ op: 'delete', file: '../outside', root: '..' }] });
    await fs.mkdir(path.dirname(logFile()), { recursive: true });
    await fs.writeFile(logFile(), `${contentDigest(json)} ${json}\n`);
    await expect(createFileStore(dir.path)).rejects.toMatchObject({ code: 'JOURNAL_CORRUPT_XX' });
  });

  test('once the log passes its size limit, a checkpoint flushes the files and empties it', async () => {
    const store = await setUp();
    const big = Buffer.alloc(250 * 1024, 'x');
    for (let i = 0; i < 260; i++) {
      await store.write(['db'], (w) => w.putResource('db', `big/${i}.bin`, bin(big)).then(() => undefined));
    }
    // 260 records of about 340 KB each (base64) passed 64 MB once: the log restarted after it.
    expect((await fs.stat(logFile())).size).toBeLessThan(64 * 1024 * 1024);
    expect((await fs.stat(logFile())).size).toBeGreaterThan(0);
    await store.close();
    const all = await contents();
    expect(Object.keys(all)).toHaveLength(261);
    expect(all['db/big/0.bin']).toBe(big.toString());
  });

  test('a commit that deletes comes first in the log, so a replay never meets later files in its way', async () => {
    await setUp();
    const store = await createFileStore(dir.path);
    await store.write(['db'], (w) => w.putResource('db', 'a/b.xml', xml('<b/>')).then(() => undefined));
    // A file where the folder of the earlier put was: the earlier record goes before this one.
    await store.write(['db'], async (w) => {
      await w.deleteResources('db', 'a');
      await w.putResource('db', 'a', bin('now a file'));
    });
    await store.write(['db'], (w) => w.putResource('db', 'c.xml', xml('<c/>')).then(() => undefined));
    const records = (await fs.readFile(logFile(), 'utf8')).split('\n').filter((l) => l !== '');
    expect(records).toHaveLength(2);
    expect(records[0]).toContain('"op":"delete"');
    // No close: a crash.
    await tearUnflushedFiles();
    expect(await contents()).toEqual({ 'db/old.xml': '<old/>', 'db/a': 'now a file', 'db/c.xml': '<c/>' });
  });

  test('after a pause in writes, a checkpoint empties the log', async () => {
    const store = await setUp();
    await store.write(['db'], (w) => w.putResource('db', 'x.xml', xml('<x/>')).then(() => undefined));
    expect((await fs.stat(logFile())).size).toBeGreaterThan(0);
    while ((await fs.stat(logFile())).size > 0) await new Promise((resolve) => setTimeout(resolve, 250));
    await store.close();
    expect(await contents()).toEqual({ 'db/old.xml': '<old/>', 'db/x.xml': '<x/>' });
  }, 30_000);

  test('a log that fails while it is opened is closed again: a failed commit leaves no handle of it', async () => {
    const store = await createFileStore(dir.path);
    const logFolder = path.dirname(logFile());
    const fsyncDir = atomic.fsyncDir;
    jest.spyOn(atomic, 'fsyncDir').mockImplementation(async (folder) => {
      if (folder === logFolder) throw Object.assign(new Error('I/O error'), { code: 'EIO' });
      return fsyncDir(folder);
    });
    await expect(store.write(['db'], (w) => w.createDatabase('db'))).rejects.toThrow('I/O error');
    const handles = fsSync.readdirSync('/proc/self/fd').filter((fd) => {
      try {
        return fsSync.readlinkSync(`/proc/self/fd/${fd}`) === logFile();
      } catch {
        return false;
      }
    });
    expect(handles).toEqual([]);
    jest.restoreAllMocks();
    await store.close();
  });
});
