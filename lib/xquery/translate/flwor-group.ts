/**
 * The group by clause (spec §3.12.7) → a generated function running `xsl:for-each-group
 * composite="yes"` over the tuple maps.
 *
 * - `group by $g as T := E` binds `$g` to the atomized value of E, checked against T
 *   (XPTY0004), as a let clause before the group by; all such bindings come first, then each
 *   grouping variable names the latest binding of its name, which must be a variable of the
 *   tuple stream (XQST0094).
 * - Each grouping key is the atomized value of its variable, at most one item (XPTY0004).
 *   The composite key puts, per spec, `0` for an empty key or `1, value` otherwise
 *   (xs:untypedAtomic compared as xs:string), so empty keys group together and keys of
 *   different specs never slide into each other. XSLT compares the composite keys item by
 *   item with `eq` semantics (NaN equals NaN, incomparable values are distinct), as the
 *   spec's deep-equal rule does.
 * - One post-grouping tuple per group, in order of first appearance: each grouping variable
 *   bound to its atomized key (from the group's first tuple), every other variable to the
 *   concatenation of its values over the group.
 * - A collation applies to all specs in XSLT; specs with different collations are refused.
 */
import type { GroupByClause } from '../syntax';
import { translateExpr } from './expressions';
import { bindValue, clauseError, specCollation } from './flwor-advanced';
import { tempVar, type TupleStream } from './flwor-tuples';
import { NS, xmlAttr, xpathError, xpathString } from './names';
import type { Variable } from './scope';
import type { TranslationUnit } from './unit';
import { unsupported } from './unsupported';
import { braced } from './emit';

export function translateGroupBy(clause: GroupByClause, stream: TupleStream, unit: TranslationUnit): void {
  // all bindings first: a grouping variable names the latest binding of its name
  for (const spec of clause.specs) {
    if (spec.value) bindValue(spec.name, spec.type, `${braced(NS.fn)}data(${translateExpr(spec.value, stream.scope, unit)})`, spec.start, stream);
  }
  const grouping = clause.specs.map((spec) => {
    const v = stream.lookup(spec.name, spec.start);
    if (v) return v;
    const qn = stream.scope.variableName(spec.name, spec.start);
    throw clauseError(stream.scope, 'XQST0094', spec.start, `Grouping variable $${qn.prefix ? `${qn.prefix}:` : ''}${qn.local} is not bound by a preceding clause.`);
  });
  const collations = new Set(clause.specs.map((s) => specCollation(s.collation, stream.scope, s.start)));
  if (collations.size > 1) throw unsupported(stream.scope, clause, 'group by specs with different collations');
  const [collation] = collations;
  const keys = grouping.map((v, i) => [`#g${i + 1}`, groupKey(v, stream)] as const);
  const vars = stream.vars();
  const fn = groupFunction(clause, keys.map(([k]) => k), grouping, vars, collation, unit);
  stream.restart(`${fn}(${stream.materialize(keys)})`, vars);
}

/** A grouping key: the atomized variable value, one item at most. */
function groupKey(v: Variable, stream: TupleStream): string {
  const a = tempVar(stream.scope, 'key');
  return (
    `let ${a} := ${braced(NS.fn)}data(${v.ref}) return ` +
    `if (${braced(NS.fn)}count(${a}) gt 1) then ${xpathError('XPTY0004', `The grouping key $${v.name.local} has more than one item.`)} else ${a}`
  );
}

function groupFunction(
  clause: GroupByClause,
  keys: readonly string[],
  grouping: readonly Variable[],
  vars: readonly Variable[],
  collation: string,
  unit: TranslationUnit,
): string {
  const name = unit.newFunctionName();
  const t = `${braced(NS.vars)}tuples`;
  const k = `$${braced(NS.vars)}k`;
  const composite = keys
    .map((key) => `(let ${k} := ?(${xpathString(key)}) return if (${braced(NS.fn)}empty(${k})) then 0 else (1, if (${k} instance of ${braced(NS.xs)}untypedAtomic) then ${braced(NS.fn)}string(${k}) else ${k}))`)
    .join(', ');
  const entries = vars.map((v) => {
    const g = grouping.findIndex((x) => x.param === v.param);
    const value = g >= 0 ? `${braced(NS.fn)}head(${braced(NS.fn)}current-group())?(${xpathString(keys[g])})` : `${braced(NS.fn)}current-group()?(${xpathString(v.param)})`;
    return `${xpathString(v.param)}: ${value}`;
  });
  const body = [
    `${unit.marker(clause)}<xsl:function name="${name}" as="map(*)*">`,
    `<xsl:param name="${t}" as="map(*)*"/>`,
    `<xsl:for-each-group select="$${t}" group-by="${xmlAttr(composite)}" composite="yes" collation="${xmlAttr(collation)}">`,
    `<xsl:sequence select="${xmlAttr(`map{${entries.join(', ')}}`)}"/>`,
    '</xsl:for-each-group>',
    '</xsl:function>',
  ];
  unit.addDeclaration(body.join('\n'), clause);
  return name;
}
