/**
 * Runtime patch, part of the host wall of query workers (lib/xquery/worker/host-wall.ts):
 * saxon-js 2.7.0's script is sloppy-mode code, so one of its functions called without a receiver
 * (`ixsl:apply` calls `f.apply(null, args)`) runs with `this` = the global object. Its DOM (a
 * bundled xmldom) writes its receiver into the nodes it is given: `appendChild(node)` sets
 * `node.parentNode = this`, handing the global object, and with it `process`, to whoever holds
 * `node`. The DOM's methods therefore refuse to run without a receiver (or with the global object
 * as one): every function on the prototypes of the node kinds saxon-js's parser makes (document,
 * element, attribute, text, CDATA, comment, processing instruction, document fragment), of its
 * node lists and attribute maps, and their shared ancestors, found on a probe document. Applied
 * once per thread, idempotent; a probe that does not yield saxon-js 2.7.0's DOM (its
 * `appendChild` as described) throws.
 */
import { saxon } from '..';

const GUARDED = Symbol('xmldb-rest:dom-receiver-guarded');

interface DomNode {
  readonly nodeType: number;
  readonly documentElement?: DomNode;
  readonly attributes?: ArrayLike<DomNode>;
  readonly childNodes?: ArrayLike<DomNode>;
  createDocumentFragment?(): DomNode;
}

/** Every node of the probe document, a fragment of it, and its node list and attribute map. */
function probeObjects(): object[] {
  const doc = saxon().getPlatform().parseXmlFromString('<r a="1">t<![CDATA[c]]><!--c--><?p x?><e/></r>') as unknown as DomNode;
  const root = doc.documentElement!;
  const objects: object[] = [doc, root, ...Array.from(root.attributes ?? []), ...Array.from(root.childNodes ?? [])];
  if (typeof doc.createDocumentFragment === 'function') objects.push(doc.createDocumentFragment());
  if (root.attributes) objects.push(root.attributes);
  if (root.childNodes) objects.push(root.childNodes);
  return objects;
}

/** `method`, refusing to run without a receiver (what sloppy mode would make the global object). */
function guarded(method: (...args: unknown[]) => unknown, name: string): (...args: unknown[]) => unknown {
  const wrapper = function (this: unknown, ...args: unknown[]): unknown {
    if (this === undefined || this === null || this === globalThis) throw new TypeError(`The DOM method ${name} needs a receiver.`);
    return Reflect.apply(method, this, args);
  };
  Object.defineProperty(wrapper, GUARDED, { value: true });
  return wrapper;
}

/** Built-in functions are strict: without a receiver they throw on their own. */
function isBuiltIn(fn: () => unknown): boolean {
  return /\{\s*\[native code\]\s*\}$/.test(Function.prototype.toString.call(fn));
}

/** Applies the patch in this thread (idempotent; throws for another saxon-js version). */
export function guardDomReceivers(): void {
  const objects = probeObjects();
  const root = objects[1] as { appendChild?: unknown };
  const append = root.appendChild as ((node: unknown) => unknown) & { [GUARDED]?: boolean };
  if (append?.[GUARDED]) return;
  if (typeof append !== 'function' || !String(append).includes('a.parentNode=this')) {
    throw new Error("saxon-js DOM patch: saxon-js 2.7.0's DOM was not found; review lib/saxon/patches/dom-receivers.ts for this saxon-js version");
  }
  const prototypes = new Set<object>();
  for (const object of objects) {
    for (let p = Object.getPrototypeOf(object) as object | null; p && p !== Object.prototype; p = Object.getPrototypeOf(p) as object | null) prototypes.add(p);
  }
  for (const prototype of prototypes) {
    for (const key of Object.getOwnPropertyNames(prototype)) {
      const descriptor = Object.getOwnPropertyDescriptor(prototype, key)!;
      if (key === 'constructor' || typeof descriptor.value !== 'function' || !descriptor.writable || isBuiltIn(descriptor.value as () => unknown)) continue;
      Object.defineProperty(prototype, key, { ...descriptor, value: guarded(descriptor.value as (...args: unknown[]) => unknown, key) });
    }
  }
}
