/**
 * The host wall inside query workers, tested on its own: raw XPath goes straight to saxon-js (no
 * translation, so no allow-list) in a thread where the host wall stands without the engine wall
 * before it, and calls saxon-js's host bindings.
 */
import { QueryPool } from '../../../lib/xquery/host/pool';
import { inFreshThread } from '../../helpers/fresh-thread';
import { select } from './helpers';

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

const SECRET = 'host-wall-secret-41c7';
const nodeCtor = `${IXSL}get(parse-xml("<a/>"), "constructor")`;
/** appendChild run on the global object (sloppy mode) would set the node's parentNode to it. */
const globalObject = `${IXSL}get(${IXSL}apply(${IXSL}get(parse-xml('<r/>')/*, 'appendChild'), [${IXSL}call(${IXSL}get(map{}, 'constructor'), 'fromEntries', [[['nodeType', 1]]])]), 'parentNode')`;
const WINDOW_NAMES = ['process', 'require', 'module', 'fetch', 'HostPlatform', 'globalThis', 'global', 'Function'];

/** Raw XPath run behind the host wall alone, by name. */
const EXPRESSIONS: Record<string, string> = {
  ixslEval: `${IXSL}eval("1+41")`,
  globalJsEval: `${GLOBAL_JS}eval("1+41")`,
  ...Object.fromEntries(WINDOW_NAMES.map((name) => [`window.${name}`, `${IXSL}contains(${IXSL}window(), "${name}")`])),
  globalJsProcess: `${GLOBAL_JS}process()`,
  nodeConstructor: `${IXSL}call(${nodeCtor}, "constructor", ["return 7"])`,
  numberConstructor: `${IXSL}apply(${IXSL}get(1, "constructor.constructor"), ["return 7"])`,
  functionConstructor: `${IXSL}call(${IXSL}get(abs#1, "constructor"), "constructor", ["return 7"])`,
  mapConstructor: `${IXSL}call(map {}, "constructor.constructor", ["return 7"])`,
  appendChildEnv: `let $G := ${globalObject} return ${IXSL}get($G, 'process.env.XMLDB_HOST_WALL_SECRET')`,
  insertBefore: `${IXSL}apply(${IXSL}get(parse-xml('<r/>')/*, 'insertBefore'), [parse-xml('<s/>')/*, ()])`,
};

/**
 * What happens in a fresh thread where the host wall stands alone: the engine wall
 * (lib/saxon/patches/host-bindings.ts) is not applied there, so saxon-js's host bindings answer,
 * as they would if that wall failed. `xpath`: each of EXPRESSIONS as text or `error CODE
 * message`; `js`: attempts in JavaScript, as code holding the global object would make them.
 */
let alone: { xpath: Record<string, string>; js: Record<string, unknown> };
beforeAll(async () => {
  alone = (await inFreshThread(
    `
    const saxon = lib('saxon').saxon();
    lib('xquery/worker/host-wall').raiseHostWall();
    const xpath = {};
    for (const [name, expression] of Object.entries(${JSON.stringify(EXPRESSIONS)})) {
      try { xpath[name] = String(saxon.XPath.evaluate(expression, null)); } catch (e) { xpath[name] = 'error ' + e.code + ' ' + e.message; }
    }
    const js = {};
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
      getBuiltinModule: () => process.getBuiltinModule('child_process'),
      binding: () => process.binding('spawn_sync'),
      dlopen: () => process.dlopen({}, 'x.node'),
    };
    for (const [name, attempt] of Object.entries(attempts)) {
      try { attempt(); js[name] = 'ran'; } catch (e) { js[name] = e.constructor.name + ': ' + e.message; }
    }
    js.instanceOf = (() => 1) instanceof Function;
    js.fetch = typeof fetch;
    js.env = Object.keys(process.env).sort().join(',');
    return { xpath, js };
  `,
    { env: { TZ: 'UTC', XMLDB_HOST_WALL_SECRET: SECRET } },
  )) as typeof alone;
}, 60_000);

describe('the host wall in query workers', () => {
  test('saxon-js still evaluates XPath and stylesheets behind it', async () => {
    expect(await xpath('string-join((1 to 3) ! string(), ",")')).toBe('1,2,3');
    expect(await stylesheet(select('upper-case("ok")'))).toBe('OK');
  });

  test('in a query worker, the engine wall answers before it does', async () => {
    expect(await xpath(`${IXSL}eval("1+41")`)).toBe('error XPST0017 Unknown function Q{http://saxonica.com/ns/interactiveXSLT}eval()');
    expect(await stylesheet(select(`${IXSL}eval("1+41")`))).toMatch(/^error XPST0017 .*Unknown function Q\{http:\/\/saxonica\.com\/ns\/interactiveXSLT\}eval\(\)/);
  });

  test('alone: ixsl:eval and globalJS:eval compile no code', () => {
    expect(alone.xpath.ixslEval).toMatch(REFUSED);
    expect(alone.xpath.globalJsEval).toBe("error SXJS0007 ixsl:call: object method 'eval' not found");
  });

  test('alone: ixsl:window() is an empty object: no process, require, fetch or platform', () => {
    for (const name of WINDOW_NAMES) expect(alone.xpath[`window.${name}`]).toBe('false');
    expect(alone.xpath.globalJsProcess).toBe("error SXJS0007 ixsl:call: object method 'process' not found");
  });

  test('alone: the Function constructor reached through any value refuses to compile', () => {
    expect(alone.xpath.nodeConstructor).toMatch(CALL_REFUSED);
    expect(alone.xpath.numberConstructor).toMatch(CALL_REFUSED);
    expect(alone.xpath.functionConstructor).toMatch(CALL_REFUSED);
    expect(alone.xpath.mapConstructor).toMatch(/^error /);
  });

  test('alone: a DOM method called without a receiver does not hand out the global object', () => {
    expect(alone.xpath.appendChildEnv).toMatch(/^error SXJS0007 Failed to call method function /);
    expect(alone.xpath.insertBefore).toMatch(/^error SXJS0007 Failed to call method function /);
  });

  test('alone: every way to the Function constructors refuses', () => {
    const refused = 'EvalError: Code generation from strings is disabled in query workers.';
    for (const name of ['Function', 'newFunction', 'eval', 'indirectEval', 'prototypeConstructor', 'asyncFunction', 'generatorFunction', 'asyncGeneratorFunction', 'reassign']) {
      expect(alone.js[name]).toBe(refused);
    }
    expect(alone.js.instanceOf).toBe(true);
    expect(alone.js.fetch).toBe('undefined');
    expect(Function('return 1')()).toBe(1); // this thread is untouched
  });

  test('alone: should the global object leak all the same, process loads nothing and knows no secrets', () => {
    expect(alone.js.getBuiltinModule).toBe('Error: process.getBuiltinModule is disabled in query workers.');
    expect(alone.js.binding).toBe('Error: process.binding is disabled in query workers.');
    expect(alone.js.dlopen).toBe('Error: process.dlopen is disabled in query workers.');
    expect(alone.js.env).toBe('TZ');
  });
});
