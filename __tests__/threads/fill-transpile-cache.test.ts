/**
 * `npm test` fills the source loader's transpile cache before jest starts
 * (scripts/fill-transpile-cache.js): a process that then loads a module from source reads its
 * JavaScript and never loads the transformer.
 */
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { sourceLoader } from '../../lib/threads/launch';
import { transpileCacheDir } from '../../lib/threads/source-cache';
import { tempDir } from '../helpers/temp-dir';

const { fillTranspileCache } = require('../../scripts/fill-transpile-cache') as { fillTranspileCache: (root: string, folder?: string) => void };
const ROOT = path.join(__dirname, '..', '..');

/** Loads `file` from source in a new process: its export, and whether the process loaded sucrase. */
function loadFromSource(file: string): { value: string; transformer: boolean } {
  const script = `${sourceLoader()}
const value = projectRequire(${JSON.stringify(file)}).value;
console.log(JSON.stringify({ value, transformer: Object.keys(require.cache).some((f) => f.includes(path.sep + 'sucrase' + path.sep)) }));`;
  const { stdout, stderr, status } = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
  if (status !== 0) throw new Error(stderr);
  return JSON.parse(stdout) as { value: string; transformer: boolean };
}

const values: string[] = [];
// the cache files of these modules: their JavaScript holds a value of this file, their code caches
// are named after it
afterAll(() => {
  const dir = transpileCacheDir();
  const ours = fs.readdirSync(dir).filter((name) => name.endsWith('.js') && values.some((v) => fs.readFileSync(path.join(dir, name), 'utf8').includes(v)));
  const keys = ours.map((name) => name.slice(0, -'.js'.length));
  for (const name of fs.readdirSync(dir)) if (keys.some((key) => name.startsWith(key))) fs.rmSync(path.join(dir, name), { force: true });
});

/** A folder with two modules new to the cache (their text is unique), one importing the other. */
function modules(): { folder: string; entry: string; value: string } {
  const folder = fs.realpathSync(tempDir('xmldb-fill-'));
  const value = randomUUID();
  values.push(value);
  fs.mkdirSync(path.join(folder, 'inner'));
  fs.writeFileSync(path.join(folder, 'inner', 'part.ts'), `export const part: string = '${value}';\n`);
  fs.writeFileSync(path.join(folder, 'entry.ts'), `import { part } from './inner/part';\nexport const value: string = part; // ${value}\n`);
  return { folder, entry: path.join(folder, 'entry.ts'), value };
}

test('after the fill, modules load from source without the transformer', () => {
  const { folder, entry, value } = modules();
  fillTranspileCache(ROOT, folder);
  expect(loadFromSource(entry)).toStrictEqual({ value, transformer: false });
});

test('without it, the first process to load them transpiles them (what the fill spares the processes a run starts together)', () => {
  const { entry, value } = modules();
  expect(loadFromSource(entry)).toStrictEqual({ value, transformer: true });
  expect(loadFromSource(entry)).toStrictEqual({ value, transformer: false });
});
