/**
 * The wall inside query workers, tested on its own: raw XPath and stylesheets go straight to a
 * worker (no translation, so no allow-list) and call saxon-js's host bindings.
 */
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { QueryPool } from '../../../lib/xquery/worker/pool';
import { select } from '../runtime/helpers';

const IXSL = 'Q{http://saxonica.com/ns/interactiveXSLT}';
const GLOBAL_JS = 'Q{http://saxonica.com/ns/globalJS}';

let pool: QueryPool;
beforeAll(() => {
  pool = new QueryPool({ size: 1 });
});
afterAll(() => pool.close());

/** The result of raw XPath in a worker, or `error CODE message`. */
async function xpath(expr: string): Promise<string> {
  try {
    return (await pool.run({ xslt: '', xpath: expr, serialization: { method: 'text' } })).body;
  } catch (e) {
    return `error ${(e as { code?: string }).code} ${(e as Error).message}`;
  }
}

/** The result of a raw stylesheet's `main` template in a worker, or `error CODE message`. */
async function stylesheet(text: string): Promise<string> {
  try {
    return (await pool.run({ xslt: text, initialTemplate: 'main', serialization: { method: 'text' } })).body;
  } catch (e) {
    return `error ${(e as { code?: string }).code} ${(e as Error).message}`;
  }
}

const REFUSED = /^error \S+ .*Code generation from strings is disabled in query workers\./;
/** saxon-js's report of a JavaScript call that threw: here, of the refusing `Function`. */
const CALL_REFUSED = /^error SXJS0007 Failed to call method function Function\(\)/;

describe('the host wall in query workers', () => {
  test('saxon-js still evaluates XPath and stylesheets behind it', async () => {
    expect(await xpath('string-join((1 to 3) ! string(), ",")')).toBe('1,2,3');
    expect(await stylesheet(select('upper-case("ok")'))).toBe('OK');
  });

  test('ixsl:eval and globalJS:eval compile no code', async () => {
    expect(await xpath(`${IXSL}eval("1+41")`)).toMatch(REFUSED);
    expect(await xpath(`${GLOBAL_JS}eval("1+41")`)).toBe("error SXJS0007 ixsl:call: object method 'eval' not found");
    expect(await stylesheet(select(`${IXSL}eval("1+41")`))).toMatch(REFUSED);
  });

  test('ixsl:window() is an empty object: no process, require, fetch or platform', async () => {
    for (const name of ['process', 'require', 'module', 'fetch', 'HostPlatform', 'globalThis', 'global', 'Function']) {
      expect(await xpath(`${IXSL}contains(${IXSL}window(), "${name}")`)).toBe('false');
    }
    expect(await xpath(`${GLOBAL_JS}process()`)).toBe("error SXJS0007 ixsl:call: object method 'process' not found");
    expect(await stylesheet(select(`${IXSL}contains(${IXSL}window(), "process")`))).toBe('false');
  });

  test('the Function constructor reached through any value refuses to compile', async () => {
    const nodeCtor = `${IXSL}get(parse-xml("<a/>"), "constructor")`;
    expect(await xpath(`${IXSL}call(${nodeCtor}, "constructor", ["return 7"])`)).toMatch(CALL_REFUSED);
    expect(await xpath(`${IXSL}apply(${IXSL}get(1, "constructor.constructor"), ["return 7"])`)).toMatch(CALL_REFUSED);
    expect(await xpath(`${IXSL}call(${IXSL}get(abs#1, "constructor"), "constructor", ["return 7"])`)).toMatch(CALL_REFUSED);
    expect(await xpath(`${IXSL}call(map {}, "constructor.constructor", ["return 7"])`)).toMatch(/^error /);
  });

  test('in a thread with the wall up, every way to the Function constructors refuses', async () => {
    const results = await inWalledThread(`
      const attempts = {
        Function: () => Function('return 1')(),
        newFunction: () => new Function('return 1')(),
        eval: () => eval('1'),
        indirectEval: () => (0, globalThis.eval)('1'),
        prototypeConstructor: () => (function () {}).constructor('return 1')(),
        asyncFunction: () => Object.getPrototypeOf(async function () {}).constructor('return 1'),
        generatorFunction: () => Object.getPrototypeOf(function* () {}).constructor('yield 1'),
        asyncGeneratorFunction: () => Object.getPrototypeOf(async function* () {}).constructor('yield 1'),
        reassign: () => { globalThis.Function = function () { return 1; }; return globalThis.Function('x'); },
      };
      const out = {};
      for (const [name, attempt] of Object.entries(attempts)) {
        try { attempt(); out[name] = 'ran'; } catch (e) { out[name] = e.constructor.name; }
      }
      out.instanceOf = (() => 1) instanceof Function;
      out.fetch = typeof fetch;
      return out;
    `);
    expect(results).toEqual({
      Function: 'EvalError',
      newFunction: 'EvalError',
      eval: 'EvalError',
      indirectEval: 'EvalError',
      prototypeConstructor: 'EvalError',
      asyncFunction: 'EvalError',
      generatorFunction: 'EvalError',
      asyncGeneratorFunction: 'EvalError',
      reassign: 'EvalError',
      instanceOf: true,
      fetch: 'undefined',
    });
    expect(Function('return 1')()).toBe(1); // this thread is untouched
  });
});

/**
 * Raises the wall (worker/host-wall.ts, loaded from source) in a fresh thread, then runs `body`
 * there (a function body returning structured-clone data) and answers its result.
 */
function inWalledThread(body: string): Promise<unknown> {
  const wall = path.join(__dirname, '../../../lib/xquery/worker/host-wall.ts');
  const code = `
    const Module = require('module');
    const fs = require('fs');
    const { parentPort } = require('worker_threads');
    const load = Module.createRequire(${JSON.stringify(wall)});
    const ts = load('typescript');
    Module._extensions['.ts'] = (module, filename) => {
      const out = ts.transpileModule(fs.readFileSync(filename, 'utf8'), { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true } });
      module._compile(out.outputText, filename);
    };
    load(${JSON.stringify(wall)}).raiseHostWall();
    parentPort.postMessage((() => { ${body} })());
  `;
  return new Promise((resolve, reject) => {
    const worker = new Worker(code, { eval: true });
    worker.once('message', (m) => {
      resolve(m);
      void worker.terminate();
    });
    worker.once('error', reject);
  });
}
