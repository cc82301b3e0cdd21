/**
 * The XQuery 3.1 (+ Update Facility 3.0) abstract syntax tree.
 *
 * Node kinds are named after the grammar productions of the XQuery 3.1 REC (appendix A) or,
 * where the grammar has no single production, after XQueryX. Every node carries `start`/`end`
 * offsets into the query text (UTF-16 code units, `end` exclusive). Names are kept exactly as
 * written (prefix + local part, or `Q{uri}local`); namespace resolution is a later pass.
 */

import type { CatchClause, EnclosedExpr, Expr, FLWORClause, ForBinding, GroupingSpec, LetBinding, OrderSpec, Pragma, QuantifiedBinding, SwitchCaseClause, TypeswitchCaseClause, WindowCondition } from './ast-expressions';
import type { ArgumentPlaceholder, AttributeValueChars, CDataSection, DirAttribute, DirNamespaceDecl, DirText, MapConstructorEntry, NodeTest, StringConstructorChars, StringConstructorInterpolation } from './ast-primary';
import type { Annotation, Module, ModuleDecl, Param, Prolog, PrologDecl, VersionDecl } from './ast-prolog';
import type { ItemType, SequenceType, SingleType } from './ast-types';
import type { FTSelection } from './ast-fulltext';

export interface Span {
  start: number;
  end: number;
}

/** A name as written: `local`, `prefix:local` or `Q{uri}local` (uri may be ""). */
export interface EQName {
  prefix?: string;
  uri?: string;
  local: string;
}

export type * from './ast-prolog';
export type * from './ast-expressions';
export type * from './ast-primary';
export type * from './ast-types';
export type * from './ast-fulltext';

/** Every node kind, for exhaustive switches in later passes. */
export type Node =
  | Module
  | VersionDecl
  | ModuleDecl
  | Prolog
  | PrologDecl
  | Annotation
  | Param
  | Expr
  | EnclosedExpr
  | FLWORClause
  | ForBinding
  | LetBinding
  | WindowCondition
  | GroupingSpec
  | OrderSpec
  | QuantifiedBinding
  | SwitchCaseClause
  | TypeswitchCaseClause
  | CatchClause
  | Pragma
  | NodeTest
  | ArgumentPlaceholder
  | MapConstructorEntry
  | StringConstructorChars
  | StringConstructorInterpolation
  | DirAttribute
  | AttributeValueChars
  | DirNamespaceDecl
  | DirText
  | CDataSection
  | SequenceType
  | SingleType
  | ItemType
  | FTSelection;
