/**
 * From source, a process keeps the code cache it publishes for its workers on disk, and the next
 * process with the same Node and flags reads it instead of compiling (lib/saxon/kept-code-cache.ts).
 */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { keptCodeCache, keptCodeCacheFile } from '../../lib/saxon/kept-code-cache';
import { sourceLoader } from '../../lib/threads/launch';
import { transpileCacheDir } from '../../lib/threads/source-cache';

const run = promisify(execFile);

const created: string[] = [];
afterAll(() => {
  for (const file of created) fs.rmSync(file, { force: true });
});

/** A script text of this run only, so that no earlier run kept its cache. */
function freshScript(): string {
  return `(function (exports, require, module, __filename, __dirname) { module.exports = '${randomUUID()}'; })`;
}

/** A compile that counts its calls and answers `bytes`. */
function counting(bytes: number[]): { compile: () => SharedArrayBuffer; calls: () => number } {
  let calls = 0;
  return {
    compile: () => {
      calls++;
      const shared = new SharedArrayBuffer(bytes.length);
      new Uint8Array(shared).set(bytes);
      return shared;
    },
    calls: () => calls,
  };
}

test('the first call compiles and keeps the cache; the next reads it without compiling', () => {
  const script = freshScript();
  const file = keptCodeCacheFile(script);
  created.push(file);
  const first = counting([1, 2, 3, 4]);
  expect([...new Uint8Array(keptCodeCache(() => script, first.compile)!.shared)]).toEqual([1, 2, 3, 4]);
  expect(first.calls()).toBe(1);
  expect([...fs.readFileSync(file)]).toEqual([1, 2, 3, 4]);

  const second = counting([9]);
  const kept = keptCodeCache(() => script, second.compile)!;
  expect(second.calls()).toBe(0);
  expect(kept.shared).toBeInstanceOf(SharedArrayBuffer);
  expect([...new Uint8Array(kept.shared)]).toEqual([1, 2, 3, 4]);
  expect(kept.file).toBe(file);
  expect(kept.warmFile).toBe(keptCodeCacheFile(script, true));
});

test('another script text has a file of its own', () => {
  const [a, b] = [freshScript(), freshScript()];
  created.push(keptCodeCacheFile(a), keptCodeCacheFile(b));
  expect(keptCodeCacheFile(a)).not.toBe(keptCodeCacheFile(b));
  expect(path.dirname(keptCodeCacheFile(a))).toBe(transpileCacheDir());
  keptCodeCache(() => a, counting([1]).compile);
  const other = counting([2]);
  expect([...new Uint8Array(keptCodeCache(() => b, other.compile)!.shared)]).toEqual([2]);
  expect(other.calls()).toBe(1);
});

test('an empty kept file is compiled again and replaced', () => {
  const script = freshScript();
  const file = keptCodeCacheFile(script);
  created.push(file);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, '');
  const again = counting([5, 6]);
  expect([...new Uint8Array(keptCodeCache(() => script, again.compile)!.shared)]).toEqual([5, 6]);
  expect(again.calls()).toBe(1);
  expect([...fs.readFileSync(file)]).toEqual([5, 6]);
});

test("a second process from source publishes saxon-js's cache without compiling it", async () => {
  // counts the compilations of the cache in a thread while the process publishes saxon-js's cache
  const script = `${sourceLoader()}
const thread = projectRequire('../saxon/code-cache-thread.ts');
const compile = thread.codeCacheFromThread;
let compiled = 0;
thread.codeCacheFromThread = (...args) => (compiled++, compile(...args));
projectRequire('../saxon/load.ts').publishSaxonCodeCache();
const { getEnvironmentData } = require('node:worker_threads');
const saxon = require.resolve('saxon-js');
const shared = getEnvironmentData('xmldb-rest:code-cache:' + saxon);
process.stdout.write(JSON.stringify({ compiled, bytes: shared.byteLength, file: getEnvironmentData('xmldb-rest:code-cache-files:' + saxon).file }));
`;
  // a title of this run only: part of the flags, so no earlier run kept this cache
  const env = { ...process.env, NODE_OPTIONS: `--title=kept-code-cache-${randomUUID()}` };
  type Printed = { compiled: number; bytes: number; file: string };
  const first = JSON.parse((await run(process.execPath, ['-e', script], { env, cwd: path.join(__dirname, '..', '..') })).stdout) as Printed;
  created.push(first.file);
  const second = JSON.parse((await run(process.execPath, ['-e', script], { env, cwd: path.join(__dirname, '..', '..') })).stdout) as Printed;
  expect(first.compiled).toBe(1);
  expect(first.bytes).toBeGreaterThan(1_000_000);
  expect(path.dirname(first.file)).toBe(transpileCacheDir());
  expect(second).toEqual({ compiled: 0, bytes: first.bytes, file: first.file });
}, 60_000);

test("a query worker that compiled and ran a stylesheet keeps saxon-js's warm cache, which the next process publishes", async () => {
  const script = `${sourceLoader()}
const { QueryPool } = projectRequire('../xquery/host/pool.ts');
const { getEnvironmentData } = require('node:worker_threads');
const saxon = require.resolve('saxon-js');
const xslt = '<xsl:stylesheet version="3.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform"><xsl:template name="xsl:initial-template"><xsl:sequence select="6 * 7"/></xsl:template></xsl:stylesheet>';
(async () => {
  const pool = new QueryPool({ size: 1 });
  // the second run is answered after the worker kept the cache it made after the first
  const bodies = [(await pool.run({ xslt })).body, (await pool.run({ xslt })).body];
  await pool.close();
  // the files of the cache the process published: the one it read, and where a warm one goes
  process.stdout.write(JSON.stringify({ bodies, files: getEnvironmentData('xmldb-rest:code-cache-files:' + saxon) }));
})();
`;
  // a title of this run only: part of the flags, so no earlier run kept these caches
  const env = { ...process.env, NODE_OPTIONS: `--title=warm-code-cache-${randomUUID()}` };
  const cwd = path.join(__dirname, '..', '..');
  type Printed = { bodies: string[]; files: { file: string; warmFile?: string } };
  const first = JSON.parse((await run(process.execPath, ['-e', script], { env, cwd })).stdout) as Printed;
  created.push(first.files.file, ...(first.files.warmFile === undefined ? [] : [first.files.warmFile]));
  expect(first.bodies).toEqual(['42', '42']);
  expect(path.basename(first.files.file)).toMatch(/^code-cache-[0-9a-f]{64}\.bin$/);
  expect(first.files.warmFile).toBe(path.join(path.dirname(first.files.file), path.basename(first.files.file).replace('code-cache-', 'code-cache-warm-')));
  expect(fs.statSync(first.files.warmFile!).size).toBeGreaterThan(1_000_000);
  // the next process publishes the warm cache, and its worker keeps none
  const second = JSON.parse((await run(process.execPath, ['-e', script], { env, cwd })).stdout) as Printed;
  expect(second).toEqual({ bodies: ['42', '42'], files: { file: first.files.warmFile } });
}, 60_000);
