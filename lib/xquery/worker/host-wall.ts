/**
 * A wall around queries behind the engine's (lib/saxon/patches/host-bindings.ts), raised in each
 * query worker once it has loaded: even if a query reached one of saxon-js's host bindings
 * (`http://saxonica.com/ns/globalJS`, `http://saxonica.com/ns/interactiveXSLT`) past the
 * translator and the engine, it could not reach the host's JavaScript from there.
 *
 * - `ixsl:window()`, and with it every `globalJS` call, answers an empty frozen object instead
 *   of Node's `global`, where `process`, `require` (through `module`), `fetch` and saxon-js's
 *   own platform live (lib/saxon/patches/host-global.ts).
 * - No code is compiled from strings: `ixsl:eval` runs `new Function(text)`, and `ixsl:get`,
 *   `ixsl:call` and `ixsl:apply` walk the JavaScript properties of any value a query holds, so
 *   `constructor.constructor` of a node or an atomic value would be `Function`. The global
 *   `Function` and `eval`, and the `constructor` of the function prototypes (plain, async,
 *   generator, async generator), become functions that refuse. Code loaded as modules is not
 *   affected (Node compiles modules without these constructors).
 * - saxon-js's DOM methods refuse to run without a receiver: saxon-js is sloppy-mode code, so
 *   `ixsl:apply` (which calls with no receiver) would run them on the global object, and
 *   `appendChild` stores its receiver in the node it is given (lib/saxon/patches/dom-receivers.ts).
 * - Should the global object leak all the same, `process` offers nothing to load or run code
 *   with (`getBuiltinModule`, `binding`, `_linkedBinding`, `dlopen` refuse) and its environment
 *   is empty but for `TZ` (the worker's copy: the host's passwords and keys are not there).
 *   Nor does it reach past the worker: `kill` and `_kill` refuse (a worker shares the server's
 *   process id, so `process.kill(process.pid)` would end the server, and any other process the
 *   server may signal), `loadEnvFile` refuses (it reads any file the server may read), and
 *   `process.report` refuses (its report holds the host's real environment, which the worker's
 *   copy of `process.env` does not show, and `writeReport` writes a file anywhere).
 * - The module system's names that a worker evaluated from a string gets as globals (`require`,
 *   `module`, `exports`, `__filename`, `__dirname`: how threads/launch.ts starts workers when the
 *   package runs from its TypeScript source) are removed: `require` would load any module.
 * - The network globals are removed.
 * What every query needs is loaded before the wall goes up (worker/thread.ts). What few queries
 * need (the translator for a query text met at run time, the stemmers, the ZIP codec) loads on
 * first use, as modules: Node's loader compiles them, not `Function` or `eval`, through the
 * `require` of our own modules, which no query holds; the wall is about code from strings and the
 * host's objects, and holds for what loads after it as for what loaded before.
 */
import { guardDomReceivers, sealHostGlobal } from '../../saxon/patches';

const NETWORK_GLOBALS = ['fetch', 'WebSocket', 'EventSource', 'XMLHttpRequest'] as const;
/** What `process` offers to load modules or native code with, signal processes, or read files with. */
const PROCESS_REFUSED = ['getBuiltinModule', 'binding', '_linkedBinding', 'dlopen', 'kill', '_kill', 'loadEnvFile'] as const;
/** The globals of a worker evaluated from a string (Node's `evalScript`), the module system's. */
const MODULE_GLOBALS = ['require', 'module', 'exports', '__filename', '__dirname'] as const;
/** The environment variables a worker keeps (the time zone its dates use). */
const KEPT_ENVIRONMENT = new Set(['TZ']);

/** What the constructors and `eval` do once the wall is up. */
function refuse(): never {
  throw new EvalError('Code generation from strings is disabled in query workers.');
}

/** Replaces the property `key` of `target` by `value`, for good. */
function fix(target: object, key: PropertyKey, value: unknown): void {
  Object.defineProperty(target, key, { value, writable: false, configurable: false, enumerable: false });
}

function refuseCodeFromStrings(): void {
  const prototypes = [
    Function.prototype,
    Object.getPrototypeOf(async function () {}) as object,
    Object.getPrototypeOf(function* () {}) as object,
    Object.getPrototypeOf(async function* () {}) as object,
  ];
  // `Function` keeps its prototype, so `instanceof Function` still holds for every function.
  const refusingFunction = function Function(): never {
    return refuse();
  };
  fix(refusingFunction, 'prototype', Function.prototype);
  for (const prototype of prototypes) fix(prototype, 'constructor', refusingFunction);
  fix(globalThis, 'Function', refusingFunction);
  fix(globalThis, 'eval', function evaluate(): never {
    return refuse();
  });
}

function removeNetworkGlobals(): void {
  for (const name of NETWORK_GLOBALS) {
    if (Object.getOwnPropertyDescriptor(globalThis, name)?.configurable) delete (globalThis as Record<string, unknown>)[name];
  }
}

function removeModuleGlobals(): void {
  for (const name of MODULE_GLOBALS) {
    if (Object.getOwnPropertyDescriptor(globalThis, name)?.configurable) delete (globalThis as Record<string, unknown>)[name];
  }
}

/** Replaces PROCESS_REFUSED and `report` by refusals and empties the environment but for KEPT_ENVIRONMENT. */
function restrictProcess(): void {
  const refusal = (name: string) =>
    function refused(): never {
      throw new Error(`process.${name} is disabled in query workers.`);
    };
  for (const name of PROCESS_REFUSED) if (name in process) fix(process, name, refusal(name));
  // an accessor in Node: the refusal comes when it is read
  Object.defineProperty(process, 'report', { get: refusal('report'), configurable: false, enumerable: false });
  for (const name of Object.keys(process.env)) if (!KEPT_ENVIRONMENT.has(name)) delete process.env[name];
}

let raised = false;

/** Raises the wall in this thread (idempotent). Only ever in a query worker. */
export function raiseHostWall(): void {
  if (raised) return;
  sealHostGlobal();
  guardDomReceivers();
  restrictProcess();
  refuseCodeFromStrings();
  removeNetworkGlobals();
  removeModuleGlobals();
  raised = true;
}
