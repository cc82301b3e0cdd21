/**
 * `E//*[P]…` whose leading predicates read their element only through its name: `//*[local-name()
 * = $n]`, `//*[starts-with(name(), 'h')]`, `//*[self::a or self::b]`,
 * `//*[string-length(local-name()) > 3]`. Such a predicate answers alike for every element of
 * one name, so it is evaluated on one element per name (accelerators/name-predicates/name-predicates.ts):
 *
 *   engine:elements-named-as(E, engine:element-name-samples(E)[P])
 *
 * instead of once per descendant element. Predicates after the leading name-only ones filter
 * that answer as written; the path already holds only position-free predicates here
 * (name-index/paths-index.ts `anyElementPredicates`), so the order in which they filter does not
 * change which elements they keep. A predicate that raises an error for some name raises one in
 * either form; when elements of several names raise different errors, or other predicates follow,
 * which error comes first may differ, as XQuery 3.1 §2.3.4 (errors and optimization) permits.
 *
 * A predicate qualifies when every part of it is one of: a literal; a variable reference
 * (bound outside the predicate: a predicate holding a binding expression does not qualify);
 * parentheses, sequences, `if`, comparisons, `and`, `or`, `||`, arithmetic, casts and type tests
 * of qualifying parts; `fn:name`, `fn:local-name`, `fn:namespace-uri` or `fn:node-name` of the
 * context item (no argument, or `.`) or of a qualifying argument; a `self::` step with a name
 * test or a wildcard and no predicate, where only whether it is empty counts or its name
 * (`self::a or self::b`, `exists(self::p:*)`, `local-name(self::*)`, not `self::* = "x"`); a
 * call of a function of fn:, math:, xs:, map: or array: with qualifying arguments, unless that
 * function reads the focus when called with that many arguments (`string()`,
 * `string-length()`, `lang($l)`, …), runs or makes function items chosen at run time (`apply`,
 * `for-each`, `function-lookup`, …: analysis/function-item-calls.ts; a variable may hold
 * `position#0`, `trace#2` or a random generator), writes (`trace`, whose lines would be fewer) or
 * answers anew at each call (`random-number-generator` in saxon-js). Anything else, `.` elsewhere and every other step included, reads more of the
 * element than its name.
 */
import type { AxisStep, Expr } from '../../language/syntax';
import { NS } from '../../language/translate/names';
import { braced } from '../../language/translate/emit';
import type { Scope } from '../../language/translate/scope';
import { callsFunctionItems } from '../../language/analysis/function-item-calls';
import { isFocusFunction } from '../../language/translate/focus';

const SAMPLES = `${braced(NS.engine)}element-name-samples`;
const NAMED_AS = `${braced(NS.engine)}elements-named-as`;
const COUNT_NAMED_AS = `${braced(NS.engine)}count-named-as`;

/** fn: functions whose value is the context item's name: without argument, or with `.`. */
const NAME_FUNCTIONS = new Set(['name', 'local-name', 'namespace-uri', 'node-name']);

/** fn: functions never called on samples: they write, or answer anew at each call. */
const NEVER = new Set(['trace', 'random-number-generator']);

/** Namespaces whose functions compute from their arguments (with the fn: exceptions above). */
const ARGUMENT_NAMESPACES = new Set<string>([NS.fn, NS.math, NS.xs, NS.map, NS.array]);

/** How many of `predicates`, from the first, read their element only through its name. */
export function leadingNamePredicates(predicates: readonly Expr[], scope: Scope): number {
  let n = 0;
  while (n < predicates.length && readsOnlyName(predicates[n], 'test', scope)) n++;
  return n;
}

/**
 * The descendant elements of the node `context` (an XPath expression) kept by `filters`, the
 * translated name-only predicates (`[…]` each): see the file comment.
 */
export function namePredicatesCall(context: string, filters: readonly string[]): string {
  return `${NAMED_AS}(${context}, ${SAMPLES}(${context})${filters.join('')})`;
}

/**
 * `count(/descendant::*[P…])` where every predicate reads its element only through its name
 * (`count(//*[local-name() = 'x'])`): the number of descendant elements of each of the roots
 * `roots` (an XPath expression) whose name a sample kept by the translated predicates `filters`
 * has, summed, without making the elements (name-predicates.ts `countNamedAs`).
 */
export function countNamePredicatesCall(roots: string, filters: readonly string[]): string {
  return `${braced(NS.fn)}sum((${roots}) ! ${COUNT_NAMED_AS}(., ${SAMPLES}(.)${filters.join('')}))`;
}

/**
 * How a part's value is used: as a truth value only (a predicate, an operand of `and` or `or`,
 * the test of `if`, the argument of `exists`, `empty`, `not` or `boolean`), for its name only
 * (the argument of a name function), or as a value. A `self::` step selects the element itself, so
 * it answers alike for one name only when its value is a truth value (empty or not) or a name:
 * `self::* = "x"` compares the element's string value.
 */
type Use = 'test' | 'name' | 'value';

/** fn: functions whose argument counts only as a truth value. */
const TEST_FUNCTIONS = new Set(['exists', 'empty', 'not', 'boolean']);

function readsOnlyName(expr: Expr, use: Use, scope: Scope): boolean {
  const all = (exprs: readonly Expr[], as: Use): boolean => exprs.every((e) => readsOnlyName(e, as, scope));
  switch (expr.kind) {
    case 'IntegerLiteral':
    case 'DecimalLiteral':
    case 'DoubleLiteral':
    case 'StringLiteral':
    case 'VarRef':
      return true;
    case 'ParenthesizedExpr':
      return expr.expr === null || readsOnlyName(expr.expr, use, scope);
    case 'SequenceExpr':
      return all(expr.items, use);
    case 'IfExpr':
      return readsOnlyName(expr.test, 'test', scope) && all([expr.then, expr.else], use);
    case 'OrExpr':
    case 'AndExpr':
      return all([expr.left, expr.right], 'test');
    case 'ComparisonExpr':
    case 'StringConcatExpr':
    case 'RangeExpr':
    case 'AdditiveExpr':
    case 'MultiplicativeExpr':
      return all([expr.left, expr.right], 'value');
    case 'UnaryExpr':
      return readsOnlyName(expr.operand, 'value', scope);
    case 'CastExpr':
    case 'CastableExpr':
    case 'InstanceofExpr':
    case 'TreatExpr':
      return readsOnlyName(expr.expr, 'value', scope);
    case 'AxisStep':
      return use !== 'value' && selfNameTest(expr);
    case 'PathExpr':
      return use !== 'value' && expr.root === null && expr.steps.length === 1 && expr.steps[0].kind === 'AxisStep' && selfNameTest(expr.steps[0]);
    case 'FunctionCall': {
      const { uri, local } = scope.functionName(expr.name, expr.start);
      if (!ARGUMENT_NAMESPACES.has(uri)) return false;
      const args: Expr[] = [];
      for (const arg of expr.args) {
        if (arg.kind === 'ArgumentPlaceholder') return false;
        args.push(arg);
      }
      if (uri === NS.fn && NAME_FUNCTIONS.has(local)) return args.length === 0 || (args.length === 1 && (args[0].kind === 'ContextItemExpr' || readsOnlyName(args[0], 'name', scope)));
      if ((uri === NS.fn && NEVER.has(local)) || isFocusFunction(uri, local, args.length)) return false;
      if (callsFunctionItems(uri, local)) return false;
      return all(args, uri === NS.fn && TEST_FUNCTIONS.has(local) ? 'test' : 'value');
    }
    default:
      return false;
  }
}

/** `self::name`, `self::*`, `self::p:*` or `self::*:local` without predicates: a test of the name alone. */
function selfNameTest(step: AxisStep): boolean {
  return step.axis === 'self' && step.predicates.length === 0 && (step.test.kind === 'NameTest' || step.test.kind === 'Wildcard');
}
