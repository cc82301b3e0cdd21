/**
 * A small, conservative static typing: whether an expression certainly evaluates to a sequence of
 * atomic values only (possibly empty), whatever the data. The translation uses it to skip the
 * run-time dispatch on item kinds where the kind is already known (element content made of
 * atomic values, xpath.ts and constructors/constructors.ts). `false` means "not known", never
 * "not atomic": anything not listed here keeps the general translation.
 *
 * Atomic by the language (XQuery 3.1): literals; arithmetic (§3.5, the result of an arithmetic
 * expression is atomic or empty); comparisons, `and`/`or`, `instance of`, `castable` (xs:boolean
 * or empty); `cast as` (§3.18.2); `||` (xs:string); `to` (xs:integer*); constructor functions (the xs
 * namespace, §3.18.5); and functions of the fn namespace whose declared result type is atomic
 * (F&O 3.1). Sequences, parentheses and the
 * branches of `if` are atomic when their parts are. A variable is atomic when its binding says so
 * (`Variable.atomic`, set where a for or let clause binds the items of an atomic expression).
 */
import type { Expr } from '../syntax';
import { NS } from './names';
import type { Scope } from './scope';

/** fn functions whose result is atomic for every arity (F&O 3.1 signatures). */
const ATOMIC_FUNCTIONS = new Set([
  'abs', 'avg', 'boolean', 'ceiling', 'codepoints-to-string', 'compare', 'concat', 'contains', 'count', 'data', 'empty',
  'ends-with', 'exists', 'false', 'floor', 'format-integer', 'format-number', 'last', 'local-name', 'lower-case', 'max',
  'min', 'name', 'namespace-uri', 'normalize-space', 'not', 'number', 'position', 'round', 'starts-with', 'string',
  'string-join', 'string-length', 'string-to-codepoints', 'substring', 'substring-after', 'substring-before', 'sum',
  'tokenize', 'translate', 'true', 'upper-case',
]);

/** Kinds whose value is atomic (or empty, or an error) whatever their operands. */
const ATOMIC_KINDS = new Set([
  'IntegerLiteral', 'DecimalLiteral', 'DoubleLiteral', 'StringLiteral', 'AdditiveExpr', 'MultiplicativeExpr', 'UnaryExpr',
  'ComparisonExpr', 'AndExpr', 'OrExpr', 'InstanceofExpr', 'CastableExpr', 'CastExpr', 'StringConcatExpr', 'RangeExpr',
]);

/**
 * Whether every item `e` evaluates to is atomic. Call it on expressions that translated without
 * error in `scope` (their variables resolve).
 */
export function yieldsAtomics(e: Expr, scope: Scope): boolean {
  if (ATOMIC_KINDS.has(e.kind)) return true;
  switch (e.kind) {
    case 'ParenthesizedExpr':
      return e.expr === null || yieldsAtomics(e.expr, scope);
    case 'SequenceExpr':
      return e.items.every((x) => yieldsAtomics(x, scope));
    case 'IfExpr':
      return yieldsAtomics(e.then, scope) && yieldsAtomics(e.else, scope);
    case 'VarRef':
      return scope.lookupVariable(e.name, e.start).atomic === true;
    case 'FunctionCall': {
      const name = scope.functionName(e.name, e.start);
      const atomic = name.uri === NS.xs || (name.uri === NS.fn && ATOMIC_FUNCTIONS.has(name.local));
      return atomic && e.args.every((a) => a.kind !== 'ArgumentPlaceholder');
    }
    default:
      return false;
  }
}
