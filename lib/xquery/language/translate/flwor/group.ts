/**
 * The group by clause (spec §3.12.7) → one array per tuple, grouped in one pass over a hash map
 * (engine:group-tuples, group-tuples.ts) or, for keys that function leaves, by the runtime
 * library's function running `xsl:for-each-group composite="yes"` over the same arrays.
 *
 * - `group by $g as T := E` binds `$g` to the atomized value of E, checked against T
 *   (XPTY0004), as a let clause before the group by; all such bindings come first, then each
 *   grouping variable names the latest binding of its name, which must be a variable of the
 *   tuple stream (XQST0094).
 * - Each grouping key is the atomized value of its variable, at most one item (XPTY0004, raised
 *   by either grouping for the first tuple in order that has such a key).
 *   A tuple is the array `[key 1, …, key K, value of variable 1, …, value of variable V]`.
 * - The XSLT grouping's composite key puts, per spec, `0` for an empty key or `1, value`
 *   otherwise (xs:untypedAtomic compared as xs:string), so empty keys group together and keys
 *   of different specs never slide into each other. XSLT compares the composite keys item by
 *   item with `eq` semantics (NaN equals NaN, incomparable values are distinct), as the spec's
 *   deep-equal rule does; the hash grouping maps keys to strings equal under the same rule.
 * - One post-grouping tuple per group, in order of first appearance, of the same shape: the keys
 *   of the group's first tuple, then per variable the concatenation of its values over the
 *   group. Each grouping variable is bound to its key, every other variable to its
 *   concatenation.
 * - A collation applies to all specs in XSLT; specs with different collations are refused.
 * - Keys that are leaves of the elements of the FLWOR's for variable (flwor-group-leaves.ts) are
 *   first grouped from the leaf columns (engine:group-leaves, accelerators/leaf-groups/leaf-groups.ts), over
 *   the for variable's values alone: the tuple is then `[key 1, …, key K, value of $v, value of
 *   each let read after the clause]` in either grouping.
 */
import type { GroupByClause } from '../../syntax';
import { translateExpr } from '../expressions';
import { bindValue, clauseError, COLLATIONS, specCollation } from './advanced';
import type { LeafGroupPlan } from '../../../accelerators/leaf-groups/flwor-group-leaves';
import type { LeafStep } from '../../../accelerators/leaf-columns/leaf-columns';
import { leafStepArgs } from './leaf-step-args';
import { tempVar, type TupleStream } from './tuples';
import { NS, xmlAttr, xpathError, xpathString } from '../names';
import { groupKeyMessage } from '../../../functions/group-tuples';
import type { Variable } from '../scope';
import type { TranslationUnit } from '../unit';
import { unsupported } from '../unsupported';
import { braced } from '../emit';

const GROUP_TUPLES = `${braced(NS.engine)}group-tuples`;
const GROUP_LEAVES = `${braced(NS.engine)}group-leaves`;

/** `leaves`: the plan of this clause when its keys are leaves of the for variable's elements. */
export function translateGroupBy(clause: GroupByClause, stream: TupleStream, unit: TranslationUnit, leaves?: LeafGroupPlan): void {
  // the for variable's values, one per tuple, before the specs bind anything (the first clause's
  // expression is in the scope the FLWOR starts with)
  const forVar = leaves && stream.lookup(leaves.binding.name, leaves.binding.start);
  const nodes = forVar && translateExpr(leaves.nodes, stream.outer, unit);
  // all bindings first: a grouping variable names the latest binding of its name
  const atomized = new Set<string>();
  for (const spec of clause.specs) {
    if (!spec.value) continue;
    bindValue(spec.name, spec.type, `${braced(NS.fn)}data(${translateExpr(spec.value, stream.scope, unit)})`, spec.start, stream);
    atomized.add(stream.lookup(spec.name, spec.start)!.param);
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
  const byLeaves = leaves && forVar && nodes && collation === COLLATIONS.codepoint ? { plan: leaves, forVar, nodes } : undefined;
  // grouped by leaves: the for variable (unless it is a grouping variable) and the lets read after the clause
  const vars = byLeaves ? leafVars(byLeaves.plan, byLeaves.forVar, grouping, stream) : stream.vars();
  const bound = byLeaves ? [...grouping, ...vars] : vars;
  const k = grouping.length;
  // a key bound by its spec is atomized already
  const keys = grouping.map((v) => (atomized.has(v.param) ? v.ref : `${braced(NS.fn)}data(${v.ref})`));
  const tuples = stream.finish(`[${[...keys, ...vars.map((v) => v.ref)].join(', ')}]`);
  const names = `(${grouping.map((v) => xpathString(v.name.local)).join(', ')})`;
  const fallback = groupFunction(grouping, collation, unit);
  const t = tempVar(stream.outer, 'tuples');
  const g = tempVar(stream.outer, 'groups');
  let groups =
    `let ${t} := ${tuples}, ${g} := ${GROUP_TUPLES}(${t}, ${names}, ${xpathString(collation)}) ` +
    `return if (${g} instance of ${braced(NS.xs)}boolean) then ${fallback(t)} else ${g}`;
  if (byLeaves) groups = leafGrouping(byLeaves.plan, byLeaves.nodes, names, groups, stream);
  // a grouping variable: its key; any other: its concatenation
  const member = (v: Variable): number => {
    const i = grouping.findIndex((x) => x.param === v.param);
    return i >= 0 ? i + 1 : k + vars.indexOf(v) + 1;
  };
  stream.restart(groups, bound, member);
}

/** The variables a group's array holds after the keys when grouped by leaves: `$v`, then the lets `plan` reads. */
function leafVars(plan: LeafGroupPlan, forVar: Variable, grouping: readonly Variable[], stream: TupleStream): Variable[] {
  const lets = plan.lets.map(({ binding: b }) => stream.lookup(b.name, b.start)!);
  return grouping.includes(forVar) ? lets : [forVar, ...lets];
}

/**
 * The groups of engine:group-leaves over `nodes` (XPath: the for variable's values, one per
 * tuple), or of `plain` (XPath: the plain grouping of the same tuples) when it declines.
 */
function leafGrouping(plan: LeafGroupPlan, nodes: string, names: string, plain: string, stream: TupleStream): string {
  const paths = (list: readonly (readonly LeafStep[])[]): string => {
    const steps = list.flatMap(leafStepArgs);
    return `(${steps.join(', ')}), (${list.map((path) => String(path.length)).join(', ')})`;
  };
  const g = tempVar(stream.outer, 'groups');
  const call = `${GROUP_LEAVES}(${nodes}, ${paths(plan.keys)}, ${names}, ${paths(plan.lets.map((l) => l.steps))})`;
  return `let ${g} := ${call} return if (${g} instance of ${braced(NS.xs)}boolean) then (${plain}) else ${g}`;
}

/** The runtime library's XSLT grouping of tuple arrays (library.ts): `lib.group-tuples($tuples, $key, $keys, $collation)`. */
export const GROUP_TUPLES_XSLT = `${braced(NS.gen)}lib.group-tuples`;

/**
 * The text of GROUP_TUPLES_XSLT: the tuples grouped by the composite key `$key` gives for a
 * tuple, compared under `$collation`; per group one array of the first tuple's `$keys` keys,
 * then per further member the concatenation of that member over the group (see above). The key
 * function depends on the query, so the grouping itself does not, and a query that groups needs
 * no stylesheet of its own.
 */
export function groupTuplesText(): string {
  const [t, key, keys, collation, first, i] = ['tuples', 'key', 'keys', 'collation', 'first', 'i'].map((n) => `${braced(NS.vars)}${n}`);
  const F = braced(NS.fn);
  const members =
    `${braced(NS.array)}join(((1 to $${keys}) ! [$${first}(.)], ` +
    `for $${i} in $${keys} + 1 to ${braced(NS.array)}size($${first}) return [${F}current-group() ! ?($${i})]))`;
  return [
    `<xsl:function name="${GROUP_TUPLES_XSLT}" as="array(*)*">`,
    `<xsl:param name="${t}" as="array(*)*"/>`,
    `<xsl:param name="${key}" as="function(*)"/>`,
    `<xsl:param name="${keys}" as="xs:integer"/>`,
    `<xsl:param name="${collation}" as="xs:string"/>`,
    `<xsl:for-each-group select="$${t}" group-by="$${key}(.)" composite="yes" collation="{$${collation}}">`,
    `<xsl:variable name="${first}" select="${F}head(${F}current-group())"/>`,
    `<xsl:sequence select="${xmlAttr(members)}"/>`,
    '</xsl:for-each-group>',
    '</xsl:function>',
  ].join('\n');
}

/**
 * The XSLT grouping of tuple arrays with the keys of `grouping` (see above): the call of the
 * library's GROUP_TUPLES_XSLT on `tuples` (XPath) with the composite key of these keys as a function.
 */
function groupFunction(grouping: readonly Variable[], collation: string, unit: TranslationUnit): (tuples: string) => string {
  unit.addLibraryDeclaration(GROUP_TUPLES_XSLT, groupTuplesText());
  const k = `$${braced(NS.vars)}k`;
  const tuple = `$${braced(NS.vars)}tuple`;
  const F = braced(NS.fn);
  const composite = grouping
    .map(
      (v, i) =>
        `(let ${k} := ${tuple}(${i + 1}) return if (${F}count(${k}) gt 1) then ${xpathError('XPTY0004', groupKeyMessage(v.name.local))} ` +
        `else if (${F}empty(${k})) then 0 else (1, if (${k} instance of ${braced(NS.xs)}untypedAtomic) then ${F}string(${k}) else ${k}))`,
    )
    .join(', ');
  return (tuples) => `${GROUP_TUPLES_XSLT}(${tuples}, function(${tuple}) { ${composite} }, ${grouping.length}, ${xpathString(collation)})`;
}
