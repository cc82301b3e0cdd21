/**
 * The compact form of a stored document: its nodes as rows of typed arrays in document order
 * (the pre order BaseX's storage uses), its names and strings in tables. A node is its row
 * number (`pre`); the document node is row 0.
 *
 * Per node: `kind` (the DOM node type: 9 document, 1 element, 3 text, 8 comment, 7 processing
 * instruction), `parent` (-1 for the document), `end` (the row after its last descendant, so
 * the descendants of `pre` are the rows `pre + 1 … end - 1` and its next sibling, if any, is
 * row `end`) and `ref`: for an element its name (an index into `names`), for text, a comment or
 * a PI its string (an index into `strings`; a PI's target is in `piTargets`), for the document
 * -1. A row has a name or a string, never both but for PIs, which are rare: one column for both
 * saves 10 MB at XMark factor 1 (2.7 million rows). Attributes of row `pre` are the rows
 * `attrStart.at(pre) … attrStart.at(pre + 1) - 1` of the attribute arrays; namespace declarations
 * come first among them, as attributes in the `xmlns` namespace, the way the DOM saxon-js
 * reads shows them.
 *
 * The strings (`TreeStrings`) are the characters of every text, comment, PI and attribute value
 * back to back in one string, each found by where it starts; a string is sliced out when it is
 * read. Holding them as one string of their own, rather than as one string object each (or as
 * slices of the document's text, which keep all of its markup alive), costs their characters and
 * 4 bytes apiece: at XMark factor 1 (108 MB of XML, 1.3 million strings, 81 MB of characters)
 * 85 MB, where the strings as slices of the text held 153. Rows with the same short string
 * share it as far as the builder finds it again (build-tree.ts `stringId`): 0.76 million strings
 * and 75 MB there.
 *
 * About 8 bytes a row (`end` and `parent` as `NearRows`, 1 byte each for most rows; where its
 * attributes start, 1 byte), 8 an attribute and 4 a string, besides the characters: at XMark
 * factor 1, 102 MB for 108 MB of XML (126 with 32-bit `end` and `parent`, 16-bit attribute
 * starts and no short strings shared), against 9–14 times the XML for saxon-js's own tree
 * (convert/compact-dom.ts measures that one).
 */

export const NodeKind = { document: 9, element: 1, text: 3, comment: 8, pi: 7 } as const;

/** An expanded name, with the prefix the document used. */
export interface TreeName {
  readonly prefix: string | null;
  readonly local: string;
  /** `''` for no namespace (as saxon-js's DOM has it). */
  readonly uri: string;
  /** `prefix:local`, or `local`. */
  readonly qname: string;
}

export interface CompactTree {
  /** Number of rows (nodes without attributes, the document node included). */
  readonly size: number;
  readonly kind: Uint8Array;
  /** `NearRows`, as `end`. */
  readonly parent: NearRows;
  readonly end: NearRows;
  /** An element's name id, the string id of text, a comment or a PI; -1 for the document. */
  readonly ref: Int32Array;
  /** The name id of each processing instruction's target, by its row. */
  readonly piTargets: ReadonlyMap<number, number>;
  /** `size + 1` entries (`AttributeStarts`). */
  readonly attrStart: AttributeStarts;
  readonly attrName: Int32Array;
  readonly attrValue: Int32Array;
  readonly names: readonly TreeName[];
  readonly strings: TreeStrings;
}

/**
 * Rows a block of `AttributeStarts` spans, as a power of two: 128, so that the attributes of a
 * block fit 8-bit offsets unless its rows have two apiece on average (at XMark factor 1 blocks
 * of 256 rows held up to 256 attributes, one too many).
 */
const BLOCK_BITS = 7;

/**
 * Where each row's attributes start among the attribute rows (`at(pre)`), `size + 1` entries
 * that never decrease. Kept as the start of each block of 128 rows plus each row's offset from
 * it, in 8 bits when no block holds more than 255 attributes (XMark factor 1: 1 byte a row
 * instead of 4, 8 MB less for 2.7 million rows), else in 16 bits; a tree whose block holds more
 * than 65,535 attributes keeps 32-bit offsets.
 */
export class AttributeStarts {
  private constructor(
    private readonly blocks: Int32Array,
    private readonly offsets: Uint8Array | Uint16Array | Int32Array,
  ) {}

  /** `starts`, a non-decreasing column of at least one entry, in this form (kept as it is when its offsets do not fit 16 bits). */
  static from(starts: Int32Array): AttributeStarts {
    const blocks = new Int32Array(((starts.length - 1) >>> BLOCK_BITS) + 1);
    for (let b = 0; b < blocks.length; b++) blocks[b] = starts[b << BLOCK_BITS];
    let widest = 0;
    for (let i = 0; i < starts.length; i++) widest = Math.max(widest, starts[i] - blocks[i >>> BLOCK_BITS]);
    if (widest > 0xffff) return new AttributeStarts(new Int32Array(blocks.length), starts);
    const offsets = widest > 0xff ? new Uint16Array(starts.length) : new Uint8Array(starts.length);
    for (let i = 0; i < starts.length; i++) offsets[i] = starts[i] - blocks[i >>> BLOCK_BITS];
    return new AttributeStarts(blocks, offsets);
  }

  /** Entry `i`: where the attributes of row `i` start (for `i = size`, the number of attributes). */
  at(i: number): number {
    return this.blocks[i >>> BLOCK_BITS] + this.offsets[i];
  }

  get byteLength(): number {
    return this.blocks.byteLength + this.offsets.byteLength;
  }
}

/**
 * A column of row numbers that lie near their own row (`end`, `parent`), kept as each row's
 * distance from it in 8 or 16 bits, whichever makes the column smallest, and the rows whose
 * distance does not fit, with their values in full, in a table beside it (sorted by row, so a
 * lookup there is a binary search; the last one found is tried first, as a walk over the children
 * of a large element asks for row after row of that table). At XMark factor 1 (2.7 million rows)
 * `end` fits 8 bits but for 14 rows and `parent` but for 141,639, the children of large
 * elements: 6.1 MB for both columns instead of 20.4.
 */
export class NearRows {
  /** Where in the far table the last far lookup ended. */
  private last = 0;

  private constructor(
    private readonly distances: Uint8Array | Uint16Array,
    /** `distances` holds this for a row in the far table. */
    private readonly far: number,
    /** 1: a row's value is the row plus its distance (`end`); -1: minus it (`parent`). */
    private readonly sign: 1 | -1,
    private readonly farRows: Int32Array,
    private readonly farValues: Int32Array,
  ) {}

  /** `values` in this form: each `sign * (values[i] - i)` must be at least 0. */
  static from(values: Int32Array, sign: 1 | -1): NearRows {
    let over8 = 0;
    let over16 = 0;
    for (let i = 0; i < values.length; i++) {
      const d = sign * (values[i] - i);
      if (d >= 0xff) over8++;
      if (d >= 0xffff) over16++;
    }
    // 1 or 2 bytes a row, 8 for each far row
    const wide = 2 * values.length + 8 * over16 < values.length + 8 * over8;
    const distances = wide ? new Uint16Array(values.length) : new Uint8Array(values.length);
    const far = wide ? 0xffff : 0xff;
    const farRows = new Int32Array(wide ? over16 : over8);
    const farValues = new Int32Array(farRows.length);
    for (let i = 0, f = 0; i < values.length; i++) {
      const d = sign * (values[i] - i);
      if (d < far) distances[i] = d;
      else {
        distances[i] = far;
        farRows[f] = i;
        farValues[f++] = values[i];
      }
    }
    return new NearRows(distances, far, sign, farRows, farValues);
  }

  /** The value of row `pre`. */
  at(pre: number): number {
    const d = this.distances[pre];
    return d !== this.far ? pre + this.sign * d : this.farValue(pre);
  }

  get byteLength(): number {
    return this.distances.byteLength + this.farRows.byteLength + this.farValues.byteLength;
  }

  private farValue(pre: number): number {
    const rows = this.farRows;
    let i = this.last;
    if (rows[i] !== pre && rows[++i] !== pre) {
      let lo = 0;
      let hi = rows.length - 1;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (rows[mid] < pre) lo = mid + 1;
        else hi = mid;
      }
      i = lo;
    }
    this.last = i;
    return this.farValues[i];
  }
}

/**
 * The strings of a tree (see the file comment): string `i` is `text` from `bounds[i]` to
 * `bounds[i + 1]`. They lie back to back in their order, so where one ends the next starts, and
 * one bound a string is enough (a length each besides cost 4.9 MB at XMark factor 1).
 */
export class TreeStrings {
  constructor(
    private readonly text: string,
    /** One more than there are strings: the last is the length of `text`. */
    private readonly bounds: Int32Array,
  ) {}

  /** How many strings there are. */
  get count(): number {
    return this.bounds.length - 1;
  }

  /** String `i`. */
  at(i: number): string {
    return this.text.slice(this.bounds[i], this.bounds[i + 1]);
  }
}

/** The name id of row `pre`: an element's name, a PI's target; -1 for other rows. */
export function nameIdAt(tree: CompactTree, pre: number): number {
  const kind = tree.kind[pre];
  return kind === NodeKind.element ? tree.ref[pre] : kind === NodeKind.pi ? (tree.piTargets.get(pre) ?? -1) : -1;
}

/** The first child of `pre`, or -1. */
export function firstChild(tree: CompactTree, pre: number): number {
  return tree.end.at(pre) > pre + 1 ? pre + 1 : -1;
}

/** The next sibling of `pre`, or -1. */
export function nextSibling(tree: CompactTree, pre: number): number {
  const parent = tree.parent.at(pre);
  if (parent < 0) return -1;
  const next = tree.end.at(pre);
  return next < tree.end.at(parent) ? next : -1;
}

/** The string value of `pre`: its own text, or the text of its descendants. */
export function stringValue(tree: CompactTree, pre: number): string {
  const kind = tree.kind[pre];
  if (kind !== NodeKind.element && kind !== NodeKind.document) return tree.strings.at(tree.ref[pre]);
  const end = tree.end.at(pre);
  let only: string | undefined;
  let parts: string[] | undefined;
  for (let i = pre + 1; i < end; i++) {
    if (tree.kind[i] !== NodeKind.text) continue;
    const s = tree.strings.at(tree.ref[i]);
    if (only === undefined) only = s;
    else (parts ??= [only]).push(s);
  }
  return parts !== undefined ? parts.join('') : (only ?? '');
}

/** Per tree, whether no name in it has a namespace (so no declaration either), found once. */
const namespaceFree = new WeakMap<CompactTree, boolean>();

/** Whether no name of `tree` has a namespace: no namespace is in scope anywhere in it. */
export function hasNoNamespaces(tree: CompactTree): boolean {
  let free = namespaceFree.get(tree);
  if (free === undefined) namespaceFree.set(tree, (free = tree.names.every((n) => n.uri === '')));
  return free;
}
