/** AST: Sequence types, item types and kind tests. (see ast.ts) */
import type {
  Annotation,
  EQName,
  Span,
} from './ast';

// ---------------------------------------------------------------- types

export type Occurrence = '' | '?' | '*' | '+';
export interface SequenceType extends Span {
  kind: 'SequenceType';
  /** null for `empty-sequence()`. */
  item: ItemType | null;
  occurrence: Occurrence;
}
export interface SingleType extends Span {
  kind: 'SingleType';
  name: EQName;
  optional: boolean;
}
export type ItemType =
  | KindTest
  | AnyItemType
  | AtomicOrUnionType
  | AnyFunctionTest
  | TypedFunctionTest
  | AnyMapTest
  | TypedMapTest
  | AnyArrayTest
  | TypedArrayTest
  | ParenthesizedItemType;
export interface AnyItemType extends Span {
  kind: 'AnyItemType';
}
export interface AtomicOrUnionType extends Span {
  kind: 'AtomicOrUnionType';
  name: EQName;
}
export interface AnyFunctionTest extends Span {
  kind: 'AnyFunctionTest';
  annotations: Annotation[];
}
export interface TypedFunctionTest extends Span {
  kind: 'TypedFunctionTest';
  annotations: Annotation[];
  params: SequenceType[];
  returnType: SequenceType;
}
export interface AnyMapTest extends Span {
  kind: 'AnyMapTest';
}
export interface TypedMapTest extends Span {
  kind: 'TypedMapTest';
  key: AtomicOrUnionType;
  value: SequenceType;
}
export interface AnyArrayTest extends Span {
  kind: 'AnyArrayTest';
}
export interface TypedArrayTest extends Span {
  kind: 'TypedArrayTest';
  member: SequenceType;
}
export interface ParenthesizedItemType extends Span {
  kind: 'ParenthesizedItemType';
  item: ItemType;
}

export type KindTest =
  | AnyKindTest
  | DocumentTest
  | TextTest
  | CommentTest
  | NamespaceNodeTest
  | PITest
  | AttributeTest
  | ElementTest
  | SchemaAttributeTest
  | SchemaElementTest;
export interface AnyKindTest extends Span {
  kind: 'AnyKindTest';
}
export interface DocumentTest extends Span {
  kind: 'DocumentTest';
  test: ElementTest | SchemaElementTest | null;
}
export interface TextTest extends Span {
  kind: 'TextTest';
}
export interface CommentTest extends Span {
  kind: 'CommentTest';
}
export interface NamespaceNodeTest extends Span {
  kind: 'NamespaceNodeTest';
}
export interface PITest extends Span {
  kind: 'PITest';
  target: string | null;
}
export interface AttributeTest extends Span {
  kind: 'AttributeTest';
  /** null: no name given; '*': wildcard. */
  name: EQName | '*' | null;
  type: EQName | null;
}
export interface ElementTest extends Span {
  kind: 'ElementTest';
  name: EQName | '*' | null;
  type: EQName | null;
  nillable: boolean;
}
export interface SchemaAttributeTest extends Span {
  kind: 'SchemaAttributeTest';
  name: EQName;
}
export interface SchemaElementTest extends Span {
  kind: 'SchemaElementTest';
  name: EQName;
}
