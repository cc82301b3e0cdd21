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
 *   it can never run stale code (an edited file has a new digest). Cache files are written to a
 *   temp name and renamed, so workers starting together never read half a file; the folder may be
 *   deleted at any time, and the files nobody has read or written for a week are (source-cache.ts
 *   `pruneSourceCache`).
 */
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import path from 'node:path';
import { Worker, type WorkerOptions } from 'node:worker_threads';
import { pruneSourceCache, transpileCacheDir } from './source-cache';

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
 * (node:module) and `projectRequire` (a `require` relative to this folder). The bootstrap of
 * threads and processes below ends with it; tests that run the standalone server from source in
 * a child process start with it, so every source-mode process shares the transpile cache.
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
function transpile(source, filename) {
  const key = crypto.createHash('sha256').update(salt).update('\\0' + filename + '\\0').update(source).digest('hex');
  const cached = path.join(cacheDir, key + '.js');
  try {
    return fs.readFileSync(cached, 'utf8');
  } catch {
    // not transpiled yet
  }
  sucrase ??= projectRequire('sucrase');
  const { code, sourceMap } = sucrase.transform(source, { ...${JSON.stringify(SOURCE_TRANSFORM)}, filePath: filename, sourceMapOptions: { compiledFilename: filename } });
  const out = code + '\\n//# sourceMappingURL=data:application/json;base64,' + Buffer.from(JSON.stringify(sourceMap)).toString('base64') + '\\n';
  const temp = cached + '.' + process.pid + '.' + threadId + '.tmp';
  try {
    fs.mkdirSync(cacheDir, { recursive: true });
    fs.writeFileSync(temp, out);
    fs.renameSync(temp, cached);
  } catch {
    // The cache only saves time: where it cannot be written, the next worker transpiles again.
    fs.rmSync(temp, { force: true });
  }
  return out;
}
Module._extensions['.ts'] = function (module, filename) {
  module._compile(transpile(fs.readFileSync(filename, 'utf8'), filename), filename);
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
