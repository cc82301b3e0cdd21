/**
 * Runs code in a fresh worker thread that loads the package's modules from source, for tests
 * of one wall of the query sandbox alone: the thread applies only what the test asks for (a
 * saxon-js patch, the host wall), whatever a query worker or child process would add.
 */
import path from 'node:path';
import { Worker, type Transferable } from 'node:worker_threads';
import { sourceLoader } from '../../lib/threads/launch';

const LIB = path.join(__dirname, '../../lib');

/**
 * Runs `body` (a function body returning structured-clone data) in a fresh thread and answers
 * its result. In `body`, `lib('saxon/patches')` requires `lib/saxon/patches` from TypeScript
 * source. `env`: the thread's environment (default: a copy of this process's); `workerData` and
 * `transferList`: what the thread gets as `require('worker_threads').workerData`.
 */
export function inFreshThread(
  body: string,
  options: { readonly env?: NodeJS.ProcessEnv; readonly workerData?: unknown; readonly transferList?: readonly Transferable[] } = {},
): Promise<unknown> {
  // The package's own source-mode loader (threads/launch.ts): sucrase with the transpile cache
  // every source-mode thread shares, rather than the TypeScript compiler loaded in each thread.
  // It runs in a function of its own, as its code is strict: the body runs as a script does,
  // in sloppy mode (a wall test assigns to frozen globals and expects what a script gets).
  const code = `
    const { projectRequire, path } = (() => {${sourceLoader()}
      return { projectRequire, path };
    })();
    const { parentPort } = require('worker_threads');
    const root = ${JSON.stringify(LIB)};
    const lib = (name) => projectRequire(path.join(root, name));
    parentPort.postMessage((() => { ${body} })());
  `;
  return new Promise((resolve, reject) => {
    const worker = new Worker(code, {
      eval: true,
      ...(options.env ? { env: options.env } : {}),
      ...(options.workerData !== undefined ? { workerData: options.workerData, transferList: [...(options.transferList ?? [])] } : {}),
    });
    worker.once('message', (m) => {
      resolve(m);
      void worker.terminate();
    });
    worker.once('error', reject);
  });
}
