import fs from 'node:fs';
import path from 'node:path';
import { isTempName } from '../../lib/atomic-files';
import { SPARES_DIR, TempPool } from '../../lib/store/file/temp-pool';
import { createFileStore } from '../../lib/store/file/file-store';
import { STORE_DIR } from '../../lib/store/file/journal';
import { tempDir } from '../helpers/temp-dir';
import { xml } from './helpers';

/** The files in `folder` by inode (none when it does not exist). */
function files(folder: string): Map<number, string> {
  const found = new Map<number, string>();
  if (!fs.existsSync(folder)) return found;
  for (const name of fs.readdirSync(folder)) found.set(fs.statSync(path.join(folder, name)).ino, name);
  return found;
}

/** Resolves once `pool` has `count` files ready (it makes them in the background), and `folder` holds them. */
async function filled(pool: TempPool, folder: string, count: number): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (pool.waiting !== count && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
  expect([pool.waiting, files(folder).size]).toEqual([count, count]);
}

describe('empty files made ahead for small writes (temp-pool.ts)', () => {
  let root: string;
  let spares: string;
  let target: string;
  beforeEach(() => {
    root = tempDir('xmldb-temp-pool-');
    spares = path.join(root, STORE_DIR, SPARES_DIR);
    target = path.join(root, 'db', 'sub');
    fs.mkdirSync(target, { recursive: true });
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  it('writes into a spare file, renamed to a temp name of its own in the folder the write wants', async () => {
    const pool = new TempPool(spares);
    pool.fill();
    await filled(pool, spares, 1);
    const ready = files(spares);
    const file = pool.writeTempSync(target, Buffer.from('<a>é</a>'));
    expect(path.dirname(file)).toBe(target);
    expect(isTempName(path.basename(file))).toBe(true);
    expect(fs.readFileSync(file, 'utf8')).toBe('<a>é</a>');
    // the very file that waited, and the pool makes another
    expect(ready.has(fs.statSync(file).ino)).toBe(true);
    expect(files(spares).has(fs.statSync(file).ino)).toBe(false);
    await filled(pool, spares, 1);
    await pool.close();
    expect(fs.existsSync(spares)).toBe(false);
    expect(fs.readFileSync(file, 'utf8')).toBe('<a>é</a>');
  });

  it('keeps its spare when the folder of the write is missing, and creates a file when its spares have gone', async () => {
    const pool = new TempPool(spares);
    pool.fill();
    await filled(pool, spares, 1);
    expect(() => pool.writeTempSync(path.join(root, 'none'), Buffer.from('x'))).toThrow(expect.objectContaining({ code: 'ENOENT' }));
    await filled(pool, spares, 1);
    // another store opened on the folder removed them
    fs.rmSync(spares, { recursive: true });
    const file = pool.writeTempSync(target, Buffer.from('made here'));
    expect(fs.readFileSync(file, 'utf8')).toBe('made here');
    await pool.close();
  });

  it('keeps one spare ready at first, and twice as many each time a write finds none, up to 16', async () => {
    const pool = new TempPool(spares);
    expect(pool.target).toBe(1);
    // writes faster than the background makes files: each finds none ready
    for (let i = 0; i < 5; i++) pool.writeTempSync(target, Buffer.from(String(i)));
    expect(pool.target).toBe(16);
    await filled(pool, spares, 16);
    await pool.close();
  });

  it('creates files of its own before spares are ready, and once closed', async () => {
    const pool = new TempPool(spares);
    expect(fs.readFileSync(pool.writeTempSync(target, Buffer.from('1')), 'utf8')).toBe('1');
    await pool.close();
    expect(fs.existsSync(spares)).toBe(false);
    expect(fs.readFileSync(pool.writeTempSync(target, Buffer.from('2')), 'utf8')).toBe('2');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(fs.existsSync(spares)).toBe(false);
  });

  it('belongs to a file store: made for its writes, removed when it closes, and when it opens after a crash', async () => {
    const store = await createFileStore(root);
    await store.write(['db'], async (w) => {
      await w.createDatabase('db');
      await w.putResource('db', 'a.xml', xml('<a/>'));
    });
    const deadline = Date.now() + 10_000;
    while (files(spares).size < 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    const ready = files(spares);
    await store.write(['db'], (w) => w.putResource('db', 'b.xml', xml('<b/>')));
    expect(await store.read(['db'], async (r) => (await r.readBytes('db', 'b.xml')).toString())).toBe('<b/>');
    // b.xml is one of the spares, now in its place
    expect(ready.has(fs.statSync(path.join(root, 'db', 'b.xml')).ino)).toBe(true);
    // what a crash leaves: the spares; a store that opens the folder removes them
    expect(files(spares).size).toBeGreaterThan(0);
    const again = await createFileStore(root);
    expect(fs.existsSync(spares)).toBe(false);
    expect(await again.read(['db'], async (r) => (await r.readBytes('db', 'b.xml')).toString())).toBe('<b/>');
    await again.close();
    await store.close();
    expect(fs.existsSync(spares)).toBe(false);
  });
});
