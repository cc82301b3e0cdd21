/**
 * The `.ts` loader of source mode (threads/launch.ts `sourceLoader`) in a query worker whose wall
 * is up (xquery/worker/host-wall.ts removes the global `require` of a thread evaluated from a
 * string): a module the worker loads on first use, never transpiled before, still loads.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { sourceLoader } from '../../lib/threads/launch';
import { transpileCacheDir } from '../../lib/threads/source-cache';
import { tempDir } from '../helpers/temp-dir';

test('a module first loaded after the wall went up is transpiled, kept and run', async () => {
  const dir = tempDir('xmldb-source-loader-');
  const module = path.join(dir, 'late.ts');
  // a text of this run only: not in the transpile cache
  const marker = randomUUID();
  fs.writeFileSync(module, `const answer: string = ${JSON.stringify(marker)};\nexport default answer;\n`);
  const before = new Set(fs.existsSync(transpileCacheDir()) ? fs.readdirSync(transpileCacheDir()) : []);
  const script = `${sourceLoader()}
const { parentPort } = require('node:worker_threads');
projectRequire('../xquery/worker/host-wall.ts').raiseHostWall();
let answer;
try {
  answer = typeof require === 'undefined' ? projectRequire(${JSON.stringify(module)}).default : 'the wall left require';
} catch (e) {
  answer = 'failed: ' + e.message;
}
parentPort.postMessage(answer);
`;
  const worker = new Worker(script, { eval: true });
  const keptOfIt = () => (fs.existsSync(transpileCacheDir()) ? fs.readdirSync(transpileCacheDir()) : []).filter((name) => !before.has(name) && name.endsWith('.js') && fs.readFileSync(path.join(transpileCacheDir(), name), 'utf8').includes(marker));
  try {
    expect(await new Promise((resolve, reject) => worker.once('message', resolve).once('error', reject))).toBe(marker);
    expect(keptOfIt()).toHaveLength(1);
  } finally {
    await worker.terminate();
    for (const name of keptOfIt()) fs.rmSync(path.join(transpileCacheDir(), name), { force: true });
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

describe("each module's V8 code cache, kept beside its JavaScript", () => {
  /** Loads `module` in a fresh source-mode thread: its default export, and what became of its code cache. */
  async function load(module: string): Promise<{ answer: unknown; cache: unknown }> {
    const script = `${sourceLoader()}
const { parentPort } = require('node:worker_threads');
const answer = projectRequire(${JSON.stringify(module)}).default;
parentPort.postMessage({ answer, cache: codeCacheOutcomes.get(${JSON.stringify(module)}) });
`;
    const worker = new Worker(script, { eval: true });
    try {
      return await new Promise((resolve, reject) => worker.once('message', resolve).once('error', reject));
    } finally {
      await worker.terminate();
    }
  }
  /** The kept code caches made since `before` (names of the folder). */
  const cachesSince = (before: Set<string>) => fs.readdirSync(transpileCacheDir()).filter((name) => !before.has(name) && name.endsWith('.v8'));
  let dir: string;
  let before: Set<string>;
  beforeEach(() => {
    dir = tempDir('xmldb-code-cache-');
    before = new Set(fs.existsSync(transpileCacheDir()) ? fs.readdirSync(transpileCacheDir()) : []);
  });
  afterEach(() => {
    for (const name of fs.readdirSync(transpileCacheDir())) if (!before.has(name)) fs.rmSync(path.join(transpileCacheDir(), name), { force: true });
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('is made by the first thread that loads the module, and taken by the next', async () => {
    const module = path.join(dir, 'cached.ts');
    const marker = randomUUID();
    fs.writeFileSync(module, `const tagged = (n: number): string => ${JSON.stringify(marker)} + n;\nexport default tagged(1);\n`);
    expect(await load(module)).toEqual({ answer: `${marker}1`, cache: 'made' });
    expect(cachesSince(before)).toHaveLength(1);
    expect(await load(module)).toEqual({ answer: `${marker}1`, cache: 'accepted' });
    expect(cachesSince(before)).toHaveLength(1);
  });

  test("a text edited to another of the same length never runs the old text's code (V8 checks a cache by the length of its source)", async () => {
    const module = path.join(dir, 'edited.ts');
    fs.writeFileSync(module, 'export default "first";\n');
    expect(await load(module)).toEqual({ answer: 'first', cache: 'made' });
    fs.writeFileSync(module, 'export default "other";\n');
    expect(await load(module)).toEqual({ answer: 'other', cache: 'made' });
    expect(cachesSince(before)).toHaveLength(2);
  });

  test('a damaged cache is rejected: the module is compiled from its text, and the cache made again', async () => {
    const module = path.join(dir, 'damaged.ts');
    const marker = randomUUID();
    fs.writeFileSync(module, `export default ${JSON.stringify(marker)};\n`);
    await load(module);
    const [name] = cachesSince(before);
    fs.writeFileSync(path.join(transpileCacheDir(), name), Buffer.alloc(fs.statSync(path.join(transpileCacheDir(), name)).size, 7));
    expect(await load(module)).toEqual({ answer: marker, cache: 'rejected' });
    expect(await load(module)).toEqual({ answer: marker, cache: 'accepted' });
  });
});
