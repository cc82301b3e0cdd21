/**
 * Namespaces, EQNames and literal escaping for the generated XSLT/XPath.
 *
 * The translator resolves every QName statically and emits `Q{uri}local` everywhere, so the
 * stylesheet needs no prefix declarations and the query's prefixes never leak into XSLT.
 */

/** Namespace URIs the translator knows by name. */
export const NS = {
  xml: 'http://www.w3.org/XML/1998/namespace',
  xmlns: 'http://www.w3.org/2000/xmlns/',
  xs: 'http://www.w3.org/2001/XMLSchema',
  xsi: 'http://www.w3.org/2001/XMLSchema-instance',
  fn: 'http://www.w3.org/2005/xpath-functions',
  local: 'http://www.w3.org/2005/xquery-local-functions',
  math: 'http://www.w3.org/2005/xpath-functions/math',
  map: 'http://www.w3.org/2005/xpath-functions/map',
  array: 'http://www.w3.org/2005/xpath-functions/array',
  err: 'http://www.w3.org/2005/xqt-errors',
  output: 'http://www.w3.org/2010/xslt-xquery-serialization',
  db: 'http://basex.org/modules/db',
  xsl: 'http://www.w3.org/1999/XSL/Transform',
  /** Generated functions (lifted constructs). */
  gen: 'urn:xmldb-rest:gen',
  /** Generated local variable names. */
  vars: 'urn:xmldb-rest:var',
  /** The runtime's extension functions (runtime/documents.ts). */
  engine: 'urn:xmldb-rest:engine',
} as const;

/** Prefixes every query knows without declaring them (XQuery 3.1 §C.2, plus BaseX's db). */
export const PREDECLARED: Readonly<Record<string, string>> = {
  xml: NS.xml,
  xs: NS.xs,
  xsi: NS.xsi,
  fn: NS.fn,
  local: NS.local,
  math: NS.math,
  map: NS.map,
  array: NS.array,
  err: NS.err,
  output: NS.output,
  db: NS.db,
};

/** A resolved name: namespace URI ('' for none) and local part. */
export interface QName {
  readonly uri: string;
  readonly local: string;
  /** The prefix as written, kept for messages and constructed element names. */
  readonly prefix?: string;
}

/** `Q{uri}local`. */
export function eqname(name: QName): string {
  return `Q{${name.uri}}${name.local}`;
}

/** The name as the user wrote it, for messages (`local:f`, `x`, `Q{u}x`). */
export function displayName(name: QName): string {
  if (name.prefix) return `${name.prefix}:${name.local}`;
  return name.uri ? `Q{${name.uri}}${name.local}` : name.local;
}

/** An XPath string literal with the value `s`. */
export function xpathString(s: string): string {
  return `"${s.replace(/"/g, '""')}"`;
}

/**
 * Escapes text for an XML attribute value so that it survives attribute-value normalisation
 * unchanged (line ends and tabs as character references).
 */
export function xmlAttr(s: string): string {
  return s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/\n/g, '&#xA;')
    .replace(/\r/g, '&#xD;')
    .replace(/\t/g, '&#x9;');
}

/** Escapes text for XML character content. */
export function xmlText(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\r/g, '&#xD;');
}

/** `error(QName(err-ns, CODE), message)` as XPath: raises a W3C error at run time. */
export function xpathError(code: string, message: string): string {
  return `Q{${NS.fn}}error(Q{${NS.fn}}QName(${xpathString(NS.err)}, ${xpathString(code)}), ${xpathString(message)})`;
}

/**
 * A sequence type for an `as` attribute. saxon-js 2.7 misreads `Q{…}local` atomic types in
 * `xsl:function` parameter types, so xs types use the `xs` prefix the stylesheet root declares.
 */
export function asAttribute(type: string): string {
  return xmlAttr(type.split(`Q{${NS.xs}}`).join('xs:'));
}
