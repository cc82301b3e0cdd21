/** AST: Modules, the prolog and its declarations. (see ast.ts) */
import type {
  EQName,
  EnclosedExpr,
  Expr,
  ItemType,
  Literal,
  SequenceType,
  Span,
} from './ast';
import type { FTMatchOption } from './ast-fulltext';

// ---------------------------------------------------------------- modules and prolog

export interface MainModule extends Span {
  kind: 'MainModule';
  versionDecl: VersionDecl | null;
  prolog: Prolog;
  body: Expr;
}

export interface LibraryModule extends Span {
  kind: 'LibraryModule';
  versionDecl: VersionDecl | null;
  moduleDecl: ModuleDecl;
  prolog: Prolog;
}

export type Module = MainModule | LibraryModule;

export interface VersionDecl extends Span {
  kind: 'VersionDecl';
  version: string | null;
  encoding: string | null;
}

export interface ModuleDecl extends Span {
  kind: 'ModuleDecl';
  prefix: string;
  uri: string;
}

export interface Prolog extends Span {
  kind: 'Prolog';
  decls: PrologDecl[];
}

export type PrologDecl =
  | DefaultNamespaceDecl
  | NamespaceDecl
  | BoundarySpaceDecl
  | DefaultCollationDecl
  | BaseURIDecl
  | ConstructionDecl
  | OrderingModeDecl
  | EmptyOrderDecl
  | CopyNamespacesDecl
  | DecimalFormatDecl
  | RevalidationDecl
  | SchemaImport
  | ModuleImport
  | ContextItemDecl
  | VarDecl
  | FunctionDecl
  | OptionDecl
  | FTOptionDecl;

/** `declare ft-option using …` (XQuery Full Text 1.0 §2.4): the match options every `contains text` starts from. */
export interface FTOptionDecl extends Span {
  kind: 'FTOptionDecl';
  options: FTMatchOption[];
}

export interface DefaultNamespaceDecl extends Span {
  kind: 'DefaultNamespaceDecl';
  target: 'element' | 'function';
  uri: string;
}
export interface NamespaceDecl extends Span {
  kind: 'NamespaceDecl';
  prefix: string;
  uri: string;
}
export interface BoundarySpaceDecl extends Span {
  kind: 'BoundarySpaceDecl';
  mode: 'preserve' | 'strip';
}
export interface DefaultCollationDecl extends Span {
  kind: 'DefaultCollationDecl';
  uri: string;
}
export interface BaseURIDecl extends Span {
  kind: 'BaseURIDecl';
  uri: string;
}
export interface ConstructionDecl extends Span {
  kind: 'ConstructionDecl';
  mode: 'preserve' | 'strip';
}
export interface OrderingModeDecl extends Span {
  kind: 'OrderingModeDecl';
  mode: 'ordered' | 'unordered';
}
export interface EmptyOrderDecl extends Span {
  kind: 'EmptyOrderDecl';
  order: 'greatest' | 'least';
}
export interface CopyNamespacesDecl extends Span {
  kind: 'CopyNamespacesDecl';
  preserve: boolean;
  inherit: boolean;
}
export interface DecimalFormatDecl extends Span {
  kind: 'DecimalFormatDecl';
  /** null for `declare default decimal-format`. */
  name: EQName | null;
  properties: { name: string; value: string }[];
}
/** Update Facility: `declare revalidation strict|lax|skip`. */
export interface RevalidationDecl extends Span {
  kind: 'RevalidationDecl';
  mode: 'strict' | 'lax' | 'skip';
}
export interface SchemaImport extends Span {
  kind: 'SchemaImport';
  prefix: string | null;
  defaultElementNamespace: boolean;
  uri: string;
  locations: string[];
}
export interface ModuleImport extends Span {
  kind: 'ModuleImport';
  prefix: string | null;
  uri: string;
  locations: string[];
}
export interface ContextItemDecl extends Span {
  kind: 'ContextItemDecl';
  type: ItemType | null;
  external: boolean;
  /** The value (`:= …`), or the default value of an external declaration. */
  value: Expr | null;
}
export interface Annotation extends Span {
  kind: 'Annotation';
  /** `updating` written without `%` (Update Facility compatibility annotation) has name `updating`. */
  name: EQName;
  values: Literal[];
}
export interface VarDecl extends Span {
  kind: 'VarDecl';
  annotations: Annotation[];
  name: EQName;
  type: SequenceType | null;
  external: boolean;
  /** The value (`:= …`), or the default value of an external declaration. */
  value: Expr | null;
}
export interface Param extends Span {
  kind: 'Param';
  name: EQName;
  type: SequenceType | null;
}
export interface FunctionDecl extends Span {
  kind: 'FunctionDecl';
  annotations: Annotation[];
  name: EQName;
  params: Param[];
  returnType: SequenceType | null;
  /** null when the function is `external`. */
  body: EnclosedExpr | null;
}
export interface OptionDecl extends Span {
  kind: 'OptionDecl';
  name: EQName;
  value: string;
}
