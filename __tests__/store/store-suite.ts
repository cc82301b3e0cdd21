/**
 * The store contract (lib/store/types.ts), one suite for every implementation: each test file of
 * a store calls `storeSuite` with a way to open that store on fresh storage. Checks of what the
 * file store leaves on disk run where the kind names its data folder.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { Store, WriteView } from '../../lib/store/types';
import { bin, codeOf, listFiles, xml } from './helpers';

/** What the suite opens a store with: the summary each store keeps of the XML documents put. */
export interface StoreOptions {
  readonly summarize?: (xml: Buffer) => Uint8Array | undefined;
}

export interface StoreKind {
  /** Opens the store on this test's storage (fresh for each test; the same one when called again). */
  open(options?: StoreOptions): Promise<Store>;
  /** The file store's data folder, for checks of its files. */
  folder?(): string;
}

export async function readAll(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString();
}

export function storeSuite(kind: StoreKind): void {
  let store: Store;
  const folder = kind.folder;
  /** The data folder, for the file store's checks of its files. */
  const onDisk = folder === undefined ? undefined : { get path() { return folder(); } };

  beforeEach(async () => {
    store = await kind.open();
  });
  afterEach(async () => {
    await store.close();
  });

  describe('databases', () => {
    test('create, list, drop', async () => {
      await store.write(['b', 'A'], async (w) => {
        await w.createDatabase('b');
        await w.createDatabase('A', { stripws: true });
      });
      const list = await store.read('*', (r) => r.listDatabases());
      expect(list.map((d) => [d.name, d.resources, d.size])).toEqual([
        ['A', 0, 0],
        ['b', 0, 0],
      ]);
      expect(list[0].options).toEqual({ stripws: true });
      expect(await store.write(['b'], (w) => w.dropDatabase('b'))).toBe(true);
      expect(await store.write(['b'], (w) => w.dropDatabase('b'))).toBe(false);
      expect(await store.read(['b'], (r) => r.database('b'))).toBeUndefined();
      if (onDisk) expect(await fs.readdir(onDisk.path)).toEqual(expect.not.arrayContaining(['b']));
    });

    test('creating a database replaces an existing one', async () => {
      await store.write(['db'], async (w) => {
        await w.createDatabase('db');
        await w.putResource('db', 'a.xml', xml('<a/>'));
      });
      await store.write(['db'], (w) => w.createDatabase('db'));
      expect(await store.read(['db'], (r) => r.listResources('db'))).toEqual([]);
      if (onDisk) expect(await listFiles(path.join(onDisk.path, 'db'))).toEqual(['.catalog./meta.json']);
    });

    test('unknown and invalid databases', async () => {
      expect(await codeOf(() => store.read(['x'], (r) => r.listResources('x')))).toBe('DB_NOT_FOUND_X');
      expect(await codeOf(() => store.write(['x'], (w) => w.putResource('x', 'a', xml('<a/>'))))).toBe('DB_NOT_FOUND_X');
      expect(await codeOf(() => store.write(['a b'], (w) => w.createDatabase('a b')))).toBe('INVALID_DB_NAME_X');
      expect(await codeOf(() => store.write(['a'], (w) => w.createDatabase('b')))).toBe('NOT_LOCKED_X');
    });

    test('rename and copy', async () => {
      await store.write(['a'], async (w) => {
        await w.createDatabase('a', { chop: false });
        await w.putResource('a', 'x/1.xml', xml('<a/>'));
        await w.putResource('a', 'y.bin', bin('raw'));
      });
      await store.write(['a', 'b'], (w) => w.renameDatabase('a', 'b'));
      await store.write(['b', 'c'], (w) => w.copyDatabase('b', 'c'));
      const names = await store.read('*', async (r) => (await r.listDatabases()).map((d) => d.name));
      expect(names).toEqual(['b', 'c']);
      for (const db of ['b', 'c']) {
        const paths = await store.read([db], async (r) => (await r.listResources(db)).map((x) => x.path));
        expect(paths).toEqual(['x/1.xml', 'y.bin']);
        expect((await store.read([db], (r) => r.readBytes(db, 'y.bin'))).toString()).toBe('raw');
        expect((await store.read([db], (r) => r.database(db)))?.options).toEqual({ chop: false });
      }
      expect(await codeOf(() => store.write(['b', 'c'], (w) => w.renameDatabase('b', 'c')))).toBe('DB_EXISTS_X');
      expect(await codeOf(() => store.write(['q', 'r'], (w) => w.copyDatabase('q', 'r')))).toBe('DB_NOT_FOUND_X');
    });

    test('options are merged and kept', async () => {
      await store.write(['db'], (w) => w.createDatabase('db', { stripws: true }));
      await store.write(['db'], (w) => w.setOptions('db', { stripns: true, stripws: undefined }));
      expect((await store.read(['db'], (r) => r.database('db')))?.options).toEqual({ stripns: true });
    });
  });

  describe('resources', () => {
    beforeEach(async () => {
      await store.write(['db'], (w) => w.createDatabase('db'));
    });

    test('put, stat, read, list, stream', async () => {
      const info = await store.write(['db'], (w) => w.putResource('db', '/dir/a.xml', xml('<a x="1"/>', 3)));
      expect(info).toMatchObject({ path: 'dir/a.xml', type: 'xml', contentType: 'application/xml', size: 3, bytes: 10 });
      await store.write(['db'], (w) => w.putResource('db', 'pic.PNG', bin(Buffer.from([1, 2, 3]))));
      await store.write(['db'], (w) => w.putResource('db', 'v.txt', { type: 'value', data: 'v' }));
      const list = await store.read(['db'], (r) => r.listResources('db'));
      expect(list.map((r) => [r.path, r.type, r.contentType, r.size])).toEqual([
        ['dir/a.xml', 'xml', 'application/xml', 3],
        ['pic.PNG', 'binary', 'image/png', 3],
        ['v.txt', 'value', 'text/plain', 1],
      ]);
      expect((await store.read(['db'], (r) => r.listResources('db', 'dir'))).map((r) => r.path)).toEqual(['dir/a.xml']);
      expect(await store.read(['db'], (r) => r.listResources('db', 'none'))).toEqual([]);
      expect(await store.read(['db'], (r) => r.resource('db', 'dir'))).toBeUndefined();
      expect((await store.read(['db'], (r) => r.readBytes('db', 'dir/a.xml'))).toString()).toBe('<a x="1"/>');
      const ranged = await store.read(['db'], async (r) => readAll(r.openStream('db', 'dir/a.xml', { start: 1, end: 2 })));
      expect(ranged).toBe('a ');
      if (onDisk) expect(await fs.readFile(path.join(onDisk.path, 'db', 'dir', 'a.xml'), 'utf8')).toBe('<a x="1"/>');
      expect(await store.read(['db'], (r) => r.database('db'))).toMatchObject({ resources: 3, size: 14 });
      // A store may find the resource only once the stream is read: the error comes by then.
      expect(await codeOf(() => store.read(['db'], async (r) => readAll(r.openStream('db', 'dir'))))).toBe('RESOURCE_NOT_FOUND_X');
      expect(await codeOf(() => store.read(['db'], (r) => r.readBytes('db', 'nope')))).toBe('RESOURCE_NOT_FOUND_X');
    });

    test('readMany: the bytes of several resources in the order asked, those above the size left to be read alone', async () => {
      await store.write(['db'], async (w) => {
        await w.putResource('db', 'dir/a.xml', xml('<a x="1"/>'));
        await w.putResource('db', 'pic.PNG', bin(Buffer.from([1, 2, 3])));
        await w.putResource('db', 'b.xml', xml('<b/>'));
        await w.putResource('db', 'big.bin', bin('x'.repeat(100)));
        await w.putResource('db', 'empty.bin', bin(''));
      });
      const read = await store.read(['db'], (r) => r.readMany!('db', ['pic.PNG', 'dir/a.xml', 'big.bin', 'b.xml', 'empty.bin', 'dir/a.xml'], 64));
      expect(read.map((b) => b && [...b])).toEqual([[1, 2, 3], [...Buffer.from('<a x="1"/>')], null, [...Buffer.from('<b/>')], [], [...Buffer.from('<a x="1"/>')]]);
      expect(await codeOf(() => store.read(['db'], (r) => r.readMany!('db', ['b.xml', 'nope'], 64)))).toBe('RESOURCE_NOT_FOUND_X');
      expect(await codeOf(() => store.read(['db'], (r) => r.readMany!('db', [''], 64)))).toBe('RESOURCE_NOT_FOUND_X');
      expect(await codeOf(() => store.read(['none'], (r) => r.readMany!('none', ['a.xml'], 64)))).toBe('DB_NOT_FOUND_X');
    });

    test('every put gets a new etag; ifMatch and ifNoneMatch (replace=false)', async () => {
      const one = await store.write(['db'], (w) => w.putResource('db', 'a.xml', xml('<a/>')));
      const two = await store.write(['db'], (w) => w.putResource('db', 'a.xml', xml('<a/>')));
      expect(one?.etag).toBeDefined();
      expect(two?.etag).not.toBe(one?.etag);
      expect(await store.write(['db'], (w) => w.putResource('db', 'a.xml', xml('<b/>'), { ifNoneMatch: true }))).toBeUndefined();
      expect(await store.write(['db'], (w) => w.putResource('db', 'a.xml', xml('<b/>'), { ifMatch: one?.etag }))).toBeUndefined();
      expect((await store.read(['db'], (r) => r.readBytes('db', 'a.xml'))).toString()).toBe('<a/>');
      const three = await store.write(['db'], (w) => w.putResource('db', 'a.xml', xml('<c/>'), { ifMatch: two?.etag }));
      expect(three?.etag).toBeDefined();
      expect(await store.write(['db'], (w) => w.putResource('db', 'n.bin', bin('n'), { ifNoneMatch: true }))).toBeDefined();
    });

    test('a binary put removes resources below its path; other conflicts are refused', async () => {
      await store.write(['db'], async (w) => {
        await w.putResource('db', 'd/a.xml', xml('<a/>'));
        await w.putResource('db', 'd/e/b.bin', bin('b'));
      });
      expect(await codeOf(() => store.write(['db'], (w) => w.putResource('db', 'd', xml('<d/>'))))).toBe('PATH_CONFLICT_XX');
      expect(await codeOf(() => store.write(['db'], (w) => w.putResource('db', 'd/a.xml/x', bin('x'))))).toBe(
        'PATH_CONFLICT_XX',
      );
      await store.write(['db'], (w) => w.putResource('db', 'd', bin('now a file')));
      expect((await store.read(['db'], (r) => r.listResources('db'))).map((r) => r.path)).toEqual(['d']);
      if (onDisk) expect(await listFiles(path.join(onDisk.path, 'db'))).toEqual(expect.arrayContaining(['d']));
      expect((await store.read(['db'], (r) => r.readBytes('db', 'd'))).toString()).toBe('now a file');
      // ...and back: delete the file, store below it, in one write.
      await store.write(['db'], async (w) => {
        await w.deleteResources('db', 'd');
        await w.putResource('db', 'd/x.xml', xml('<x/>'));
      });
      if (onDisk) expect(await listFiles(path.join(onDisk.path, 'db'))).toEqual(expect.arrayContaining(['d/x.xml']));
      expect((await store.read(['db'], (r) => r.listResources('db'))).map((r) => r.path)).toEqual(['d/x.xml']);
    });

    test('delete and rename', async () => {
      await store.write(['db'], async (w) => {
        for (const p of ['a/1.xml', 'a/2.xml', 'a/b/3.xml', 'c.xml']) await w.putResource('db', p, xml(`<x>${p}</x>`));
      });
      expect(await store.write(['db'], (w) => w.renameResources('db', 'a', 'z/y'))).toBe(3);
      expect(await store.write(['db'], (w) => w.renameResources('db', 'c.xml', 'd.xml'))).toBe(1);
      const paths = async () => (await store.read(['db'], (r) => r.listResources('db'))).map((r) => r.path);
      expect(await paths()).toEqual(['d.xml', 'z/y/1.xml', 'z/y/2.xml', 'z/y/b/3.xml']);
      expect((await store.read(['db'], (r) => r.readBytes('db', 'z/y/b/3.xml'))).toString()).toBe('<x>a/b/3.xml</x>');
      if (onDisk) {
        expect(await listFiles(path.join(onDisk.path, 'db'))).toEqual(
          expect.arrayContaining(['d.xml', 'z/y/1.xml', 'z/y/2.xml', 'z/y/b/3.xml']),
        );
        expect(await fs.readdir(path.join(onDisk.path, 'db'))).not.toContain('a');
      }
      expect(await store.write(['db'], (w) => w.deleteResources('db', 'z'))).toBe(3);
      expect(await store.write(['db'], (w) => w.deleteResources('db', 'nothing'))).toBe(0);
      expect(await paths()).toEqual(['d.xml']);
      if (onDisk) expect((await fs.readdir(path.join(onDisk.path, 'db'))).sort()).toEqual(['.catalog.', 'd.xml']);
    });
  });

  describe('atomicity', () => {
    beforeEach(async () => {
      await store.write(['db'], async (w) => {
        await w.createDatabase('db');
        await w.putResource('db', 'keep.xml', xml('<keep/>'));
      });
    });

    test('a write view sees its own staged changes; readers see them only after commit', async () => {
      await store.write(['db'], async (w) => {
        await w.putResource('db', 'new.xml', xml('<n/>'));
        await w.deleteResources('db', 'keep.xml');
        expect((await w.listResources('db')).map((r) => r.path)).toEqual(['new.xml']);
        expect((await w.readBytes('db', 'new.xml')).toString()).toBe('<n/>');
        expect((await w.readMany!('db', ['new.xml'], 1024)).map(String)).toEqual(['<n/>']);
        expect(await readAll(w.openStream('db', 'new.xml'))).toBe('<n/>');
        expect(await codeOf(() => w.readMany!('db', ['keep.xml'], 1024))).toBe('RESOURCE_NOT_FOUND_X');
        expect(await codeOf(() => w.readBytes('db', 'keep.xml'))).toBe('RESOURCE_NOT_FOUND_X');
        expect((await w.database('db'))?.resources).toBe(1);
        // on disk nothing changed yet
        if (onDisk) expect(await fs.readFile(path.join(onDisk.path, 'db', 'keep.xml'), 'utf8')).toBe('<keep/>');
      });
      expect((await store.read(['db'], (r) => r.listResources('db'))).map((r) => r.path)).toEqual(['new.xml']);
    });

    test('a failing write applies nothing and leaves no temp file', async () => {
      const before = onDisk && (await listFiles(onDisk.path));
      await expect(
        store.write(['db', 'other'], async (w) => {
          await w.putResource('db', 'deep/new.xml', xml('<n/>'));
          await w.deleteResources('db', 'keep.xml');
          await w.createDatabase('other');
          await w.putResource('other', 'o.xml', xml('<o/>'));
          await w.dropDatabase('db');
          throw new Error('boom');
        }),
      ).rejects.toThrow('boom');
      if (onDisk) {
        expect(await listFiles(onDisk.path)).toEqual(before);
        expect(await fs.readdir(path.join(onDisk.path, 'db'))).not.toContain('deep');
      }
      expect((await store.read(['db'], (r) => r.listResources('db'))).map((r) => r.path)).toEqual(['keep.xml']);
      expect(await store.read(['other'], (r) => r.database('other'))).toBeUndefined();
    });

    test('a committed write leaves no temp, stage or journal files', async () => {
      await store.write(['db', 'c'], async (w) => {
        await w.putResource('db', 'a/b.xml', xml('<b/>'));
        await w.putResource('db', 'a/b.xml', xml('<b2/>'));
        await w.copyDatabase('db', 'c');
        await w.putResource('c', 'c.bin', bin('c'));
      });
      if (onDisk) {
        const files = await listFiles(onDisk.path);
        expect(files.filter((f) => /\.tmp\.$|journal|\.stage-|\.scratch-|\.trash-/.test(f))).toEqual([]);
        expect(await fs.readdir(onDisk.path)).toEqual(expect.arrayContaining(['db', 'c']));
      }
      expect((await store.read(['c'], (r) => r.readBytes('c', 'a/b.xml'))).toString()).toBe('<b2/>');
    });
  });

  describe('within one write', () => {
    beforeEach(async () => {
      await store.write(['db'], (w) => w.createDatabase('db'));
    });

    test('parallel puts through one view are all committed', async () => {
      await store.write(['db'], (w) =>
        Promise.all(Array.from({ length: 30 }, (_, i) => w.putResource('db', `p/${i}.xml`, xml(`<p>${i}</p>`)))),
      );
      expect(await store.read(['db'], (r) => r.listResources('db', 'p'))).toHaveLength(30);
    });

    test('a refused rename changes nothing, even when caught', async () => {
      await store.write(['db'], async (w) => {
        await w.putResource('db', 'a/1.xml', xml('<a/>'));
        await w.putResource('db', 'b', bin('b'));
        expect(await codeOf(() => w.renameResources('db', 'a', 'b/a'))).toBe('PATH_CONFLICT_XX');
        expect((await w.listResources('db')).map((r) => r.path)).toEqual(['a/1.xml', 'b']);
      });
      expect((await store.read(['db'], (r) => r.listResources('db'))).map((r) => r.path)).toEqual(['a/1.xml', 'b']);
    });

    test('a view cannot be used after its write ended', async () => {
      let leaked: WriteView | undefined;
      await store.write(['db'], async (w) => {
        leaked = w;
      });
      await expect(leaked?.putResource('db', 'x', bin('x'))).rejects.toThrow(/ended/);
    });

    test('a stream opened under the read lock keeps its bytes after a later write', async () => {
      await store.write(['db'], (w) => w.putResource('db', 's.bin', bin('before')));
      const stream = await store.read(['db'], async (r) => r.openStream('db', 's.bin'));
      await store.write(['db'], (w) => w.putResource('db', 's.bin', bin('after!')));
      expect(await readAll(stream)).toBe('before');
    });
  });

  describe('concurrency (spec §16.1)', () => {
    beforeEach(async () => {
      await store.write(['db'], (w) => w.createDatabase('db'));
    });

    test('50 parallel puts to distinct paths are all present', async () => {
      await Promise.all(
        Array.from({ length: 50 }, (_, i) => store.write(['db'], (w) => w.putResource('db', `d${i % 5}/r${i}.xml`, xml(`<r>${i}</r>`)))),
      );
      const list = await store.read(['db'], (r) => r.listResources('db'));
      expect(list).toHaveLength(50);
      const reopened = await kind.open();
      expect(await reopened.read(['db'], (r) => r.listResources('db'))).toHaveLength(50);
      await reopened.close();
    });

    test('20 parallel puts to one path leave one resource', async () => {
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) => store.write(['db'], (w) => w.putResource('db', 'same.xml', xml(`<v>${i}</v>`)))),
      );
      const list = await store.read(['db'], (r) => r.listResources('db'));
      expect(list).toHaveLength(1);
      expect(results.map((r) => r?.etag)).toContain(list[0].etag);
      expect((await store.read(['db'], (r) => r.readBytes('db', 'same.xml'))).toString()).toMatch(/^<v>\d+<\/v>$/);
    });

    test('readers see the state before or after a write, never between', async () => {
      const writes = Array.from({ length: 10 }, (_, i) =>
        store.write(['db'], async (w) => {
          await w.putResource('db', 'x.xml', xml(`<x>${i}</x>`));
          await w.putResource('db', 'y.xml', xml(`<x>${i}</x>`));
        }),
      );
      const reads = Array.from({ length: 10 }, () =>
        store.read(['db'], async (r) => {
          const list = await r.listResources('db');
          if (list.length === 0) return true;
          const [x, y] = await Promise.all([r.readBytes('db', 'x.xml'), r.readBytes('db', 'y.xml')]);
          return x.equals(y);
        }),
      );
      await Promise.all(writes);
      expect(await Promise.all(reads)).toEqual(Array(10).fill(true));
    });

    test('subscribers hear about committed writes only', async () => {
      const heard: string[] = [];
      const off = store.subscribe((db) => heard.push(db));
      await store.write(['db'], (w) => w.putResource('db', 'a.xml', xml('<a/>')));
      await store.write(['db'], async () => undefined);
      await expect(store.write(['db'], async () => Promise.reject(new Error('no')))).rejects.toThrow();
      off();
      await store.write(['db'], (w) => w.putResource('db', 'b.xml', xml('<b/>')));
      expect(heard).toEqual(['db']);
    });

    test('close waits for writes in flight and refuses new work', async () => {
      let finished = false;
      const slow = store.write(['db'], async (w) => {
        await new Promise((resolve) => setTimeout(resolve, 50));
        await w.putResource('db', 'late.xml', xml('<late/>'));
        finished = true;
      });
      await store.close();
      expect(finished).toBe(true);
      await slow;
      expect(await codeOf(() => store.read('*', (r) => r.listDatabases()))).toBe('STORE_CLOSED');
    });
  });

  describe('persistence', () => {
    test('a new store instance on the same folder sees everything', async () => {
      await store.write(['db'], async (w) => {
        await w.createDatabase('db', { stripws: true });
        await w.putResource('db', 'a.xml', xml('<a/>', 2));
        await w.putResource('db', 'b/c.png', bin('png'));
      });
      const before = await store.read(['db'], (r) => r.listResources('db'));
      const reopened = await kind.open();
      expect(await reopened.read(['db'], (r) => r.listResources('db'))).toEqual(before);
      expect(await reopened.read(['db'], (r) => r.database('db'))).toMatchObject({ resources: 2, options: { stripws: true } });
      await reopened.close();
    });
  });

  describe('checkpoints', () => {
    test('changes before a checkpoint are on disk and stay when the write fails later', async () => {
      const failed = store.write(['cp'], async (view) => {
        await view.createDatabase('cp');
        await view.putResource('cp', 'a.xml', xml('<a/>'));
        await view.checkpoint();
        // Committed: the file is in place while the lock is still held.
        if (onDisk) expect(await fs.readFile(path.join(onDisk.path, 'cp', 'a.xml'), 'utf8')).toBe('<a/>');
        await view.putResource('cp', 'b.xml', xml('<b/>'));
        throw new Error('later failure');
      });
      await expect(failed).rejects.toThrow('later failure');
      const paths = await store.read(['cp'], async (v) => (await v.listResources('cp')).map((r) => r.path));
      expect(paths).toEqual(['a.xml']);
    });

    test('a view keeps working after a checkpoint, on a new draft', async () => {
      await store.write(['cp'], async (view) => {
        await view.createDatabase('cp');
        await view.putResource('cp', 'a.xml', xml('<a/>'));
        await view.checkpoint();
        await view.putResource('cp', 'dir/b.bin', bin('bytes'));
        expect((await view.listResources('cp')).map((r) => r.path)).toEqual(['a.xml', 'dir/b.bin']);
      });
      const paths = await store.read(['cp'], async (v) => (await v.listResources('cp')).map((r) => r.path));
      expect(paths).toEqual(['a.xml', 'dir/b.bin']);
    });
  });

  describe('summaries', () => {
    test("the summary made of each XML document put is read back by the version's etag; none for other versions, binaries and documents without one", async () => {
      await store.close();
      store = await kind.open({ summarize: (data) => (data.includes('keep') ? Buffer.from(`summary of ${data.toString('utf8')}`) : undefined) });
      const put = (p: string, content: string) => store.write(['db'], async (w) => (await w.putResource('db', p, xml(content)))!);
      await store.write(['db'], (w) => w.createDatabase('db'));
      const a = await put('a.xml', '<a>keep</a>');
      const b = await put('b.xml', '<b/>');
      const binary = (await store.write(['db'], (w) => w.putResource('db', 'c.bin', bin('keep'))))!;
      const a2 = await put('a.xml', '<a>keep 2</a>');
      const read = async (etags: string[]) => (await store.read(['db'], (r) => r.summaries!('db', etags))).map((s) => s && Buffer.from(s).toString('utf8'));
      expect(await read([a2.etag, b.etag, binary.etag, 'no-such-etag'])).toEqual(['summary of <a>keep 2</a>', null, null, null]);
      // a version replaced has none any more where the store keeps them with the version (PostgreSQL)
      // or still its own (the file store's log, by etag): never another version's
      expect([null, 'summary of <a>keep</a>']).toContainEqual((await read([a.etag]))[0]);
      expect(await codeOf(() => store.read(['none'], (r) => r.summaries!('none', [a2.etag])))).toBe('DB_NOT_FOUND_X');
    });
  });
}