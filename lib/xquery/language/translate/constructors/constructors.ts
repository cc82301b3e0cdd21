/**
 * Node constructors: direct (`<a b="{1}">{2}</a>`, comments, PIs) and computed (`element`,
 * `attribute`, `text`, `document`, `comment`, `processing-instruction`, `namespace`, in
 * computed.ts).
 *
 * The outermost constructor of an expression is lifted (lift.ts) into a generated function
 * whose body builds the node with XSLT instructions: `xsl:element` (never literal result
 * elements, which would copy the stylesheet's namespaces), `xsl:attribute`, `xsl:namespace`,
 * `xsl:text`, `xsl:comment`, `xsl:processing-instruction`, `xsl:document`. Nested direct
 * constructors, computed constructors written directly in an enclosed expression, and simple
 * FLWORs returning one (flwor.ts) become nested instructions of the same body.
 *
 * Names are resolved statically with the namespace declaration attributes of the constructor
 * in scope (they are pushed into the scope for the attributes and the content); each element
 * gets `xsl:namespace` for its declarations, so its in-scope namespaces are XQuery's (saxon
 * adds the bindings the element and attribute names need; children inherit).
 *
 * Content (XQuery 3.1 §3.9.1.3): literal text (boundary whitespace stripped unless
 * `declare boundary-space preserve`; CDATA and references never are) becomes `xsl:text`; each
 * enclosed expression goes through the runtime `content` helper (runtime.ts), so
 * atomic values of one enclosed expression are joined by spaces but different enclosed
 * expressions and literal text are not. When content may hold attributes, it is built into a
 * variable and checked (XQTY0024, XQDY0025) before it is added.
 */
import type { DirAttribute, DirElemConstructor, DirElemContent, EnclosedExpr, Expr } from '../../syntax';
import { yieldsAtomics } from '../atomic-values';
import { attributeValueOf, computedInstruction } from './computed';
import { inlineFlwor, isInlineFlwor } from './flwor';
import { constructorError, useHelper } from './runtime';
import { contentRuns } from '../element-content';
import { translateExpr } from '../expressions';
import { needsFocus } from '../focus';
import { attributeValue, isPlainElement, plainComputedCall, plainElementCall } from './xpath';
import { isLibraryNodeConstructor, libraryNodeCall } from './library-nodes';
import { isNamespacedLibraryElement, namespacedComputedCall, namespacedElementCall } from './namespaced-elements';
import { liftFunction, liftScope } from '../lift';
import { NS, eqname, xmlAttr, xmlText, xpathString, type QName } from '../names';
import type { Scope } from '../scope';
import type { TranslationUnit } from '../unit';
import { avt, braced, lexicalQName } from '../emit';

export type ConstructorExpr = Extract<
  Expr,
  {
    kind:
      | 'DirElemConstructor'
      | 'DirCommentConstructor'
      | 'DirPIConstructor'
      | 'CompDocConstructor'
      | 'CompElemConstructor'
      | 'CompAttrConstructor'
      | 'CompNamespaceConstructor'
      | 'CompTextConstructor'
      | 'CompCommentConstructor'
      | 'CompPIConstructor';
  }
>;

const CONSTRUCTOR_KINDS = new Set<string>([
  'DirElemConstructor', 'DirCommentConstructor', 'DirPIConstructor', 'CompDocConstructor', 'CompElemConstructor',
  'CompAttrConstructor', 'CompNamespaceConstructor', 'CompTextConstructor', 'CompCommentConstructor', 'CompPIConstructor',
]);

export function isConstructor(e: Expr): e is ConstructorExpr {
  return CONSTRUCTOR_KINDS.has(e.kind);
}

/** Translates a constructor to an XPath expression (a call of a lifted function). */
export function translateConstructor(expr: ConstructorExpr, scope: Scope, unit: TranslationUnit): string {
  if (scope.ctx.plainConstructors && expr.kind === 'DirElemConstructor') {
    if (isPlainElement(expr, scope)) return plainElementCall(expr, scope, unit);
    if (isNamespacedLibraryElement(expr, scope)) return namespacedElementCall(expr, scope, unit);
  }
  if (isLibraryNodeConstructor(expr)) {
    const call = libraryNodeCall(expr, scope, unit);
    if (call !== undefined) return call;
  }
  if (scope.ctx.plainConstructors && (expr.kind === 'CompElemConstructor' || expr.kind === 'CompAttrConstructor' || expr.kind === 'CompTextConstructor')) {
    const call = plainComputedCall(expr, scope, unit) ?? (expr.kind === 'CompTextConstructor' ? undefined : namespacedComputedCall(expr, scope, unit));
    if (call !== undefined) return call;
  }
  const focus = needsFocus(expr);
  const inner = liftScope(scope, focus);
  const body = constructorInstruction(expr, inner, unit);
  return liftFunction(unit, scope, body, focus, expr);
}

/** XSLT instructions that construct the node of `expr`, evaluated in `scope`. */
export function constructorInstruction(expr: ConstructorExpr, scope: Scope, unit: TranslationUnit): string {
  const mark = unit.marker(expr);
  switch (expr.kind) {
    case 'DirElemConstructor':
      return directElement(expr, scope, unit);
    case 'DirCommentConstructor':
      return `${mark}<xsl:comment select="${xmlAttr(xpathString(expr.value))}"/>`;
    case 'DirPIConstructor':
      return `${mark}<xsl:processing-instruction name="${avt(expr.target)}" select="${xmlAttr(xpathString(expr.value))}"/>`;
    default:
      return mark + computedInstruction(expr, scope, unit);
  }
}

/** `prefix:local` or `local`, as written. */
function lexicalName(name: QName): string {
  return lexicalQName(name.prefix, name.local);
}

/** A fresh XSLT variable name for the body of a constructor. */
export function tempVar(scope: Scope, what: string): { param: string; ref: string } {
  const param = `${braced(NS.vars)}ctor.${what}.${scope.ctx.nextId()}`;
  return { param, ref: `$${param}` };
}

/**
 * `xsl:namespace` for every namespace declared by this and the enclosing direct constructors
 * (`keep` filters them): XQuery 3.1 §3.9.4 gives a constructed element, direct or computed, the
 * bindings of the namespace declaration attributes of the direct element constructors around it,
 * also when it is built by an enclosed expression (a lifted function, where XSLT's inheritance
 * from the parent does not reach).
 */
export function inheritedNamespaces(scope: Scope, keep: (prefix: string | null) => boolean): string[] {
  return scope
    .constructorNamespaces()
    .filter((d) => d.uri !== '' && keep(d.prefix))
    .map((d) => namespaceInstruction(d.prefix, d.uri));
}

/** `xsl:namespace` binding `prefix` (null: the default namespace) to `uri`. */
export function namespaceInstruction(prefix: string | null, uri: string): string {
  return `<xsl:namespace name="${avt(prefix ?? '')}" select="${xmlAttr(xpathString(uri))}"/>`;
}

/** `xsl:element` attributes that follow `copy-namespaces` (inherit). */
export function inheritAttr(scope: Scope): string {
  return scope.ctx.copyNamespaces.inherit ? '' : ' inherit-namespaces="no"';
}

// Direct element constructors --------------------------------------------------------------

/** A direct element constructor checked statically, its names resolved (`directElementNames`). */
export interface DirectElementNames {
  /** The scope of its attributes and content: with its namespace declaration attributes. */
  readonly scope: Scope;
  readonly name: QName;
  readonly attributes: readonly { readonly attr: DirAttribute; readonly name: QName }[];
  /** The attributes' expanded names (`eqname`), in order. */
  readonly names: readonly string[];
}

/**
 * The static checks of direct element constructor `e` (XQST0071, XQST0070, XQST0085, XQST0040,
 * and XPST0081 from its names) and its names resolved with its namespace declaration attributes
 * in scope. Every translation of a direct constructor starts here, so each reports the same errors.
 */
export function directElementNames(e: DirElemConstructor, outer: Scope): DirectElementNames {
  const seen = new Set<string>();
  for (const d of e.namespaces) {
    const key = d.prefix ?? '';
    if (seen.has(key)) throw constructorError(outer, 'XQST0071', d.start, key);
    seen.add(key);
    const badXml = d.prefix === 'xml' ? d.uri !== NS.xml : d.uri === NS.xml;
    if (d.prefix === 'xmlns' || badXml || d.uri === NS.xmlns) throw constructorError(outer, 'XQST0070', d.start, d.prefix ?? d.uri);
    if (d.prefix !== null && d.uri === '') throw constructorError(outer, 'XQST0085', d.start, d.prefix);
  }
  const decls = e.namespaces.filter((d) => d.prefix !== 'xml');
  const scope = outer.withNamespaces(decls);
  rememberPrefixes(scope, decls);
  const name = scope.elementName(e.name, e.start);
  const attributes = e.attributes.map((a) => ({ attr: a, name: scope.attributeName(a.name, a.start) }));
  const names = new Set<string>();
  for (const a of attributes) {
    const key = eqname(a.name);
    if (names.has(key)) throw constructorError(outer, 'XQST0040', a.attr.start, lexicalName(a.name));
    names.add(key);
  }
  return { scope, name, attributes, names: [...names] };
}

function directElement(e: DirElemConstructor, outer: Scope, unit: TranslationUnit): string {
  const { scope, name, attributes, names } = directElementNames(e, outer);
  const lines: string[] = [];
  lines.push(`${unit.marker(e)}<xsl:element name="${avt(lexicalName(name))}" namespace="${avt(name.uri)}"${inheritAttr(scope)}>`);
  lines.push(...inheritedNamespaces(scope, () => true));
  for (const a of attributes) lines.push(directAttribute(a.attr, a.name, scope, unit));
  const pieces = contentPieces(e.content, scope, unit);
  lines.push(...emitContent(pieces, names, scope, unit));
  lines.push('</xsl:element>');
  return lines.join('\n');
}

function directAttribute(a: DirAttribute, name: QName, scope: Scope, unit: TranslationUnit): string {
  const value = directAttributeValue(a, name, scope, unit);
  return `${unit.marker(a)}<xsl:attribute name="${avt(lexicalName(name))}" namespace="${avt(name.uri)}" select="${xmlAttr(value)}"/>`;
}

/** XPath for the value of direct attribute `a` named `name`: its string value, normalized for xml:id (XQuery 3.1 §3.9.1.1). */
export function directAttributeValue(a: DirAttribute, name: QName, scope: Scope, unit: TranslationUnit): string {
  return attributeValueOf(name, attributeValue(a, scope, unit));
}

/** Prefixes declared by direct constructors, per translation (for computed names: see prefixMap). */
const directPrefixes = new WeakMap<object, Set<string>>();

function rememberPrefixes(scope: Scope, decls: readonly { prefix: string | null }[]): void {
  let set = directPrefixes.get(scope.ctx);
  if (!set) directPrefixes.set(scope.ctx, (set = new Set()));
  for (const d of decls) if (d.prefix !== null) set.add(d.prefix);
}

/**
 * The statically known namespaces at `scope` as an XPath map (prefix → URI), for computed
 * names given as strings. The scope chain cannot be listed, so the candidates are the prolog's
 * prefixes and every prefix a direct constructor declared, each looked up here.
 */
export function prefixMap(scope: Scope): string {
  const candidates = new Set<string>([...scope.ctx.namespaces.keys(), ...(directPrefixes.get(scope.ctx) ?? [])]);
  const entries: string[] = [];
  for (const p of candidates) {
    const uri = scope.namespaceOf(p);
    if (uri) entries.push(`${xpathString(p)}: ${xpathString(uri)}`);
  }
  return `map{${entries.join(', ')}}`;
}

// Content ------------------------------------------------------------------------------------

/**
 * One piece of element content: `xslt` instructions; `attrs`: it may produce attribute or
 * namespace nodes (content that must be checked); `node`: it certainly produces a non-empty
 * non-attribute node.
 */
export interface Piece {
  readonly xslt: string;
  /** For an enclosed expression: the XPath of its content items (no variable needed alone). */
  readonly content?: string;
  readonly attrs: boolean;
  readonly node: boolean;
  /**
   * For an enclosed expression of atomic values only (atomic-values.ts): its text as one
   * instruction, without the run-time dispatch of `content`. Used when no piece of the content
   * may produce attributes (`emitContent`); otherwise the piece takes part in the check as `xslt`.
   */
  readonly atomicXslt?: string;
}

function contentPieces(content: readonly DirElemContent[], scope: Scope, unit: TranslationUnit): Piece[] {
  return contentRuns(content, scope).flatMap((run): Piece[] => {
    if ('text' in run) return [{ xslt: `<xsl:text>${xmlText(run.text)}</xsl:text>`, attrs: false, node: true }];
    const c = run.item;
    // an empty enclosed expression `{}` contributes nothing, but still separates text runs
    if (c.kind === 'EnclosedExpr') return c.expr ? [enclosedPiece(c, scope, unit)] : [];
    return [{ xslt: constructorInstruction(c, scope, unit), attrs: false, node: true }];
  });
}

/** An enclosed expression as content; a constructor written directly in it is built in place. */
export function enclosedPiece(c: EnclosedExpr, scope: Scope, unit: TranslationUnit): Piece {
  const e = c.expr!;
  if (isNodeConstructor(e)) return { xslt: constructorInstruction(e as ConstructorExpr, scope, unit), attrs: false, node: true };
  if (isInlineFlwor(e, isNodeConstructor)) {
    return { xslt: inlineFlwor(e, scope, unit, (r, s) => constructorInstruction(r as ConstructorExpr, s, unit)), attrs: false, node: false };
  }
  if (isConstructor(e) && (e.kind === 'CompAttrConstructor' || e.kind === 'CompNamespaceConstructor')) {
    return { xslt: constructorInstruction(e, scope, unit), attrs: true, node: false };
  }
  const value = translateExpr(e, scope, unit);
  const content = `${useHelper(unit, 'content')}(${value})`;
  // atomic values of one enclosed expression make one text node, joined by spaces (§3.9.1.3 1.e)
  const atomic = yieldsAtomics(e, scope) ? { atomicXslt: `${unit.marker(c)}<xsl:value-of select="${xmlAttr(value)}" separator=" "/>` } : {};
  return { xslt: `${unit.marker(c)}${copyContent(content, scope)}`, content, attrs: true, node: false, ...atomic };
}

/** Constructors that always build exactly one element, comment or PI node (built in place). */
const NODE_CONSTRUCTORS = new Set(['DirElemConstructor', 'DirCommentConstructor', 'DirPIConstructor', 'CompElemConstructor', 'CompCommentConstructor']);

function isNodeConstructor(e: Expr): boolean {
  return NODE_CONSTRUCTORS.has(e.kind);
}

/** Adds nodes/items of `xpath` to the content, honouring `copy-namespaces no-preserve`. */
export function copyContent(xpath: string, scope: Scope): string {
  return scope.ctx.copyNamespaces.preserve
    ? `<xsl:sequence select="${xmlAttr(xpath)}"/>`
    : `<xsl:copy-of select="${xmlAttr(xpath)}" copy-namespaces="no"/>`;
}

/**
 * The instructions for element content `pieces`; `names`: the start tag's attribute names.
 * Pieces that may produce attributes are built into a variable and checked.
 */
export function emitContent(pieces: readonly Piece[], names: readonly string[], scope: Scope, unit: TranslationUnit): string[] {
  // no piece can produce attributes (atomic pieces cannot): nothing to check, atomic pieces become text directly
  if (pieces.every((p) => !p.attrs || p.atomicXslt !== undefined)) return pieces.map((p) => p.atomicXslt ?? p.xslt);
  // some piece may produce attributes (the test above returned otherwise)
  const first = pieces.findIndex((p) => p.attrs);
  let last = pieces.length - 1;
  while (!pieces[last].attrs) last--;
  const pre = pieces.slice(0, first);
  const mid = pieces.slice(first, last + 1);
  const post = pieces.slice(last + 1);
  const after = pre.some((p) => p.node) ? 'true()' : 'false()';
  const nameList = `(${names.map(xpathString).join(', ')})`;
  const check = useHelper(unit, 'element-content');
  const out = pre.map((p) => p.xslt);
  if (mid.length === 1 && mid[0].content) {
    out.push(copyContent(`${check}(${mid[0].content}, ${after}, ${nameList})`, scope), ...post.map((p) => p.xslt));
    return out;
  }
  const v = tempVar(scope, 'content');
  out.push(`<xsl:variable name="${v.param}" as="item()*">`, ...mid.map((p) => p.xslt), '</xsl:variable>');
  out.push(`<xsl:sequence select="${xmlAttr(`${check}(${v.ref}, ${after}, ${nameList})`)}"/>`);
  out.push(...post.map((p) => p.xslt));
  return out;
}


