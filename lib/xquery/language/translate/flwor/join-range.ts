/**
 * Range joins: the join sites of join-sites.ts whose `where` is an order comparison,
 *
 *   for $p in //person let $l := for $i in //open_auction/initial
 *                                where $p/profile/@income > 5000 * exactly-one($i/text()) return $i
 *
 * (XMark Q11, Q12). B and the keys R of its items are computed once, before the outer loop; the
 * numeric keys are sorted with the positions of their items (engine:range-index,
 * range-index.ts). For each outer item, the values of L give one bound (the largest for `L > R`
 * and `L >= R`, the smallest for `<` and `<=`), a binary search finds the keys on the right
 * side of it, and `$b` ranges over their items in B's order. The `where` clause stays, so each
 * candidate still passes the comparison as written. A join that is only counted takes the
 * number of candidates from the search alone (join-count.ts).
 *
 * The bound keeps general comparison's rules (XQuery 3.1 §3.7.2) for numeric keys: an
 * xs:untypedAtomic value of L compares as an xs:double, numbers after promotion. Keys and bounds
 * are compared as xs:double without strictness (`<=` for `<`): the conversion to xs:double keeps
 * the order of the values but may make different decimals equal, so the candidates are a
 * superset of the pairs that compare true. NaN compares false with everything: it bounds
 * nothing and is no key. Where the nested loop compares anything but numbers (a key that is no
 * number, an L value that is a string or an untyped value that is no number: string comparison
 * or an error), every item of B is a candidate and the loop runs as written.
 */
import { translateExpr } from '../expressions';
import type { JoinPlan } from './join-sites';
import { NS } from '../names';
import type { Scope } from '../scope';
import type { TranslationUnit } from '../unit';
import { braced } from '../emit';

/** Names of the generated variables of one range join. */
export interface RangeState {
  readonly kind: 'range';
  readonly seq: string;
  /** B as an array (its items are fetched by position). */
  readonly items: string;
  /** The numeric keys with the positions of their items, sorted (engine:range-index). */
  readonly index: string;
  /** Whether a key is no number (every item is then a candidate). */
  readonly other: string;
  /** Whether every numeric key is an xs:double: comparing with it as an xs:double is then exact. */
  readonly doubles: string;
}

const F = braced(NS.fn);
const XS = braced(NS.xs);
const ARRAY = braced(NS.array);
const ENGINE = braced(NS.engine);

/** Whether the atomic value `k` is a number (of a type derived from one of the primitive numeric types). */
export const isNumber = (k: string): string => `(${k} instance of ${XS}decimal or ${k} instance of ${XS}double or ${k} instance of ${XS}float)`;

/**
 * `k castable as xs:double` for an xs:untypedAtomic `k`, the cast tried only on strings whose
 * first character after whitespace can start the lexical form of a double (XSD 1.1 §3.3.5: a
 * sign, a digit, `.`, `INF`, `NaN`): saxon-js's cast costs far more than the pattern when it fails.
 */
export const castableAsDouble = (k: string): string => `(${F}matches(${k}, "^\\s*[0-9+\\-.IN]") and ${k} castable as ${XS}double)`;

/** `$seq := B, $items := …, $other := …, $doubles := …, $index := …` of one range join. */
export function joinRangeMap(plan: JoinPlan, scope: Scope, unit: TranslationUnit): { text: string; state: RangeState } {
  const id = scope.ctx.nextId();
  const name = (n: string): string => `$${braced(NS.vars)}join-${n}.${id}`;
  const [seq, items, entries, index, other, doubles] = ['seq', 'items', 'entries', 'index', 'other', 'doubles'].map(name);
  const [pos, k, d, e] = ['pos', 'key', 'double', 'entry'].map(name);
  const innerDomain = translateExpr(plan.inner.in, scope, unit);
  const item = scope.bind(plan.inner.name, plan.inner.start);
  const key = translateExpr(plan.build, item.scope, unit);
  // one array per key: [xs:double, position, whether it is an xs:double], or [] for a key that is no number
  const each =
    `for ${pos} in 1 to ${ARRAY}size(${items}) return let ${item.variable.ref} := ${items}(${pos}) return for ${k} in ${F}data(${key}) return ` +
    `if ${isNumber(k)} then (let ${d} := ${XS}double(${k}) return if (${d} ne ${d}) then () else [${d}, ${pos}, ${k} instance of ${XS}double]) else []`;
  const text = [
    `${seq} := ${innerDomain}`,
    // B as an array: saxon-js's `$seq[$p]` and `subsequence($seq, $p, 1)` walk the sequence up to $p
    `${items} := array {${seq}}`,
    `${entries} := (${each})`,
    `${other} := (some ${e} in ${entries} satisfies ${ARRAY}size(${e}) eq 0)`,
    `${doubles} := (every ${e} in ${entries} satisfies ${ARRAY}size(${e}) eq 0 or ${e}(3))`,
    `${index} := ${ENGINE}range-index(for ${e} in ${entries} return if (${ARRAY}size(${e}) eq 3) then (${e}(1), ${e}(2)) else ())`,
  ].join(', ');
  return { text, state: { kind: 'range', seq, items, index, other, doubles } };
}

/**
 * The items of B whose keys may compare true with L's values, in B's order (`domain`), after
 * `prefix` (`let … return `) binds `exact`: whether they are exactly the items that pass the
 * comparison (every key an xs:double and every value of L a number or an untyped number: both
 * sides are then compared as the xs:double values the bounds are; nothing can raise an error).
 * `count`: how many items pass the comparison, for use where `exact` holds.
 */
export function joinRangeCandidates(
  plan: JoinPlan,
  state: RangeState,
  scope: Scope,
  unit: TranslationUnit,
): { prefix: string; domain: string; exact: string; count: string } {
  const id = scope.ctx.nextId();
  const name = (n: string): string => `$${braced(NS.vars)}join-${n}.${id}`;
  const [l, c, ds, exact, p] = ['probe', 'bounds', 'doubles', 'exact', 'pos'].map(name);
  const { seq, items, index, other, doubles } = state;
  const probe = translateExpr(plan.probe, scope, unit);
  // a number per value of L, or "all" where the loop compares something else
  const bounds =
    `for ${l} in ${F}data(${probe}) return ` +
    `if (${l} instance of ${XS}untypedAtomic) then (if ${castableAsDouble(l)} then ${XS}double(${l}) else "all") ` +
    `else if ${isNumber(l)} then ${XS}double(${l}) else "all"`;
  // probe > key (or >=): the keys up to the largest bound; probe < key (or <=): from the smallest;
  // a key equal to the bound is in for >= and <=, and for > and < unless the comparison is exact
  const ops: Record<string, string> = {
    '>': `(if (${exact}) then "lt" else "le")`,
    '>=': '"le"',
    '<': `(if (${exact}) then "gt" else "ge")`,
    '<=': '"ge"',
  };
  const bound = plan.op === '>' || plan.op === '>=' ? `${F}max(${ds})` : `${F}min(${ds})`;
  const lookup = (f: string): string => `${ENGINE}${f}(${index}, ${ops[plan.op]}, ${bound})`;
  const all = `(${other} or (some ${l} in ${c} satisfies ${l} instance of ${XS}string))`;
  // the bounds without NaN, which compares false with every key (only where no bound is "all")
  const numbers = `let ${ds} := (for ${l} in ${c} return if (${l} ne ${l}) then () else ${l}) return `;
  return {
    prefix: `let ${c} := (${bounds}), ${exact} := (${doubles} and ${F}not(${all})) return `,
    domain: `(if (${all}) then ${seq} else ${numbers}if (${F}empty(${ds})) then () else for ${p} in ${lookup('range-positions')} return ${items}(${p}))`,
    exact,
    count: `(${numbers}if (${F}empty(${ds})) then 0 else ${lookup('range-count')})`,
  };
}
