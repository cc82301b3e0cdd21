/**
 * Runtime patch (saxon-js 2.7.0): its XML serializer (the emitter class behind
 * `Serializer.gi({method: 'xml'})`) declares, on each start tag, the in-scope namespaces that
 * differ from the parent's (`$i(inScope, parentInScope)` in SaxonJS2N.js) but never undeclares
 * the default namespace, so `<e xmlns="u"><a xmlns=""/></e>` is written as `<e xmlns="u"><a/></e>`
 * and `a` would read back in namespace `u`. We add the `xmlns=""` undeclaration (Serialization
 * 3.1 §5.1.6 namespace fixup) when the parent has a default namespace and the element has none.
 * Guarded like the float patch: a different emitter fails when the patch is applied.
 */
import { saxon } from '..';

/** Applies the patch in this thread (idempotent; throws for another saxon-js version). */
export function patchDefaultNamespaceUndeclaration(): void {
  const serializer = (saxon() as unknown as { Serializer?: { gi?: (o: object, w: object) => unknown; StringWriter?: new () => object } }).Serializer;
  type Emitter = { b?: Emitter; $i?: (inScope: Record<string, string>, parent: Record<string, string>) => void; __nsPatched?: boolean };
  let emitter = serializer?.gi && serializer.StringWriter ? (serializer.gi({ method: 'xml' }, new serializer.StringWriter()) as Emitter) : undefined;
  while (emitter && typeof Object.getPrototypeOf(emitter).$i !== 'function') emitter = emitter.b;
  const proto = emitter ? (Object.getPrototypeOf(emitter) as Emitter & { b?: unknown }) : undefined;
  if (proto?.__nsPatched) return;
  const original = proto?.$i;
  if (!proto || !original || !String(original).includes(`' xmlns="'`)) {
    throw new Error('saxon-js namespace patch: the XML emitter of saxon-js 2.7.0 was not found; review lib/saxon/patches/default-namespace-undeclaration.ts for this saxon-js version');
  }
  proto.$i = function declareNamespaces(this: { b: { write(s: string): void } }, inScope: Record<string, string>, parent: Record<string, string>): void {
    original.call(this, inScope, parent);
    if (parent[''] && !inScope['']) this.b.write(' xmlns=""');
  };
  proto.__nsPatched = true;
}
