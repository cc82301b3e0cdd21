/**
 * FLWOR expressions with clauses XPath's `for`/`let` cannot express: order by, group by,
 * count and window, mixed with for/let/where in any order (spec §3.12).
 *
 * The tuple stream is explicit (tuples.ts): clauses that work tuple by tuple (for,
 * let, where, window) nest as XPath; order by, group by and count turn the stream into a sequence of maps, one per tuple,
 * reorder/regroup/number it, and bind the variables again for the clauses after them. Each
 * clause family has its file: order.ts (`xsl:perform-sort`), group.ts
 * (`xsl:for-each-group`), window.ts (`xsl:iterate` over positions).
 */
import { yieldsAtomics } from '../atomic-values';
import { DEFAULT_BASE_URI } from '../../../constants';
import { LocatedQueryError } from '../../../static-errors';
import { lineColumn, type EQName, type FLWORClause, type FLWORExpr, type LetBinding, type SequenceType } from '../../syntax';
import { translateExpr } from '../expressions';
import { forBinding } from './flwor';
import { translateGroupBy } from './group';
import { leafGroupPlan } from '../../../accelerators/leaf-groups/flwor-group-leaves';
import { translateOrderBy, translateSortedFor } from './sort';
import { TupleStream } from './tuples';
import { translateWindow } from './window';
import { checkedValue, translateSequenceType } from '../types';
import type { TranslationUnit } from '../unit';
import type { Scope } from '../scope';

/** Clause kinds the simple (pure XPath) FLWOR translation handles. */
export const SIMPLE_CLAUSES = new Set(['ForClause', 'LetClause', 'WhereClause']);

/** Translates a FLWOR that has at least one clause outside SIMPLE_CLAUSES. */
export function translateFlworAdvanced(expr: FLWORExpr, scope: Scope, unit: TranslationUnit): string {
  const sorted = translateSortedFor(expr, scope, unit);
  if (sorted !== undefined) return sorted;
  const stream = new TupleStream(scope);
  const leaves = leafGroupPlan(expr, scope);
  for (const clause of expr.clauses) {
    if (clause === leaves?.clause) translateGroupBy(clause, stream, unit, leaves);
    else translateClause(clause, stream, unit);
  }
  return stream.finish(translateExpr(expr.return, stream.scope, unit));
}

function translateClause(clause: FLWORClause, stream: TupleStream, unit: TranslationUnit): void {
  switch (clause.kind) {
    case 'ForClause':
      for (const b of clause.bindings) {
        const r = forBinding(b, stream.scope, unit);
        stream.push(r.text, r.scope);
      }
      return;
    case 'LetClause':
      for (const b of clause.bindings) letBinding(b, stream, unit);
      return;
    case 'WhereClause':
      stream.push(`if (${translateExpr(clause.test, stream.scope, unit)}) then (`, stream.scope, ') else ()');
      return;
    case 'CountClause': {
      // one array per tuple: cheaper to build and to read than a map
      const vars = stream.vars();
      const tuples = stream.finish(`[${vars.map((v) => v.ref).join(', ')}]`);
      stream.restart(tuples, vars, (v) => vars.indexOf(v) + 1, { name: clause.name, offset: clause.start });
      return;
    }
    case 'OrderByClause':
      translateOrderBy(clause, stream, unit);
      return;
    case 'GroupByClause':
      translateGroupBy(clause, stream, unit);
      return;
    case 'WindowClause':
      translateWindow(clause, stream, unit);
      return;
    default:
      return exhaustive(clause);
  }
}

/** `let $x as T := E`: binds in the current segment, checking the declared type (XPTY0004). */
function letBinding(b: LetBinding, stream: TupleStream, unit: TranslationUnit): void {
  const value = translateExpr(b.value, stream.scope, unit);
  bindValue(b.name, b.type, value, b.start, stream, yieldsAtomics(b.value, stream.scope));
}

/**
 * Binds `name` to `value` (XPath in the current scope) in the current segment, as a let does;
 * `atomic`: every item of the value is known to be atomic (atomic-values.ts).
 */
export function bindValue(name: EQName, type: SequenceType | null, value: string, offset: number, stream: TupleStream, atomic = false): void {
  const scope = stream.scope;
  const bound = scope.bind(name, offset, atomic);
  const checked = type ? checkedValue(value, translateSequenceType(type, scope), `$${bound.variable.name.local}`) : value;
  stream.push(`let ${bound.variable.ref} := ${checked} return `, bound.scope);
}

/**
 * A static error of the FLWOR clauses whose code the catalog (xquery/static-errors.ts) does not list yet
 * (XQST0076 unknown collation, XQST0094 grouping variable not in the tuple stream).
 */
export function clauseError(scope: Scope, code: 'XQST0076' | 'XQST0094', offset: number, message: string): LocatedQueryError {
  return new LocatedQueryError({ code, message, status: 500, phase: 'compile' }, lineColumn(scope.ctx.source, offset));
}

/** The collations saxon-js knows. */
export const COLLATIONS = {
  codepoint: 'http://www.w3.org/2005/xpath-functions/collation/codepoint',
  html: 'http://www.w3.org/2005/xpath-functions/collation/html-ascii-case-insensitive',
  uca: 'http://www.w3.org/2013/collation/UCA',
};

/**
 * The collation of an order or grouping spec: its own, else the default one (the Unicode
 * codepoint collation unless declared). Always explicit in the XSLT: saxon-js's own default
 * for `xsl:sort` is not the codepoint collation. XQST0076 for one saxon-js does not know.
 */
export function specCollation(uri: string | null, scope: Scope, offset: number): string {
  let c = uri ?? scope.ctx.defaultCollation ?? COLLATIONS.codepoint;
  if (!/^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(c)) {
    try {
      c = new URL(c, scope.ctx.baseUri ?? DEFAULT_BASE_URI).href; // a relative URI: against the base URI
    } catch {
      // not a URI saxon-js could know either
    }
  }
  if (c === COLLATIONS.codepoint || c === COLLATIONS.html || c === COLLATIONS.uca || c.startsWith(`${COLLATIONS.uca}?`)) return c;
  throw clauseError(scope, 'XQST0076', offset, `Unknown collation '${uri ?? c}'.`);
}

function exhaustive(clause: never): never {
  throw new Error(`translate: unknown FLWOR clause ${(clause as { kind: string }).kind}`);
}
