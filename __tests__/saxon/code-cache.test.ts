/**
 * The code cache of a CommonJS script that the main thread publishes for worker threads
 * (lib/saxon/code-cache.ts). The thread is simulated: `node:worker_threads` answers whether this
 * is the main thread as the test sets it, and keeps environment data as Node does for the
 * workers started after it was set; it starts no thread, so the main thread compiles the cache
 * itself (code-cache-thread.test.ts has the real thread).
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import Module from 'node:module';
import path from 'node:path';

const mockThread = { main: true, environment: new Map<unknown, unknown>() };

jest.mock('node:worker_threads', () => ({
  get isMainThread() {
    return mockThread.main;
  },
  getEnvironmentData: (key: unknown) => mockThread.environment.get(key),
  setEnvironmentData: (key: unknown, value: unknown) => mockThread.environment.set(key, value),
}));

import { codeCacheOutcome, keepWarmCodeCaches, publishCodeCache, requireFromCodeCache } from '../../lib/saxon/code-cache';
import { keptCodeCacheFile } from '../../lib/saxon/kept-code-cache';
import { tempDir } from '../helpers/temp-dir';

let dir: string;

/** The texts of the scripts written, whose caches a run from source keeps (kept-code-cache.ts): removed after each test. */
const texts: string[] = [];

/**
 * A script that requires a sibling by a relative path and answers what Node's module wrapper gives
 * it; its text is this run's only, so that no cache kept by an earlier run is read for it.
 */
function writeScript(name: string, answer: number): string {
  const file = path.join(dir, name);
  fs.writeFileSync(path.join(dir, 'sibling.js'), 'module.exports = "sibling";');
  const text = `// ${randomUUID()}\nconst sibling = require('./sibling');\nmodule.exports = { answer: ${answer}, sibling, filename: __filename, dirname: __dirname, self: module.id, shared: exports === module.exports && this === exports };\n`;
  texts.push(text);
  fs.writeFileSync(file, text);
  return file;
}

beforeEach(() => {
  dir = tempDir('xmldb-code-cache-');
  mockThread.main = true;
  mockThread.environment.clear();
});

afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
  // the warm caches of the scripts a simulated worker ran are kept now, to be removed with the rest
  keepWarmCodeCaches();
  for (const text of texts.splice(0)) for (const warm of [false, true]) fs.rmSync(keptCodeCacheFile(Module.wrap(text), warm), { force: true });
});

describe('a code cache published by the main thread', () => {
  it('is one SharedArrayBuffer per script, published once', () => {
    const file = writeScript('a.js', 1);
    publishCodeCache(file);
    // the cache, and (from source) the files it was kept in
    const published = [...mockThread.environment.values()];
    expect(published).toHaveLength(2);
    expect(published[0]).toBeInstanceOf(SharedArrayBuffer);
    expect(published[1]).toEqual({ file: expect.any(String), warmFile: expect.any(String) });
    expect((published[0] as SharedArrayBuffer).byteLength).toBeGreaterThan(0);
    publishCodeCache(file);
    expect([...mockThread.environment.values()]).toEqual(published);
  });

  it('is not published from a worker', () => {
    mockThread.main = false;
    publishCodeCache(writeScript('b.js', 2));
    expect(mockThread.environment.size).toBe(0);
  });

  it("compiles a worker's module, which runs as Node runs it", () => {
    const file = writeScript('c.js', 3);
    publishCodeCache(file);
    mockThread.main = false;
    const exports = requireFromCodeCache(file);
    expect(exports).toEqual({ answer: 3, sibling: 'sibling', filename: file, dirname: dir, self: file, shared: true });
    expect(codeCacheOutcome(file)).toBe('accepted');
  });

  it('published with a text other than the file\'s gives a worker that text, which it runs without making it again', () => {
    const file = writeScript('h.js', 9);
    const text = `// ${randomUUID()}\nmodule.exports = { answer: 10, filename: __filename };\n`;
    texts.push(text);
    publishCodeCache(file, () => text);
    // the cache, the files it was kept in, the text
    const published = [...mockThread.environment.values()];
    expect(published).toHaveLength(3);
    mockThread.main = false;
    const exports = requireFromCodeCache(file, () => {
      throw new Error('the text was made again');
    });
    expect(exports).toEqual({ answer: 10, filename: file });
    expect(codeCacheOutcome(file)).toBe('accepted');
  });

  it('that does not match the source is rejected by V8, and the module compiled from its source', () => {
    const file = writeScript('d.js', 4);
    publishCodeCache(file);
    fs.writeFileSync(file, 'module.exports = { answer: 5 };\n');
    mockThread.main = false;
    expect(requireFromCodeCache(file)).toEqual({ answer: 5 });
    expect(codeCacheOutcome(file)).toBe('rejected');
  });

  it('kept on disk (from source) but rejected by V8 is removed by the thread that finds it rejected, and the module compiled from its source', () => {
    const file = writeScript('g.js', 8);
    const kept = keptCodeCacheFile(Module.wrap(fs.readFileSync(file, 'utf8')));
    fs.mkdirSync(path.dirname(kept), { recursive: true });
    fs.writeFileSync(kept, 'not a code cache');
    publishCodeCache(file);
    mockThread.main = false;
    expect(requireFromCodeCache(file)).toEqual({ answer: 8, sibling: 'sibling', filename: file, dirname: dir, self: file, shared: true });
    expect(codeCacheOutcome(file)).toBe('rejected');
    expect(fs.existsSync(kept)).toBe(false);
  });

  it('is compiled in the main thread when no thread can compile it (here node:worker_threads has no Worker)', () => {
    const file = writeScript('f.js', 7);
    publishCodeCache(file);
    const [published] = [...mockThread.environment.values()];
    expect(published).toBeInstanceOf(SharedArrayBuffer);
    mockThread.main = false;
    expect(requireFromCodeCache(file)).toEqual({ answer: 7, sibling: 'sibling', filename: file, dirname: dir, self: file, shared: true });
    expect(codeCacheOutcome(file)).toBe('accepted');
  });

  it("is not there for a main thread under a loader with a registry of its own (jest's), nor for a worker started before it was published: the caller requires the module", () => {
    const file = writeScript('e.js', 6);
    expect(requireFromCodeCache(file)).toBeUndefined();
    publishCodeCache(file);
    expect(requireFromCodeCache(file)).toBeUndefined(); // main thread, jest's registry
    mockThread.environment.clear();
    mockThread.main = false;
    expect(requireFromCodeCache(file)).toBeUndefined();
    expect(codeCacheOutcome(file)).toBeUndefined();
  });
});

describe('a warm code cache (from source: kept-code-cache.ts)', () => {
  /** The files of the published cache of `file`: the one it came from, and where a warm one goes. */
  const keptFiles = (file: string) => mockThread.environment.get(`xmldb-rest:code-cache-files:${file}`) as { file: string; warmFile?: string };

  it('is kept by a worker that ran the script from a cold cache, once, and published as warm by the next process', () => {
    const file = writeScript('w.js', 9);
    const warmFile = keptCodeCacheFile(Module.wrap(fs.readFileSync(file, 'utf8')), true);
    publishCodeCache(file);
    expect(keptFiles(file)).toEqual({ file: keptCodeCacheFile(Module.wrap(fs.readFileSync(file, 'utf8'))), warmFile });
    mockThread.main = false;
    expect(requireFromCodeCache(file)).toMatchObject({ answer: 9 });
    expect(fs.existsSync(warmFile)).toBe(false);
    keepWarmCodeCaches();
    const kept = fs.readFileSync(warmFile);
    expect(kept.length).toBeGreaterThan(0);
    // once: a second call keeps nothing more
    fs.rmSync(warmFile);
    keepWarmCodeCaches();
    expect(fs.existsSync(warmFile)).toBe(false);
    fs.writeFileSync(warmFile, kept);

    // the next process: publishes the warm cache, marked so, and its workers keep none
    mockThread.environment.clear();
    mockThread.main = true;
    publishCodeCache(file);
    expect(keptFiles(file)).toEqual({ file: warmFile, warmFile: undefined });
    const published = mockThread.environment.get(`xmldb-rest:code-cache:${file}`) as SharedArrayBuffer;
    expect(Buffer.from(published).equals(kept)).toBe(true);
    mockThread.main = false;
    delete require.cache[file];
    expect(requireFromCodeCache(file)).toMatchObject({ answer: 9 });
    expect(codeCacheOutcome(file)).toBe('accepted');
    fs.rmSync(warmFile);
    keepWarmCodeCaches();
    expect(fs.existsSync(warmFile)).toBe(false);
  });

  it('rejected by V8 is removed by the thread that finds it rejected, and the cold one kept', () => {
    const file = writeScript('x.js', 10);
    const wrapped = Module.wrap(fs.readFileSync(file, 'utf8'));
    fs.mkdirSync(path.dirname(keptCodeCacheFile(wrapped, true)), { recursive: true });
    fs.writeFileSync(keptCodeCacheFile(wrapped, true), 'not a code cache');
    fs.writeFileSync(keptCodeCacheFile(wrapped), 'a cold one');
    publishCodeCache(file);
    expect(keptFiles(file)).toEqual({ file: keptCodeCacheFile(wrapped, true), warmFile: undefined });
    mockThread.main = false;
    expect(requireFromCodeCache(file)).toMatchObject({ answer: 10 });
    expect(codeCacheOutcome(file)).toBe('rejected');
    expect(fs.existsSync(keptCodeCacheFile(wrapped, true))).toBe(false);
    expect(fs.readFileSync(keptCodeCacheFile(wrapped), 'utf8')).toBe('a cold one');
  });
});
