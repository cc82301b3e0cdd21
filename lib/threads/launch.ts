/**
 * Starting a worker thread or a child process on one of the package's own modules, from
 * compiled code and from source.
 *
 * - From dist/ (this file is `launch.js`): the worker runs `NAME.js`.
 * - From source (this file is `launch.ts`, as under jest): a worker cannot load TypeScript by
 *   itself and jest's transformer does not reach into worker threads, so the worker starts from a
 *   small inline CommonJS bootstrap (`eval: true`). The bootstrap installs a `.ts` loader that
 *   strips types with sucrase (`SOURCE_TRANSFORM`, the same per-file transformation jest's
 *   transformer applies, jest.config.js), lets `./x.js` requests find `./x.ts`, and then
 *   requires `NAME.ts`. A child process runs the same bootstrap (`node -e`).
 *
 *   The JavaScript of each file is kept in `node_modules/.cache/xmldb-rest-worker/`, named by a
 *   digest of the source text, its path, the transformer's version and the options: a worker
 *   loads JavaScript and never the transformer, unless a file changed since the last worker, and
 *   it can never run stale code (an edited file has a new digest). V8's code cache of each
 *   module's JavaScript is kept beside it, so that a worker deserializes its modules rather than
 *   parsing them. Cache files are written to a temp name and renamed, so workers starting
 *   together never read half a file; the folder may be deleted at any time, and the files nobody
 *   has read or written for a week are (source-cache.ts `pruneSourceCache`).
 */
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import path from 'node:path';
import { Worker, type WorkerOptions } from 'node:worker_threads';
import { codeCacheContext, pruneSourceCache, transpileCacheDir } from './source-cache';

/** Whether the package runs from its TypeScript source. */
export const FROM_SOURCE = path.extname(__filename) === '.ts';

/** The folder of the package's own code: `dist/` (compiled) or `lib/` (source). */
export const CODE_ROOT = path.dirname(__dirname);

/**
 * sucrase's options for the package's sources in source mode (part of every cache key): types
 * stripped and ES modules made CommonJS, everything else left as written (Node runs ES2022).
 * jest.config.js gives its transformer the same, plus the hoisting of `jest.mock` calls.
 */
export const SOURCE_TRANSFORM = { transforms: ['typescript', 'imports'], disableESTransforms: true } as const;

/**
 * The `.ts` loader of source mode, as CommonJS script text: installs the loader and the
 * `./x.js` → `./x.ts` fallback in the process or thread that evaluates it, and defines `Module`
 * (node:module), `projectRequire` (a `require` relative to this folder) and `codeCacheOutcomes`
 * (what became of each module's kept V8 code cache). The bootstrap of threads and processes
 * below ends with it; tests that run the standalone server from source in a child process start
 * with it, so every source-mode process shares the transpile cache.
 */
export function sourceLoader(): string {
  return `
'use strict';
const Module = require('module');
const fs = require('fs');
const projectRequire = Module.createRequire(${JSON.stringify(__filename)});
const crypto = require('crypto');
const path = require('path');
// taken now: a query worker's wall removes the global \`require\` (xquery/worker/host-wall.ts), and
// modules it loads on first use are transpiled after that
const { threadId } = require('worker_threads');
const transformerRoot = path.dirname(projectRequire.resolve('sucrase/package.json'));
const cacheDir = ${JSON.stringify(transpileCacheDir())};
const salt = fs.readFileSync(path.join(transformerRoot, 'package.json'), 'utf8') + '\\0' + ${JSON.stringify(JSON.stringify(SOURCE_TRANSFORM))};
let sucrase;
// The cache only saves time: where a file cannot be written, the next worker makes it again.
function keep(file, data) {
  const temp = file + '.' + process.pid + '.' + threadId + '.tmp';
  try {
    fs.mkdirSync(cacheDir, { recursive: true });
    fs.writeFileSync(temp, data);
    fs.renameSync(temp, file);
  } catch {
    fs.rmSync(temp, { force: true });
  }
}
/** The module's JavaScript, and the digest that names it. */
function transpile(source, filename) {
  const key = crypto.createHash('sha256').update(salt).update('\\0' + filename + '\\0').update(source).digest('hex');
  const cached = path.join(cacheDir, key + '.js');
  try {
    return { key, code: fs.readFileSync(cached, 'utf8') };
  } catch {
    // not transpiled yet
  }
  sucrase ??= projectRequire('sucrase');
  const { code, sourceMap } = sucrase.transform(source, { ...${JSON.stringify(SOURCE_TRANSFORM)}, filePath: filename, sourceMapOptions: { compiledFilename: filename } });
  const out = code + '\\n//# sourceMappingURL=data:application/json;base64,' + Buffer.from(JSON.stringify(sourceMap)).toString('base64') + '\\n';
  keep(cached, out);
  return { key, code: out };
}
// V8's code cache of each module is kept too, so that a thread or process deserializes a module
// instead of parsing it (a query worker loads about 230 of them: 20 ms less of each start). It
// is made after the module ran, so it holds the functions its loading compiled as well. Its name
// adds to the JavaScript's digest what V8 checks a cache against (source-cache.ts
// codeCacheContext, whose text is this), which a process started with other flags would reject;
// V8 checks a cache's source by its length only, so the digest is what keeps a cache with its text.
const vm = require('vm');
/** Per module file: whether its kept code cache was 'accepted' or 'rejected' by V8, or 'made' (there was none). */
const codeCacheOutcomes = new Map();
const v8 = crypto.createHash('sha256').update((${codeCacheContext.toString()})()).digest('hex').slice(0, 16);
/** \`require\` of \`module\`, as Node's loader gives a module it compiles. */
function requireOf(module) {
  const require = (id) => module.require(id);
  require.resolve = (request, options) => Module._resolveFilename(request, module, false, options);
  require.resolve.paths = (request) => Module._resolveLookupPaths(request, module);
  require.main = process.mainModule;
  require.extensions = Module._extensions;
  require.cache = Module._cache;
  return require;
}
Module._extensions['.ts'] = function (module, filename) {
  const { key, code } = transpile(fs.readFileSync(filename, 'utf8'), filename);
  const cacheFile = path.join(cacheDir, key + '.' + v8 + '.v8');
  let cachedData;
  try {
    cachedData = fs.readFileSync(cacheFile);
  } catch {
    // not compiled yet
  }
  const script = new vm.Script(Module.wrap(code), { filename, cachedData });
  codeCacheOutcomes.set(filename, cachedData === undefined ? 'made' : script.cachedDataRejected ? 'rejected' : 'accepted');
  const body = script.runInThisContext({ displayErrors: true });
  body.call(module.exports, module.exports, requireOf(module), module, filename, path.dirname(filename));
  if (cachedData === undefined || script.cachedDataRejected) keep(cacheFile, script.createCachedData());
};
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, parent, ...rest) {
  try {
    return resolve.call(this, request, parent, ...rest);
  } catch (e) {
    if (/^\\.{1,2}\\//.test(request) && request.endsWith('.js')) {
      return resolve.call(this, request.slice(0, -3) + '.ts', parent, ...rest);
    }
    throw e;
  }
};
`;
}

/** The bootstrap that a source-mode worker evaluates; `threadFile` is the .ts entry. */
function sourceBootstrap(threadFile: string): string {
  return `${sourceLoader()}projectRequire(${JSON.stringify(threadFile)});\n`;
}

/** Starts a worker on `base` (a module path without extension) with the given options. */
export function startThread(base: string, options: WorkerOptions = {}): Worker {
  if (FROM_SOURCE) {
    pruneSourceCache();
    return new Worker(sourceBootstrap(`${base}.ts`), { ...options, eval: true });
  }
  return new Worker(`${base}.js`, options);
}

/**
 * Starts a Node process on `base` (a module path without extension): `execArgv` are Node's
 * flags, `options` those of `child_process.spawn`.
 */
export function startProcess(base: string, execArgv: readonly string[], options: SpawnOptions): ChildProcess {
  if (FROM_SOURCE) pruneSourceCache();
  const entry = FROM_SOURCE ? ['-e', sourceBootstrap(`${base}.ts`)] : [`${base}.js`];
  return spawn(process.execPath, [...execArgv, ...entry], options);
}
