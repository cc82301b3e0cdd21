/**
 * The full-text hits of one evaluation, for BaseX's ft:mark, ft:extract and ft:count
 * (functions/ft-marks.ts). As in BaseX, these functions see the matches of the `contains text`
 * expressions evaluated while their first argument is (docs.basex.org, Full-Text Functions: "the
 * full-text expression that computes the token positions must be specified as argument"): a
 * collection of hits is open while the argument is evaluated, and every satisfied `contains text`
 * over a node meanwhile records the tokens it matched there (`recordHits`, called by
 * functions/ft.ts). The translation opens the collection in an argument written before the nodes
 * (`openHits`: saxon-js evaluates the arguments of a call in order, before the call, and some,
 * such as a path's sorted result, completely), and the function closes it (`closeHits`) once it
 * has its nodes. Collections nest: a `contains text` records into the innermost one only.
 *
 * A match is kept twice: as token positions of the searched node (ft:count counts them, as
 * BaseX counts its positions), and as character ranges of the text nodes the tokens lie in, which
 * ft:mark wraps. An element or document searched as a whole is tokenized over its text
 * descendants (an ignored node, `without content`, separates tokens), so its matches are marked
 * in the text nodes below it; a token that runs over two text nodes is marked in both parts.
 * Attributes are counted, never marked.
 */
import { isNode, type XdmValue } from '../../saxon';
import { activeDocumentSource } from '../worker/documents/source';
import { tokenSpans } from './tokens';

/** The hits recorded while one argument was evaluated. */
export class Hits {
  /** Matched token positions by searched node. */
  private readonly positions = new Map<Node, Set<number>>();
  /** Marked character ranges (start → end, exclusive) by text node. */
  private readonly ranges = new Map<Node, Map<number, number>>();

  /** The number of distinct matched tokens of all searched nodes (BaseX ft:count). */
  get count(): number {
    let n = 0;
    for (const set of this.positions.values()) n += set.size;
    return n;
  }

  /** The marked ranges of a text node, in document order, or undefined when none. */
  rangesOf(text: Node): readonly (readonly [number, number])[] | undefined {
    const r = this.ranges.get(text);
    return r ? [...r].sort((a, b) => a[0] - b[0]) : undefined;
  }

  add(node: Node, ignored: ReadonlySet<unknown>, positions: readonly number[]): void {
    let set = this.positions.get(node);
    if (!set) this.positions.set(node, (set = new Set()));
    for (const p of positions) set.add(p);
    if (node.nodeType === 2) return;
    const { text, pieces } = textPieces(node, ignored);
    const spans = tokenSpans(text);
    for (const p of positions) {
      const span = spans[p];
      if (!span) continue;
      for (const piece of pieces) {
        const start = Math.max(span.start, piece.start);
        const end = Math.min(span.end, piece.start + piece.length);
        if (start < end) this.mark(piece.node, start - piece.start, end - piece.start);
      }
    }
  }

  private mark(text: Node, start: number, end: number): void {
    let r = this.ranges.get(text);
    if (!r) this.ranges.set(text, (r = new Map()));
    r.set(start, Math.max(end, r.get(start) ?? end));
  }
}

interface Piece {
  readonly node: Node;
  readonly start: number;
  readonly length: number;
}

/**
 * The text a node is tokenized from, with where each text node lies in it. The tokens are the
 * ones functions/ft.ts matches (it also folds whitespace, which moves no token boundary); an
 * ignored node is a space, comments and processing instructions are nothing.
 */
function textPieces(node: Node, ignored: ReadonlySet<unknown>): { text: string; pieces: Piece[] } {
  let text = '';
  const pieces: Piece[] = [];
  const walk = (n: Node): void => {
    if (ignored.has(n)) {
      text += ' ';
    } else if (n.nodeType === 3 || n.nodeType === 4) {
      const v = n.nodeValue ?? '';
      pieces.push({ node: n, start: text.length, length: v.length });
      text += v;
    } else if (n.nodeType === 1 || n.nodeType === 9 || n.nodeType === 11) {
      for (const c of Array.from(n.childNodes)) walk(c);
    }
  };
  walk(node);
  return { text, pieces };
}

/**
 * The open collections of each run (its document source stands for it, as in resources.ts): a
 * collection an error left open goes with its run.
 */
const openByRun = new WeakMap<object, Hits[]>();

function openCollections(): Hits[] {
  const run = activeDocumentSource() as object;
  let open = openByRun.get(run);
  if (!open) openByRun.set(run, (open = []));
  return open;
}

/**
 * Opens a collection of hits; returns its number for `closeHits`. Until it is closed, every
 * satisfied `contains text` over a node records into it (and into no collection opened before).
 */
export function openHits(): number {
  const open = openCollections();
  open.push(new Hits());
  return open.length;
}

/**
 * Closes collection `id` (and any opened after it and left open by an error the query caught)
 * and returns it; an unknown id gives an empty collection.
 */
export function closeHits(id: number): Hits {
  const open = openCollections();
  if (!Number.isInteger(id) || id < 1 || id > open.length) return new Hits();
  const hits = open[id - 1];
  open.length = id - 1;
  return hits;
}

/** Whether a collection is open in this run: matches must then be computed and recorded. */
export function collectingHits(): boolean {
  return (openByRun.get(activeDocumentSource() as object)?.length ?? 0) > 0;
}

/**
 * Records the matched token positions of a searched item (asked for only then), when a
 * collection is open and the item is a node.
 */
export function recordHits(item: XdmValue[number], ignored: ReadonlySet<unknown>, positions: () => readonly number[]): void {
  const open = openByRun.get(activeDocumentSource() as object);
  const hits = open?.[open.length - 1];
  if (!hits || !isNode(item)) return;
  const matched = positions();
  if (matched.length > 0) hits.add(item as unknown as Node, ignored, matched);
}
