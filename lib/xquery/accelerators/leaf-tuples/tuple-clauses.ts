/**
 * The clauses of a leaf-tuples plan (tuple-plan.ts) compiled into operations on the tuple stream
 * (tuple-frame.ts), and its return clause into what it puts in the result per row. The
 * expressions are compiled by tuple-expressions.ts; a clause updates how the stream after it
 * reads each variable (`Compiler.vars`).
 */
import { castString, doubleValue, stringValue, type XdmItem } from '../../../saxon';
import { EMPTY, NAN, VALUE, sortColumn, sortedPositions } from '../../functions/order-tuples';
import { ElementForest } from '../../../tree/element-forest';
import { decline, Frame, groupRows } from './tuple-frame';
import { ID_BITS, KeyIds, internedOf, type Interned } from '../leaf-columns/leaf-ids';
import type { Column } from '../leaf-columns/leaf-columns';
import { ebv, grouped, isNumeric, isSingle, single, stored, type Code, type RowFn, type Single, type Type } from './tuple-codes';
import type { Compiler } from './tuple-expressions';
import type { PlanClause, PlanExpr, PlanReturn } from './tuple-plan';
import { rowsWithLeaf } from './where-probe';
import { LeafSortKeys } from '../leaf-columns/leaf-ranks';

/** One clause as an operation on the stream. */
export type Step = (fr: Frame) => Frame;

/**
 * The result being made: its items in order, the elements among them made in one forest
 * (tree/element-forest.ts) and standing for the index of their tree until `finish`.
 */
export class Output {
  readonly items: (XdmItem | number)[] = [];
  private forest: ElementForest | undefined;

  get elements(): ElementForest {
    return (this.forest ??= new ElementForest());
  }

  /** The items, elements of base URI `base`. */
  finish(base: string | null): XdmItem[] {
    if (!this.forest) return this.items as XdmItem[];
    const nodes = this.forest.finish(base);
    return this.items.map((item) => (typeof item === 'number' ? nodes[item] : item));
  }
}

/** What the return clause puts in the result for row `r`. */
export type Emit = (fr: Frame, r: number, out: Output) => void;

/** Stores the values of a single-valued code, one per row. */
function column(code: Code, fr: Frame): unknown[] {
  const values = new Array<unknown>(fr.n);
  for (let r = 0; r < fr.n; r++) values[r] = code.f!(fr, r);
  return values;
}

export function compileClause(clause: PlanClause, compiler: Compiler): Step {
  switch (clause.c) {
    case 'let': {
      const code = compiler.expr(clause.e);
      const { s } = clause;
      // single values are computed once per tuple; leaf paths and the element are read again
      // from the row's element wherever they are used (the same nodes every time)
      if (!isSingle(code.t)) {
        compiler.vars[s] = code;
        return (fr) => fr;
      }
      compiler.vars[s] = stored(s, code.t);
      return (fr) => {
        fr.store(s, column(code, fr));
        return fr;
      };
    }
    case 'where': {
      const test = ebv(compiler.expr(clause.e));
      const probe = compiler.leafEquality(clause.e);
      return (fr) => {
        const found = probe && rowsWithLeaf(fr, probe.path, fr.outer[probe.outer] as string | null);
        if (found) return found.length === fr.n ? fr : fr.pick(found);
        const kept: number[] = [];
        for (let r = 0; r < fr.n; r++) if (test(fr, r)) kept.push(r);
        return kept.length === fr.n ? fr : fr.pick(kept);
      };
    }
    case 'count': {
      const { s } = clause;
      compiler.vars[s] = stored(s, 'I');
      return (fr) => {
        fr.store(s, Array.from({ length: fr.n }, (_, r) => r + 1));
        return fr;
      };
    }
    case 'order':
      return orderStep(clause.specs.map((spec) => ({ ...spec, key: compiler.expr(spec.e) })));
    case 'group':
      return groupStep(clause.keys, clause.keep, compiler);
  }
}

/**
 * order by (XQuery 3.1 §3.12.8): keys of one item or none, untyped compared as xs:string;
 * equal keys keep their order (order-tuples.ts `sortedPositions`). A key that is a leaf path
 * sorts as the ranks of its leaves when they are all in one document's column (leaf-ranks.ts).
 */
function orderStep(specs: readonly { key: Code; descending: boolean; emptyGreatest: boolean }[]): Step {
  const keys = specs.map((spec) => ({ ...spec, one: single(spec.key), columnOf: spec.key.t === 'L' || spec.key.t === 'A' ? spec.key.columnOf : undefined }));
  for (const { one } of keys) if (one.t === 'B') decline();
  return (fr) => {
    const n = fr.n;
    const columns = keys.map(({ one, columnOf, descending, emptyGreatest }) => {
      if (columnOf) {
        const leaves = new LeafSortKeys(n, emptyGreatest, false);
        for (let r = 0; r < n; r++) {
          const column = columnOf(fr, r);
          const i = fr.at![r];
          const start = column.offsets[i];
          const count = column.offsets[i + 1] - start;
          if (count > 1) decline();
          leaves.leaf(r, column, count === 1 ? start : -1);
        }
        return leaves.column(descending);
      }
      const ranks = new Uint8Array(n);
      const numbers = new Float64Array(n);
      const strings = isNumeric(one.t) ? undefined : new Array<string>(n);
      for (let r = 0; r < n; r++) {
        const v = one.f!(fr, r) as Single;
        let rank = VALUE;
        if (v === null) rank = EMPTY;
        else if (strings) strings[r] = v as string;
        else if (Number.isNaN(v)) rank = NAN;
        else numbers[r] = v as number;
        ranks[r] = emptyGreatest ? VALUE - rank : rank;
      }
      return sortColumn(ranks, numbers, strings, descending);
    });
    return fr.pick(sortedPositions(columns, n));
  };
}

const NONE = Symbol('none');

/**
 * group by (XQuery 3.1 §3.12.7): keys of one item or none, equal when both are none or their
 * values are equal (`eq`; NaN equal to NaN, 0 to -0); groups in order of first appearance, each
 * binding the keys and, per other variable in scope, its values over the group's tuples.
 */
function groupStep(specs: readonly { s: number; e: PlanExpr }[], keep: readonly number[], compiler: Compiler): Step {
  const raw = specs.map(({ e }) => compiler.expr(e));
  const keys = specs.map(({ s }, k) => ({ s, key: single(raw[k]) }));
  // keys that are leaves compare as the leaves' numbers (accelerators/leaf-columns/leaf-ids.ts)
  const leafColumns = raw.every((c) => c.t === 'L' && c.columnOf) ? raw.map((c) => c.columnOf!) : undefined;
  for (const s of keep) compiler.vars[s] = grouped(compiler.vars[s] ?? decline());
  for (const { s, key } of keys) compiler.vars[s] = stored(s, key.t as Type);
  compiler.groupedStream = true;
  return (fr) => {
    const ids = leafColumns ? leafKeyIds(fr, leafColumns) : valueKeyIds(fr, keys.map(({ key }) => key));
    const { grouped: out, firsts } = groupRows(fr, ids);
    for (const { s, key } of keys) out.store(s, Array.from(firsts, (r) => key.f!(fr, r)));
    return out;
  };
}

/** Per row, a value standing for its keys (equal exactly when the keys are equal), from the keys' values. */
function valueKeyIds(fr: Frame, keys: readonly Code[]): unknown[] {
  const values = keys.map((key) => column(key, fr) as Single[]);
  if (keys.length === 1) return values[0].map((v) => (v === null ? NONE : v)); // a Map key: NaN is NaN, 0 is -0
  const ids = new Array<unknown>(fr.n);
  for (let r = 0; r < fr.n; r++) ids[r] = JSON.stringify(values.map((col) => (typeof col[r] === 'number' && Number.isNaN(col[r]) ? 'NaN' : col[r])));
  return ids;
}

/**
 * The same from keys that are leaves: the number of each key's leaf (0 for none; two leaves
 * raise XPTY0004 there: declined), one key's number as it is, two combined into one number,
 * more joined in a string.
 */
function leafKeyIds(fr: Frame, columns: readonly ((fr: Frame, r: number) => Column)[]): unknown[] {
  const keyIds = columns.map(() => new KeyIds());
  const last: (Column | undefined)[] = columns.map(() => undefined);
  const numbered: (Interned | undefined)[] = columns.map(() => undefined);
  const ids = new Array<unknown>(fr.n);
  const one = new Array<number>(columns.length);
  for (let r = 0; r < fr.n; r++) {
    const i = fr.at![r];
    for (let k = 0; k < columns.length; k++) {
      const column = columns[k](fr, r);
      if (column !== last[k]) {
        last[k] = column;
        numbered[k] = internedOf(column);
      }
      const start = column.offsets[i];
      const count = column.offsets[i + 1] - start;
      if (count > 1) decline();
      one[k] = count === 0 ? 0 : keyIds[k].of(numbered[k]!, numbered[k]!.ids[start]);
    }
    if (columns.length === 1) ids[r] = one[0];
    else if (columns.length === 2 && one[0] < ID_BITS && one[1] < ID_BITS) ids[r] = one[0] * ID_BITS + one[1];
    else ids[r] = one.join(',');
  }
  return ids;
}

/** What the return clause puts in the result per row. */
export function compileReturn(ret: PlanReturn, compiler: Compiler): Emit {
  if (ret.r === 'sequence') {
    const items = ret.items.map((item) => compileReturn(item, compiler));
    return (fr, r, out) => {
      for (const item of items) item(fr, r, out);
    };
  }
  if (ret.r === 'element') {
    const write = elementWriter(ret, compiler);
    return (fr, r, out) => void out.items.push(write(fr, r, out.elements));
  }
  const c = compiler.expr(ret.e);
  if (c.t === 'N') {
    const f = c.f!;
    return (fr, r, out) => void out.items.push(f(fr, r) as XdmItem);
  }
  if (c.t === 'L' && c.nodes) {
    // the leaf nodes themselves, in document order per tuple
    const nodes = c.nodes();
    return (fr, r, out) => nodes(fr, r, (node) => void out.items.push(node));
  }
  if (c.t === 'A') {
    const each = c.each!;
    return (fr, r, out) => void each(fr, r, (v) => (out.items.push(castString(v as string, 'untypedAtomic')), false));
  }
  if (!isSingle(c.t)) return decline(); // grouped values: left to saxon-js
  const make = itemMaker(c.t);
  const f = c.f!;
  return (fr, r, out) => {
    const v = f(fr, r) as Single;
    if (v !== null) out.items.push(make(v));
  };
}

/** Integer items by value, for the small numbers results repeat (counts, positions). */
const integers: XdmItem[] = [];

function itemMaker(t: Type): (v: Single) => XdmItem {
  switch (t) {
    case 'U':
      return (v) => castString(v as string, 'untypedAtomic');
    case 'S':
      return (v) => stringValue(v as string);
    case 'I':
      return (v) => {
        const n = v as number;
        return n >= 0 && n < 4096 ? (integers[n] ??= castString(String(n), 'integer')) : castString(String(n), 'integer');
      };
    case 'D':
      return (v) => doubleValue(v as number);
    default:
      return (v) => castString(v ? 'true' : 'false', 'boolean');
  }
}

/**
 * Element content that is a path to child elements of `$v` (`<r>{$v/name}</r>`, or a let bound
 * to one): the elements
 * copied (XQuery 3.1 §3.9.1.3), when each is an element of a stored document without
 * namespaces (tree/element-forest.ts `copy`; any other declines the call). Undefined for other
 * content.
 */
function copiedElements(e: PlanExpr, compiler: Compiler): ((fr: Frame, r: number, forest: ElementForest) => void) | undefined {
  const found = leafPathOf(e, compiler, 'child');
  if (!found?.code.nodes) return undefined;
  const nodes = found.code.nodes();
  return (fr, r, forest) =>
    nodes(fr, r, (node) => {
      if (!forest.copy(node)) decline();
    });
}

/**
 * The code of `e` when its value is the nodes of a leaf path (the path itself, or a variable bound
 * to it) whose last step is of `kind`, when given, and that step's leaf; undefined for anything else.
 */
function leafPathOf(e: PlanExpr, compiler: Compiler, kind?: 'attribute' | 'text' | 'child'): { readonly code: Code; readonly leaf: string } | undefined {
  if (e.x === 'sequence') return undefined;
  const code = compiler.expr(e);
  const path = code.path === undefined ? undefined : compiler.paths[code.path];
  const last = path?.[path.length - 1];
  return code.t === 'L' && last && (kind === undefined || last.kind === kind) ? { code, leaf: last.leaf } : undefined;
}

/**
 * `{$v/…/@a}` in content: the attribute node copied onto the element, by its name (in no
 * namespace: another declines) and value, null for none; more than one declines (XQDY0025).
 */
function copiedAttribute(e: PlanExpr, compiler: Compiler): { readonly name: string; readonly value: RowFn<Single> } | undefined {
  const found = leafPathOf(e, compiler, 'attribute');
  if (!found) return undefined;
  if (!found.leaf.startsWith('Q{}') || !found.code.one) return decline();
  return { name: found.leaf.slice(3), value: found.code.one };
}

/** `{$v/…/text()}` in content: the text nodes copied, adjacent ones as one (XQuery 3.1 §3.9.1.3). */
function copiedText(e: PlanExpr, compiler: Compiler): ((fr: Frame, r: number, forest: ElementForest) => void) | undefined {
  const found = leafPathOf(e, compiler, 'text');
  if (!found?.code.each) return undefined;
  const each = found.code.each;
  return (fr, r, forest) => void each(fr, r, (v) => (forest.text(String(v)), false));
}

/**
 * A plain element constructor (tuple-plan.ts), written into the forest: attribute values and
 * text as XQuery 3.1 §3.9.1.1 and §3.9.1.3 make them. Answers the element's index among the
 * forest's trees (-1 for a nested one).
 */
function elementWriter(ret: Extract<PlanReturn, { r: 'element' }>, compiler: Compiler): (fr: Frame, r: number, forest: ElementForest) => number {
  const piece = (p: string | PlanExpr): ((fr: Frame, r: number) => string) => (typeof p === 'string' ? () => p : compiler.enclosedText(p, false));
  const attributes = ret.attributes.map((a) => ({ name: a.name, parts: a.parts.map(piece) }));
  // attributes copied by the leading content (`<r>{$i/@id}…</r>`): attribute nodes after other
  // content raise XQTY0024 (XQuery 3.1 §3.9.1.3), so one that is not leading declines
  // (also the leading items of an enclosed sequence there: `<r>{$i/@id, $i/name/text()}</r>`)
  const copies: { readonly name: string; readonly value: RowFn<Single> }[] = [];
  const rest: (string | PlanExpr | PlanReturn)[] = [];
  let leading = true;
  for (const c of ret.content) {
    const items = leading && typeof c !== 'string' && 'x' in c && c.x === 'sequence' ? c.items : [c];
    let i = 0;
    for (; leading && i < items.length; i++) {
      const item = items[i];
      const copy = typeof item === 'string' || !('x' in item) ? undefined : copiedAttribute(item, compiler);
      if (!copy) break;
      copies.push(copy);
    }
    if (i === items.length) continue;
    leading = false;
    rest.push(i === 0 ? c : items.length - i === 1 ? items[i] : { x: 'sequence', items: items.slice(i) as PlanExpr[] });
  }
  const content = rest.map((c): ((fr: Frame, r: number, forest: ElementForest) => void) => {
    if (typeof c === 'string') return (_fr, _r, forest) => forest.text(c);
    // an expression has `x`; a nested constructor is a return plan (`r`, which a binary expression also has)
    if (!('x' in c)) {
      if (c.r !== 'element') return decline();
      const nested = elementWriter(c, compiler);
      return (fr, r, forest) => void nested(fr, r, forest);
    }
    // nodes among atomic values of one enclosed expression (spaces go between adjacent values
    // only), or an attribute after other content: left to saxon-js
    const items = c.x === 'sequence' ? c.items : [c];
    if (items.some((item) => leafPathOf(item, compiler)) && (items.length > 1 || leafPathOf(c, compiler, 'attribute'))) return decline();
    const copied = copiedElements(c, compiler) ?? copiedText(c, compiler);
    if (copied) return copied;
    const text = compiler.enclosedText(c, true);
    return (fr, r, forest) => forest.text(text(fr, r));
  });
  const written = new Set(attributes.map((a) => a.name));
  // attributes go to the forest one by one, with no array made per element: a declined call
  // leaves its forest behind (leaf-tuples.ts), so declining after the start is no harm
  return (fr, r, forest) => {
    const index = forest.start(ret.name);
    for (const a of attributes) forest.attribute(a.name, a.parts.length === 1 ? a.parts[0](fr, r) : a.parts.map((p) => p(fr, r)).join(''));
    let copied: string[] | undefined;
    for (const copy of copies) {
      const value = copy.value(fr, r);
      if (value === null) continue;
      // the same name twice raises XQDY0025
      if (written.has(copy.name) || copied?.includes(copy.name)) decline();
      (copied ??= []).push(copy.name);
      forest.attribute(copy.name, String(value));
    }
    for (const c of content) c(fr, r, forest);
    forest.end();
    return index;
  };
}
