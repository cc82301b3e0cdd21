/**
 * The order by clause (spec §3.12.8) → a generated function running `xsl:perform-sort` over the
 * tuple maps.
 *
 * Each order spec's key is computed in the tuple's scope when the stream is materialized:
 * atomized, at most one item (else XPTY0004), xs:untypedAtomic as xs:string. Two `xsl:sort`s
 * per spec, both in the spec's direction:
 * - a class key placing the empty sequence and NaN as the spec says: `empty least` gives
 *   () < NaN < values, `empty greatest` gives values < NaN < (); within a class the keys are
 *   equal, so XSLT's own rules for empty/NaN never decide anything;
 * - the key itself, with the spec's collation.
 * XSLT 3.0 sorts are stable, which satisfies both `stable order by` and `order by`. Keys XSLT
 * cannot compare (XTDE1030) raise XPTY0004, the XQuery code for the failing `gt`.
 */
import type { OrderByClause } from '../syntax';
import { translateExpr } from './expressions';
import { specCollation } from './flwor-advanced';
import { tempVar, type TupleStream } from './flwor-tuples';
import { NS, xmlAttr, xpathError, xpathString } from './names';
import type { Scope } from './scope';
import type { TranslationUnit } from './unit';

export function translateOrderBy(clause: OrderByClause, stream: TupleStream, unit: TranslationUnit): void {
  const scope = stream.scope;
  const keys = clause.specs.map((s, i) => [`#o${i + 1}`, sortKey(translateExpr(s.expr, scope, unit), scope)] as const);
  const fn = sortFunction(clause, keys.map(([k]) => k), scope, unit);
  const vars = stream.vars();
  stream.restart(`${fn}(${stream.materialize(keys)})`, vars);
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

/** `declare default order empty greatest|least`, when the static context records it. */
function defaultEmptyOrder(scope: Scope): 'greatest' | 'least' {
  const ctx: { readonly defaultEmptyOrder?: unknown } = scope.ctx as object;
  return ctx.defaultEmptyOrder === 'greatest' ? 'greatest' : 'least';
}

function sortFunction(clause: OrderByClause, keys: readonly string[], scope: Scope, unit: TranslationUnit): string {
  const name = unit.newFunctionName();
  const t = `Q{${NS.vars}}tuples`;
  const sorts = clause.specs.flatMap((s, i) => {
    const key = `?(${xpathString(keys[i])})`;
    const order = s.descending ? 'descending' : 'ascending';
    const greatest = (s.emptyOrder ?? defaultEmptyOrder(scope)) === 'greatest';
    const k = `$Q{${NS.vars}}k`;
    const nan = `(${k} instance of Q{${NS.xs}}double or ${k} instance of Q{${NS.xs}}float) and ${k} ne ${k}`;
    const cls = `let ${k} := ${key} return if (Q{${NS.fn}}empty(${k})) then ${greatest ? 2 : 0} else if (${nan}) then 1 else ${greatest ? 0 : 2}`;
    const collation = specCollation(s.collation, scope, s.start);
    return [
      `${unit.marker(s)}<xsl:sort select="${xmlAttr(cls)}" order="${order}"/>`,
      `<xsl:sort select="${xmlAttr(key)}" order="${order}" collation="${xmlAttr(collation)}"/>`,
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
    `<xsl:catch errors="${err}XTDE1030" select="${xmlAttr(`Q{${NS.fn}}error(Q{${NS.fn}}QName(${xpathString(NS.err)}, "XPTY0004"), $${err}description)`)}"/>`,
    '</xsl:try>',
    '</xsl:function>',
  ];
  unit.addDeclaration(body.join('\n'), clause);
  return name;
}
