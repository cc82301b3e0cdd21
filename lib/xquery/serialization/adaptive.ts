/**
 * The adaptive output method (W3C Serialization 3.1 §10) and BaseX's `basex` method built on
 * it; saxon-js's own adaptive output is not usable (single-quoted strings, an XML declaration
 * before every node, no EQNames). What we write, item by item:
 * - nodes: XML output method (no XML declaration); attributes `name="value"`, namespace nodes
 *   `xmlns:p="uri"`;
 * - xs:string, xs:untypedAtomic, xs:anyURI (and subtypes): in double quotes, `"` doubled;
 * - xs:boolean: `true()`/`false()`; xs:decimal and subtypes: their canonical lexical form;
 * - xs:double: `format-number(., '0.0##########################e0')` (`1.0e0`), or NaN/INF/-INF;
 * - xs:float: `xs:float("canonical")`, the canonical form being the shortest round-tripping
 *   decimal (`floatCanonical`; saxon-js's own rounds to 7 digits);
 * - xs:QName: `Q{uri}local`; any other atomic type: `xs:T("lexical")`;
 * - maps `map{k:v,...}`, arrays `[m,...]`, a member or value that is not exactly one item in
 *   parentheses; function items `Q{uri}name#arity` or `(anonymous-function)#arity`.
 * Atomic output is then XML-escaped (`&`, `<`, `>`, CR), as BaseX does and as the QT3 runner
 * expects when it reads results back (tools/qt3/qt3.mjs).
 *
 * `basex`: like adaptive, but a top-level atomic value is written as its plain string value.
 */
import { escapeAttribute, escapeText } from '../../xml';
import {
  NodeKind,
  TypeCode,
  atomicDerivesFrom,
  atomicTypeName,
  floatCanonical,
  isArray,
  isAtomic,
  isMap,
  isNode,
  type XdmArray,
  type XdmAtomic,
  type XdmAttribute,
  type XdmFunction,
  type XdmItem,
  type XdmMap,
  type XdmNamespace,
  type XdmNode,
} from '../../saxon';
import { serializeNode } from './node-output';
import { writePlainMarkup } from './plain-markup';
import { TextPieces } from '../../xml/text-pieces';

// Read once: the saxon door's exports are getters (its `export *`), a call each time they are
// read, which a result of tens of thousands of items paid several times an item.
const { attribute: ATTRIBUTE, namespace: NAMESPACE } = NodeKind;
const isAtomicItem = isAtomic;
const isNodeItem = isNode;

export interface NodeOptions {
  readonly indent: boolean;
}

/** Serializes one node with the XML method (attributes and namespace nodes included), to `out`. */
function writeXmlNode(node: XdmNode, options: NodeOptions, out: string[]): void {
  if (node.nodeType === ATTRIBUTE) {
    const a = node as XdmAttribute;
    out.push(`${a.name}="${escapeAttribute(a.value)}"`);
  } else if (node.nodeType === NAMESPACE) {
    const ns = node as XdmNamespace;
    out.push(`${ns.prefix ? `xmlns:${ns.prefix}` : 'xmlns'}="${escapeAttribute(ns.q)}"`);
  } else if (options.indent || !writePlainMarkup(node, out)) {
    out.push(
      serializeNode(node, {
        method: 'xml',
        indent: options.indent,
        'omit-xml-declaration': true,
        'Q{http://saxon.sf.net/}indent-spaces': '2',
      }),
    );
  }
}

/** xs:double in adaptive form: at least one fractional digit, exponent always present. */
export function adaptiveDouble(d: number): string {
  if (Number.isNaN(d)) return 'NaN';
  if (!Number.isFinite(d)) return d > 0 ? 'INF' : '-INF';
  if (d === 0) return Object.is(d, -0) ? '-0.0e0' : '0.0e0';
  const [mantissa, exponent] = d.toExponential().split('e');
  return `${mantissa.includes('.') ? mantissa : `${mantissa}.0`}e${Number(exponent)}`;
}

function quote(s: string): string {
  return `"${s.replace(/"/g, '""')}"`;
}

/** A top-level atomic value with the `basex` method: its string value, an xs:float in its shortest round-tripping form. */
function basexAtomic(v: XdmAtomic): string {
  return v.code === TypeCode.float ? floatCanonical(Number(v.value)) : v.toString();
}

/** An atomic value in adaptive form, not yet escaped. */
export function adaptiveAtomic(v: XdmAtomic): string {
  if (atomicDerivesFrom(v, TypeCode.string) || v.code === TypeCode.untypedAtomic || v.code === TypeCode.anyURI) {
    return quote(v.toString());
  }
  if (v.code === TypeCode.boolean) return v.value ? 'true()' : 'false()';
  if (atomicDerivesFrom(v, TypeCode.decimal)) return v.toString();
  if (v.code === TypeCode.double) return adaptiveDouble(Number(v.value));
  if (v.code === TypeCode.float) return `xs:float(${quote(floatCanonical(Number(v.value)))})`;
  if (v.code === TypeCode.QName) {
    const q = v as unknown as { q: string; local: string };
    return `Q{${q.q}}${q.local}`;
  }
  return `xs:${atomicTypeName(v)}(${quote(v.toString())})`;
}

function fnName(f: XdmFunction): string {
  const name = f.name;
  return name && name.local ? `Q{${name.q}}${name.local}` : '(anonymous-function)';
}

export class AdaptiveWriter {
  constructor(
    private readonly options: NodeOptions,
    /** `basex` method: top-level atomic values as plain strings. */
    private readonly basex: boolean,
  ) {}

  /** The items of a result, `separator` between them. */
  items(items: readonly XdmItem[], separator: string): string {
    const pieces = new TextPieces();
    for (let i = 0; i < items.length; i++) {
      if (i > 0) pieces.out.push(separator);
      this.top(items[i], pieces.out);
      pieces.settle();
    }
    return pieces.text();
  }

  /** One top-level item, to `out`. */
  private top(item: XdmItem, out: string[]): void {
    if (isAtomicItem(item)) out.push(this.basex ? basexAtomic(item) : escapeText(adaptiveAtomic(item)));
    else if (isNodeItem(item)) writeXmlNode(item, this.options, out);
    else out.push(this.nested(item, 0));
  }

  private nested(item: XdmItem, depth: number): string {
    if (isAtomic(item)) return escapeText(adaptiveAtomic(item));
    if (isNode(item)) {
      const out: string[] = [];
      writeXmlNode(item, this.options, out);
      return out.join('');
    }
    if (isMap(item)) return this.map(item, depth);
    if (isArray(item)) return this.array(item, depth);
    return `${fnName(item)}#${item.arity}`;
  }

  private sequence(items: XdmItem[], depth: number): string {
    const parts = items.map((i) => this.nested(i, depth + 1));
    return items.length === 1 ? parts[0] : `(${parts.join(this.options.indent ? ', ' : ',')})`;
  }

  private map(map: XdmMap, depth: number): string {
    const keys = map.keys();
    if (keys.length === 0) return 'map{}';
    const entries = keys.map((k) => `${this.nested(k, depth + 1)}:${this.options.indent ? ' ' : ''}${this.sequence(map.get(k), depth)}`);
    if (!this.options.indent) return `map{${entries.join(',')}}`;
    const pad = '  '.repeat(depth + 1);
    return `map {\n${entries.map((e) => pad + e).join(',\n')}\n${'  '.repeat(depth)}}`;
  }

  private array(array: XdmArray, depth: number): string {
    const members = array.value.map((m) => this.sequence(m, depth));
    return `[${members.join(this.options.indent ? ', ' : ',')}]`;
  }
}
