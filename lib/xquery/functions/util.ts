/**
 * BaseX's Utility Module (docs.basex.org, "Utility Functions"; BaseX 11 and later moved its other
 * functions into XQuery 4: util:last is fn:foot, util:init fn:trunk, …), as saxon-js extension
 * functions in namespace `http://basex.org/modules/util` (prefix `util`):
 *
 *   util:if($condition, $then, $else := ()) as item()*   only the chosen branch is evaluated
 *   util:count-within($input, $min as xs:integer, $max as xs:integer? := ()) as xs:boolean
 *   util:range($input, $first as xs:double, $last as xs:double) as item()*
 *        the items at positions ceiling($first) to floor($last)
 *   util:array-member($input) as array(*)                [ $input ], an array of one member
 *   util:root($nodes as node()*) as document-node()*     the document of each node, each once,
 *        in the order first met; a node outside a document is XPDY0050
 *   util:strip-namespaces($node as node(), $prefixes as xs:string* := ()) as node()
 *        a copy of an element or document whose names with those prefixes ('' for the default
 *        namespace; no prefixes: all) are in no namespace
 *
 * The condition's effective boolean value is fn:boolean's (XPath 3.1 §2.4.3): FORG0006 where it
 * has none.
 */
import { parseToCompactDom } from '../../convert/xml';
import { serializeNodes } from '../../xml/dom';
import { arrayValue, atomicDerivesFrom, atomicTypeName, isArray, isAtomic, isDocumentNode, isMap, isNode, NodeKind, parseToSaxonDocument, registerFunctions, saxon, xpathError, castString, type XdmAtomic, type XdmItem, type XdmNode, type XdmValue } from '../../saxon';
import { MODULE_NAMESPACES } from '../module-namespaces';
import { rootOf } from '../update/model';

const booleanItem = (b: boolean): XdmItem => castString(String(b), 'boolean');
/** An xs:double argument as a number (saxon-js holds doubles as numbers; `INF` is no number literal). */
const doubleOf = (v: XdmValue): number => Number((v[0] as XdmAtomic).value);

/** The effective boolean value of `value` (XPath 3.1 §2.4.3). */
function effectiveBooleanValue(value: XdmValue): boolean {
  if (value.length === 0) return false;
  const first = value[0];
  if (isNode(first)) return true;
  if (value.length === 1 && isAtomic(first)) {
    const atomic = first as XdmAtomic;
    if (atomicDerivesFrom(atomic, 'AB')) return String(atomic) === 'true';
    if (atomicDerivesFrom(atomic, 'AS') || atomicDerivesFrom(atomic, 'AZ') || atomicDerivesFrom(atomic, 'AU')) return String(atomic).length > 0;
    if (atomicDerivesFrom(atomic, 'AD') || atomicDerivesFrom(atomic, 'AO') || atomicDerivesFrom(atomic, 'AF')) {
      const n = Number(String(atomic));
      return n !== 0 && !Number.isNaN(n);
    }
  }
  // saxon-js's wording, as for the if expression util:if is when called by name
  const what =
    value.length > 1 && isAtomic(first) ? 'an atomic sequence of length > 1' : isAtomic(first) ? `type xs:${atomicTypeName(first as XdmAtomic)}` : isMap(first) ? 'maps' : isArray(first) ? 'arrays' : 'functions';
  throw xpathError(`Effective boolean value is not defined for ${what}`, 'FORG0006');
}

function ifThenElse([condition, then, otherwise]: (() => XdmValue)[]): XdmValue {
  if (effectiveBooleanValue(condition())) return then();
  return otherwise ? otherwise() : [];
}

function countWithin([input, min, max]: XdmValue[]): XdmValue {
  const count = BigInt(input.length);
  const atLeast = count >= BigInt(String(min[0]));
  return [booleanItem(atLeast && (max === undefined || max.length === 0 || count <= BigInt(String(max[0]))))];
}

function range([input, first, last]: XdmValue[]): XdmValue {
  const from = Math.max(Math.ceil(doubleOf(first)), 1);
  const to = Math.min(Math.floor(doubleOf(last)), input.length);
  // NaN bounds select nothing (the comparisons of fn:subsequence)
  if (Number.isNaN(from) || Number.isNaN(to) || from > to) return [];
  return input.slice(from - 1, to);
}

function roots([nodes]: XdmValue[]): XdmValue {
  const found: XdmNode[] = [];
  for (const node of nodes as XdmNode[]) {
    const root = rootOf(node);
    if (!isDocumentNode(root)) throw xpathError('util:root: Value has no document node.', 'XPDY0050');
    if (!found.includes(root)) found.push(root);
  }
  return found;
}

function stripNamespaces([nodeArg, prefixes]: XdmValue[]): XdmValue {
  const node = nodeArg[0] as XdmNode;
  const document = isDocumentNode(node);
  if (node.nodeType !== NodeKind.element && !document) return [node];
  const strip = prefixes === undefined || prefixes.length === 0 ? undefined : new Set(prefixes.map(String));
  const drop = (name: Element | Attr): boolean => {
    if (strip === undefined) return true;
    // an unprefixed attribute is in no namespace already; an unprefixed element is in the default one
    return name.nodeType === NodeKind.element ? strip.has(name.prefix ?? '') : name.prefix !== null && strip.has(name.prefix);
  };
  // written out and read back: the copy is a new tree, as XQuery's node constructors make one
  const text = saxon().serialize(node, { method: 'xml', 'omit-xml-declaration': true }) as string;
  const copy = parseToSaxonDocument(document ? text : `<r>${text}</r>`) as unknown as Document;
  const top = document ? copy : copy.documentElement!;
  checkAttributeNames(top, drop);
  let stripped: XdmNode;
  try {
    stripped = parseToCompactDom(serializeNodes(Array.from(top.childNodes), drop)) as XdmNode;
  } catch {
    // a document node whose children are no XML document: several elements, or text at the top
    throw xpathError('util:strip-namespaces: Only documents with one root element can be copied.', 'FOER0000');
  }
  return [document ? stripped : ((stripped as unknown as Document).documentElement as unknown as XdmNode)];
}

/** XQDY0025 (XQuery 3.1 §3.9.3.1) if stripping gives two attributes of an element the same name. */
function checkAttributeNames(top: Node, drop: (name: Element | Attr) => boolean): void {
  const stack: Node[] = [top];
  while (stack.length > 0) {
    for (const child of Array.from(stack.pop()!.childNodes)) {
      if (child.nodeType !== NodeKind.element) continue;
      const names = new Set<string>();
      for (const a of Array.from((child as Element).attributes)) {
        if (a.name === 'xmlns' || a.name.startsWith('xmlns:')) continue;
        const name = `Q{${drop(a) ? '' : (a.namespaceURI ?? '')}}${a.localName}`;
        if (names.has(name)) throw xpathError(`util:strip-namespaces: Two attributes would have the same name: ${a.localName}.`, 'XQDY0025');
        names.add(name);
      }
      stack.push(child);
    }
  }
}

/** Registers the util: functions with saxon-js (the list in extension-functions.ts, in query workers). */
export function registerUtilFunctions(): void {
  registerFunctions(MODULE_NAMESPACES.util, {
    if: { sig: '1F r[*] a[*,*,*]', arity: [2, 3], lazy: true, impl: ifThenElse },
    'count-within': { sig: '1F r[1AB] a[*,1ADI,?ADI]', arity: [2, 3], impl: countWithin },
    range: { sig: '1F r[*] a[*,1AO,1AO]', impl: range },
    'array-member': { sig: '1F r[1FA] a[*]', impl: ([input]) => [arrayValue([input])] },
    root: { sig: '1F r[*ND] a[*N]', impl: roots },
    'strip-namespaces': { sig: '1F r[1N] a[1N,*AS]', arity: [1, 2], impl: stripNamespaces },
  });
}
