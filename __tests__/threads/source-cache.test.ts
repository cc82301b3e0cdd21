/**
 * The folder of files kept from source (threads/source-cache.ts) is pruned of files neither read
 * nor written for PRUNE_AFTER_MS, at most once per PRUNE_EVERY_MS.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PRUNE_AFTER_MS, PRUNE_EVERY_MS, PRUNE_MARKER, pruneKeptFiles, transpileCacheDir } from '../../lib/threads/source-cache';
import { sourceLoader } from '../../lib/threads/launch';

const DAY = 24 * 3600 * 1000;
let folder: string;

beforeEach(() => {
  folder = fs.mkdtempSync(path.join(os.tmpdir(), 'xmldb-kept-'));
});
afterEach(() => fs.rmSync(folder, { recursive: true, force: true }));

/** Writes `name` into the folder, last written `age` ms before `now` and last read `read` ms before it. */
function kept(name: string, now: number, age: number, read = age): void {
  const file = path.join(folder, name);
  fs.writeFileSync(file, name);
  fs.utimesSync(file, (now - read) / 1000, (now - age) / 1000);
}

const names = () => fs.readdirSync(folder).sort();

test('deletes the files neither read nor written for PRUNE_AFTER_MS, keeps the others, and notes when', () => {
  const now = Date.now();
  kept('a.js', now, PRUNE_AFTER_MS + DAY);
  kept('sef-b.json', now, PRUNE_AFTER_MS + 1000);
  kept('c.js.123.1.tmp', now, 30 * DAY);
  kept('d.js', now, PRUNE_AFTER_MS - DAY);
  kept('e.js', now, 0);
  kept('read-yesterday.js', now, 30 * DAY, DAY);
  expect(pruneKeptFiles(folder, now)).toBe(3);
  expect(names()).toEqual([PRUNE_MARKER, 'd.js', 'e.js', 'read-yesterday.js']);
  expect(fs.statSync(path.join(folder, PRUNE_MARKER)).mtimeMs).toBeCloseTo(now, -3);
});

test('prunes at most once per PRUNE_EVERY_MS', () => {
  const now = Date.now();
  kept('old.js', now, PRUNE_AFTER_MS + DAY);
  expect(pruneKeptFiles(folder, now)).toBe(1);
  kept('older.js', now, PRUNE_AFTER_MS + 2 * DAY);
  expect(pruneKeptFiles(folder, now + PRUNE_EVERY_MS - 1000)).toBe(0);
  expect(names()).toEqual([PRUNE_MARKER, 'older.js']);
  expect(pruneKeptFiles(folder, now + PRUNE_EVERY_MS + 1000)).toBe(1);
  expect(names()).toEqual([PRUNE_MARKER]);
});

test('a folder that does not exist is left alone', () => {
  const missing = path.join(folder, 'missing');
  expect(pruneKeptFiles(missing, Date.now())).toBe(0);
  expect(fs.existsSync(missing)).toBe(false);
});

test('the folder is the one the source bootstrap writes its transpiled files to', () => {
  expect(sourceLoader()).toContain(`const cacheDir = ${JSON.stringify(transpileCacheDir())};`);
});
