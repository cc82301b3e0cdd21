/**
 * Pure queries: those whose result is a function of their text, the values bound to their
 * external variables and the static context the server gives every query alike — they read no
 * document, file or clock, draw no random number, and write nothing (no trace output, no
 * updates). The engine keeps the result of such a query (engine.ts, result-memo.ts), as BaseX's
 * compiler pre-evaluates a constant expression once instead of at every use.
 *
 * The test is an allow-list over the syntax tree: every function called or referenced is
 * declared in the prolog or comes from fn:, math:, map:, array: or xs: and is not one of the
 * functions below; every node is of a kind listed below (no module or schema import, context
 * item declaration, pragma, extension or validate expression). Updating queries are excluded by their analysis
 * (analysis/updating.ts); a failing query is never kept, so its error is raised at every run.
 * Anything else — every extension module included, even those without effects — is impure, so a
 * new function is never taken as pure by omission.
 */
import { NS } from '../../constants';
import { eachChild, type MainModule, type Node } from '../syntax';
import { OPEN_ENDED_FUNCTIONS, RESOURCE_FUNCTIONS } from './databases';
import { functionNames } from './function-names';

/** Namespaces whose functions compute from their arguments alone (fn: with the exceptions below). */
const PURE_NAMESPACES = new Set<string>([NS.fn, NS.math, NS.map, NS.array, NS.xs]);

/**
 * fn: functions whose result depends on more than their arguments (F&O 3.1 §1.7.4: the
 * nondeterministic ones and those depending on the dynamic context's clock, time zone,
 * environment or available resources) or that have an effect (trace writes a line), and those
 * that reach functions, documents or parsers chosen at run time.
 */
const IMPURE_FN = new Set<string>([
  ...RESOURCE_FUNCTIONS,
  ...OPEN_ENDED_FUNCTIONS,
  'current-dateTime', 'current-date', 'current-time', 'implicit-timezone', 'random-number-generator',
  'environment-variable', 'available-environment-variables', 'trace',
  // writes a resource (XQuery Update 3.0 §5.1); its query is updating, and never kept, already
  'put',
  // a DTD in the parsed text may name external entities, read with the caller's file access
  'parse-xml', 'parse-xml-fragment',
]);

/**
 * The syntax a pure query may use: every kind of node of the XQuery 3.1 and Update 3.0 grammar
 * but module and schema imports, context item declarations, pragmas, extension and validate
 * expressions (they hand evaluation to something outside the query's own expressions). Any kind
 * not listed — syntax added later included — makes a query impure.
 */
const PURE_KINDS = new Set<string>([
  'MainModule', 'VersionDecl', 'Prolog', 'DefaultNamespaceDecl', 'NamespaceDecl', 'BoundarySpaceDecl', 'DefaultCollationDecl',
  'BaseURIDecl', 'ConstructionDecl', 'OrderingModeDecl', 'EmptyOrderDecl', 'CopyNamespacesDecl', 'DecimalFormatDecl',
  'RevalidationDecl', 'Annotation', 'VarDecl', 'Param', 'FunctionDecl', 'OptionDecl',
  // types
  'SequenceType', 'SingleType', 'AnyItemType', 'AtomicOrUnionType', 'ParenthesizedItemType', 'AnyKindTest', 'DocumentTest',
  'ElementTest', 'AttributeTest', 'SchemaElementTest', 'SchemaAttributeTest', 'PITest', 'CommentTest', 'TextTest',
  'NamespaceNodeTest', 'AnyFunctionTest', 'TypedFunctionTest', 'AnyMapTest', 'TypedMapTest', 'AnyArrayTest', 'TypedArrayTest',
  // primaries and paths
  'PathExpr', 'AxisStep', 'NameTest', 'Wildcard', 'FilterExpr', 'ArgumentPlaceholder', 'DynamicFunctionCall', 'Lookup',
  'UnaryLookup', 'IntegerLiteral', 'DecimalLiteral', 'DoubleLiteral', 'StringLiteral', 'VarRef', 'ParenthesizedExpr',
  'ContextItemExpr', 'FunctionCall', 'NamedFunctionRef', 'InlineFunctionExpr', 'MapConstructor', 'MapConstructorEntry',
  'SquareArrayConstructor', 'CurlyArrayConstructor', 'OrderedExpr', 'UnorderedExpr', 'StringConstructor',
  'StringConstructorChars', 'StringConstructorInterpolation',
  // constructors
  'DirElemConstructor', 'DirAttribute', 'AttributeValueChars', 'DirNamespaceDecl', 'DirText', 'CDataSection',
  'DirCommentConstructor', 'DirPIConstructor', 'CompDocConstructor', 'CompElemConstructor', 'CompAttrConstructor',
  'CompNamespaceConstructor', 'CompTextConstructor', 'CompCommentConstructor', 'CompPIConstructor',
  // updates of copies (an updating query is excluded by its analysis)
  'InsertExpr', 'DeleteExpr', 'ReplaceExpr', 'RenameExpr', 'CopyModifyExpr', 'TransformWithExpr',
  // expressions
  'SequenceExpr', 'EnclosedExpr', 'FLWORExpr', 'ForClause', 'ForBinding', 'LetClause', 'LetBinding', 'WindowClause',
  'WindowCondition', 'WhereClause', 'GroupByClause', 'GroupingSpec', 'OrderByClause', 'OrderSpec', 'CountClause',
  'QuantifiedExpr', 'QuantifiedBinding', 'SwitchExpr', 'SwitchCaseClause', 'TypeswitchExpr', 'TypeswitchCaseClause',
  'IfExpr', 'TryCatchExpr', 'CatchClause', 'OrExpr', 'AndExpr', 'ComparisonExpr', 'StringConcatExpr', 'RangeExpr',
  'AdditiveExpr', 'MultiplicativeExpr', 'UnionExpr', 'IntersectExceptExpr', 'InstanceofExpr', 'TreatExpr',
  'CastableExpr', 'CastExpr', 'ArrowExpr', 'UnaryExpr', 'SimpleMapExpr',
]);

class Impure extends Error {}

/** Whether `module` is pure (see above); `updating` comes from its update analysis. */
export function isPure(module: MainModule): boolean {
  const { useOf } = functionNames(module);
  const check = (uri: string, local: string): void => {
    if (!PURE_NAMESPACES.has(uri) || (uri === NS.fn && IMPURE_FN.has(local))) throw new Impure();
  };
  const visit = (n: Node): void => {
    if (!PURE_KINDS.has(n.kind)) throw new Impure();
    const use = useOf(n);
    if (use && !use.declared) check(use.uri, use.local);
    eachChild(n, visit);
  };
  try {
    visit(module);
    return true;
  } catch (e) {
    if (e instanceof Impure) return false;
    throw e;
  }
}
