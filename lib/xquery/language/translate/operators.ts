/**
 * Operators: sequences, arithmetic, comparisons, logic, range, `||`, union/intersect/except,
 * unary signs, instance of / treat / cast / castable, and the simple map `!`. Each is the same
 * XPath 3.1 operator with fully parenthesised operands; the right-hand side of `!` is
 * evaluated with XPath's own (native) focus.
 *
 * Atomization of arrays (XQuery 3.1 §2.4.2): saxon-js 2.7 atomizes an array operand of `||`,
 * `cast` and `castable` (and an argument of fn:concat) to its first member only, so
 * `[1, 2] || "x"` gave "1x" instead of XPTY0004. These operands are atomized with fn:data first,
 * which flattens arrays as XQuery does; for any other value it changes nothing.
 * Casts to duration types check the limits of duration-limits.ts.
 */
import type { Expr } from '../syntax';
import { NS } from './names';
import { checkedDurationCast, checkedDurationCastable, isDurationSingleType } from './duration-limits';
import { translateExpr } from './expressions';
import { translateRange } from './range-expression';
import type { Scope } from './scope';
import { translateSequenceType, translateSingleType } from './types';
import type { TranslationUnit } from './unit';
import { braced } from './emit';

const DATA = `${braced(NS.fn)}data`;

export type OperatorExpr = Extract<
  Expr,
  {
    kind:
      | 'SequenceExpr'
      | 'OrExpr'
      | 'AndExpr'
      | 'ComparisonExpr'
      | 'StringConcatExpr'
      | 'RangeExpr'
      | 'AdditiveExpr'
      | 'MultiplicativeExpr'
      | 'UnionExpr'
      | 'IntersectExceptExpr'
      | 'InstanceofExpr'
      | 'TreatExpr'
      | 'CastableExpr'
      | 'CastExpr'
      | 'UnaryExpr'
      | 'SimpleMapExpr';
  }
>;

export function translateOperator(expr: OperatorExpr, scope: Scope, unit: TranslationUnit): string {
  const t = (e: Expr): string => translateExpr(e, scope, unit);
  const bin = (l: Expr, op: string, r: Expr): string => `(${t(l)} ${op} ${t(r)})`;
  const atomized = (e: Expr): string => `${DATA}(${t(e)})`;
  switch (expr.kind) {
    case 'SequenceExpr':
      return `(${expr.items.map(t).join(', ')})`;
    case 'OrExpr':
      return bin(expr.left, 'or', expr.right);
    case 'AndExpr':
      return bin(expr.left, 'and', expr.right);
    case 'ComparisonExpr':
      return bin(expr.left, expr.op, expr.right);
    case 'StringConcatExpr':
      return `(${atomized(expr.left)} || ${atomized(expr.right)})`;
    case 'RangeExpr':
      return translateRange(expr, scope, unit);
    case 'AdditiveExpr':
    case 'MultiplicativeExpr':
      return bin(expr.left, expr.op, expr.right);
    case 'UnionExpr':
      return bin(expr.left, '|', expr.right);
    case 'IntersectExceptExpr':
      return bin(expr.left, expr.op, expr.right);
    case 'InstanceofExpr':
      return `(${t(expr.expr)} instance of ${translateSequenceType(expr.type, scope)})`;
    case 'TreatExpr':
      return `(${t(expr.expr)} treat as ${translateSequenceType(expr.type, scope)})`;
    case 'CastableExpr': {
      const type = translateSingleType(expr.type, scope);
      if (isDurationSingleType(type)) return checkedDurationCastable(atomized(expr.expr), type, scope.ctx.nextId());
      return `(${atomized(expr.expr)} castable as ${type})`;
    }
    case 'CastExpr': {
      const type = translateSingleType(expr.type, scope);
      if (isDurationSingleType(type)) return checkedDurationCast(atomized(expr.expr), type, scope.ctx.nextId());
      return `(${atomized(expr.expr)} cast as ${type})`;
    }
    case 'UnaryExpr':
      return `(${expr.op}(${t(expr.operand)}))`;
    case 'SimpleMapExpr': {
      const inner = scope.withFocus({ kind: 'native' });
      const [first, ...rest] = expr.operands;
      return `(${[t(first), ...rest.map((e) => translateExpr(e, inner, unit))].join(' ! ')})`;
    }
  }
}
