/**
 * Runs code in a fresh worker thread that loads the package's modules from source, for tests
 * of one wall of the query sandbox alone: the thread applies only what the test asks for (a
 * saxon-js patch, the host wall), whatever a query worker or child process would add.
 */
import path from 'node:path';
import { Worker, type Transferable } from 'node:worker_threads';

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
  const code = `
    const Module = require('module');
    const fs = require('fs');
    const path = require('path');
    const { parentPort } = require('worker_threads');
    const root = ${JSON.stringify(LIB)};
    const load = Module.createRequire(path.join(root, 'index.ts'));
    const ts = load('typescript');
    Module._extensions['.ts'] = (module, filename) => {
      const out = ts.transpileModule(fs.readFileSync(filename, 'utf8'), { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true } });
      module._compile(out.outputText, filename);
    };
    const lib = (name) => load(path.join(root, name));
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
