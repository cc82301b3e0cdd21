/**
 * Element constructors with namespaces as calls of two fixed functions of the runtime library
 * (library.ts), so that a query which constructs elements with prefixes, namespace declarations
 * or a default element namespace needs no stylesheet of its own:
 *
 *   <p:r xmlns:p="urn:p" p:n="{$i}">a<s/></p:r>
 *     →  lib.ns-element("p:r", "urn:p", ("p", "urn:p"),
 *                       lib.ns-attribute("p:n", "urn:p", …), (lib.text("a"), lib.ns-element("s", "", ("p", "urn:p"), (), ())))
 *
 * The element gets the same nodes as constructors.ts's `xsl:element` would make: its name with
 * the prefix as written and the namespace it resolves to, a namespace node for each namespace
 * declaration attribute of it and of the direct constructors around it (XQuery 3.1 §3.9.4,
 * `inheritedNamespaces` there: innermost first, undeclarations left out), and the names of its
 * attributes with their prefixes (saxon-js adds the bindings they need, as for `xsl:element`).
 * The static checks and the resolution of names are constructors.ts's `directElementNames`, so
 * both report the same errors. The content is built as plain constructors build it
 * (xpath.ts `libraryContent`), nested direct elements by their own call and copied into the
 * parent: each carries its in-scope namespaces itself, so the copy keeps them.
 *
 * Computed `element` and `attribute` constructors (`namespacedComputedCall`) use the same two
 * functions where xpath.ts's plain ones do not apply: a static name in a namespace, declarations
 * of the direct constructors around, or a computed name (resolved at run time by computed.ts's
 * helpers, which the library holds). A static name the constructor may not make (XQDY0096,
 * XQDY0044) stays with computed.ts, which raises the error when it is evaluated.
 *
 * Only with `copy-namespaces preserve, inherit` (the default), and content of text, CDATA,
 * enclosed expressions, direct comments, processing instructions and direct elements;
 * elements in no namespace and without declarations around them are plain (xpath.ts), which
 * has faster forms for them.
 */
import type { CompAttrConstructor, CompElemConstructor, DirElemConstructor } from '../../syntax';
import { directElementNames, directAttributeValue, prefixMap, tempVar } from './constructors';
import { attributeValueOf, computedAttributeValue, staticName } from './computed';
import { useHelper } from './runtime';
import { computedAttributeText, computedContent, libraryContent, libraryContentKinds } from './xpath';
import { translateExpr } from '../expressions';
import { NS, xpathString, type QName } from '../names';
import type { Scope } from '../scope';
import type { TranslationUnit } from '../unit';
import { braced, lexicalQName } from '../emit';

const F = braced(NS.fn);
const V = braced(NS.vars);
const ELEMENT = `${braced(NS.gen)}lib.ns-element`;
const ATTRIBUTE = `${braced(NS.gen)}lib.ns-attribute`;

/** The library functions of this file, by EQName, with their XSLT text. */
export const NAMESPACED_CONSTRUCTOR_FUNCTIONS: Readonly<Record<string, string>> = {
  // $namespaces: prefix and URI, in turn ('' for the default namespace)
  [ELEMENT]: [
    `<xsl:function name="${ELEMENT}" as="element()">`,
    `<xsl:param name="${V}name" as="xs:string"/>`,
    `<xsl:param name="${V}uri" as="xs:string"/>`,
    `<xsl:param name="${V}namespaces" as="xs:string*"/>`,
    `<xsl:param name="${V}attributes" as="attribute()*"/>`,
    `<xsl:param name="${V}content" as="item()*"/>`,
    `<xsl:element name="{$${V}name}" namespace="{$${V}uri}">`,
    `<xsl:for-each select="1 to count($${V}namespaces) idiv 2">`,
    `<xsl:namespace name="{$${V}namespaces[2 * current() - 1]}" select="$${V}namespaces[2 * current()]"/>`,
    '</xsl:for-each>',
    `<xsl:sequence select="$${V}attributes, $${V}content"/>`,
    '</xsl:element>',
    '</xsl:function>',
  ].join('\n'),
  [ATTRIBUTE]: [
    `<xsl:function name="${ATTRIBUTE}" as="attribute()">`,
    `<xsl:param name="${V}name" as="xs:string"/>`,
    `<xsl:param name="${V}uri" as="xs:string"/>`,
    `<xsl:param name="${V}value" as="xs:string"/>`,
    `<xsl:attribute name="{$${V}name}" namespace="{$${V}uri}" select="$${V}value"/>`,
    '</xsl:function>',
  ].join('\n'),
};

/** Whether `e` can be built by the library's namespaced constructor (see the module comment). */
export function isNamespacedLibraryElement(e: DirElemConstructor, scope: Scope): boolean {
  return scope.ctx.copyNamespaces.preserve && scope.ctx.copyNamespaces.inherit && contentKinds(e);
}

function contentKinds(e: DirElemConstructor): boolean {
  return libraryContentKinds(e, contentKinds);
}

/** XPath constructing `e` with the library's namespaced constructor (check with `isNamespacedLibraryElement` first). */
export function namespacedElementCall(e: DirElemConstructor, outer: Scope, unit: TranslationUnit): string {
  const { scope, name, attributes, names } = directElementNames(e, outer);
  const attributeCalls = attributes.map((a) => attributeCall(unit, lexicalName(a.name), xpathString(a.name.uri), directAttributeValue(a.attr, a.name, scope, unit)));
  const content = libraryContent(e, scope, unit, (c) => namespacedElementCall(c, scope, unit));
  const contentXPath = content.checked ? content.check(`(${names.map((n) => xpathString(n)).join(', ')})`) : content.xpath;
  return elementCall(unit, lexicalName(name), xpathString(name.uri), inScope(scope, () => true), `(${attributeCalls.join(', ')})`, contentXPath);
}

/**
 * XPath constructing computed constructor `e` with the library's namespaced constructor (see the
 * module comment), or undefined where computed.ts builds it.
 */
export function namespacedComputedCall(e: CompElemConstructor | CompAttrConstructor, scope: Scope, unit: TranslationUnit): string | undefined {
  if (!scope.ctx.copyNamespaces.preserve || !scope.ctx.copyNamespaces.inherit) return undefined;
  if (!e.name) return computedNameCall(e, scope, unit);
  const { name, bad } = staticName(e, e.name, scope);
  if (bad) return undefined;
  if (e.kind === 'CompAttrConstructor') return attributeCall(unit, lexicalName(name), xpathString(name.uri), attributeValueOf(name, computedAttributeText(e, scope, unit)));
  // the enclosing declarations of the default namespace only for an unprefixed lexical name (computed.ts `enclosingNamespaces`)
  const unprefixedLexical = e.name.prefix === undefined && e.name.uri === undefined;
  return elementCall(unit, lexicalName(name), xpathString(name.uri), inScope(scope, (prefix) => prefix !== null || unprefixedLexical), '()', computedContent(e, scope, unit));
}

/**
 * A computed constructor of a computed name: the name is resolved at run time (runtime.ts
 * `element-name`, `attribute-name`, with their errors) and bound to a variable, the node built from
 * it. Only where no direct constructor around declares namespaces: their bindings would have to
 * give way to the name's own prefix, which computed.ts decides at run time.
 */
function computedNameCall(e: CompElemConstructor | CompAttrConstructor, scope: Scope, unit: TranslationUnit): string | undefined {
  if (scope.constructorNamespaces().length > 0) return undefined;
  const written = translateExpr(e.nameExpr!, scope, unit);
  const q = tempVar(scope, 'name').ref;
  const lexical = `${useHelper(unit, 'lexical')}(${q})`;
  const uri = `${F}string(${F}namespace-uri-from-QName(${q}))`;
  if (e.kind === 'CompAttrConstructor') {
    const name = `${useHelper(unit, 'attribute-name')}(${written}, ${prefixMap(scope)})`;
    return `(let ${q} := ${name} return ${attributeCall(unit, lexical, uri, computedAttributeValue(q, computedAttributeText(e, scope, unit)))})`;
  }
  const name = `${useHelper(unit, 'element-name')}(${written}, ${prefixMap(scope)}, ${xpathString(scope.defaultElementNamespace())})`;
  return `(let ${q} := ${name} return ${elementCall(unit, lexical, uri, '()', '()', computedContent(e, scope, unit))})`;
}

/**
 * The namespace declaration attributes of the direct constructors around (and on) an element, as
 * the XPath of its `$namespaces` argument: prefix and URI in turn, innermost first, undeclarations
 * left out (constructors.ts `inheritedNamespaces`); `keep` filters them by prefix.
 */
function inScope(scope: Scope, keep: (prefix: string | null) => boolean): string {
  const pairs = scope
    .constructorNamespaces()
    .filter((d) => d.uri !== '' && keep(d.prefix))
    .flatMap((d) => [xpathString(d.prefix ?? ''), xpathString(d.uri)]);
  return `(${pairs.join(', ')})`;
}

/** The lexical name of `name` as an XPath string: its prefix as written. */
function lexicalName(name: QName): string {
  return xpathString(lexicalQName(name.prefix, name.local));
}

/** A call of lib.ns-element; `name` (lexical) and `uri` are XPath strings. */
function elementCall(unit: TranslationUnit, name: string, uri: string, namespaces: string, attributes: string, content: string): string {
  return unit.callLibrary(ELEMENT, NAMESPACED_CONSTRUCTOR_FUNCTIONS[ELEMENT], [name, uri, namespaces, attributes, content].join(', '));
}

/** A call of lib.ns-attribute; `name` (lexical), `uri` and `value` are XPath strings. */
function attributeCall(unit: TranslationUnit, name: string, uri: string, value: string): string {
  return unit.callLibrary(ATTRIBUTE, NAMESPACED_CONSTRUCTOR_FUNCTIONS[ATTRIBUTE], `${name}, ${uri}, ${value}`);
}
