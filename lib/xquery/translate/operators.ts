/**
 * Operators: sequences, arithmetic, comparisons, logic, range, `||`, union/intersect/except,
 * unary signs, instance of / treat / cast / castable, and the simple map `!`. Each is the same
 * XPath 3.1 operator with fully parenthesised operands; the right-hand side of `!` is
 * evaluated with XPath's own (native) focus.
 */
import type { Expr } from '../syntax';
import { translateExpr } from './expressions';
import { translateRange } from './ranges';
import type { Scope } from './scope';
import { translateSequenceType, translateSingleType } from './types';
import type { TranslationUnit } from './unit';

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
      return bin(expr.left, '||', expr.right);
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
    case 'CastableExpr':
      return `(${t(expr.expr)} castable as ${translateSingleType(expr.type, scope)})`;
    case 'CastExpr':
      return `(${t(expr.expr)} cast as ${translateSingleType(expr.type, scope)})`;
    case 'UnaryExpr':
      return `(${expr.op}(${t(expr.operand)}))`;
    case 'SimpleMapExpr': {
      const inner = scope.withFocus({ kind: 'native' });
      const [first, ...rest] = expr.operands;
      return `(${[t(first), ...rest.map((e) => translateExpr(e, inner, unit))].join(' ! ')})`;
    }
  }
}
