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
 * children. The rules of exactness are leaf-values.ts's (`PLAIN_NUMBER`): a child's string value
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
import { PLAIN_NUMBER, comparisonTest, isNumericComparison, numberOf, type NumericComparison } from '../leaf-columns/leaf-values';

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

/** An expanded name `Q{uri}local`, split. */
interface ExpandedName {
  readonly uri: string;
  readonly local: string;
}

function split(name: string): ExpandedName {
  const close = name.indexOf('}');
  return { uri: name.slice(2, close), local: name.slice(close + 1) };
}

/**
 * The summary of stored XML `text` for elements `name` and children `child` (both `Q{uri}local`;
 * `child` '' for a count only); null when some such child's value is not a plain number, or the
 * text uses a prefix it does not declare. The text is read by the stored-text scanner
 * (convert/stored-xml-scanner.ts), or by the full parser where the scanner leaves it.
 */
export function summarize(text: string, name: string, child: string): LeafSummary | null {
  const scanned = new SummarySink(split(name), child === '' ? undefined : split(child));
  if (scanStoredXml(text, scanned)) return scanned.summary();
  const parsed = new SummarySink(split(name), child === '' ? undefined : split(child));
  parseXmlInto(text, parsed);
  return parsed.summary();
}

/** Builds one document's summary from the events of a parse (attributes are not needed). */
class SummarySink implements XmlSink {
  /** In-scope namespace bindings, innermost last. */
  private readonly scope: Pair[] = [['xml', XML_NS]];
  /** Per open element: the bindings it added, and its number among the counted elements (-1: another element). */
  private readonly bindings: number[] = [];
  private readonly counted: number[] = [];
  private readonly owners: number[] = [];
  private readonly values: number[] = [];
  private count = 0;
  /** The collected text of the open `child` element (they do not nest: see startElement). */
  private collected: string | undefined;
  /** The depth of that element (open elements, itself included). */
  private collectedDepth = 0;
  private owner = -1;
  /** False once some value is not a plain number or some prefix is not declared. */
  private plain = true;

  constructor(
    private readonly name: ExpandedName,
    private readonly child: ExpandedName | undefined,
  ) {}

  /** The namespace URI bound to `prefix`; undefined when none is. */
  private uriOf(prefix: string): string | undefined {
    const scope = this.scope;
    for (let i = scope.length - 1; i >= 0; i--) if (scope[i][0] === prefix) return scope[i][1];
    return prefix === '' ? '' : undefined;
  }

  /** Whether an element of local name `local` and namespace `uri` has the expanded name `target`. */
  private is(local: string, uri: string | undefined, target: ExpandedName): boolean {
    return local === target.local && uri === target.uri;
  }

  startElement(qname: string, _attributes: readonly Pair[], namespaces: readonly Pair[] = []): void {
    // an element inside a collected child: such values are left to the query as written
    if (this.collected !== undefined) this.plain = false;
    for (const binding of namespaces) this.scope.push(binding);
    const colon = qname.indexOf(':');
    const local = colon < 0 ? qname : qname.slice(colon + 1);
    const uri = this.uriOf(colon < 0 ? '' : qname.slice(0, colon));
    if (uri === undefined) this.plain = false;
    const depth = this.counted.length;
    const parent = depth > 0 ? this.counted[depth - 1] : -1;
    if (this.child !== undefined && parent >= 0 && this.collected === undefined && this.is(local, uri, this.child)) {
      this.collected = '';
      this.collectedDepth = depth + 1;
      this.owner = parent;
    }
    this.counted.push(this.is(local, uri, this.name) ? this.count++ : -1);
    this.bindings.push(namespaces.length);
  }

  endElement(): void {
    if (this.collected !== undefined && this.counted.length === this.collectedDepth) {
      if (PLAIN_NUMBER.test(this.collected)) {
        this.values.push(Number(this.collected));
        this.owners.push(this.owner);
      } else this.plain = false;
      this.collected = undefined;
    }
    this.counted.pop();
    // pop, not `length -=`: setting an array's length is slow in V8, and most elements bind nothing
    for (let b = this.bindings.pop()!; b > 0; b--) this.scope.pop();
  }

  characters(s: string): void {
    if (this.collected !== undefined) this.collected += s;
  }

  comment(): void {}

  processingInstruction(): void {}

  summary(): LeafSummary | null {
    if (!this.plain) return null;
    if (this.child === undefined) return { count: this.count, owners: NO_OWNERS, values: NO_VALUES };
    return { count: this.count, owners: new Int32Array(this.owners), values: new Float64Array(this.values) };
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
 * Summaries kept per worker, in numbers of 8 bytes: a value and its owner count two, and each
 * summary 16 more for its key and objects (about 16 MB in all at most).
 */
const CACHE_NUMBERS = 1_000_000;

/** The summaries of a worker, by document version and pair. */
export class LeafSummaryCache {
  private readonly cache = new LRUCache<string, LeafSummary | false>({
    maxSize: CACHE_NUMBERS,
    sizeCalculation: (s) => 16 + (s === false ? 0 : 2 * s.values.length),
  });

  /** The summary kept for one version of a document (`version`: database, path and etag); undefined when none is. */
  get(version: string, name: string, child: string): LeafSummary | null | undefined {
    const found = this.cache.get(`${version}\u0000${name}\u0000${child}`);
    return found === undefined ? undefined : found === false ? null : found;
  }

  set(version: string, name: string, child: string, summary: LeafSummary | null): void {
    this.cache.set(`${version}\u0000${name}\u0000${child}`, summary ?? false);
  }
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
