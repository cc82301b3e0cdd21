/**
 * BaseX's Profiling Module (docs.basex.org, "Profiling Functions"), as saxon-js extension
 * functions in namespace `http://basex.org/modules/prof` (prefix `prof`, predeclared):
 *
 *   prof:sleep($ms as xs:integer) as empty-sequence()      waits; the query's time limit still holds
 *   prof:time($input, $label as xs:string? := ()) as item()*   $input; its evaluation time to the log
 *   prof:track($input, $options as map(*)? := {}) as map(*)    {'time': ms, 'memory': bytes, 'value': $input}
 *   prof:void($input) as empty-sequence()                  evaluates $input and discards it
 *   prof:type($input) as item()*                           $input; its sequence type to the log
 *   prof:dump($input, $label as xs:string? := ()) as empty-sequence()   $input (adaptive) to the log
 *   prof:current-ms() as xs:integer                        milliseconds since the epoch
 *   prof:current-ns() as xs:integer                        a nanosecond clock (for differences)
 *
 * The log is the worker's standard error, as BaseX writes these to standard error; the pool
 * hands those lines to the host's logger as it does fn:trace's (host/launch.ts). `prof:track`
 * options: `time` (default true), `memory` (false; the growth of the worker's heap, approximate)
 * and `value` (true) choose the entries of the map. The functions that measure take their input
 * unevaluated (saxon-js passes arguments as iterators), so the time is the evaluation's.
 *
 * `prof:sleep` blocks the query's worker thread in short waits; when the query's time limit
 * passes, the pool stops the worker as for any other query (BASX0003).
 */
import { serialize } from '../serialization/serialize';
import { MODULE_NAMESPACES } from '../module-namespaces';
import {
  NodeKind,
  atomicTypeName,
  castString,
  isArray,
  isAtomic,
  isMap,
  isNode,
  registerFunctions,
  saxon,
  stringValue,
  xpathError,
  type XdmItem,
  type XdmMap,
  type XdmNode,
  type XdmValue,
} from '../../saxon';

export const PROF_NS = MODULE_NAMESPACES.prof;

/** The longest single wait of prof:sleep, so that a stopped worker ends soon. */
const SLEEP_SLICE_MS = 50;
const sleeper = new Int32Array(new SharedArrayBuffer(4));

function sleep([ms]: XdmValue[]): XdmValue {
  let left = Number(ms[0]);
  const until = performance.now() + left;
  while (left > 0) {
    Atomics.wait(sleeper, 0, 0, Math.min(left, SLEEP_SLICE_MS));
    left = until - performance.now();
  }
  return [];
}

/** Writes one line to the log (the worker's standard error, see above). */
function log(line: string): void {
  process.stderr.write(`${line}\n`);
}

const label = (value: XdmValue | undefined): string => (value && value.length > 0 ? String(value[0]) : '');
const integer = (n: number | bigint): XdmItem => castString(String(n), 'integer');

/** Milliseconds as BaseX prints them (`1.23 ms`). */
function milliseconds(ms: number): string {
  return `${ms.toFixed(2)} ms`;
}

function time([input, labelArg]: (() => XdmValue)[]): XdmValue {
  const started = performance.now();
  const value = input();
  log(`${label(labelArg?.())}${milliseconds(performance.now() - started)}`);
  return value;
}

function option(options: XdmMap | undefined, name: string, fallback: boolean): boolean {
  if (!options) return fallback;
  const value = options.get(stringValue(name));
  if (!value || value.length === 0) return fallback;
  const text = String(value[0]);
  if (text !== 'true' && text !== 'false') throw xpathError(`Option '${name}' must be a boolean: ${text}.`, 'XPTY0004');
  return text === 'true';
}

function track([input, optionsArg]: (() => XdmValue)[]): XdmValue {
  const options = optionsArg?.()[0] as XdmMap | undefined;
  const [withTime, withMemory, withValue] = [option(options, 'time', true), option(options, 'memory', false), option(options, 'value', true)];
  const heap = process.memoryUsage().heapUsed;
  const started = performance.now();
  const value = input();
  const ms = performance.now() - started;
  const result = new (saxon().XdmMap)();
  if (withMemory) result.inSituPut(stringValue('memory'), [integer(Math.max(0, process.memoryUsage().heapUsed - heap))]);
  if (withTime) result.inSituPut(stringValue('time'), [castString(ms.toFixed(3), 'decimal')]);
  if (withValue) result.inSituPut(stringValue('value'), value);
  return [result as XdmItem];
}

const NODE_TYPES: Record<number, string> = {
  [NodeKind.element]: 'element()',
  [NodeKind.attribute]: 'attribute()',
  [NodeKind.text]: 'text()',
  [NodeKind.processingInstruction]: 'processing-instruction()',
  [NodeKind.comment]: 'comment()',
  [NodeKind.document]: 'document-node()',
  [NodeKind.namespace]: 'namespace-node()',
};

function itemType(item: XdmItem): string {
  if (isAtomic(item)) return `xs:${atomicTypeName(item)}`;
  if (isNode(item)) return NODE_TYPES[(item as XdmNode).nodeType] ?? 'node()';
  if (isMap(item)) return 'map(*)';
  if (isArray(item)) return 'array(*)';
  return 'function(*)';
}

/** The sequence type of a value as BaseX prints it (`xs:integer+`, `element()`, `item()*`...). */
export function sequenceType(value: XdmValue): string {
  if (value.length === 0) return 'empty-sequence()';
  const types = new Set(value.map(itemType));
  const nodeTypes = new Set(Object.values(NODE_TYPES));
  const all = (test: (t: string) => boolean): boolean => [...types].every(test);
  const item =
    types.size === 1 ? [...types][0] : all((t) => nodeTypes.has(t)) ? 'node()' : all((t) => t.startsWith('xs:')) ? 'xs:anyAtomicType' : 'item()';
  return value.length === 1 ? item : `${item}+`;
}

function type([input]: XdmValue[]): XdmValue {
  log(sequenceType(input));
  return input;
}

function dump([input, labelArg]: XdmValue[]): XdmValue {
  log(`${label(labelArg)}${serialize(input, { method: 'adaptive' })}`);
  return [];
}

/** Registers the prof: functions with saxon-js (the list in extension-functions.ts, in query workers). */
export function registerProfFunctions(): void {
  registerFunctions(PROF_NS, {
    sleep: { sig: '1F r[0] a[1ADI]', impl: sleep },
    time: { sig: '1F r[*] a[*,?AS]', arity: [1, 2], lazy: true, impl: time },
    track: { sig: '1F r[1FM] a[*,?FM]', arity: [1, 2], lazy: true, impl: track },
    void: { sig: '1F r[0] a[*]', lazy: true, impl: ([input]) => (input(), []) },
    type: { sig: '1F r[*] a[*]', impl: type },
    dump: { sig: '1F r[0] a[*,?AS]', arity: [1, 2], impl: dump },
    'current-ms': { sig: '1F r[1ADI] a[]', arity: [0], impl: () => [integer(Date.now())] },
    'current-ns': { sig: '1F r[1ADI] a[]', arity: [0], impl: () => [integer(process.hrtime.bigint())] },
  });
}
