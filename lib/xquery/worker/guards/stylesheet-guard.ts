/**
 * The allow-list for stylesheets a query runs (xslt:transform, functions/xslt.ts). A stylesheet is
 * untrusted code like a query, but it is compiled by saxon-js's own XSLT compiler, not by the
 * translator, so its function calls are checked twice:
 *
 * 1. Before compiling (`staticRefusal`, on the parsed stylesheet and every module it includes or
 *    imports, read at the URI the compiler resolves, `xml:base` included; one that cannot be read
 *    here is refused):
 *    - no element may bind a prefix (of any characters) or the default namespace to a hidden
 *      namespace, nor be or have an attribute in one: saxon-js's and Saxonica's
 *      (`http://saxonica.com/...`, `http://saxon.sf.net/`, ...) and the engine's (translate/
 *      callable.ts `isHiddenNamespace`), compared without whitespace and case (saxon-js trims
 *      namespace URIs);
 *    - the compiler evaluates static expressions itself (`use-when`, shadow attributes `_name`,
 *      static global parameters and variables; XSLT 3.0 §3.13, §3.14): such an expression may
 *      call only functions of the standard namespaces through prefixes bound to them here, and
 *      may not contain an EQName nor name fn:function-lookup, fn:transform or
 *      fn:load-xquery-module.
 * 2. After compiling (`compiledRefusal`, on the SEF tree): every call of a function that is not
 *    in the stylesheet itself must be of a standard function (fn, math, map, array, xs; XSLT 3.0
 *    §5.3.1). saxon-js compiles calls of its extension functions (`ixsl:`, `js:`, `saxon:`) and
 *    the `ixsl:` instructions to `ifCall` or `javaCall` nodes, references to them to `fnRef`
 *    nodes; fn functions are `fn` nodes. Refused:
 *    - an `ifCall`/`javaCall`/`fnRef` outside those namespaces, except two internal functions
 *      the compiler itself emits (`saxon:apply` for dynamic calls, `saxon:dynamic-error-info`
 *      for `$err:*` in xsl:catch);
 *    - fn:function-lookup (it would reach the hidden namespaces at run time), fn:transform and
 *      fn:load-xquery-module (a stylesheet or module of the stylesheet's choosing);
 *    - xsl:evaluate (XPath compiled at run time, past this check) and xsl:result-document
 *      (there is nothing a stylesheet may write).
 * The engine's modules (db:, prof:, xquery:, ...) are not callable from stylesheets either.
 * Reading documents and text (fn:doc, document(), fn:unparsed-text, xsl:include, ...) goes
 * through saxon-js's platform, which the resource guard keeps to the stores and, only where the
 * run may, host files (guards/resource-guard.ts). Behind all of it stands the host wall of the
 * query worker (worker/host-wall.ts).
 */
import type { SefTree, XdmNode } from '../../../saxon';
import { NS } from '../../constants';
import { isHiddenNamespace } from '../../language/translate/callable';

const STANDARD_NAMESPACES = new Set<string>([NS.fn, NS.math, NS.map, NS.array, NS.xs]);
const SAXON_NS = 'http://saxon.sf.net/';
const SAXON_INTERNAL = new Set(['apply', 'dynamic-error-info']);
const REFUSED_FN = new Set(['function-lookup', 'transform', 'load-xquery-module']);
const REFUSED_INSTRUCTIONS = new Map([['evaluate', 'xsl:evaluate'], ['resultDoc', 'xsl:result-document']]);

const XSL_NS = 'http://www.w3.org/1999/XSL/Transform';

function splitEQName(eqname: string): { uri: string; local: string } {
  const m = /^Q\{([^}]*)\}(.*)$/.exec(eqname);
  return m ? { uri: m[1], local: m[2] } : { uri: '', local: eqname };
}

function allowedFunction(uri: string, local: string): boolean {
  if (uri === NS.fn) return !REFUSED_FN.has(local);
  if (uri === SAXON_NS) return SAXON_INTERNAL.has(local);
  return STANDARD_NAMESPACES.has(uri);
}

/** The stylesheet's own functions as `Q{uri}local#arity` (those in hidden namespaces left out). */
function collectFunctions(node: SefTree, into: Set<string>): void {
  if (node.N === 'function' && typeof node.name === 'string' && !isHiddenNamespace(splitEQName(node.name).uri)) {
    into.add(`${node.name}#${(node.C ?? []).filter((c) => c.N === 'arg').length}`);
  }
  for (const child of node.C ?? []) collectFunctions(child, into);
}

/**
 * Whether a SEF node may stay: calls of extension functions (`ifCall`, `javaCall`) only of the
 * standard ones; references (`fnRef`) also of the stylesheet's own functions, by name and arity
 * (saxon-js compiles calls of its own functions to `ufCall`, never to `ifCall`).
 */
function allowedCall(node: SefTree, own: ReadonlySet<string>): boolean {
  if (typeof node.name !== 'string') return true;
  const { uri, local } = splitEQName(node.name);
  if (node.N === 'fnRef' && own.has(`${node.name}#${String(node.arity)}`)) return true;
  return allowedFunction(uri, local);
}

/** Why a compiled stylesheet may not run, or undefined if it may. */
export function compiledRefusal(sef: SefTree): string | undefined {
  const own = new Set<string>();
  collectFunctions(sef, own);
  const visit = (node: SefTree): string | undefined => {
    const instruction = REFUSED_INSTRUCTIONS.get(node.N);
    if (instruction) return `${instruction} is not allowed in stylesheets.`;
    if (node.N === 'fn' && typeof node.name === 'string' && REFUSED_FN.has(node.name)) return `Function not allowed in stylesheets: fn:${node.name}().`;
    if ((node.N === 'ifCall' || node.N === 'javaCall' || node.N === 'fnRef') && !allowedCall(node, own)) {
      return `Function not allowed in stylesheets: ${String(node.name)}().`;
    }
    for (const child of node.C ?? []) {
      const refusal = visit(child);
      if (refusal) return refusal;
    }
    return undefined;
  };
  return visit(sef);
}

/** An element of the parsed stylesheet, as saxon-js's DOM gives it. */
interface DomElement extends XdmNode {
  readonly namespaceURI: string | null;
  readonly attributes: ArrayLike<{ readonly name: string; readonly value: string; readonly namespaceURI?: string | null }>;
  readonly childNodes: ArrayLike<XdmNode>;
  readonly parentNode: DomElement | null;
}

const ELEMENT = 1;

/**
 * A namespace URI as compared here: without any whitespace, lower-cased. saxon-js trims the URIs
 * of namespace declarations, so ` http://saxonica.com/ns/interactiveXSLT` binds the host
 * bindings; a URI that differs from a hidden one only in whitespace or case is refused as that one.
 */
function normalizedUri(uri: string): string {
  return uri.replace(/\s+/gu, '').toLowerCase();
}

/** saxon-js's and Saxonica's namespaces (functions, instructions, SEF export, documentation). */
const SAXON_NAMESPACE_PREFIXES = ['http://saxonica.com/', 'http://www.saxonica.com/', 'http://ns.saxonica.com/', 'http://saxon.sf.net'];

/** Whether a stylesheet may not bind `uri`: saxon-js's namespaces and the engine's (translate/callable.ts). */
function isHiddenUri(uri: string): boolean {
  const normalized = normalizedUri(uri);
  return SAXON_NAMESPACE_PREFIXES.some((p) => normalized.startsWith(p)) || isHiddenNamespace(normalized);
}

/** Whether `uri` is one of the standard function namespaces, as saxon-js reads it. */
function isStandardUri(uri: string): boolean {
  return STANDARD_NAMESPACES.has(uri.trim());
}

/** The namespace `prefix` is bound to on `element` (its own or an ancestor's `xmlns:prefix`). */
function namespaceOf(element: DomElement, prefix: string): string | undefined {
  for (let e: DomElement | null = element; e && e.nodeType === ELEMENT; e = e.parentNode) {
    const declaration = Array.from(e.attributes ?? []).find((a) => a.name === `xmlns:${prefix}`);
    if (declaration) return declaration.value;
  }
  return undefined;
}

/** `text` on one line: control characters as character references. */
function escaped(text: string): string {
  return text.replace(/[\u0000-\u001f]/gu, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * Why `element` may not be compiled for its names, or undefined: it binds a prefix (whatever
 * its characters) or the default namespace to a hidden namespace, or is itself or has an
 * attribute in one.
 */
function namespaceRefusal(element: DomElement): string | undefined {
  for (const a of Array.from(element.attributes ?? [])) {
    if ((a.name === 'xmlns' || a.name.startsWith('xmlns:')) && isHiddenUri(a.value)) return `Namespace not allowed in stylesheets: ${a.name}="${escaped(a.value)}".`;
    if (a.namespaceURI && isHiddenUri(a.namespaceURI)) return `Namespace not allowed in stylesheets: ${a.namespaceURI}.`;
  }
  if (element.namespaceURI && isHiddenUri(element.namespaceURI)) return `Namespace not allowed in stylesheets: ${element.namespaceURI}.`;
  return undefined;
}

/**
 * Characters of a name token in an XPath expression: anything but whitespace and the
 * delimiters (XPath 3.1 §A.2.2), so that a prefix of any Unicode name characters is one token.
 */
const NAME = String.raw`[^\s:(){}\[\],'"$=<>!|+*/@#?;%^&]+`;
/** A prefixed function name followed by a call or a function reference: `p:f(` or `p:f#` (space around `:` too). */
const PREFIXED_CALL = new RegExp(String.raw`(${NAME})\s*:\s*(${NAME})(?=\s*[(#])`, 'gu');

/**
 * Whether a static expression calls outside the allow-list (see the file comment): an EQName
 * (a braced URI literal), a refused fn function named anywhere, or a prefixed function whose
 * prefix is not bound to a standard namespace here (an unbound prefix too).
 */
function unsafeStaticExpression(text: string, element: DomElement): boolean {
  if (/Q\s*\{/u.test(text) || /(?:function-lookup|transform|load-xquery-module)/u.test(text)) return true;
  for (const m of text.matchAll(PREFIXED_CALL)) {
    const uri = namespaceOf(element, m[1]);
    if (uri === undefined || !isStandardUri(uri) || !allowedFunction(uri.trim(), m[2])) return true;
  }
  return false;
}

const VARIABLES = new Set(['variable', 'param']);
const NOT_STATIC = new Set(['no', 'false', '0']);

/** The local part of a DOM name. */
const localName = (name: string): string => name.slice(name.indexOf(':') + 1);

/** Whether the element is in the XSLT namespace, as saxon-js reads namespace URIs (trimmed). */
function inXslt(element: DomElement | null): boolean {
  return element?.namespaceURI?.trim() === XSL_NS;
}

/** Whether the attribute `name` of `element` is an XSLT attribute (`xsl:use-when` on other elements). */
function isXslAttribute(name: string, element: DomElement, local: string): boolean {
  const colon = name.indexOf(':');
  return colon > 0 && name.slice(colon + 1) === local && namespaceOf(element, name.slice(0, colon))?.trim() === XSL_NS;
}

/**
 * Attributes of `element` that the compiler may evaluate statically (XSLT 3.0 §3.13, §3.14):
 * `use-when` (on any element: `xsl:use-when` outside the XSLT namespace), shadow attributes, and
 * the `select` of a variable or parameter that is static or whose `static` is a shadow attribute.
 */
function staticExpressions(element: DomElement): string[] {
  const xslt = inXslt(element);
  const local = localName(element.nodeName ?? '');
  const attributes = Array.from(element.attributes);
  // conservatively, any `static` but a plain no (wherever the element is: a local one is an error anyway)
  const isStatic = xslt && VARIABLES.has(local) && attributes.some((a) => a.name === '_static' || (a.name === 'static' && !NOT_STATIC.has(a.value.trim().toLowerCase())));
  const texts: string[] = [];
  for (const a of attributes) {
    const name = a.name;
    const evaluated = xslt ? name === 'use-when' || name.startsWith('_') || (isStatic && name === 'select') : isXslAttribute(name, element, 'use-when');
    if (evaluated) texts.push(a.value);
  }
  return texts;
}

/** The base URI of an element: the module's, changed by the `xml:base` attributes on the way down. */
function baseOf(element: DomElement, moduleBase: string): string | undefined {
  const bases: string[] = [];
  for (let e: DomElement | null = element; e && e.nodeType === ELEMENT; e = e.parentNode) {
    const base = Array.from(e.attributes ?? []).find((a) => a.name === 'xml:base');
    if (base) bases.unshift(base.value);
  }
  return bases.reduce<string | undefined>((uri, relative) => (uri === undefined ? undefined : resolve(relative, uri)), moduleBase);
}

/** Most stylesheet modules followed through xsl:include and xsl:import (a cycle ends here too). */
const MAX_MODULES = 64;

/**
 * Why a parsed stylesheet (its document node, at `baseUri`) may not be compiled, or undefined.
 * The modules it includes or imports are read (`read`: as the compiler will read them) and
 * checked too: the compiler evaluates their static expressions as well.
 */
export function staticRefusal(stylesheet: XdmNode, baseUri: string, read: (uri: string) => XdmNode | undefined): string | undefined {
  const seen = new Set<string>([baseUri]);
  const visit = (node: XdmNode, base: string): string | undefined => {
    if (node.nodeType === ELEMENT) {
      const element = node as DomElement;
      const named = namespaceRefusal(element);
      if (named) return named;
      for (const text of staticExpressions(element)) {
        if (unsafeStaticExpression(text, element)) return `Static expression not allowed in stylesheets: ${text}`;
      }
      const href = moduleHref(element);
      if (href !== undefined) {
        const elementBase = baseOf(element, base);
        const uri = elementBase === undefined ? undefined : resolve(href, elementBase);
        if (uri === undefined) return `Stylesheet module cannot be resolved: ${href}.`;
        if (!seen.has(uri)) {
          seen.add(uri);
          if (seen.size > MAX_MODULES) return `Too many stylesheet modules (more than ${MAX_MODULES}).`;
          // a module that cannot be read here is refused: the compiler must not read another one
          const included = read(uri);
          const refusal = included ? visit(included, uri) : `Stylesheet module cannot be read: ${uri}.`;
          if (refusal) return refusal;
        }
      }
    }
    for (const child of Array.from((node as DomElement).childNodes ?? [])) {
      const refusal = visit(child, base);
      if (refusal) return refusal;
    }
    return undefined;
  };
  return visit(stylesheet, baseUri);
}

/** The href of an xsl:include or xsl:import element. */
function moduleHref(element: DomElement): string | undefined {
  if (!inXslt(element)) return undefined;
  const local = localName(element.nodeName ?? '');
  if (local !== 'include' && local !== 'import') return undefined;
  return Array.from(element.attributes).find((a) => a.name === 'href')?.value;
}

function resolve(href: string, base: string): string | undefined {
  try {
    return new URL(href, base).href;
  } catch {
    return undefined;
  }
}
