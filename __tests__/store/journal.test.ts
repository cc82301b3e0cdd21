import fs from 'node:fs/promises';
import path from 'node:path';
import { contentDigest, writeTemp } from '../../lib/atomic-files';
import { createFileStore } from '../../lib/store/file/file-store';
import * as journal from '../../lib/store/file/journal';
import type { WriteView } from '../../lib/store/types';
import { bin, closeLogsOfCrashedStores, codeOf, listFiles, tempFolder, xml } from './helpers';

const dir = tempFolder();
closeLogsOfCrashedStores();

afterEach(() => {
  jest.restoreAllMocks();
});

/** Sets up two databases, then runs `change` with the journal applied only up to `crashAfter` ops. */
async function crashDuring(crashAfter: number, change: (w: WriteView) => Promise<void>): Promise<number> {
  const store = await createFileStore(dir.path);
  await store.write('*', async (w) => {
    await w.createDatabase('a');
    await w.putResource('a', 'old.xml', xml('<old/>'));
    await w.putResource('a', 'dir/keep.bin', bin('keep'));
    await w.createDatabase('gone');
    await w.putResource('gone', 'g.xml', xml('<g/>'));
  });
  let total = 0;
  const real = journal.applyOps;
  jest.spyOn(journal, 'applyOps').mockImplementation(async (dbPath, ops) => {
    total = ops.length;
    await real(dbPath, ops.slice(0, crashAfter));
    throw new Error('simulated crash');
  });
  expect(await codeOf(() => store.write('*', change))).toBe('STORE_FAILED_X');
  expect(await codeOf(() => store.read('*', (r) => r.listDatabases()))).toBe('STORE_FAILED_X');
  jest.restoreAllMocks();
  return total;
}

const change = async (w: WriteView) => {
  await w.putResource('a', 'new.xml', xml('<new/>'));
  await w.putResource('a', 'old.xml', xml('<old2/>'));
  await w.deleteResources('a', 'dir');
  await w.dropDatabase('gone');
  await w.createDatabase('fresh');
  await w.putResource('fresh', 'f/x.bin', bin('x'));
  await w.renameResources('a', 'old.xml', 'moved/old.xml');
};

async function expectChangedState(): Promise<void> {
  const store = await createFileStore(dir.path);
  const state = await store.read('*', async (r) => {
    const dbs = await r.listDatabases();
    const result: Record<string, Record<string, string>> = {};
    for (const db of dbs) {
      result[db.name] = {};
      for (const res of await r.listResources(db.name)) {
        result[db.name][res.path] = (await r.readBytes(db.name, res.path)).toString();
      }
    }
    return result;
  });
  expect(state).toEqual({
    a: { 'new.xml': '<new/>', 'moved/old.xml': '<old2/>' },
    fresh: { 'f/x.bin': 'x' },
  });
  const files = await listFiles(dir.path);
  expect(files.filter((f) => /\.tmp\.$|journal-|\.stage-|\.trash-|\.scratch-/.test(f))).toEqual([]);
  expect(files.filter((f) => !f.includes('.catalog.'))).toEqual(['a/moved/old.xml', 'a/new.xml', 'fresh/f/x.bin']);
  await store.close();
}

describe('commit journal', () => {
  test('a crash after the journal is written is finished at the next start, at every point', async () => {
    const total = await crashDuring(0, change);
    expect(total).toBeGreaterThan(5);
    await expectChangedState();
    for (let k = 1; k <= total; k++) {
      await fs.rm(dir.path, { recursive: true, force: true });
      await fs.mkdir(dir.path);
      await crashDuring(k, change);
      await expectChangedState();
    }
  });

  test('a journal file left behind is replayed when the store opens', async () => {
    const store = await createFileStore(dir.path);
    await store.write(['db'], async (w) => {
      await w.createDatabase('db');
      await w.putResource('db', 'a.bin', bin('old'));
    });
    await store.close();
    // A commit that crashed right after writing its journal: a staged temp and a delete.
    const temp = await writeTemp(path.join(dir.path, 'db'), 'new bytes');
    const ops: journal.JournalOp[] = [
      { op: 'rename', from: journal.journalPath(dir.path, temp), to: 'db/b.bin' },
      { op: 'delete', file: 'db/a.bin', root: 'db' },
    ];
    await journal.writeJournal(dir.path, ops);
    await createFileStore(dir.path);
    expect(await fs.readFile(path.join(dir.path, 'db', 'b.bin'), 'utf8')).toBe('new bytes');
    expect(await fs.readdir(path.join(dir.path, 'db'))).not.toContain('a.bin');
    expect(await fs.readdir(path.join(dir.path, journal.STORE_DIR))).toEqual([]);
  });

  test('a journal pointing outside the data folder is refused', async () => {
    await fs.mkdir(path.join(dir.path, journal.STORE_DIR));
    const evil = { ops: [{ op: 'delete', file: '../outside', root: '..' }] };
    await fs.writeFile(path.join(dir.path, journal.STORE_DIR, 'journal-x.json'), JSON.stringify(evil));
    await expect(createFileStore(dir.path)).rejects.toMatchObject({ code: 'JOURNAL_CORRUPT_XX' });
  });

  test('an in-place write without its content, or outside the data folder, is refused', async () => {
    const parse = (op: object) => codeOf(() => journal.parseJournal(JSON.stringify({ ops: [op] }), 'j', dir.path));
    expect(await parse({ op: 'write', file: 'db/.catalog./meta.json' })).toBe('JOURNAL_CORRUPT_XX');
    expect(await parse({ op: 'write', file: 'db/.catalog./meta.json', data: 5 })).toBe('JOURNAL_CORRUPT_XX');
    expect(await parse({ op: 'write', file: '../outside', data: 'AA==' })).toBe('JOURNAL_CORRUPT_XX');
    expect(journal.parseJournal(JSON.stringify({ ops: [{ op: 'write', file: 'db/x', data: 'AA==' }] }), 'j', dir.path)).toEqual([
      { op: 'write', file: 'db/x', data: 'AA==' },
    ]);
  });
});

describe('torn journals', () => {
  const dir = tempFolder();
  test('a journal cut short while being written is discarded: nothing of it was applied', async () => {
    const store = await createFileStore(dir.path);
    await store.write(['db'], async (v) => {
      await v.createDatabase('db');
      await v.putResource('db', 'a.xml', { type: 'xml', data: '<a/>', nodes: 2 });
    });
    await store.close();
    await fs.mkdir(path.join(dir.path, journal.STORE_DIR), { recursive: true });
    await fs.writeFile(path.join(dir.path, journal.STORE_DIR, 'journal-torn.json'), '{"ops":[{"op":"delete","file":"db/a.x');
    const reopened = await createFileStore(dir.path);
    expect(await fs.readFile(path.join(dir.path, 'db', 'a.xml'), 'utf8')).toBe('<a/>');
    expect(await fs.readdir(path.join(dir.path, journal.STORE_DIR))).toEqual([]);
    await reopened.close();
  });
});

describe('journals written before their temps were flushed', () => {
  const dir = tempFolder();
  async function setUp() {
    const store = await createFileStore(dir.path);
    await store.write(['db'], async (v) => {
      await v.createDatabase('db');
      await v.putResource('db', 'a.xml', { type: 'xml', data: '<old/>', nodes: 2 });
    });
    await store.close();
    const temp = await writeTemp(path.join(dir.path, 'db'), '<new/>');
    const ops = [{ op: 'rename' as const, from: path.relative(dir.path, temp), to: 'db/a.xml', digest: contentDigest('<new/>') }];
    return { temp, ops };
  }

  test('a torn temp (its content does not match the digest) discards the journal', async () => {
    const { temp, ops } = await setUp();
    await fs.writeFile(temp, '<ne'); // the crash cut the temp's content short
    await journal.writeJournal(dir.path, ops);
    const store = await createFileStore(dir.path);
    expect(await fs.readFile(path.join(dir.path, 'db', 'a.xml'), 'utf8')).toBe('<old/>');
    expect(await fs.readdir(path.join(dir.path, journal.STORE_DIR))).toEqual([]);
    expect(await fs.readdir(path.join(dir.path, 'db'))).toEqual(['.catalog.', 'a.xml']);
    await store.close();
  });

  test('complete temps are renamed into place', async () => {
    const { ops } = await setUp();
    await journal.writeJournal(dir.path, ops);
    const store = await createFileStore(dir.path);
    expect(await fs.readFile(path.join(dir.path, 'db', 'a.xml'), 'utf8')).toBe('<new/>');
    await store.close();
  });
});
