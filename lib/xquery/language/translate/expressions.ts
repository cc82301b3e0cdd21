/**
 * The dispatcher: every XQuery expression translates to ONE XPath 3.1 expression string.
 * The switch over `Expr['kind']` is exhaustive (adding a kind to the AST breaks the build here);
 * each family lives in its own file. Constructs XPath cannot express are lifted into generated
 * `xsl:function`s (lift.ts) by their family.
 */
import type { Expr } from '../syntax';
import { translateConditional } from './conditional';
import { translateConstructor } from './constructors/constructors';
import { translateFlwor, translateQuantified } from './flwor/flwor';
import { translateFTContains, translateFTScore } from './fulltext';
import { translateOperator } from './operators';
import { translatePath } from './paths/paths';
import { translatePrimary } from './primary';
import type { Scope } from './scope';
import type { TranslationUnit } from './unit';
import { isUpdateModuleCall, translateUpdate, translateUpdateModuleCall } from './update';

export function translateExpr(expr: Expr, scope: Scope, unit: TranslationUnit): string {
  if (expr.kind === 'FunctionCall' && isUpdateModuleCall(expr, scope)) return translateUpdateModuleCall(expr, scope, unit);
  switch (expr.kind) {
    case 'SequenceExpr':
    case 'OrExpr':
    case 'AndExpr':
    case 'ComparisonExpr':
    case 'StringConcatExpr':
    case 'RangeExpr':
    case 'AdditiveExpr':
    case 'MultiplicativeExpr':
    case 'UnionExpr':
    case 'IntersectExceptExpr':
    case 'InstanceofExpr':
    case 'TreatExpr':
    case 'CastableExpr':
    case 'CastExpr':
    case 'UnaryExpr':
    case 'SimpleMapExpr':
      return translateOperator(expr, scope, unit);
    case 'PathExpr':
    case 'AxisStep':
    case 'FilterExpr':
      return translatePath(expr, scope, unit);
    case 'ArrowExpr':
    case 'ValidateExpr':
    case 'ExtensionExpr':
    case 'DynamicFunctionCall':
    case 'Lookup':
    case 'UnaryLookup':
    case 'IntegerLiteral':
    case 'DecimalLiteral':
    case 'DoubleLiteral':
    case 'StringLiteral':
    case 'VarRef':
    case 'ParenthesizedExpr':
    case 'ContextItemExpr':
    case 'FunctionCall':
    case 'NamedFunctionRef':
    case 'InlineFunctionExpr':
    case 'MapConstructor':
    case 'SquareArrayConstructor':
    case 'CurlyArrayConstructor':
    case 'OrderedExpr':
    case 'UnorderedExpr':
    case 'StringConstructor':
      return translatePrimary(expr, scope, unit);
    case 'FLWORExpr':
      return translateFlwor(expr, scope, unit);
    case 'QuantifiedExpr':
      return translateQuantified(expr, scope, unit);
    case 'IfExpr':
    case 'SwitchExpr':
    case 'TypeswitchExpr':
    case 'TryCatchExpr':
      return translateConditional(expr, scope, unit);
    case 'DirElemConstructor':
    case 'DirCommentConstructor':
    case 'DirPIConstructor':
    case 'CompDocConstructor':
    case 'CompElemConstructor':
    case 'CompAttrConstructor':
    case 'CompNamespaceConstructor':
    case 'CompTextConstructor':
    case 'CompCommentConstructor':
    case 'CompPIConstructor':
      return translateConstructor(expr, scope, unit);
    case 'InsertExpr':
    case 'DeleteExpr':
    case 'ReplaceExpr':
    case 'RenameExpr':
    case 'CopyModifyExpr':
    case 'TransformWithExpr':
    case 'UpdatingFunctionCall':
      return translateUpdate(expr, scope, unit);
    case 'FTContainsExpr':
      return translateFTContains(expr, scope, unit);
    case 'FTScoreExpr':
      return translateFTScore(expr, scope, unit);
    default:
      return exhaustive(expr);
  }
}

function exhaustive(expr: never): never {
  throw new Error(`translate: unknown expression kind ${(expr as { kind: string }).kind}`);
}
