/** AST: Paths, postfix and primary expressions, node constructors, XQuery Update expressions. (see ast.ts) */
import type {
  Annotation,
  EQName,
  EnclosedExpr,
  Expr,
  KindTest,
  LetBinding,
  Param,
  SequenceType,
  Span,
} from './ast';

// Paths ---------------------------------------------------------------------

/**
 * A path with at least one `/` or `//`. `root` is '/' when the path starts at the root (`/…` or
 * `//…`). Each `//`, leading or between steps, is expanded to an AxisStep
 * `descendant-or-self::node()` with `abbreviated: true`. `/` alone is `{root: '/', steps: []}`.
 */
export interface PathExpr extends Span {
  kind: 'PathExpr';
  root: '/' | null;
  steps: Expr[];
}
export type Axis =
  | 'child'
  | 'descendant'
  | 'attribute'
  | 'self'
  | 'descendant-or-self'
  | 'following-sibling'
  | 'following'
  | 'namespace'
  | 'parent'
  | 'ancestor'
  | 'preceding-sibling'
  | 'preceding'
  | 'ancestor-or-self';
export interface AxisStep extends Span {
  kind: 'AxisStep';
  axis: Axis;
  /** Written with `@`, `..`, `//` or no axis at all. */
  abbreviated: boolean;
  test: NodeTest;
  predicates: Expr[];
}
export type NodeTest = NameTest | Wildcard | KindTest;
export interface NameTest extends Span {
  kind: 'NameTest';
  name: EQName;
}
/** `*`, `p:*`, `*:local`, `Q{uri}*`. */
export interface Wildcard extends Span {
  kind: 'Wildcard';
  prefix?: string;
  uri?: string;
  local?: string;
}
export interface FilterExpr extends Span {
  kind: 'FilterExpr';
  base: Expr;
  predicate: Expr;
}
export type Argument = Expr | ArgumentPlaceholder;
export interface ArgumentPlaceholder extends Span {
  kind: 'ArgumentPlaceholder';
}
export interface DynamicFunctionCall extends Span {
  kind: 'DynamicFunctionCall';
  base: Expr;
  args: Argument[];
}
export type KeySpecifier =
  | { type: 'name'; name: string }
  | { type: 'integer'; value: string }
  | { type: 'expr'; expr: ParenthesizedExpr }
  | { type: 'wildcard' };
export interface Lookup extends Span {
  kind: 'Lookup';
  base: Expr;
  key: KeySpecifier;
}
export interface UnaryLookup extends Span {
  kind: 'UnaryLookup';
  key: KeySpecifier;
}

// Primary ---------------------------------------------------------------------

export type Literal = IntegerLiteral | DecimalLiteral | DoubleLiteral | StringLiteral;
/** Numeric literals keep their lexical form. */
export interface IntegerLiteral extends Span {
  kind: 'IntegerLiteral';
  value: string;
}
export interface DecimalLiteral extends Span {
  kind: 'DecimalLiteral';
  value: string;
}
export interface DoubleLiteral extends Span {
  kind: 'DoubleLiteral';
  value: string;
}
/** `value` has escapes (`""`, `''`) and references (`&lt;`, `&#x20;`) resolved. */
export interface StringLiteral extends Span {
  kind: 'StringLiteral';
  value: string;
}
export interface VarRef extends Span {
  kind: 'VarRef';
  name: EQName;
}
export interface ParenthesizedExpr extends Span {
  kind: 'ParenthesizedExpr';
  expr: Expr | null;
}
export interface ContextItemExpr extends Span {
  kind: 'ContextItemExpr';
}
export interface FunctionCall extends Span {
  kind: 'FunctionCall';
  name: EQName;
  args: Argument[];
}
export interface NamedFunctionRef extends Span {
  kind: 'NamedFunctionRef';
  name: EQName;
  arity: number;
}
export interface InlineFunctionExpr extends Span {
  kind: 'InlineFunctionExpr';
  annotations: Annotation[];
  params: Param[];
  returnType: SequenceType | null;
  body: EnclosedExpr;
}
export interface MapConstructor extends Span {
  kind: 'MapConstructor';
  entries: MapConstructorEntry[];
}
export interface MapConstructorEntry extends Span {
  kind: 'MapConstructorEntry';
  key: Expr;
  value: Expr;
}
export interface SquareArrayConstructor extends Span {
  kind: 'SquareArrayConstructor';
  members: Expr[];
}
export interface CurlyArrayConstructor extends Span {
  kind: 'CurlyArrayConstructor';
  expr: Expr | null;
}
export interface OrderedExpr extends Span {
  kind: 'OrderedExpr';
  expr: Expr | null;
}
export interface UnorderedExpr extends Span {
  kind: 'UnorderedExpr';
  expr: Expr | null;
}
export interface StringConstructor extends Span {
  kind: 'StringConstructor';
  parts: (StringConstructorChars | StringConstructorInterpolation)[];
}
export interface StringConstructorChars extends Span {
  kind: 'StringConstructorChars';
  value: string;
}
export interface StringConstructorInterpolation extends Span {
  kind: 'StringConstructorInterpolation';
  expr: Expr | null;
}

// Direct constructors -------------------------------------------------------------

export interface DirElemConstructor extends Span {
  kind: 'DirElemConstructor';
  name: EQName;
  attributes: DirAttribute[];
  /** `xmlns="…"` and `xmlns:p="…"`, in the order written. */
  namespaces: DirNamespaceDecl[];
  content: DirElemContent[];
}
export interface DirAttribute extends Span {
  kind: 'DirAttribute';
  name: EQName;
  value: (AttributeValueChars | EnclosedExpr)[];
}
/** Literal text of an attribute value, references resolved, whitespace normalized. */
export interface AttributeValueChars extends Span {
  kind: 'AttributeValueChars';
  value: string;
}
export interface DirNamespaceDecl extends Span {
  kind: 'DirNamespaceDecl';
  /** null for `xmlns`. */
  prefix: string | null;
  uri: string;
}
export type DirElemContent =
  | DirElemConstructor
  | DirCommentConstructor
  | DirPIConstructor
  | DirText
  | CDataSection
  | EnclosedExpr;
/**
 * A run of element content characters between two other content items, references resolved.
 * `boundaryWhitespace` is true when the run is written only as whitespace characters (no
 * references), i.e. it is boundary whitespace, stripped unless `boundary-space preserve`.
 */
export interface DirText extends Span {
  kind: 'DirText';
  value: string;
  boundaryWhitespace: boolean;
}
export interface CDataSection extends Span {
  kind: 'CDataSection';
  value: string;
}
export interface DirCommentConstructor extends Span {
  kind: 'DirCommentConstructor';
  value: string;
}
export interface DirPIConstructor extends Span {
  kind: 'DirPIConstructor';
  target: string;
  value: string;
}

// Computed constructors -------------------------------------------------------------

export interface CompDocConstructor extends Span {
  kind: 'CompDocConstructor';
  expr: Expr | null;
}
export interface CompElemConstructor extends Span {
  kind: 'CompElemConstructor';
  /** Either a name as written or a name expression (`element {expr} {…}`). */
  name: EQName | null;
  nameExpr: Expr | null;
  content: Expr | null;
}
export interface CompAttrConstructor extends Span {
  kind: 'CompAttrConstructor';
  name: EQName | null;
  nameExpr: Expr | null;
  value: Expr | null;
}
export interface CompNamespaceConstructor extends Span {
  kind: 'CompNamespaceConstructor';
  prefix: string | null;
  prefixExpr: Expr | null;
  uri: Expr | null;
}
export interface CompTextConstructor extends Span {
  kind: 'CompTextConstructor';
  expr: Expr | null;
}
export interface CompCommentConstructor extends Span {
  kind: 'CompCommentConstructor';
  expr: Expr | null;
}
export interface CompPIConstructor extends Span {
  kind: 'CompPIConstructor';
  target: string | null;
  targetExpr: Expr | null;
  value: Expr | null;
}

// XQuery Update Facility 3.0 ---------------------------------------------------------

export interface InsertExpr extends Span {
  kind: 'InsertExpr';
  source: Expr;
  position: 'into' | 'first' | 'last' | 'before' | 'after';
  target: Expr;
}
export interface DeleteExpr extends Span {
  kind: 'DeleteExpr';
  target: Expr;
}
export interface ReplaceExpr extends Span {
  kind: 'ReplaceExpr';
  valueOf: boolean;
  target: Expr;
  with: Expr;
}
export interface RenameExpr extends Span {
  kind: 'RenameExpr';
  target: Expr;
  newName: Expr;
}
export interface CopyModifyExpr extends Span {
  kind: 'CopyModifyExpr';
  bindings: LetBinding[];
  modify: Expr;
  return: Expr;
}
export interface TransformWithExpr extends Span {
  kind: 'TransformWithExpr';
  expr: Expr;
  modify: Expr | null;
}
/** `invoke updating $f(args)`. */
export interface UpdatingFunctionCall extends Span {
  kind: 'UpdatingFunctionCall';
  function: Expr;
  args: Expr[];
}
