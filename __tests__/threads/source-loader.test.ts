/**
 * The `.ts` loader of source mode (threads/launch.ts `sourceLoader`) in a query worker whose wall
 * is up (xquery/worker/host-wall.ts removes the global `require` of a thread evaluated from a
 * string): a module the worker loads on first use, never transpiled before, still loads.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { Worker } from 'node:worker_threads';
import { sourceLoader } from '../../lib/threads/launch';
import { codeCacheContext, transpileCacheDir } from '../../lib/threads/source-cache';
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
  /**
   * The kept code caches of the modules whose text holds `marker`: named by the digest that names
   * their JavaScript (`<digest>.js`), with what V8 checks added. Other test files make caches
   * meanwhile, so a cache is found by its module's text, not by being new.
   */
  const cachesOf = (marker: string) => keptOf(marker).filter((name) => name.endsWith('.v8'));
  /** The kept files (JavaScript and code caches) of the modules whose text holds `marker`. */
  const keptOf = (marker: string) => {
    const names = fs.readdirSync(transpileCacheDir());
    const digests = names.filter((name) => name.endsWith('.js') && fs.readFileSync(path.join(transpileCacheDir(), name), 'utf8').includes(marker)).map((name) => name.slice(0, -'.js'.length));
    return names.filter((name) => digests.includes(name.split('.')[0]));
  };
  let dir: string;
  let marker: string;
  beforeEach(() => {
    dir = tempDir('xmldb-code-cache-');
    // a text of this test only: never transpiled nor compiled before
    marker = randomUUID();
  });
  afterEach(() => {
    for (const name of keptOf(marker)) fs.rmSync(path.join(transpileCacheDir(), name), { force: true });
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('is made by the first thread that loads the module, and taken by the next', async () => {
    const module = path.join(dir, 'cached.ts');
    fs.writeFileSync(module, `const tagged = (n: number): string => ${JSON.stringify(marker)} + n;\nexport default tagged(1);\n`);
    expect(await load(module)).toEqual({ answer: `${marker}1`, cache: 'made' });
    expect(cachesOf(marker)).toHaveLength(1);
    expect(await load(module)).toEqual({ answer: `${marker}1`, cache: 'accepted' });
    expect(cachesOf(marker)).toHaveLength(1);
  });

  test("a text edited to another of the same length never runs the old text's code (V8 checks a cache by the length of its source)", async () => {
    const module = path.join(dir, 'edited.ts');
    fs.writeFileSync(module, `export default "first ${marker}";\n`);
    expect(await load(module)).toEqual({ answer: `first ${marker}`, cache: 'made' });
    fs.writeFileSync(module, `export default "other ${marker}";\n`);
    expect(await load(module)).toEqual({ answer: `other ${marker}`, cache: 'made' });
    expect(cachesOf(marker)).toHaveLength(2);
  });

  test('is shared by processes that run different scripts with the same flags (a script from -e sets no V8 flag)', () => {
    const module = path.join(dir, 'shared.ts');
    fs.writeFileSync(module, `export default ${JSON.stringify(marker)};\n`);
    // each process's script names something of its own, as a test server's names its data folder
    const run = (own: string) => {
      const script = `${sourceLoader()}\nconst answer = projectRequire(${JSON.stringify(module)}).default;\nprocess.stdout.write(JSON.stringify({ answer, cache: codeCacheOutcomes.get(${JSON.stringify(module)}), own: ${JSON.stringify(own)} }));\n`;
      const child = spawnSync(process.execPath, ['--max-old-space-size=512', '-e', script], { encoding: 'utf8' });
      return JSON.parse(child.stdout) as unknown;
    };
    expect(run('first')).toEqual({ answer: marker, cache: 'made', own: 'first' });
    expect(run('second')).toEqual({ answer: marker, cache: 'accepted', own: 'second' });
    expect(cachesOf(marker)).toHaveLength(1);
  });

  test('a damaged cache is rejected: the module is compiled from its text, and the cache made again', async () => {
    const module = path.join(dir, 'damaged.ts');
    fs.writeFileSync(module, `export default ${JSON.stringify(marker)};\n`);
    await load(module);
    const [name] = cachesOf(marker);
    fs.writeFileSync(path.join(transpileCacheDir(), name), Buffer.alloc(fs.statSync(path.join(transpileCacheDir(), name)).size, 7));
    expect(await load(module)).toEqual({ answer: marker, cache: 'rejected' });
    expect(await load(module)).toEqual({ answer: marker, cache: 'accepted' });
  });
});

test("the context of a kept code cache: Node's version and architecture, the flags, not an evaluated script", () => {
  const context = (execArgv: string[], nodeOptions = '') => codeCacheContext(execArgv, nodeOptions);
  expect(context(['--max-old-space-size=64', '-e', 'one()'])).toBe(context(['--max-old-space-size=64', '-e', 'another()']));
  expect(context(['--eval=one()', '--stack-size=900'])).toBe(context(['--stack-size=900', '--print', 'x']));
  expect(context(['--max-old-space-size=64'])).not.toBe(context(['--max-old-space-size=128']));
  expect(context([], '--max-semi-space-size=64')).not.toBe(context([]));
  expect(context([])).toBe([process.version, process.arch, ''].join('\0'));
});

