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
