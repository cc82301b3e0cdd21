/**
 * Plain direct element constructors as XPath: calls of three fixed functions of the runtime
 * library (library.ts) instead of a generated function per constructor (constructors.ts), so a
 * query whose only XSLT-only parts are such constructors (and order by) needs no stylesheet of
 * its own.
 *
 *   <r n="{$i}">a{$x}</r>  →  lib.element("r", lib.attribute("n", …),
 *                                         engine:element-content((lib.text("a"), engine:content($x)), …))
 *
 * A constructor is plain when nothing about it depends on namespaces or on the prolog's
 * construction options (constructors with namespaces are namespaced-elements.ts's, which builds
 * their content with `libraryContent` below): no namespace declaration attributes on it or on
 * the constructors around it, unprefixed element and attribute names in no namespace (no default element namespace),
 * no duplicate attribute (XQST0040 stays with constructors.ts), `copy-namespaces preserve,
 * inherit`, and content of text, CDATA, enclosed expressions, direct comments and processing
 * instructions (library-nodes.ts) and plain direct elements only.
 * The content follows XQuery 3.1 §3.9.1.3 exactly as constructors.ts builds it: literal text
 * becomes a text node, each enclosed expression goes through `engine:content`, and the whole is
 * checked by `engine:element-content` (XQTY0024, XQDY0025; functions/constructor-content.ts); a nested element is built by its own
 * call and copied into its parent, which no query can tell from building it in place.
 *
 * That copy costs about as much as building the element again, once for each level it is
 * copied through. The calls serve runs on the library, which have no stylesheet of their own: a
 * translation that nests them says so (`StaticContext.copiesConstructedElements`), and the
 * stylesheet that such a query compiles when it runs again is translated without them
 * (`TranslateOptions.plainConstructors`), so it builds nested elements in place.
 *
 * A plain constructor whose content is text only (literal text, enclosed expressions known to
 * yield atomic values or text nodes, nested constructors of the same kind) is instead one call of the JavaScript
 * function engine:plain-element (functions/plain-elements.ts), nested calls as its arguments:
 *
 *   <r n="{$i}">a{$x}<v/></r>  →  engine:plain-element(static-base-uri(), "r", ("n", …),
 *                                   ("a", string-join($x, " "), engine:plain-element(…, "v", (), ())))
 *
 * It adopts the nested elements rather than copying them and needs no library declaration, so such
 * a query runs on the XPath evaluator when nothing else needs the library. Building an element
 * there costs a small fraction of the XSLT function calls.
 *
 * Computed `element` and `attribute` constructors of a static name in no namespace, and `text`
 * constructors, are plain in the same setting and use the same library functions
 * (`plainComputedCall`).
 */
import type { CompAttrConstructor, CompElemConstructor, CompTextConstructor, DirAttribute, DirElemConstructor, Expr } from '../../syntax';
import { yieldsAtomics } from '../atomic-values';
import { joinedValue, useHelper } from './runtime';
import { tempVar } from './constructors';
import { contentRuns } from '../element-content';
import { translateExpr } from '../expressions';
import { NS, xpathString } from '../names';
import type { Scope } from '../scope';
import type { TranslationUnit } from '../unit';
import { braced } from '../emit';
import { PLAIN_ELEMENT_FUNCTION } from '../../../functions/plain-elements';
import { FOREST_ELEMENT_FUNCTION } from '../../../functions/forest-elements';
import { libraryNodeCall } from './library-nodes';
import { staticName } from './computed';

const F = braced(NS.fn);
const V = braced(NS.vars);
const PLAIN_ELEMENT = `${braced(NS.engine)}${PLAIN_ELEMENT_FUNCTION}`;
const FOREST_ELEMENT = `${braced(NS.engine)}${FOREST_ELEMENT_FUNCTION}`;

/** The library functions of this file, by EQName, with their XSLT text. */
export const PLAIN_CONSTRUCTOR_FUNCTIONS: Readonly<Record<string, string>> = {
  [`${braced(NS.gen)}lib.element`]: [
    `<xsl:function name="${braced(NS.gen)}lib.element" as="element()">`,
    `<xsl:param name="${V}name" as="xs:string"/>`,
    `<xsl:param name="${V}attributes" as="attribute()*"/>`,
    `<xsl:param name="${V}content" as="item()*"/>`,
    `<xsl:element name="{$${V}name}" namespace=""><xsl:sequence select="$${V}attributes, $${V}content"/></xsl:element>`,
    '</xsl:function>',
  ].join('\n'),
  [`${braced(NS.gen)}lib.attribute`]: [
    `<xsl:function name="${braced(NS.gen)}lib.attribute" as="attribute()">`,
    `<xsl:param name="${V}name" as="xs:string"/>`,
    `<xsl:param name="${V}value" as="xs:string"/>`,
    `<xsl:attribute name="{$${V}name}" namespace="" select="$${V}value"/>`,
    '</xsl:function>',
  ].join('\n'),
  [`${braced(NS.gen)}lib.text`]: [
    `<xsl:function name="${braced(NS.gen)}lib.text" as="text()">`,
    `<xsl:param name="${V}value" as="xs:string"/>`,
    `<xsl:value-of select="$${V}value"/>`,
    '</xsl:function>',
  ].join('\n'),
};

function call(unit: TranslationUnit, local: 'element' | 'attribute' | 'text', args: string): string {
  const name = `${braced(NS.gen)}lib.${local}`;
  return unit.callLibrary(name, PLAIN_CONSTRUCTOR_FUNCTIONS[name], args);
}

/** Whether `e` (and every constructor in its content) is plain (see the module comment). */
export function isPlainElement(e: DirElemConstructor, scope: Scope): boolean {
  return plainSetting(scope) && plain(e, scope);
}

/** Whether the construction options and the constructors around allow plain constructors. */
function plainSetting(scope: Scope): boolean {
  return scope.ctx.copyNamespaces.preserve && scope.ctx.copyNamespaces.inherit && scope.constructorNamespaces().length === 0;
}

/**
 * XPath constructing computed constructor `e` with the library's plain constructor functions
 * when it is plain: an element or attribute of a static name in no namespace (not `xmlns`, which
 * constructors.ts reports), in a plain setting (`plainSetting`), or a text node. Its content goes
 * through engine:content and engine:element-content as a direct element's enclosed expressions
 * do; undefined when it is not plain (constructors.ts lifts it into a function).
 */
export function plainComputedCall(e: CompElemConstructor | CompAttrConstructor | CompTextConstructor, scope: Scope, unit: TranslationUnit): string | undefined {
  if (e.kind === 'CompTextConstructor') {
    if (!e.expr) return '()';
    // no node for an empty sequence, else one text node of the values joined by spaces (§3.9.3.5)
    const v = tempVar(scope, 'text').ref;
    return `(let ${v} := ${F}data(${translateExpr(e.expr, scope, unit)}) return if (${F}exists(${v})) then ${call(unit, 'text', `${F}string-join(${v}, " ")`)} else ())`;
  }
  if (!e.name || !plainSetting(scope)) return undefined;
  // resolved as computed.ts resolves it; plain: in no namespace, unprefixed, not xmlns (which computed.ts reports)
  const { name } = staticName(e, e.name, scope);
  if (name.uri !== '' || name.prefix || name.local === 'xmlns') return undefined;
  if (e.kind === 'CompAttrConstructor') return call(unit, 'attribute', `${xpathString(name.local)}, ${computedAttributeText(e, scope, unit)}`);
  return call(unit, 'element', `${xpathString(name.local)}, (), ${computedContent(e, scope, unit)}`);
}

/** XPath for the value of computed attribute constructor `e`: its atomized values joined by spaces. */
export function computedAttributeText(e: CompAttrConstructor, scope: Scope, unit: TranslationUnit): string {
  return e.value ? joinedValue(translateExpr(e.value, scope, unit)) : '""';
}

/**
 * XPath for the content of computed element constructor `e` as the library's constructor
 * functions take it: atomic content as one string, one text node (none when empty), as in
 * plainElementCall; other content checked by engine:element-content.
 */
export function computedContent(e: CompElemConstructor, scope: Scope, unit: TranslationUnit): string {
  if (!e.content) return '()';
  const value = translateExpr(e.content, scope, unit);
  return yieldsAtomics(e.content, scope) ? `${F}string-join(${value}, " ")` : `${useHelper(unit, 'element-content')}(${useHelper(unit, 'content')}(${value}), false(), ())`;
}

function plain(e: DirElemConstructor, scope: Scope): boolean {
  if (e.namespaces.length > 0 || e.name.prefix || scope.elementName(e.name, e.start).uri !== '') return false;
  const names = new Set<string>();
  for (const a of e.attributes) {
    if (a.name.prefix || names.has(a.name.local)) return false;
    names.add(a.name.local);
  }
  return libraryContentKinds(e, (c) => plain(c, scope));
}

/**
 * Whether the content of `e` is of the kinds `libraryContent` builds: text, CDATA, enclosed
 * expressions, direct comments and processing instructions, and direct elements that `nested` accepts.
 */
export function libraryContentKinds(e: DirElemConstructor, nested: (c: DirElemConstructor) => boolean): boolean {
  return e.content.every(
    (c) =>
      c.kind === 'DirText' ||
      c.kind === 'CDataSection' ||
      c.kind === 'EnclosedExpr' ||
      c.kind === 'DirCommentConstructor' ||
      c.kind === 'DirPIConstructor' ||
      (c.kind === 'DirElemConstructor' && nested(c)),
  );
}

/**
 * Whether `expr` yields text nodes only: a path (or a step) whose last step tests `text()`. As
 * element content its text nodes are copied and adjacent ones merge (XQuery 3.1 §3.9.1.3), so what
 * they add to the element is their string values concatenated, with no separator.
 */
function yieldsTextNodes(expr: Expr): boolean {
  if (expr.kind === 'ParenthesizedExpr') return expr.expr !== null && yieldsTextNodes(expr.expr);
  const last = expr.kind === 'PathExpr' ? expr.steps[expr.steps.length - 1] : expr;
  return last !== undefined && last.kind === 'AxisStep' && last.test.kind === 'TextTest';
}

/**
 * Whether the content of plain element `e` is text only: literal text, enclosed expressions known
 * to yield atomic values or text nodes, and nested elements with text only (built by
 * engine:plain-element, functions/plain-elements.ts, with no library function and no copy).
 */
function textOnly(e: DirElemConstructor, scope: Scope): boolean {
  return e.content.every(
    (c) =>
      c.kind === 'DirText' ||
      c.kind === 'CDataSection' ||
      (c.kind === 'EnclosedExpr' && (c.expr === null || yieldsAtomics(c.expr as Expr, scope) || yieldsTextNodes(c.expr as Expr))) ||
      (c.kind === 'DirElemConstructor' && textOnly(c, scope)),
  );
}

/** XPath constructing plain element `e` with text-only content (`textOnly`) by one call of engine:plain-element. */
function textElementCall(e: DirElemConstructor, scope: Scope, unit: TranslationUnit): string {
  const attributes = e.attributes.flatMap((a) => [xpathString(a.name.local), attributeValue(a, scope, unit)]);
  const pieces: string[] = [];
  for (const run of contentRuns(e.content, scope)) {
    if ('text' in run) pieces.push(xpathString(run.text));
    else if (run.item.kind === 'DirElemConstructor') pieces.push(textElementCall(run.item, scope, unit));
    else if (run.item.kind === 'EnclosedExpr' && run.item.expr) {
      // atomic values joined by spaces (§3.9.1.3 1.e), text nodes by nothing (`yieldsTextNodes`)
      const expr = run.item.expr as Expr;
      pieces.push(`${F}string-join(${translateExpr(expr, scope, unit)}, ${yieldsAtomics(expr, scope) ? '" "' : '""'})`);
    }
  }
  return `${PLAIN_ELEMENT}(${F}static-base-uri(), ${xpathString(e.name.local)}, (${attributes.join(', ')}), (${pieces.join(', ')}))`;
}

/** XPath constructing plain element `e` (check with `isPlainElement` first). */
export function plainElementCall(e: DirElemConstructor, scope: Scope, unit: TranslationUnit): string {
  if (textOnly(e, scope)) return textElementCall(e, scope, unit);
  const content = libraryContent(e, scope, unit, (c) => plainElementCall(c, scope, unit));
  if (!content.checked) {
    const attributes = e.attributes.map((a) => call(unit, 'attribute', `${xpathString(a.name.local)}, ${attributeValue(a, scope, unit)}`));
    return call(unit, 'element', `${xpathString(e.name.local)}, (${attributes.join(', ')}), ${content.xpath}`);
  }
  const names = `(${e.attributes.map((a) => xpathString(`Q{}${a.name.local}`)).join(', ')})`;
  return forestElementCall(e, content.check(names), scope, unit);
}

/**
 * The content of direct element `e` as library calls (XQuery 3.1 §3.9.1.3), its nested direct
 * elements built by `nested`. `checked`: some enclosed expression may yield nodes, so the content
 * goes through engine:element-content: `check(names)` is that call, given the start tag's
 * attribute names as XPath; otherwise `xpath` is the content as it is.
 */
export function libraryContent(
  e: DirElemConstructor,
  scope: Scope,
  unit: TranslationUnit,
  nested: (c: DirElemConstructor) => string,
): { readonly checked: false; readonly xpath: string } | { readonly checked: true; check(names: string): string } {
  // each piece: XPath, or the value of an enclosed expression and whether it is known atomic
  const pieces: (string | { value: string; atomic: boolean })[] = [];
  for (const run of contentRuns(e.content, scope)) {
    if ('text' in run) {
      pieces.push(call(unit, 'text', xpathString(run.text)));
      continue;
    }
    const c = run.item;
    switch (c.kind) {
      case 'EnclosedExpr':
        if (c.expr) {
          const value = translateExpr(c.expr as Expr, scope, unit);
          pieces.push({ value, atomic: yieldsAtomics(c.expr, scope) });
        }
        break;
      case 'DirElemConstructor':
        scope.ctx.copiesConstructedElements = true;
        pieces.push(nested(c));
        break;
      case 'DirCommentConstructor':
      case 'DirPIConstructor':
        pieces.push(libraryNodeCall(c, scope, unit)!);
        break;
      default:
        throw new Error(`library constructor: unexpected ${(c as { kind: string }).kind}`);
    }
  }
  // content that may hold attributes is checked as a whole, every enclosed expression dispatched
  const enclosed = pieces.some((p) => typeof p !== 'string' && !p.atomic);
  let afterString = false;
  const items = pieces.map((p) => {
    const wasString = afterString;
    afterString = false;
    if (typeof p === 'string') return p;
    if (enclosed) return `${useHelper(unit, 'content')}(${p.value})`;
    // atomic values make one text node, joined by spaces (XQuery 3.1 §3.9.1.3 1.e): as a string it
    // becomes that text node in lib.element, and none when empty (zero-length, XSLT 3.0 §5.7.1);
    // a string right after another would be joined to it with a space, so that one is a text node
    const text = `${F}string-join(${p.value}, " ")`;
    afterString = !wasString;
    return wasString ? call(unit, 'text', text) : text;
  });
  const xpath = `(${items.join(', ')})`;
  if (!enclosed) return { checked: false, xpath };
  return { checked: true, check: (names) => `${useHelper(unit, 'element-content')}(${xpath}, false(), ${names})` };
}

/**
 * Plain element `e` whose content `content` (XPath, as engine:element-content answers it) may hold
 * nodes: built by engine:forest-element (functions/forest-elements.ts), which copies the nodes
 * into a forest, or, when it answers false() for a node it does not copy, by the library's
 * function from the same content and attribute values.
 */
function forestElementCall(e: DirElemConstructor, content: string, scope: Scope, unit: TranslationUnit): string {
  const c = tempVar(scope, 'content').ref;
  const built = tempVar(scope, 'element').ref;
  const values = e.attributes.map((a) => ({ name: xpathString(a.name.local), value: attributeValue(a, scope, unit), ref: tempVar(scope, 'attribute').ref }));
  const lets = [`${c} := ${content}`, ...values.map((v) => `${v.ref} := ${v.value}`)];
  const name = xpathString(e.name.local);
  const library = call(unit, 'element', `${name}, (${values.map((v) => call(unit, 'attribute', `${v.name}, ${v.ref}`)).join(', ')}), ${c}`);
  const forest = `${FOREST_ELEMENT}(${F}static-base-uri(), ${name}, (${values.flatMap((v) => [v.name, v.ref]).join(', ')}), ${c})`;
  return `(let ${lets.join(', ')} return let ${built} := ${forest} return if (${built} instance of ${braced(NS.xs)}boolean) then ${library} else ${built})`;
}

/** XPath for the string value of direct attribute `a` (XQuery 3.1 §3.9.1.1), before xml:id normalization. */
export function attributeValue(a: DirAttribute, scope: Scope, unit: TranslationUnit): string {
  const parts = a.value.map((v) =>
    v.kind === 'AttributeValueChars' ? xpathString(v.value) : v.expr ? attributeText(v.expr, scope, unit) : '""',
  );
  return parts.length === 0 ? '""' : parts.length === 1 ? parts[0] : `${F}string-join((${parts.join(', ')}), "")`;
}

/** XPath for the string of one enclosed expression of an attribute value: its atomized items joined by spaces. */
function attributeText(e: Expr, scope: Scope, unit: TranslationUnit): string {
  const value = translateExpr(e, scope, unit);
  return `${F}string-join(${yieldsAtomics(e, scope) ? value : `${F}data(${value})`}, " ")`;
}
