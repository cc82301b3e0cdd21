/**
 * The layers of lib/ import only what their place allows, so the store stays one seam:
 * - the engine (lib/xquery) reaches the store only through store/index.ts, store/types.ts and the
 *   worker-side caches (store/cache/), never a store's own files;
 * - each store (store/file/, store/postgres/) imports the shared modules at the top of lib/store
 *   and its own folder, never the other store; the shared modules import no store folder;
 * - nothing in lib/store imports what is built on it (lib/xquery, lib/http, lib/operations,
 *   lib/commands).
 * Imports are read with the TypeScript compiler's pre-processor: static imports and exports,
 * `import type`, `import()` and `require()`.
 */
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const ROOT = path.join(__dirname, '..');

function sourcesUnder(folder: string, into: string[] = []): string[] {
  for (const entry of fs.readdirSync(path.join(ROOT, folder), { withFileTypes: true })) {
    const relative = path.posix.join(folder, entry.name);
    if (entry.isDirectory()) sourcesUnder(relative, into);
    else if (entry.name.endsWith('.ts')) into.push(relative);
  }
  return into;
}

/** The repository-relative module (no `.ts`) each relative import of `file` names. */
function importsOf(file: string, text: string): string[] {
  return ts
    .preProcessFile(text, true, true)
    .importedFiles.map((f) => f.fileName)
    .filter((name) => name.startsWith('.'))
    .map((name) => path.posix.normalize(path.posix.join(path.posix.dirname(file), name)).replace(/\.ts$/, ''));
}

const within = (module: string, folder: string): boolean => module === folder || module.startsWith(`${folder}/`);
/** A module of lib/store's top level (shared by both stores), not of one of its folders. */
const isTopOfStore = (module: string): boolean => path.posix.dirname(module) === 'lib/store';

const ENGINE_MAY_USE = ['lib/store', 'lib/store/index', 'lib/store/types'];
const ABOVE_STORE = ['lib/xquery', 'lib/http', 'lib/operations', 'lib/commands'];
const STORES = ['lib/store/file', 'lib/store/postgres'];
const STORE_FOLDERS = [...STORES, 'lib/store/cache'];

/** Why importing `target` from `file` crosses a layer, or undefined if it may. */
function crossing(file: string, target: string): string | undefined {
  if (within(file, 'lib/xquery') && within(target, 'lib/store')) {
    if (!ENGINE_MAY_USE.includes(target) && !within(target, 'lib/store/cache')) {
      return 'the engine reaches the store through store/index, store/types or store/cache/';
    }
  }
  if (within(file, 'lib/store')) {
    if (ABOVE_STORE.some((layer) => within(target, layer))) return 'the store imports nothing built on it';
    const own = STORES.find((store) => within(file, store));
    if (own && STORES.some((store) => store !== own && within(target, store))) return 'a store imports the shared modules, not the other store';
    if (own === 'lib/store/postgres' && within(target, 'lib/store/cache')) return 'the worker-side caches are the file store\'s';
    if (isTopOfStore(file) && STORE_FOLDERS.some((folder) => within(target, folder))) {
      return 'a shared module of the store imports no store folder';
    }
  }
  return undefined;
}

describe('layers of lib/', () => {
  test('no import crosses a layer', () => {
    const crossings: string[] = [];
    for (const file of sourcesUnder('lib')) {
      for (const target of importsOf(file, fs.readFileSync(path.join(ROOT, file), 'utf8'))) {
        const why = crossing(file, target);
        if (why) crossings.push(`${file} imports ${target}: ${why}`);
      }
    }
    expect(crossings).toEqual([]);
  });

  test('a crossing import is caught', () => {
    // the check itself, on imports as the pre-processor reads them
    const bad = [
      "import { SyncReader } from '../../store/file/views';",
      "import type { DatabaseMeta } from '../../store/file/catalog';",
      "const x = require('../../store/resource-names');",
    ].join('\n');
    const targets = importsOf('lib/xquery/documents/x.ts', bad);
    expect(targets).toEqual(['lib/store/file/views', 'lib/store/file/catalog', 'lib/store/resource-names']);
    expect(targets.map((t) => crossing('lib/xquery/documents/x.ts', t) !== undefined)).toEqual([true, true, true]);
    expect(crossing('lib/xquery/documents/x.ts', 'lib/store')).toBeUndefined();
    expect(crossing('lib/xquery/documents/x.ts', 'lib/store/cache/doc-cache')).toBeUndefined();
    expect(crossing('lib/store/postgres/read-view.ts', 'lib/store/file/views')).toBeDefined();
    expect(crossing('lib/store/postgres/read-view.ts', 'lib/store/resource-names')).toBeUndefined();
    expect(crossing('lib/store/file/views.ts', 'lib/store/postgres/blobs')).toBeDefined();
    expect(crossing('lib/store/resource-names.ts', 'lib/store/file/disk-paths')).toBeDefined();
    expect(crossing('lib/store/cache/sync-reader.ts', 'lib/xquery/documents/store-source')).toBeDefined();
    expect(crossing('lib/store/locks.ts', 'lib/operations/types')).toBeDefined();
  });
});
