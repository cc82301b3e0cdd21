/**
 * The runtime library: one fixed stylesheet holding every declaration whose text does not depend
 * on the query (the constructor functions of plain elements, of elements with namespaces, of
 * comments, processing instructions and documents, the order by sorts, the grouping of group by,
 * the hash join groups, the window scanners, try/catch, format-number),
 * whose initial template runs a query given as one XPath expression with `xsl:evaluate`
 * (XSLT 3.0 §10.4). The expression may call the library's functions: the functions of the
 * containing stylesheet are in the static context of `xsl:evaluate` (§10.4.1).
 *
 * A query whose translation needs nothing but such declarations (`Translation.xpath.library`)
 * then runs without a stylesheet of its own: the library is compiled once per process (the pool
 * shares it between workers like any stylesheet) and each run parses only the expression, which
 * for a query never seen before costs a small fraction of compiling its stylesheet.
 *
 * The expression sees the context parameters a query's stylesheet would declare (CONTEXT_PARAM,
 * CONTEXT_URI_PARAM); its literal parameters (literals.ts) are bound in the expression itself,
 * its external variables to the library's parameters that carry them (`libraryExpression`). Its static base URI is the library's, DEFAULT_BASE_URI: queries with
 * another one run their own stylesheet.
 */
import { CONTEXT_PARAM } from '../../constants';
import { PLAIN_CONSTRUCTOR_FUNCTIONS } from './constructors/xpath';
import { NAMESPACED_CONSTRUCTOR_FUNCTIONS } from './constructors/namespaced-elements';
import { WINDOW_FUNCTIONS } from './flwor/window';
import { TRY_FUNCTION, tryFunctionText } from './conditional';
import { FORMAT_NUMBER_FUNCTION, formatNumberText } from './format-number';
import { NODE_CONSTRUCTOR_FUNCTIONS } from './constructors/library-nodes';
import { HELPERS, helper } from './constructors/runtime';
import { GROUP_TUPLES_XSLT, groupTuplesText } from './flwor/group';
import { sortFunctionName, sortFunctionText } from './flwor/order';
import { ORDER_ENTRY, orderEntryText, orderFunctionName, orderFunctionText } from './flwor/sort';
import { literalText, type LiteralParam } from './literals';
import { externalBound, type ExternalVariable } from './prolog';
import { CONTEXT_URI_PARAM, NS, xmlAttr, xpathString } from './names';
import { braced } from './emit';

/** Stylesheet parameter (xs:string) carrying the expression to run. */
export const EXPRESSION_PARAM = `${braced(NS.engine)}expression`;

/** Most order specs of one order by clause with a library sort. */
const MAX_LIBRARY_SORT_KEYS = 3;

/**
 * The library's declarations by name (the name given to `TranslationUnit.addLibraryDeclaration`):
 * what constructors, order by, group by, hash joins, window clauses, try/catch and format-number need. Every declaration adds to the one compilation of
 * the library, so the other constructor helpers (computed constructors need generated functions
 * anyway) stay out.
 */
const DECLARATIONS: ReadonlyMap<string, string> = new Map([
  ...Object.entries(PLAIN_CONSTRUCTOR_FUNCTIONS),
  ...Object.entries(NAMESPACED_CONSTRUCTOR_FUNCTIONS),
  ...Object.entries(WINDOW_FUNCTIONS),
  ...Object.entries(NODE_CONSTRUCTOR_FUNCTIONS),
  // computed names of elements, attributes and processing-instruction targets, and the check of document content
  ...(['qname', 'element-name', 'attribute-name', 'lexical', 'pi-target', 'document-content'] as const).map((local) => [helper(local), HELPERS[local].text] as const),
  ...Array.from({ length: MAX_LIBRARY_SORT_KEYS }, (_, i) => [sortFunctionName(i + 1), sortFunctionText(i + 1)] as const),
  ...Array.from({ length: MAX_LIBRARY_SORT_KEYS }, (_, i) => [orderFunctionName(i + 1), orderFunctionText(i + 1)] as const),
  [ORDER_ENTRY, orderEntryText()],
  [GROUP_TUPLES_XSLT, groupTuplesText()],
  [TRY_FUNCTION, tryFunctionText()],
  [FORMAT_NUMBER_FUNCTION, formatNumberText()],
]);

/** Whether a query that uses the declarations `names` runs on the library. */
export function fitsLibrary(names: ReadonlySet<string>): boolean {
  for (const n of names) if (!DECLARATIONS.has(n)) return false;
  return true;
}

/**
 * The expression to run on the library for a query's expression and literal parameters: each
 * parameter bound by a `let` to its literal, written as in the query (the expression is parsed
 * on every run, so there is no compilation to share).
 */
export function libraryExpression(expression: string, literals: readonly LiteralParam[], externals: readonly ExternalVariable[] = []): string {
  if (literals.length === 0 && externals.length === 0) return expression;
  const lets = [...externals.map((x, i) => `$${x.param} := $${libraryExternal(i)}`), ...literals.map((l) => `$${l.param} := ${literalText(l)}`)];
  return `let ${lets.join(', ')} return (${expression})`;
}

/** Most external variables of a query that runs on the library. */
export const LIBRARY_EXTERNALS = 8;

/**
 * The library's parameter that carries external variable `i` (0-based) of a query, which the
 * expression binds to the variable's own name (`libraryExpression`): the library's parameters
 * are fixed, the query's variables are not.
 */
export function libraryExternal(i: number): string {
  return `${braced(NS.engine)}external.${i + 1}`;
}

let text: string | undefined;

/** The library stylesheet (XSLT 3.0 text, the same on every call). */
export function libraryStylesheet(): string {
  if (text !== undefined) return text;
  // the external variables' values and whether each was given (prolog.ts `ExternalVariable.bound`)
  const externals = Array.from({ length: LIBRARY_EXTERNALS }, (_, i) => [libraryExternal(i), externalBound(i)]).flat();
  const variables = [CONTEXT_PARAM, CONTEXT_URI_PARAM, ...externals];
  const qname = (eqname: string): string => {
    const [, uri, local] = /^Q\{([^}]*)\}(.*)$/.exec(eqname)!;
    return `${braced(NS.fn)}QName(${xpathString(uri)}, ${xpathString(local)})`;
  };
  const withParams = `map{${variables.map((v) => `${qname(v)}: $${v}`).join(', ')}}`;
  text = [
    `<xsl:stylesheet xmlns:xsl="${NS.xsl}" xmlns:xs="${NS.xs}" version="3.0" exclude-result-prefixes="#all">`,
    `<xsl:param name="${EXPRESSION_PARAM}" as="xs:string" required="yes"/>`,
    `<xsl:param name="${CONTEXT_PARAM}" as="node()*" select="()"/>`,
    `<xsl:param name="${CONTEXT_URI_PARAM}" as="xs:string?" select="()"/>`,
    ...externals.map((name) => `<xsl:param name="${name}" as="item()*" select="()"/>`),
    // only public functions are in the static context of xsl:evaluate (XSLT 3.0 §10.4.1)
    ...[...DECLARATIONS.values()].map((d) => d.replace(/^<xsl:function /, '<xsl:function visibility="public" ')),
    '<xsl:template name="xsl:initial-template">',
    // saxon-js gives the expression no static base URI unless told: the library's own
    `<xsl:evaluate xpath="$${EXPRESSION_PARAM}" with-params="${xmlAttr(withParams)}" base-uri="{${braced(NS.fn)}static-base-uri()}"/>`,
    '</xsl:template>',
    '</xsl:stylesheet>',
  ].join('\n');
  return text;
}
