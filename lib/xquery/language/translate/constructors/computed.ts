/**
 * Computed constructors (XQuery 3.1 §3.9.3) as XSLT instructions: `element`, `attribute`,
 * `document`, `text`, `comment`, `processing-instruction`, `namespace`.
 *
 * - A static name is resolved here with the in-scope namespaces; an invalid binding (the
 *   `xmlns` prefix or namespace, `xml` bound to another namespace) is raised at run time,
 *   where the expression is evaluated, with the dynamic code (XQDY0096, XQDY0044).
 * - A computed name is atomized at run time: a QName as it is; a string resolved with the
 *   statically known namespaces, passed as a map (constructors.ts `prefixMap`); XQDY0074 when
 *   it is no name; XPTY0004 for anything else (runtime.ts).
 * - Values are atomized and joined by single spaces; an empty `text {}` constructs nothing.
 */
import type { CompAttrConstructor, CompElemConstructor, EQName, Expr } from '../../syntax';
import type { ConstructorExpr } from './constructors';
import { copyContent, emitContent, enclosedPiece, inheritAttr, inheritedNamespaces, namespaceInstruction, prefixMap, tempVar } from './constructors';
import { joinedValue, raise, useHelper } from './runtime';
import { translateExpr } from '../expressions';
import { NS, displayName, xmlAttr, xpathString, type QName } from '../names';
import type { Scope } from '../scope';
import type { TranslationUnit } from '../unit';
import { avt, braced, lexicalQName } from '../emit';

type ComputedExpr = Exclude<ConstructorExpr, { kind: 'DirElemConstructor' | 'DirCommentConstructor' | 'DirPIConstructor' }>;

const F = braced(NS.fn);

/** XSLT instructions that construct the node of a computed constructor. */
export function computedInstruction(expr: ComputedExpr, scope: Scope, unit: TranslationUnit): string {
  const t = (e: Expr | null): string => (e ? translateExpr(e, scope, unit) : '()');
  switch (expr.kind) {
    case 'CompElemConstructor':
      return computedElement(expr, scope, unit);
    case 'CompAttrConstructor':
      return computedAttribute(expr, scope, unit);
    case 'CompDocConstructor': {
      if (!expr.expr) return '<xsl:document/>';
      const content = `${useHelper(unit, 'document-content')}(${useHelper(unit, 'content')}(${t(expr.expr)}))`;
      return `<xsl:document>\n${copyContent(content, scope)}\n</xsl:document>`;
    }
    case 'CompTextConstructor': {
      if (!expr.expr) return '';
      const v = tempVar(scope, 'text');
      return `<xsl:variable name="${v.param}" select="${xmlAttr(`${F}data(${t(expr.expr)})`)}"/>
<xsl:if test="${xmlAttr(`${F}exists(${v.ref})`)}"><xsl:value-of select="${xmlAttr(v.ref)}" separator=" "/></xsl:if>`;
    }
    case 'CompCommentConstructor': {
      const v = tempVar(scope, 'comment');
      const check = `if (${F}contains(${v.ref}, "--") or ${F}ends-with(${v.ref}, "-")) then ${raise('XQDY0072')} else ${v.ref}`;
      return `<xsl:variable name="${v.param}" select="${xmlAttr(joinedValue(t(expr.expr)))}"/>
<xsl:comment select="${xmlAttr(check)}"/>`;
    }
    case 'CompPIConstructor': {
      const target = expr.target !== null ? staticPITarget(expr.target) : `${useHelper(unit, 'pi-target')}(${t(expr.targetExpr)})`;
      const n = tempVar(scope, 'pi');
      const v = tempVar(scope, 'pivalue');
      const check = `if (${F}contains(${v.ref}, "?>")) then ${raise('XQDY0026')} else ${v.ref}`;
      return `<xsl:variable name="${n.param}" select="${xmlAttr(target)}"/>
<xsl:variable name="${v.param}" select="${xmlAttr(joinedValue(t(expr.value)))}"/>
<xsl:processing-instruction name="{${xmlAttr(n.ref)}}" select="${xmlAttr(check)}"/>`;
    }
    case 'CompNamespaceConstructor': {
      const prefix = expr.prefix !== null ? xpathString(expr.prefix) : `${useHelper(unit, 'namespace-prefix')}(${t(expr.prefixExpr)})`;
      const p = tempVar(scope, 'nsprefix');
      const u = tempVar(scope, 'nsuri');
      return `<xsl:variable name="${p.param}" select="${xmlAttr(prefix)}"/>
<xsl:variable name="${u.param}" select="${xmlAttr(`${useHelper(unit, 'namespace-uri')}(${p.ref}, ${t(expr.uri)})`)}"/>
<xsl:namespace name="{${xmlAttr(p.ref)}}" select="${xmlAttr(u.ref)}"/>`;
    }
  }
}

/** A static PI target: XQDY0064 for `xml` (any case) at run time. */
export function staticPITarget(target: string): string {
  return target.toLowerCase() === 'xml' ? raise('XQDY0064') : xpathString(target);
}

/** Whether a resolved static name binds xml/xmlns wrongly (XQDY0096/XQDY0044). */
function reserved(name: QName): boolean {
  return (
    name.prefix === 'xmlns' ||
    name.uri === NS.xmlns ||
    (name.prefix === 'xml' && name.uri !== NS.xml) ||
    (name.uri === NS.xml && name.prefix !== 'xml')
  );
}

/** `xml:id`, whose value is whitespace-normalized (xml:id processing). */
function isXmlId(name: QName): boolean {
  return name.uri === NS.xml && name.local === 'id';
}

/** XPath for the value `value` of an attribute whose name is the QName `qname` (XPath): normalized when it is `xml:id`. */
export function computedAttributeValue(qname: string, value: string): string {
  const xmlId = `${F}namespace-uri-from-QName(${qname}) eq ${xpathString(NS.xml)} and ${F}local-name-from-QName(${qname}) eq "id"`;
  return `(if (${xmlId}) then ${F}normalize-space(${value}) else ${value})`;
}

/** XPath for the value `value` (XPath) of an attribute named `name`: normalized when it is `xml:id`. */
export function attributeValueOf(name: QName, value: string): string {
  return isXmlId(name) ? `${F}normalize-space(${value})` : value;
}

/**
 * The static name of computed constructor `expr` resolved in `scope` (`xml` as the prefix of a name
 * in the XML namespace); `bad`: a name the constructor may not make, XQDY0096 for an element and
 * XQDY0044 for an attribute, raised when the constructor is evaluated.
 */
export function staticName(expr: CompElemConstructor | CompAttrConstructor, written: EQName, scope: Scope): { name: QName; bad: boolean } {
  const kind = expr.kind === 'CompElemConstructor' ? 'element' : 'attribute';
  let name = kind === 'element' ? scope.elementName(written, expr.start) : scope.attributeName(written, expr.start);
  if (name.uri === NS.xml && !name.prefix) name = { ...name, prefix: 'xml' };
  return { name, bad: reserved(name) || (kind === 'attribute' && name.uri === '' && name.local === 'xmlns') };
}

/** `{name: AVT, namespace: AVT}` and any instructions that compute the name first. */
function nameAttributes(
  kind: 'element' | 'attribute',
  expr: CompElemConstructor | CompAttrConstructor,
  scope: Scope,
  unit: TranslationUnit,
): { setup: string; name: string; namespace: string; qname?: string } {
  if (expr.name) {
    const { name, bad } = staticName(expr, expr.name, scope);
    if (bad) {
      const code = kind === 'element' ? 'XQDY0096' : 'XQDY0044';
      return { setup: `<xsl:sequence select="${xmlAttr(raise(code, xpathString(displayName(name))))}"/>`, name: '', namespace: '' };
    }
    return { setup: '', name: avt(lexicalQName(name.prefix, name.local)), namespace: avt(name.uri) };
  }
  const value = translateExpr(expr.nameExpr!, scope, unit);
  const call =
    kind === 'element'
      ? `${useHelper(unit, 'element-name')}(${value}, ${prefixMap(scope)}, ${xpathString(scope.defaultElementNamespace())})`
      : `${useHelper(unit, 'attribute-name')}(${value}, ${prefixMap(scope)})`;
  const v = tempVar(scope, 'name');
  const lexical = useHelper(unit, 'lexical');
  return {
    setup: `<xsl:variable name="${v.param}" select="${xmlAttr(call)}"/>`,
    name: `{${xmlAttr(`${lexical}(${v.ref})`)}}`,
    namespace: `{${xmlAttr(`${F}namespace-uri-from-QName(${v.ref})`)}}`,
    qname: v.ref,
  };
}

function computedElement(expr: CompElemConstructor, scope: Scope, unit: TranslationUnit): string {
  const n = nameAttributes('element', expr, scope, unit);
  if (n.name === '') return n.setup;
  const content = expr.content ? emitContent([enclosedPiece({ kind: 'EnclosedExpr', expr: expr.content, start: expr.content.start, end: expr.content.end }, scope, unit)], [], scope, unit) : [];
  return [n.setup, `<xsl:element name="${n.name}" namespace="${n.namespace}"${inheritAttr(scope)}>`, ...enclosingNamespaces(expr, n.qname, scope), ...content, '</xsl:element>']
    .filter((l) => l !== '')
    .join('\n');
}

/**
 * The namespaces of the direct constructors around a computed element (XQuery 3.1 §3.9.4), where
 * they cannot clash with the element's own name: a static unprefixed lexical name is in the
 * default element namespace they declare, other static names take the default binding from their
 * own namespace; a computed name (`qname`, a variable) keeps its prefix's binding.
 */
function enclosingNamespaces(expr: CompElemConstructor, qname: string | undefined, scope: Scope): string[] {
  if (!qname) {
    const unprefixedLexical = expr.name !== null && expr.name.prefix === undefined && expr.name.uri === undefined;
    return inheritedNamespaces(scope, (prefix) => prefix !== null || unprefixedLexical);
  }
  return scope
    .constructorNamespaces()
    .filter((d) => d.uri !== '' && d.prefix !== null)
    .map((d) => {
      const clash = `${F}prefix-from-QName(${qname}) eq ${xpathString(d.prefix!)} and ${F}namespace-uri-from-QName(${qname}) ne ${xpathString(d.uri)}`;
      return `<xsl:if test="${xmlAttr(`${F}not(${clash})`)}">${namespaceInstruction(d.prefix, d.uri)}</xsl:if>`;
    });
}

function computedAttribute(expr: CompAttrConstructor, scope: Scope, unit: TranslationUnit): string {
  const n = nameAttributes('attribute', expr, scope, unit);
  if (n.name === '') return n.setup;
  let value = expr.value ? joinedValue(translateExpr(expr.value, scope, unit)) : '""';
  if (expr.name) value = attributeValueOf(scope.attributeName(expr.name, expr.start), value);
  else if (n.qname) value = computedAttributeValue(n.qname, value);
  return [n.setup, `<xsl:attribute name="${n.name}" namespace="${n.namespace}" select="${xmlAttr(value)}"/>`].filter((l) => l !== '').join('\n');
}
