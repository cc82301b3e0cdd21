/**
 * The window clause (spec §3.12.4): tumbling and sliding windows.
 *
 *   let $seq := array{E} return
 *   for $win in gen:tumbling(array:size($seq), START, END, only) return     (or gen:sliding)
 *   let $s := $win(1), $e := $win(2) return
 *   let $w := array:subarray($seq, $s, $e - $s + 1)?* return
 *   let <start variables at $s>, <end variables at $e> return …
 *
 * The binding sequence is held as an array: an item by position is then O(1), also inside
 * the closures (saxon-js evaluates `$seq[$i]` on a captured sequence in linear time).
 *
 * START is `function($i) { let <start variables at $i> return boolean(when) }` and END is
 * `function($i, $j) { let <start variables at $i>, <end variables at $j> return boolean(when) }`
 * (or `()` for a tumbling window without an end condition), built at the use site, so the
 * conditions see the enclosing variables and the tuple's variables by closure. A condition
 * that uses the focus gets it through variables bound before the closures (an inline
 * function has no focus of its own). The scanning itself is data only: two functions of the
 * runtime library (library.ts), `xsl:iterate` over positions, returning `[start, end]` arrays in
 * order, so a query with a window clause needs no stylesheet of its own.
 *
 * Start/end variables: current item, position (`at`, xs:integer), previous and next item
 * (empty at the edges). All names bound by one window clause must differ (XQST0103).
 */
import type { EQName, WindowClause, WindowCondition } from '../../syntax';
import { translateExpr } from '../expressions';
import { needsFocus } from '../focus';
import { tempVar, type TupleStream } from './tuples';
import { NS, xmlAttr } from '../names';
import type { Scope } from '../scope';
import { checkedValue, translateSequenceType } from '../types';
import type { TranslationUnit } from '../unit';
import { braced } from '../emit';

export function translateWindow(clause: WindowClause, stream: TupleStream, unit: TranslationUnit): void {
  const scope = stream.scope;
  checkDistinctNames(clause, scope);
  const fn = (local: string): string => `${braced(NS.fn)}${local}`;
  const seq = tempVar(scope, 'seq');
  let text = `let ${seq} := array{${translateExpr(clause.in, scope, unit)}} return `;

  // the conditions, as closures
  let condScope = scope;
  const conditions = clause.endCondition ? [clause.startCondition, clause.endCondition] : [clause.startCondition];
  if (scope.focus.kind === 'native' && conditions.some((c) => needsFocus(c.when))) {
    const [item, position, last] = [tempVar(scope, 'item'), tempVar(scope, 'position'), tempVar(scope, 'last')];
    text += `let ${item} := ., ${position} := ${fn('position')}(), ${last} := ${fn('last')}() return `;
    condScope = scope.withFocus({ kind: 'params', item, position, last });
  }
  const i = tempVar(scope, 'i');
  const j = tempVar(scope, 'j');
  const startVars = bindCondition(clause.startCondition, condScope, seq, i);
  const start = `function(${i}) { ${startVars.lets}${fn('boolean')}(${translateExpr(clause.startCondition.when, startVars.scope, unit)}) }`;
  let end = '()';
  if (clause.endCondition) {
    const endVars = bindCondition(clause.endCondition, startVars.scope, seq, j);
    end = `function(${i}, ${j}) { ${startVars.lets}${endVars.lets}${fn('boolean')}(${translateExpr(clause.endCondition.when, endVars.scope, unit)}) }`;
  }
  const only = clause.endCondition?.only ? 'true()' : 'false()';
  const scanner = clause.window === 'tumbling' ? TUMBLING_WINDOWS : SLIDING_WINDOWS;

  // the windows, and the variables bound for each
  const win = tempVar(scope, 'window');
  const s = tempVar(scope, 's');
  const e = tempVar(scope, 'e');
  const windows = unit.callLibrary(scanner, WINDOW_FUNCTIONS[scanner], `${braced(NS.array)}size(${seq}), ${start}, ${end}, ${only}`);
  text += `for ${win} in ${windows} return let ${s} := ${win}(1), ${e} := ${win}(2) return `;
  const w = scope.bind(clause.name, clause.start);
  let value = `${braced(NS.array)}subarray(${seq}, ${s}, ${e} - ${s} + 1)?*`;
  if (clause.type) value = checkedValue(value, translateSequenceType(clause.type, scope), `$${w.variable.name.local}`);
  text += `let ${w.variable.ref} := ${value} return `;
  const after = bindCondition(clause.startCondition, w.scope, seq, s);
  text += after.lets;
  let inner = after.scope;
  if (clause.endCondition) {
    const endAfter = bindCondition(clause.endCondition, inner, seq, e);
    text += endAfter.lets;
    inner = endAfter.scope;
  }
  stream.push(text, inner);
}

/** `let $cur := $seq($pos), $at := $pos, $prev := $seq($pos - 1), $next := $seq($pos + 1) return ` (those declared; empty past the edges). */
function bindCondition(c: WindowCondition, scope: Scope, seq: string, pos: string): { lets: string; scope: Scope } {
  const lets: string[] = [];
  let inner = scope;
  const bind = (name: EQName | null, value: string): void => {
    if (!name) return;
    const bound = inner.bind(name, c.start);
    lets.push(`${bound.variable.ref} := ${value}`);
    inner = bound.scope;
  };
  bind(c.current, `${seq}(${pos})`);
  bind(c.positional, pos);
  bind(c.previous, `(if (${pos} gt 1) then ${seq}(${pos} - 1) else ())`);
  bind(c.next, `(if (${pos} lt ${braced(NS.array)}size(${seq})) then ${seq}(${pos} + 1) else ())`);
  return { lets: lets.length ? `let ${lets.join(', ')} return ` : '', scope: inner };
}

function checkDistinctNames(clause: WindowClause, scope: Scope): void {
  const seen = new Set<string>();
  const names: EQName[] = [clause.name];
  for (const c of [clause.startCondition, clause.endCondition]) {
    if (c) for (const n of [c.current, c.positional, c.previous, c.next]) if (n) names.push(n);
  }
  for (const n of names) {
    const qn = scope.variableName(n, clause.start);
    const key = JSON.stringify([qn.uri, qn.local]);
    if (seen.has(key)) throw scope.error('XQST0103', clause.start, qn.prefix ? `${qn.prefix}:${qn.local}` : qn.local);
    seen.add(key);
  }
}

/** The window scanners: functions of the runtime library (library.ts), their text the same for every query. */
const TUMBLING_WINDOWS = `${braced(NS.gen)}lib.tumbling-windows`;
const SLIDING_WINDOWS = `${braced(NS.gen)}lib.sliding-windows`;

const PARAMS = (v: string): string =>
  [
    `<xsl:param name="${v}n" as="xs:integer"/>`,
    `<xsl:param name="${v}start" as="function(*)"/>`,
    `<xsl:param name="${v}end" as="function(*)?"/>`,
    `<xsl:param name="${v}only" as="xs:boolean"/>`,
  ].join('\n');

/**
 * Tumbling windows: scan positions with the start of the open window (0: none). Without an end
 * condition a window closes just before the next position whose start condition holds; with
 * one, the start condition is tried only while no window is open, and the end condition from
 * the start position on. A window still open at the end is kept unless `only end`.
 */
function tumblingText(): string {
  const name = TUMBLING_WINDOWS;
  const v = braced(NS.vars);
  return [
    `<xsl:function name="${name}" as="array(xs:integer)*">`,
    PARAMS(v),
    `<xsl:iterate select="1 to $${v}n">`,
    `<xsl:param name="${v}open" as="xs:integer" select="0"/>`,
    `<xsl:on-completion select="${xmlAttr(`if ($${v}open gt 0 and not($${v}only)) then [$${v}open, $${v}n] else ()`)}"/>`,
    `<xsl:variable name="${v}i" as="xs:integer" select="."/>`,
    '<xsl:choose>',
    `<xsl:when test="empty($${v}end)">`,
    `<xsl:if test="$${v}start($${v}i)">`,
    `<xsl:sequence select="${xmlAttr(`if ($${v}open gt 0) then [$${v}open, $${v}i - 1] else ()`)}"/>`,
    `<xsl:next-iteration><xsl:with-param name="${v}open" select="$${v}i"/></xsl:next-iteration>`,
    '</xsl:if>',
    '</xsl:when>',
    '<xsl:otherwise>',
    `<xsl:variable name="${v}o" as="xs:integer" select="${xmlAttr(`if ($${v}open gt 0) then $${v}open else if ($${v}start($${v}i)) then $${v}i else 0`)}"/>`,
    '<xsl:choose>',
    `<xsl:when test="${xmlAttr(`$${v}o gt 0 and $${v}end($${v}o, $${v}i)`)}">`,
    `<xsl:sequence select="[$${v}o, $${v}i]"/>`,
    `<xsl:next-iteration><xsl:with-param name="${v}open" select="0"/></xsl:next-iteration>`,
    '</xsl:when>',
    `<xsl:otherwise><xsl:next-iteration><xsl:with-param name="${v}open" select="$${v}o"/></xsl:next-iteration></xsl:otherwise>`,
    '</xsl:choose>',
    '</xsl:otherwise>',
    '</xsl:choose>',
    '</xsl:iterate>',
    '</xsl:function>',
  ].join('\n');
}

/**
 * Sliding windows: one window per position whose start condition holds, ending at the first
 * position from there whose end condition holds, else at the end (dropped with `only end`).
 */
function slidingText(): string {
  const name = SLIDING_WINDOWS;
  const v = braced(NS.vars);
  return [
    `<xsl:function name="${name}" as="array(xs:integer)*">`,
    PARAMS(v),
    `<xsl:for-each select="1 to $${v}n">`,
    `<xsl:variable name="${v}i" as="xs:integer" select="."/>`,
    `<xsl:if test="$${v}start($${v}i)">`,
    `<xsl:iterate select="$${v}i to $${v}n">`,
    `<xsl:on-completion select="${xmlAttr(`if ($${v}only) then () else [$${v}i, $${v}n]`)}"/>`,
    `<xsl:if test="$${v}end($${v}i, .)"><xsl:break select="[$${v}i, .]"/></xsl:if>`,
    '</xsl:iterate>',
    '</xsl:if>',
    '</xsl:for-each>',
    '</xsl:function>',
  ].join('\n');
}

/** The library functions of this file, by EQName, with their XSLT text. */
export const WINDOW_FUNCTIONS: Readonly<Record<string, string>> = {
  [TUMBLING_WINDOWS]: tumblingText(),
  [SLIDING_WINDOWS]: slidingText(),
};
