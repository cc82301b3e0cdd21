/**
 * The order by clause's own sort (spec §3.12.8): a fixed function running `xsl:perform-sort`
 * over one map per tuple, for the keys that engine:order-tuples (order-tuples.ts) leaves to it
 * (sort.ts calls it through `lib.order-N`).
 *
 * Each order spec's key is atomized, at most one item (else XPTY0004), xs:untypedAtomic as
 * xs:string, and stored with its class (`#oN`, `#cN`). Two `xsl:sort`s per spec, both in the
 * spec's direction:
 * - a class key placing the empty sequence and NaN as the spec says: `empty least` gives
 *   () < NaN < values, `empty greatest` gives values < NaN < (); within a class the keys are
 *   equal, so XSLT's own rules for empty/NaN never decide anything;
 * - the key itself, with the spec's collation.
 * Directions and collations are arguments (the function is shared, see `sortFunctionText`).
 * XSLT 3.0 sorts are stable, which satisfies both `stable order by` and `order by`. Keys XSLT
 * cannot compare (XTDE1030, or FORG0006 for QNames) raise XPTY0004, the XQuery code for the
 * failing `gt`.
 */
import { ORDER_KEY_CARDINALITY_MESSAGE } from '../../../constants';
import type { OrderSpec } from '../../syntax';
import { NS, xmlAttr, xpathError, xpathString } from '../names';
import type { Scope } from '../scope';
import { braced } from '../emit';

export function emptyGreatest(s: OrderSpec, scope: Scope): boolean {
  return (s.emptyOrder ?? defaultEmptyOrder(scope)) === 'greatest';
}

/** The order key of one tuple: atomized, one item at most, untypedAtomic as string (`a`: a free variable for the atomized value). */
export function sortKey(value: string, a: string): string {
  return (
    `let ${a} := ${braced(NS.fn)}data(${value}) return ` +
    `if (${braced(NS.fn)}count(${a}) gt 1) then ${xpathError('XPTY0004', ORDER_KEY_CARDINALITY_MESSAGE)} ` +
    `else if (${a} instance of ${braced(NS.xs)}untypedAtomic) then ${braced(NS.fn)}string(${a}) else ${a}`
  );
}

/**
 * The class of the key in `k`: where empty and NaN rank against the other values. `greatest`:
 * whether the spec says `empty greatest`, known now or given as an XPath boolean expression.
 */
export function sortClass(k: string, greatest: boolean | string): string {
  const nan = `(${k} instance of ${braced(NS.xs)}double or ${k} instance of ${braced(NS.xs)}float) and ${k} ne ${k}`;
  const [empty, value] = typeof greatest === 'string' ? [`(if (${greatest}) then 2 else 0)`, `(if (${greatest}) then 0 else 2)`] : greatest ? [2, 0] : [0, 2];
  return `if (${braced(NS.fn)}empty(${k})) then ${empty} else if (${nan}) then 1 else ${value}`;
}

/** `declare default order empty greatest|least`, when the static context records it. */
function defaultEmptyOrder(scope: Scope): 'greatest' | 'least' {
  return scope.ctx.defaultEmptyOrder;
}

/**
 * The sort function of a clause with `n` order specs: `Q{gen}lib.sort-N($tuples, $orders,
 * $collations)`, each spec's direction and collation given as the N-th string of `$orders` and
 * `$collations` (attribute value templates of `xsl:sort`, XSLT 3.0 §13.1.2). The text depends on
 * `n` only, so one declaration serves every clause with that many specs and belongs to the
 * runtime library (library.ts).
 */
export function sortFunctionName(n: number): string {
  return `${braced(NS.gen)}lib.sort-${n}`;
}

export function sortFunctionText(n: number): string {
  const t = `${braced(NS.vars)}tuples`;
  const orders = `${braced(NS.vars)}orders`;
  const collations = `${braced(NS.vars)}collations`;
  const sorts = Array.from({ length: n }, (_, j) => {
    const i = j + 1;
    const order = `{$${orders}[${i}]}`;
    return [
      `<xsl:sort select="${xmlAttr(`?(${xpathString(`#c${i}`)})`)}" order="${order}"/>`,
      `<xsl:sort select="${xmlAttr(`?(${xpathString(`#o${i}`)})`)}" order="${order}" collation="{$${collations}[${i}]}"/>`,
    ];
  }).flat();
  const err = braced(NS.err);
  return [
    `<xsl:function name="${sortFunctionName(n)}" as="map(*)*">`,
    `<xsl:param name="${t}" as="map(*)*"/>`,
    `<xsl:param name="${orders}" as="xs:string*"/>`,
    `<xsl:param name="${collations}" as="xs:string*"/>`,
    '<xsl:try>',
    `<xsl:perform-sort select="$${t}">`,
    ...sorts,
    '</xsl:perform-sort>',
    `<xsl:catch errors="${err}XTDE1030 ${err}FORG0006" select="${xmlAttr(`${braced(NS.fn)}error(${braced(NS.fn)}QName(${xpathString(NS.err)}, "XPTY0004"), $${err}description)`)}"/>`,
    '</xsl:try>',
    '</xsl:function>',
  ].join('\n');
}
