/** AST: Expr, FLWOR clauses, conditional expressions and operators. (see ast.ts) */
import type {
  Argument,
  AxisStep,
  CompAttrConstructor,
  CompCommentConstructor,
  CompDocConstructor,
  CompElemConstructor,
  CompNamespaceConstructor,
  CompPIConstructor,
  CompTextConstructor,
  ContextItemExpr,
  CopyModifyExpr,
  CurlyArrayConstructor,
  DeleteExpr,
  DirCommentConstructor,
  DirElemConstructor,
  DirPIConstructor,
  DynamicFunctionCall,
  EQName,
  FilterExpr,
  FunctionCall,
  InlineFunctionExpr,
  InsertExpr,
  Literal,
  Lookup,
  MapConstructor,
  NameTest,
  NamedFunctionRef,
  OrderedExpr,
  ParenthesizedExpr,
  PathExpr,
  RenameExpr,
  ReplaceExpr,
  SequenceType,
  SingleType,
  Span,
  SquareArrayConstructor,
  StringConstructor,
  TransformWithExpr,
  UnaryLookup,
  UnorderedExpr,
  UpdatingFunctionCall,
  VarRef,
  Wildcard,
} from './ast';
import type { FTContainsExpr, FTScoreExpr } from './ast-fulltext';

// ---------------------------------------------------------------- expressions

export type Expr =
  | SequenceExpr
  | FLWORExpr
  | QuantifiedExpr
  | SwitchExpr
  | TypeswitchExpr
  | IfExpr
  | TryCatchExpr
  | OrExpr
  | AndExpr
  | ComparisonExpr
  | StringConcatExpr
  | RangeExpr
  | AdditiveExpr
  | MultiplicativeExpr
  | UnionExpr
  | IntersectExceptExpr
  | InstanceofExpr
  | TreatExpr
  | CastableExpr
  | CastExpr
  | ArrowExpr
  | UnaryExpr
  | ValidateExpr
  | ExtensionExpr
  | SimpleMapExpr
  | PathExpr
  | AxisStep
  | FilterExpr
  | DynamicFunctionCall
  | Lookup
  | UnaryLookup
  | Literal
  | VarRef
  | ParenthesizedExpr
  | ContextItemExpr
  | FunctionCall
  | NamedFunctionRef
  | InlineFunctionExpr
  | MapConstructor
  | SquareArrayConstructor
  | CurlyArrayConstructor
  | OrderedExpr
  | UnorderedExpr
  | StringConstructor
  | DirElemConstructor
  | DirCommentConstructor
  | DirPIConstructor
  | CompDocConstructor
  | CompElemConstructor
  | CompAttrConstructor
  | CompNamespaceConstructor
  | CompTextConstructor
  | CompCommentConstructor
  | CompPIConstructor
  | InsertExpr
  | DeleteExpr
  | ReplaceExpr
  | RenameExpr
  | CopyModifyExpr
  | TransformWithExpr
  | UpdatingFunctionCall
  | FTContainsExpr
  | FTScoreExpr;

/** `a, b, c` (two or more items; `()` is an empty ParenthesizedExpr). */
export interface SequenceExpr extends Span {
  kind: 'SequenceExpr';
  items: Expr[];
}

/** `{ Expr? }` wherever the grammar says EnclosedExpr. */
export interface EnclosedExpr extends Span {
  kind: 'EnclosedExpr';
  expr: Expr | null;
}

// FLWOR ----------------------------------------------------------------

export interface FLWORExpr extends Span {
  kind: 'FLWORExpr';
  clauses: FLWORClause[];
  return: Expr;
}
export type FLWORClause =
  | ForClause
  | LetClause
  | WindowClause
  | WhereClause
  | GroupByClause
  | OrderByClause
  | CountClause;

export interface ForClause extends Span {
  kind: 'ForClause';
  bindings: ForBinding[];
}
export interface ForBinding extends Span {
  kind: 'ForBinding';
  name: EQName;
  type: SequenceType | null;
  allowingEmpty: boolean;
  positionalVar: EQName | null;
  in: Expr;
}
export interface LetClause extends Span {
  kind: 'LetClause';
  bindings: LetBinding[];
}
export interface LetBinding extends Span {
  kind: 'LetBinding';
  name: EQName;
  type: SequenceType | null;
  value: Expr;
}
export interface WindowClause extends Span {
  kind: 'WindowClause';
  window: 'tumbling' | 'sliding';
  name: EQName;
  type: SequenceType | null;
  in: Expr;
  startCondition: WindowCondition;
  endCondition: WindowCondition | null;
}
export interface WindowCondition extends Span {
  kind: 'WindowCondition';
  /** `only end` (always false for a start condition). */
  only: boolean;
  current: EQName | null;
  positional: EQName | null;
  previous: EQName | null;
  next: EQName | null;
  when: Expr;
}
export interface WhereClause extends Span {
  kind: 'WhereClause';
  test: Expr;
}
export interface GroupByClause extends Span {
  kind: 'GroupByClause';
  specs: GroupingSpec[];
}
export interface GroupingSpec extends Span {
  kind: 'GroupingSpec';
  name: EQName;
  type: SequenceType | null;
  value: Expr | null;
  collation: string | null;
}
export interface OrderByClause extends Span {
  kind: 'OrderByClause';
  stable: boolean;
  specs: OrderSpec[];
}
export interface OrderSpec extends Span {
  kind: 'OrderSpec';
  expr: Expr;
  descending: boolean;
  emptyOrder: 'greatest' | 'least' | null;
  collation: string | null;
}
export interface CountClause extends Span {
  kind: 'CountClause';
  name: EQName;
}

// Conditionals -----------------------------------------------------------

export interface QuantifiedExpr extends Span {
  kind: 'QuantifiedExpr';
  quantifier: 'some' | 'every';
  bindings: QuantifiedBinding[];
  satisfies: Expr;
}
export interface QuantifiedBinding extends Span {
  kind: 'QuantifiedBinding';
  name: EQName;
  type: SequenceType | null;
  in: Expr;
}
export interface SwitchExpr extends Span {
  kind: 'SwitchExpr';
  operand: Expr;
  cases: SwitchCaseClause[];
  default: Expr;
}
export interface SwitchCaseClause extends Span {
  kind: 'SwitchCaseClause';
  operands: Expr[];
  result: Expr;
}
export interface TypeswitchExpr extends Span {
  kind: 'TypeswitchExpr';
  operand: Expr;
  cases: TypeswitchCaseClause[];
  defaultVar: EQName | null;
  default: Expr;
}
export interface TypeswitchCaseClause extends Span {
  kind: 'TypeswitchCaseClause';
  variable: EQName | null;
  types: SequenceType[];
  result: Expr;
}
export interface IfExpr extends Span {
  kind: 'IfExpr';
  test: Expr;
  then: Expr;
  else: Expr;
}
export interface TryCatchExpr extends Span {
  kind: 'TryCatchExpr';
  body: EnclosedExpr;
  catches: CatchClause[];
}
export interface CatchClause extends Span {
  kind: 'CatchClause';
  tests: (NameTest | Wildcard)[];
  body: EnclosedExpr;
}

// Operators ---------------------------------------------------------------

export interface OrExpr extends Span {
  kind: 'OrExpr';
  left: Expr;
  right: Expr;
}
export interface AndExpr extends Span {
  kind: 'AndExpr';
  left: Expr;
  right: Expr;
}
export type GeneralComp = '=' | '!=' | '<' | '<=' | '>' | '>=';
export type ValueComp = 'eq' | 'ne' | 'lt' | 'le' | 'gt' | 'ge';
export type NodeComp = 'is' | '<<' | '>>';
export interface ComparisonExpr extends Span {
  kind: 'ComparisonExpr';
  op: GeneralComp | ValueComp | NodeComp;
  left: Expr;
  right: Expr;
}
export interface StringConcatExpr extends Span {
  kind: 'StringConcatExpr';
  left: Expr;
  right: Expr;
}
export interface RangeExpr extends Span {
  kind: 'RangeExpr';
  left: Expr;
  right: Expr;
}
export interface AdditiveExpr extends Span {
  kind: 'AdditiveExpr';
  op: '+' | '-';
  left: Expr;
  right: Expr;
}
export interface MultiplicativeExpr extends Span {
  kind: 'MultiplicativeExpr';
  op: '*' | 'div' | 'idiv' | 'mod';
  left: Expr;
  right: Expr;
}
/** `union` and `|`. */
export interface UnionExpr extends Span {
  kind: 'UnionExpr';
  left: Expr;
  right: Expr;
}
export interface IntersectExceptExpr extends Span {
  kind: 'IntersectExceptExpr';
  op: 'intersect' | 'except';
  left: Expr;
  right: Expr;
}
export interface InstanceofExpr extends Span {
  kind: 'InstanceofExpr';
  expr: Expr;
  type: SequenceType;
}
export interface TreatExpr extends Span {
  kind: 'TreatExpr';
  expr: Expr;
  type: SequenceType;
}
export interface CastableExpr extends Span {
  kind: 'CastableExpr';
  expr: Expr;
  type: SingleType;
}
export interface CastExpr extends Span {
  kind: 'CastExpr';
  expr: Expr;
  type: SingleType;
}
/** `expr => f(args)`; chains nest to the left. */
export interface ArrowExpr extends Span {
  kind: 'ArrowExpr';
  expr: Expr;
  /** A static function name, or a VarRef / ParenthesizedExpr / InlineFunctionExpr. */
  function: EQName | Expr;
  args: Argument[];
}
export interface UnaryExpr extends Span {
  kind: 'UnaryExpr';
  op: '+' | '-';
  operand: Expr;
}
export interface ValidateExpr extends Span {
  kind: 'ValidateExpr';
  mode: 'lax' | 'strict' | null;
  type: EQName | null;
  expr: Expr;
}
export interface Pragma extends Span {
  kind: 'Pragma';
  name: EQName;
  contents: string;
}
export interface ExtensionExpr extends Span {
  kind: 'ExtensionExpr';
  pragmas: Pragma[];
  expr: Expr | null;
}
/** `a ! b ! c` (two or more operands). */
export interface SimpleMapExpr extends Span {
  kind: 'SimpleMapExpr';
  operands: Expr[];
}
