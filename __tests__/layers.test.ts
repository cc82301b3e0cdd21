/**
 * The layers of lib/ import only what their place allows, so the store stays one seam:
 * - the engine (lib/xquery) reaches the store only through store/index.ts, store/types.ts and the
 *   store's side in a worker (store/cache/index.ts), never a store's own files nor the files
 *   behind store/cache/index.ts;
 * - each store (store/file/, store/postgres/) imports the shared modules at the top of lib/store
 *   and its own folder, never the other store; the shared modules import no store folder;
 * - nothing in lib/store imports what is built on it (lib/xquery, lib/http, lib/operations,
 *   lib/commands);
 * - the request layers call downwards only (README "Architecture"): http/ over operations/ over
 *   commands/, and the engine (xquery/) under all three, so commands/ imports nothing of
 *   operations/ or http/, operations/ nothing of http/, the engine none of them; nor does the
 *   shared code below (xml/, convert/, users/, tree/, saxon/) import them;
 * - code of one runtime of the engine is not loaded by another (README "Architecture"): what the
 *   server's main thread loads from the engine's facade holds nothing of lib/xquery/host/ or
 *   lib/xquery/worker/; the query host process nothing of engine/ or worker/; a worker thread
 *   nothing of engine/ or host/ (their entries: RUNTIMES below). Type imports are erased from the
 *   JavaScript and may cross;
 * - an index.ts only re-exports: its code lives in a file named for what it does.
 * Imports are read with the TypeScript compiler's pre-processor: static imports and exports,
 * `import type`, `import()` and `require()`; the runtimes' imports with its parser.
 */
import fs from 'node:fs';
import path from 'node:path';
import { REPOSITORY, sourcesUnder } from './helpers/source-files';
import ts from 'typescript';

const ROOT = REPOSITORY;

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

const ENGINE_MAY_USE = ['lib/store', 'lib/store/index', 'lib/store/types', 'lib/store/cache', 'lib/store/cache/index'];
const ABOVE_STORE = ['lib/xquery', 'lib/http', 'lib/operations', 'lib/commands'];
const STORES = ['lib/store/file', 'lib/store/postgres'];
const STORE_FOLDERS = [...STORES, 'lib/store/cache'];

/** Each request layer, with the layers above it, which it may not import. */
const ABOVE: ReadonlyArray<readonly [string, readonly string[]]> = [
  ['lib/operations', ['lib/http']],
  ['lib/commands', ['lib/operations', 'lib/http']],
  ['lib/xquery', ['lib/commands', 'lib/operations', 'lib/http']],
  ...['lib/xml', 'lib/convert', 'lib/users', 'lib/tree', 'lib/saxon'].map((shared) => [shared, ['lib/xquery', 'lib/commands', 'lib/operations', 'lib/http']] as const),
];

/** Why importing `target` from `file` crosses a layer, or undefined if it may. */
function crossing(file: string, target: string): string | undefined {
  const above = ABOVE.find(([layer]) => within(file, layer));
  if (above && above[1].some((layer) => within(target, layer))) return `${above[0]} imports nothing of the layers above it`;
  if (within(file, 'lib/xquery') && within(target, 'lib/store')) {
    if (!ENGINE_MAY_USE.includes(target)) return 'the engine reaches the store through store/index, store/types or store/cache/index';
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

/** Each runtime of the engine: the file it starts from, and its folder. */
const RUNTIMES = [
  { name: 'main thread', entry: 'lib/xquery/engine/engine.ts', folder: 'lib/xquery/engine' },
  { name: 'query host process', entry: 'lib/xquery/host/host-process.ts', folder: 'lib/xquery/host' },
  { name: 'worker thread', entry: 'lib/xquery/worker/thread.ts', folder: 'lib/xquery/worker' },
];

/**
 * The modules `file` loads at run time, as written (relative paths and packages): its imports
 * but the type-only ones. `atLoad`: only those loaded when the file itself is, not the calls of
 * `require()` or `import()` inside a function, which load on use.
 */
function specifiersOf(file: string, text: string, atLoad = false): string[] {
  const source = parsed(file, text);
  const names: string[] = [];
  const visit = (node: ts.Node): void => {
    if (atLoad && ts.isFunctionLike(node)) return;
    if (ts.isImportDeclaration(node)) {
      const clause = node.importClause;
      const bindings = clause?.namedBindings;
      const typeOnly = clause !== undefined && (clause.isTypeOnly ||
        (!clause.name && bindings !== undefined && ts.isNamedImports(bindings) && bindings.elements.length > 0 && bindings.elements.every((e) => e.isTypeOnly)));
      if (!typeOnly) names.push((node.moduleSpecifier as ts.StringLiteral).text);
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && !node.isTypeOnly) {
      names.push((node.moduleSpecifier as ts.StringLiteral).text);
    } else if (ts.isCallExpression(node) && node.arguments.length > 0 && ts.isStringLiteral(node.arguments[0])
      && (node.expression.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(node.expression) && node.expression.text === 'require'))) {
      names.push(node.arguments[0].text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return names;
}

/**
 * Each file's syntax tree, parsed once for the tests that walk it (the text is compared too: the
 * checks of the checks pass made-up files).
 */
const trees = new Map<string, { text: string; source: ts.SourceFile }>();
function parsed(file: string, text: string): ts.SourceFile {
  const kept = trees.get(file);
  if (kept?.text === text) return kept.source;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  trees.set(file, { text, source });
  return source;
}

/** The repository files `file` loads at run time (`atLoad`: see specifiersOf). */
function valueImportsOf(file: string, text: string, atLoad = false): string[] {
  return specifiersOf(file, text, atLoad).filter((n) => n.startsWith('.')).map((n) => {
    const base = path.posix.normalize(path.posix.join(path.posix.dirname(file), n)).replace(/\.js$/, '');
    return [`${base}.ts`, `${base}/index.ts`].find((f) => fs.existsSync(path.join(ROOT, f))) ?? `${base}.ts`;
  });
}

/** Each file `entry` loads, directly or through others, with the file that loads it (`atLoad`: see specifiersOf). */
function loadedFrom(entry: string, read: (file: string) => string, atLoad = false): Map<string, string> {
  const loadedBy = new Map<string, string>([[entry, entry]]);
  const todo = [entry];
  for (let file = todo.pop(); file !== undefined; file = todo.pop()) {
    for (const target of valueImportsOf(file, read(file), atLoad)) {
      if (!loadedBy.has(target) && target.startsWith('lib/')) {
        loadedBy.set(target, file);
        todo.push(target);
      }
    }
  }
  return loadedBy;
}

/** The imports by which `runtime` loads code of another runtime's folder. */
function foreignLoads(runtime: (typeof RUNTIMES)[number], read: (file: string) => string): string[] {
  const others = RUNTIMES.filter((r) => r !== runtime);
  return [...loadedFrom(runtime.entry, read)]
    .filter(([file, by]) => others.some((r) => within(file, r.folder) && !within(by, r.folder)))
    .map(([file, by]) => `the ${runtime.name} loads ${file} (imported by ${by})`);
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

  test('no runtime of the engine loads code of another', () => {
    const read = (file: string): string => fs.readFileSync(path.join(ROOT, file), 'utf8');
    expect(RUNTIMES.filter((r) => !fs.existsSync(path.join(ROOT, r.entry))).map((r) => r.entry)).toEqual([]);
    expect(RUNTIMES.flatMap((r) => foreignLoads(r, read))).toEqual([]);
  });

  test('the package loads the PostgreSQL driver and the HTML parser only when they are used', () => {
    // each is a large share of the package's load time (store/postgres/load-pg-store.ts, convert/by-content-type.ts)
    const read = (file: string): string => fs.readFileSync(path.join(ROOT, file), 'utf8');
    const onUse = ['pg', 'htmlparser2', 'domhandler'];
    const eager = [...loadedFrom('lib/index.ts', read, true)].flatMap(([file, by]) =>
      specifiersOf(file, read(file), true)
        .filter((name) => onUse.includes(name))
        .map((name) => `${file} (loaded by ${by}) imports ${name}`),
    );
    expect(eager).toEqual([]);
    // the check itself: the PostgreSQL store's module imports the driver, and is loaded on use
    expect(specifiersOf('lib/store/postgres/pg-store.ts', read('lib/store/postgres/pg-store.ts'), true)).toContain('pg');
    expect(specifiersOf('x.ts', "export function f() { return require('pg'); }", true)).toEqual([]);
    expect(specifiersOf('x.ts', "export function f() { return require('pg'); }")).toEqual(['pg']);
  });

  test('an index.ts only re-exports', () => {
    const withCode = sourcesUnder('lib').filter((file) => path.posix.basename(file) === 'index.ts').filter((file) => {
      const source = ts.createSourceFile(file, fs.readFileSync(path.join(ROOT, file), 'utf8'), ts.ScriptTarget.Latest);
      return source.statements.some((s) => !(ts.isExportDeclaration(s) && s.moduleSpecifier !== undefined));
    });
    expect(withCode).toEqual([]);
  });

  test('a runtime loading another\'s code is caught', () => {
    // the check itself, on made-up files: the main thread reaches a worker's file through a shared one
    const files: Record<string, string> = {
      'lib/xquery/engine/engine.ts': "import type { Task } from '../worker/thread';\nimport { run } from '../shared';",
      'lib/xquery/shared.ts': "export { compile } from './worker/compile';",
      'lib/xquery/worker/compile.ts': "import { saxon } from '../../saxon';",
    };
    const read = (file: string): string => files[file] ?? '';
    expect(foreignLoads(RUNTIMES[0], read)).toEqual(['the main thread loads lib/xquery/worker/compile.ts (imported by lib/xquery/shared.ts)']);
    files['lib/xquery/shared.ts'] = "export type { compile } from './worker/compile';";
    expect(foreignLoads(RUNTIMES[0], read)).toEqual([]);
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
    expect(crossing('lib/xquery/documents/x.ts', 'lib/store/cache')).toBeUndefined();
    expect(crossing('lib/xquery/documents/x.ts', 'lib/store/cache/doc-cache')).toBeDefined();
    expect(crossing('lib/store/postgres/read-view.ts', 'lib/store/file/views')).toBeDefined();
    expect(crossing('lib/commands/exec/plan.ts', 'lib/operations/query')).toBeDefined();
    expect(crossing('lib/operations/query.ts', 'lib/commands/exec/query-access')).toBeUndefined();
    expect(crossing('lib/users/permissions.ts', 'lib/operations/guarded-store')).toBeDefined();
    expect(crossing('lib/store/postgres/read-view.ts', 'lib/store/resource-names')).toBeUndefined();
    expect(crossing('lib/store/file/views.ts', 'lib/store/postgres/blobs')).toBeDefined();
    expect(crossing('lib/store/resource-names.ts', 'lib/store/file/disk-paths')).toBeDefined();
    expect(crossing('lib/store/cache/sync-reader.ts', 'lib/xquery/worker/documents/store-source')).toBeDefined();
    expect(crossing('lib/store/locks.ts', 'lib/operations/types')).toBeDefined();
  });
});
