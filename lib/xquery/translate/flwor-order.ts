/**
 * The order by clause (spec §3.12.8) → a generated function running `xsl:perform-sort` over the
 * tuple maps.
 *
 * Each order spec's key is computed in the tuple's scope when the stream is materialized:
 * atomized, at most one item (else XPTY0004), xs:untypedAtomic as xs:string, and stored with
 * its class (`#oN`, `#cN`). Two `xsl:sort`s per spec, both in the spec's direction:
 * - a class key placing the empty sequence and NaN as the spec says: `empty least` gives
 *   () < NaN < values, `empty greatest` gives values < NaN < (); within a class the keys are
 *   equal, so XSLT's own rules for empty/NaN never decide anything;
 * - the key itself, with the spec's collation.
 * XSLT 3.0 sorts are stable, which satisfies both `stable order by` and `order by`. Keys XSLT
 * cannot compare (XTDE1030, or FORG0006 for QNames) raise XPTY0004, the XQuery code for the
 * failing `gt`.
 */
import type { OrderByClause, OrderSpec } from '../syntax';
import { translateExpr } from './expressions';
import { specCollation } from './flwor-advanced';
import { tempVar, type TupleStream } from './flwor-tuples';
import { NS, xmlAttr, xpathError, xpathString } from './names';
import type { Scope } from './scope';
import type { TranslationUnit } from './unit';

export function translateOrderBy(clause: OrderByClause, stream: TupleStream, unit: TranslationUnit): void {
  const entries: (readonly [string, string])[] = [];
  clause.specs.forEach((s, i) => {
    const k = tempVar(stream.scope, 'key');
    stream.push(`let ${k} := ${sortKey(translateExpr(s.expr, stream.scope, unit), stream.scope)} return `, stream.scope);
    entries.push([`#c${i + 1}`, sortClass(k, emptyGreatest(s, stream.scope))], [`#o${i + 1}`, k]);
  });
  const fn = sortFunction(clause, stream.scope, unit);
  const vars = stream.vars();
  stream.restart(`${fn}(${stream.materialize(entries)})`, vars);
}

function emptyGreatest(s: OrderSpec, scope: Scope): boolean {
  return (s.emptyOrder ?? defaultEmptyOrder(scope)) === 'greatest';
}

/** The order key of one tuple: atomized, one item at most, untypedAtomic as string. */
function sortKey(value: string, scope: Scope): string {
  const a = tempVar(scope, 'key');
  return (
    `let ${a} := Q{${NS.fn}}data(${value}) return ` +
    `if (Q{${NS.fn}}count(${a}) gt 1) then ${xpathError('XPTY0004', 'An order by key has more than one item.')} ` +
    `else if (${a} instance of Q{${NS.xs}}untypedAtomic) then Q{${NS.fn}}string(${a}) else ${a}`
  );
}

/** The class of the key in `k`: where empty and NaN rank against the other values. */
function sortClass(k: string, greatest: boolean): string {
  const nan = `(${k} instance of Q{${NS.xs}}double or ${k} instance of Q{${NS.xs}}float) and ${k} ne ${k}`;
  return `if (Q{${NS.fn}}empty(${k})) then ${greatest ? 2 : 0} else if (${nan}) then 1 else ${greatest ? 0 : 2}`;
}

/** `declare default order empty greatest|least`, when the static context records it. */
function defaultEmptyOrder(scope: Scope): 'greatest' | 'least' {
  return scope.ctx.defaultEmptyOrder;
}

function sortFunction(clause: OrderByClause, scope: Scope, unit: TranslationUnit): string {
  const name = unit.newFunctionName();
  const t = `Q{${NS.vars}}tuples`;
  const sorts = clause.specs.flatMap((s, i) => {
    const order = s.descending ? 'descending' : 'ascending';
    const collation = specCollation(s.collation, scope, s.start);
    return [
      `${unit.marker(s)}<xsl:sort select="${xmlAttr(`?(${xpathString(`#c${i + 1}`)})`)}" order="${order}"/>`,
      `<xsl:sort select="${xmlAttr(`?(${xpathString(`#o${i + 1}`)})`)}" order="${order}" collation="${xmlAttr(collation)}"/>`,
    ];
  });
  const err = `Q{${NS.err}}`;
  const body = [
    `${unit.marker(clause)}<xsl:function name="${name}" as="map(*)*">`,
    `<xsl:param name="${t}" as="map(*)*"/>`,
    '<xsl:try>',
    `<xsl:perform-sort select="$${t}">`,
    ...sorts,
    '</xsl:perform-sort>',
    `<xsl:catch errors="${err}XTDE1030 ${err}FORG0006" select="${xmlAttr(`Q{${NS.fn}}error(Q{${NS.fn}}QName(${xpathString(NS.err)}, "XPTY0004"), $${err}description)`)}"/>`,
    '</xsl:try>',
    '</xsl:function>',
  ];
  unit.addDeclaration(body.join('\n'), clause);
  return name;
}
