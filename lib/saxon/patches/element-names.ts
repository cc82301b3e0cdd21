/**
 * Runtime patch (saxon-js 2.7.0): the node-name accessor of its DOM layer (`DomUtils.X` in
 * SaxonJS2N.js) builds a new xs:QName for an element every time it is asked, checking its prefix
 * and local part against the NCName pattern on each call. Name tests (`child::item`,
 * `self::name`), `local-name()`, `name()`, `node-name()`, deep-equal and the serializer all ask
 * it, once per node they look at, so a path that tests or reads the names of a few thousand
 * elements spent most of its time building and checking names that the document repeats.
 *
 * The patched accessor keeps the xs:QName of each element name it has built (by prefix,
 * namespace URI and local name; a bounded table, emptied when full) and hands the same value out
 * again for an element of that name. An xs:QName is an immutable value (its methods build new
 * ones) and identical parts give an equal value, so what each caller reads is unchanged; a name
 * the original rejects is never kept, so it is rejected again. Attributes (whose node keeps its
 * own name), other node kinds and elements without a string local name go to the original.
 * Guarded like the other patches: a different accessor fails when the patch is applied.
 */
import { saxon, type XdmAtomic } from '..';

/** An element as the accessor reads it. */
interface NamedNode {
  readonly nodeType?: number;
  readonly prefix?: string | null;
  readonly namespaceURI?: string | null;
  readonly localName?: unknown;
}

type NameAccessor = ((node: NamedNode | null | undefined) => XdmAtomic | null) & { __elementNamesPatched?: boolean };

/** Distinct element names kept (documents rarely use more than a few hundred). */
const MAX_NAMES = 4096;

const ELEMENT = 1;

/** A kept name: the parts it was built from (falsy prefix and URI as ''), and the value. */
interface KeptName {
  readonly prefix: string;
  readonly uri: string;
  readonly name: XdmAtomic;
}

/** Applies the patch in this thread (idempotent; throws for another saxon-js version). */
export function patchElementNames(): void {
  const dom = (saxon().internals as unknown as { DomUtils?: { X?: NameAccessor } }).DomUtils;
  const original = dom?.X;
  if (original?.__elementNamesPatched) return;
  if (!dom || typeof original !== 'function' || !/case 1:return b\.QName\.fromParts\(q\.prefix,\s*q\.namespaceURI,q\.localName\)/.test(String(original))) {
    throw new Error('saxon-js element-name patch: the node-name accessor of saxon-js 2.7.0 was not found; review lib/saxon/patches/element-names.ts for this saxon-js version');
  }
  /** By local name: the last name built with it (one local name rarely comes with several prefixes or URIs). */
  const kept = new Map<string, KeptName>();
  const keptName: NameAccessor = (node) => {
    if (!node || node.nodeType !== ELEMENT || typeof node.localName !== 'string') return original(node);
    const prefix = node.prefix || '';
    const uri = node.namespaceURI || '';
    const known = kept.get(node.localName);
    if (known !== undefined && known.prefix === prefix && known.uri === uri) return known.name;
    const name = original(node);
    if (name !== null) {
      if (kept.size >= MAX_NAMES) kept.clear();
      kept.set(node.localName, { prefix, uri, name });
    }
    return name;
  };
  dom.X = Object.assign(keptName, { __elementNamesPatched: true });
}
