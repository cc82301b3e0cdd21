/**
 * Copies of nodes with their full-text hits wrapped in marker elements: BaseX's ft:mark and
 * ft:extract (docs.basex.org, Full-Text Functions). Each marked token of a text node becomes an
 * element of the marker's name holding it; everything else is copied as it is (elements,
 * attributes, namespaces, comments, processing instructions). The marker takes the namespace its
 * prefix has where the text is (an unprefixed name the default namespace, as BaseX adopts it), so
 * it serializes without a declaration of its own. A marked text node given itself is replaced by
 * its parts: markers and texts.
 *
 * ft:extract shortens each marked text node to about `length` characters (BaseX's rule: cut first
 * the text before the first marker and after the last one, in proportion to their lengths, then
 * the texts between markers in their middle, then drop markers from the end; every cut is `...`).
 */
import { isNode, parseToSaxonDocument, xpathError, type XdmValue } from '../../saxon';
import { isQName } from '../../convert/names';
import type { Hits } from './hits';
import { importable } from '../../tree/tree-dom';

const DOTS = '...';

interface Segment {
  text: string;
  readonly mark: boolean;
}

export interface MarkOptions {
  /** The marker's name, a lexical QName. */
  readonly name: string;
  /** ft:extract's length; none for ft:mark. */
  readonly length?: number;
}

/** XPTY0004 unless every item is a node (the functions take `node()*`). */
export function requireNodes(items: XdmValue): void {
  const other = items.find((n) => !isNode(n));
  if (other !== undefined) throw xpathError(`Node expected, ${String(other)} found.`, 'XPTY0004');
}

/** The copies of `nodes` with the hits of `hits` marked. */
export function markedCopies(nodes: XdmValue, hits: Hits, options: MarkOptions): XdmValue {
  requireNodes(nodes);
  if (!isQName(options.name)) throw xpathError(`Cannot convert to xs:QName: ${options.name}.`, 'FOCA0002');
  const doc = parseToSaxonDocument('<_/>') as unknown as Document;
  const copier = new Copier(doc, hits, options);
  return nodes.flatMap((n) => copier.copy(n as unknown as Node)) as unknown as XdmValue;
}

class Copier {
  constructor(
    private readonly doc: Document,
    private readonly hits: Hits,
    private readonly options: MarkOptions,
  ) {}

  copy(node: Node): Node[] {
    switch (node.nodeType) {
      case 1: {
        const el = this.doc.importNode(importable(node), false);
        for (const c of Array.from(node.childNodes)) for (const x of this.copy(c)) el.appendChild(x);
        return [el];
      }
      case 3:
      case 4:
        return this.text(node);
      case 9:
      case 11: {
        const d = parseToSaxonDocument('<_/>') as unknown as Document;
        d.removeChild(d.documentElement);
        const copier = new Copier(d, this.hits, this.options);
        for (const c of Array.from(node.childNodes)) for (const x of copier.copy(c)) d.appendChild(x);
        return [d];
      }
      default:
        return [this.doc.importNode(importable(node), false)];
    }
  }

  private text(node: Node): Node[] {
    const value = node.nodeValue ?? '';
    const ranges = this.hits.rangesOf(node);
    if (!ranges) return [this.doc.createTextNode(value)];
    let segments = split(value, ranges);
    if (this.options.length !== undefined) segments = chop(segments, value.length - this.options.length);
    const name = this.options.name;
    const colon = name.indexOf(':');
    const prefix = colon < 0 ? null : name.slice(0, colon);
    const uri = namespaceAt(node.parentNode, prefix);
    if (prefix !== null && !uri) throw xpathError(`No namespace is bound to prefix ${prefix}.`, 'FONS0004');
    return segments.map((s) => {
      if (!s.mark) return this.doc.createTextNode(s.text);
      const el = this.doc.createElementNS(uri || null, name);
      el.appendChild(this.doc.createTextNode(s.text));
      return el;
    });
  }
}

/**
 * The namespace `prefix` (null: the default namespace) has at `node`: that of the nearest
 * ancestor-or-self element or attribute with the prefix (an unprefixed element's namespace is the
 * default one where it is).
 */
function namespaceAt(node: Node | null, prefix: string | null): string | null {
  for (let n = node; n && n.nodeType === 1; n = n.parentNode) {
    const el = n as Element;
    if ((el.prefix || null) === prefix) return el.namespaceURI || null;
    if (prefix !== null) for (const a of Array.from(el.attributes ?? [])) if (a.prefix === prefix) return a.namespaceURI || null;
  }
  return null;
}

/** A text cut at the marked ranges: marked and unmarked segments, none empty. */
function split(value: string, ranges: readonly (readonly [number, number])[]): Segment[] {
  const out: Segment[] = [];
  let at = 0;
  for (const [start, end] of ranges) {
    if (start < at) continue;
    if (start > at) out.push({ text: value.slice(at, start), mark: false });
    out.push({ text: value.slice(start, end), mark: true });
    at = end;
  }
  if (at < value.length) out.push({ text: value.slice(at), mark: false });
  return out;
}

/** Removes about `excess` characters from the segments (see the module comment). */
function chop(input: Segment[], excess: number): Segment[] {
  if (excess <= 0) return input;
  const segs = input.map((s) => ({ ...s }));
  let left = excess;
  const first = segs[0];
  const last = segs[segs.length - 1];
  const firstLength = first.mark ? 0 : first.text.length;
  const lastLength = last.mark ? 0 : last.text.length;
  if (!first.mark) {
    const cut = Math.min(firstLength, Math.floor((left * firstLength) / (firstLength + lastLength)));
    if (cut > 0) {
      first.text = DOTS + first.text.slice(cut);
      left -= cut;
    }
  }
  if (!last.mark && left > 0) {
    const cut = Math.min(lastLength, left);
    last.text = last.text.slice(0, lastLength - cut) + DOTS;
    left -= cut;
  }
  for (let i = segs.length - 2; i > 0 && left > 0; i--) {
    const s = segs[i];
    if (s.mark) continue;
    const n = s.text.length;
    const cut = Math.min(n, left);
    s.text = s.text.slice(0, Math.floor((n - cut) / 2)) + DOTS + s.text.slice(Math.floor((n + cut) / 2));
    left -= cut;
  }
  for (let i = segs.length - 1; i >= 0 && left > 0; i--) {
    if (segs[i].mark) left -= segs.splice(i, 1)[0].text.length;
  }
  // neighbouring texts (left where a marker was dropped) become one; two cuts in a row one cut
  for (let i = segs.length - 2; i >= 0; i--) {
    const [a, b] = [segs[i], segs[i + 1]];
    if (a.mark || b.mark) continue;
    if (!(a.text === DOTS && b.text === DOTS)) a.text += b.text;
    segs.splice(i + 1, 1);
  }
  return segs;
}

