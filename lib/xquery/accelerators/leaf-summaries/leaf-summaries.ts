/**
 * Counting over a database context without building its documents' trees, behind one extension
 * function in the engine's namespace:
 *
 *   Q{urn:xmldb-rest:engine}count-summary($uri as xs:string?, $name as xs:string,
 *       $child as xs:string, $op as xs:string, $value as xs:anyAtomicType?) as xs:anyAtomicType
 *
 * What `count(collection($uri) ! (root(.)//name[child::C op $value]))` answers (`C` the expanded
 * name `$child`; with `$child` = '' no predicate: `count(…//name)`), or false() when this
 * function cannot answer exactly; the caller then evaluates the query as written
 * (accelerators/leaf-summaries/paths-summary.ts emits it for a whole query `count(//name…)` over a database).
 *
 * Each stored document is summarised from its stored text by the project's own parser
 * (convert/xml-parser.ts; stored text is its normalised output, so it parses as it did on
 * write): the number of elements of that expanded name and, per element, the values of its `C`
 * children. The rules of exactness are leaf-values.ts's (`plainNumber`): a child's string value
 * (its descendant text, comments and processing instructions left out) must be a plain number,
 * else the document has no summary for that pair and the function answers false(), so errors
 * (FORG0001 for a non-numeric value) and edge cases stay saxon-js's. Summaries are kept per
 * document version (etag: never reused for another content) in a bounded cache of the worker.
 *
 * Registered by `registerLeafSummaryFunctions` (extension-functions.ts).
 */
import { LRUCache } from 'lru-cache';
import { ENGINE_NS } from '../../constants';
import { castString, registerFunctions, type XdmValue } from '../../../saxon';
import { parseXmlInto, XML_NS, type XmlSink } from '../../../convert/xml-parser';
import { scanStoredXml } from '../../../convert/stored-xml-scanner';
import type { Pair } from '../../../convert/writer';
import { activeDocumentSource } from '../../worker/documents/source';
import { countElement, scanSummary, SummaryPairs, type OnlyPair, type PairValues } from './summary-scan';
import { comparisonTest, plainNumber, isNumericComparison, numberOf, type NumericComparison } from '../leaf-columns/leaf-values';

/** The local name of the function in ENGINE_NS. */
export const COUNT_SUMMARY_FUNCTION = 'count-summary';

/**
 * One document's elements named `name`: how many, and the values of their `child` children
 * (values[k] is a child of element owners[k], elements numbered in document order from 0); no
 * values without a child name.
 */
export interface LeafSummary {
  readonly count: number;
  readonly owners: Int32Array;
  readonly values: Float64Array;
}

/** A source that can summarise the documents of a collection (store-source.ts). */
export interface SummarySource {
  /**
   * The summaries of the documents `collection(uri)` answers, in their order; null for a document
   * whose values are not all plain numbers; undefined when the URI is not a database collection
   * this source can summarise (the query then runs as written and raises its own errors).
   */
  leafSummaries(uri: string, name: string, child: string): readonly (LeafSummary | null)[] | undefined;
}

const NO_VALUES = new Float64Array(0);
const NO_OWNERS = new Int32Array(0);

/**
 * The key of an expanded name in a DocumentSummary: the local name alone in no namespace (what a
 * stored element name mostly is, so that the scan allocates no key), else `Q{uri}local`. A
 * local name has no `{`, so the two forms never meet.
 */
function keyOf(uri: string, local: string): string {
  return uri === '' ? local : `Q{${uri}}${local}`;
}

/** The key of `name` (`Q{uri}local`). */
export function nameKey(name: string): string {
  return name.startsWith('Q{}') ? name.slice(3) : name;
}

/**
 * What a worker keeps of one version of a document for counting: a DocumentSummary, or the
 * record stored with the document (summary-record.ts), which answers the same.
 */
export interface KeptSummary {
  /** The summary for elements `name` and children `child` (see DocumentSummary `summary`). */
  summary(name: string, child: string): LeafSummary | null;
  /** Its size in cache numbers (LeafSummaryCache). */
  readonly size: number;
}

/** The values of one pair of element names kept in a DocumentSummary. */
export interface KeptValues {
  readonly owners: Int32Array;
  readonly values: Float64Array;
}

/**
 * What one document's stored text says for counting: the number of elements of each expanded
 * name, and for each pair of names (element, child) the plain-number values of those children,
 * each with the number of its parent among the elements of its name (document order, from 0).
 * `summary` gives the LeafSummary of one pair. A scan of the whole document answers every
 * pair, so a count over another name or child finds the documents summarised already; a scan
 * limited to one pair (`only`) keeps that pair's values alone (documents too large to keep
 * whole: LeafSummaryCache).
 */
export class DocumentSummary implements KeptSummary {
  private constructor(
    /** False when the text uses a prefix it does not declare. */
    private readonly plain: boolean,
    private readonly counts: ReadonlyMap<string, number>,
    private readonly pairs: ReadonlyMap<string, ReadonlyMap<string, KeptValues | null>>,
    /** Its size in cache numbers (LeafSummaryCache). */
    readonly size: number,
  ) {}

  /**
   * Summarises stored XML `text` (read in one pass by summary-scan.ts when it has the form most
   * stored documents have, else by the stored-text scanner, convert/stored-xml-scanner.ts, or by
   * the full parser where that scanner leaves it); `only`: the one pair (`Q{uri}local` names)
   * whose values to keep.
   */
  static of(text: string, only?: { readonly name: string; readonly child: string }): DocumentSummary {
    const filter = only && { parent: nameKey(only.name), child: only.child === '' ? undefined : nameKey(only.child) };
    const fast = scanSummary(text, filter);
    if (fast !== undefined) return DocumentSummary.built(true, fast.counts, fast.pairs);
    const scanned = new SummarySink(filter);
    if (scanStoredXml(text, scanned)) return scanned.summary();
    const parsed = new SummarySink(filter);
    parseXmlInto(text, parsed);
    return parsed.summary();
  }

  /**
   * The summary for elements `name` and children `child` (both `Q{uri}local`; `child` '' for a
   * count only); null when some such child's value is not a plain number, or the text uses a
   * prefix it does not declare.
   */
  summary(name: string, child: string): LeafSummary | null {
    if (!this.plain) return null;
    const key = nameKey(name);
    const count = this.counts.get(key) ?? 0;
    const pair = child === '' ? undefined : this.pairs.get(key)?.get(nameKey(child));
    if (pair === null) return null;
    return pair === undefined ? { count, owners: NO_OWNERS, values: NO_VALUES } : { count, owners: pair.owners, values: pair.values };
  }

  /** The summary of a text that does not parse: no pair has one (the query as written raises the error). */
  static unreadable(): DocumentSummary {
    return new DocumentSummary(false, new Map(), new Map(), 16);
  }

  /** Built by SummarySink. */
  static built(plain: boolean, counts: Map<string, number>, pairs: Map<string, Map<string, PairValues>>): DocumentSummary {
    const kept = new Map<string, Map<string, KeptValues | null>>();
    let size = 16 + 2 * counts.size;
    for (const [parent, children] of pairs) {
      const row = new Map<string, KeptValues | null>();
      for (const [child, v] of children) {
        row.set(child, v.plain ? { owners: new Int32Array(v.owners), values: new Float64Array(v.values) } : null);
        size += 2 + (v.plain ? 2 * v.values.length : 0);
      }
      kept.set(parent, row);
    }
    return new DocumentSummary(plain, counts, kept, size);
  }

  /** Its parts (summary-record.ts writes them). */
  get parts(): { readonly plain: boolean; readonly counts: ReadonlyMap<string, number>; readonly pairs: ReadonlyMap<string, ReadonlyMap<string, KeptValues | null>> } {
    return { plain: this.plain, counts: this.counts, pairs: this.pairs };
  }
}

/** Builds one document's summary from the events of a parse (attributes are not needed). */
class SummarySink implements XmlSink {
  /** In-scope namespace bindings, innermost last. */
  private readonly scope: Pair[] = [['xml', XML_NS]];
  /**
   * Per open element: the bindings it added, its key, its number among the elements of its key,
   * its text, and whether it has an element child (a branch: its text is no value).
   */
  private readonly bindings: number[] = [];
  private readonly keys: string[] = [];
  private readonly ordinals: number[] = [];
  private readonly texts: string[] = [];
  private readonly branches: boolean[] = [];
  private readonly counts = new Map<string, number>();
  private readonly pairs: SummaryPairs;
  /** False once some prefix is not declared. */
  private plain = true;

  /** `only`: the one pair of keys whose values to keep (`child` undefined: none). */
  constructor(only?: OnlyPair) {
    this.pairs = new SummaryPairs(only);
  }

  /** The namespace URI bound to `prefix`; undefined when none is. */
  private uriOf(prefix: string): string | undefined {
    const scope = this.scope;
    for (let i = scope.length - 1; i >= 0; i--) if (scope[i][0] === prefix) return scope[i][1];
    return prefix === '' ? '' : undefined;
  }

  startElement(qname: string, _attributes: readonly Pair[], namespaces: readonly Pair[] = []): void {
    for (const binding of namespaces) this.scope.push(binding);
    const colon = qname.indexOf(':');
    const local = colon < 0 ? qname : qname.slice(colon + 1);
    const uri = this.uriOf(colon < 0 ? '' : qname.slice(0, colon));
    if (uri === undefined) this.plain = false;
    const key = colon < 0 && uri === '' ? qname : keyOf(uri ?? '', local);
    const depth = this.keys.length;
    if (depth > 0) this.branches[depth - 1] = true;
    const ordinal = countElement(this.counts, key);
    this.keys.push(key);
    this.ordinals.push(ordinal);
    this.texts.push('');
    this.branches.push(false);
    this.bindings.push(namespaces.length);
  }

  endElement(): void {
    const key = this.keys.pop()!;
    this.ordinals.pop();
    const text = this.texts.pop()!;
    const branch = this.branches.pop()!;
    const depth = this.keys.length;
    if (depth > 0) this.value(this.keys[depth - 1], key, this.ordinals[depth - 1], branch ? undefined : text);
    // pop, not `length -=`: setting an array's length is slow in V8, and most elements bind nothing
    for (let b = this.bindings.pop()!; b > 0; b--) this.scope.pop();
  }

  /** Records a child `child` of element `owner` of key `parent`: its text, or undefined when it held an element. */
  private value(parent: string, child: string, owner: number, text: string | undefined): void {
    const pair = this.pairs.open(parent, child);
    if (pair !== undefined) SummaryPairs.record(pair, owner, text === undefined ? undefined : plainNumber(text));
  }

  characters(s: string): void {
    const depth = this.texts.length;
    // only a leaf's text is a value: a branch has none (see endElement)
    if (depth > 0 && !this.branches[depth - 1]) this.texts[depth - 1] += s;
  }

  comment(): void {}

  processingInstruction(): void {}

  summary(): DocumentSummary {
    return DocumentSummary.built(this.plain, this.counts, this.pairs.map);
  }
}

/** The number of a summary's elements with some child value that compares `op` to `value`. */
export function countWhere(summary: LeafSummary, op: NumericComparison, value: number): number {
  const holds = comparisonTest(op);
  const { owners, values } = summary;
  const seen = new Uint8Array(summary.count);
  let n = 0;
  for (let k = 0; k < values.length; k++) {
    if (seen[owners[k]] === 0 && holds(values[k], value)) {
      seen[owners[k]] = 1;
      n++;
    }
  }
  return n;
}

/**
 * Summaries kept per worker, in numbers of 8 bytes: a value and its owner count two, each name
 * and pair two more, and each summary 16 for its key and objects (about 16 MB in all at most).
 */
const CACHE_NUMBERS = 1_000_000;

/**
 * Documents of at most this many characters of stored text are summarised whole (every pair at
 * once); a larger one for the pair asked only, so that one huge document's values of all its
 * names cannot take the cache, or pass its bound and be scanned again by every query.
 */
export const WHOLE_DOCUMENT_CHARS = 256 * 1024;

/** The summaries of a worker, by document version (database, path and etag): whole, or by pair. */
export class LeafSummaryCache {
  private readonly cache = new LRUCache<string, KeptSummary>({ maxSize: CACHE_NUMBERS, sizeCalculation: (s) => s.size });

  /** The summary kept for one version of a document; undefined when none is. */
  get(version: string, name: string, child: string): LeafSummary | null | undefined {
    const kept = this.cache.get(version) ?? this.cache.get(pairKey(version, name, child));
    return kept?.summary(name, child);
  }

  /** Keeps `summary` for one version of a document (one stored with it: summary-record.ts) and answers its pair, as `summarize`. */
  keep(version: string, summary: KeptSummary, name: string, child: string): LeafSummary | null {
    this.cache.set(version, summary);
    return summary.summary(name, child);
  }

  /** Summarises `text`, one version of a document, and keeps it (null: no summary, as DocumentSummary `summary`). */
  summarize(version: string, text: string, name: string, child: string): LeafSummary | null {
    const whole = text.length <= WHOLE_DOCUMENT_CHARS;
    let summary: DocumentSummary;
    try {
      summary = whole ? DocumentSummary.of(text) : DocumentSummary.of(text, { name, child });
    } catch {
      summary = DocumentSummary.unreadable();
    }
    this.cache.set(whole ? version : pairKey(version, name, child), summary);
    return summary.summary(name, child);
  }
}

function pairKey(version: string, name: string, child: string): string {
  return `${version}\u0000${name}\u0000${child}`;
}

function isSummarySource(source: object): source is SummarySource {
  return typeof (source as Partial<SummarySource>).leafSummaries === 'function';
}

/** The answer that sends the caller back to evaluating the query as written. */
function cannotAnswer(): XdmValue {
  return [castString('false', 'boolean')];
}

function countSummaryFn([uri, name, child, op, value]: XdmValue[]): XdmValue {
  const source = activeDocumentSource();
  const childName = String(child[0]);
  const comparison = String(op[0]);
  const number = childName === '' ? 0 : numberOf(value[0]);
  if (uri.length !== 1 || !isSummarySource(source) || number === undefined || (childName !== '' && !isNumericComparison(comparison))) {
    return cannotAnswer();
  }
  const summaries = source.leafSummaries(String(uri[0]), String(name[0]), childName);
  if (summaries === undefined) return cannotAnswer();
  let total = 0;
  for (const summary of summaries) {
    if (summary === null) return cannotAnswer();
    total += childName === '' ? summary.count : countWhere(summary, comparison as NumericComparison, number);
  }
  return [castString(String(total), 'integer')];
}

/** Registers engine:count-summary with saxon-js (the list in extension-functions.ts, in query workers). */
export function registerLeafSummaryFunctions(): void {
  registerFunctions(ENGINE_NS, {
    [COUNT_SUMMARY_FUNCTION]: { sig: '1F r[1A] a[?AS,1AS,1AS,1AS,?A]', impl: countSummaryFn },
  });
}
