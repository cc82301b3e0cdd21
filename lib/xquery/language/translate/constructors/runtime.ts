/**
 * The fixed runtime of node constructors: small `xsl:function`s added once per stylesheet and
 * called from the generated constructor bodies (constructors.ts, computed.ts), and
 * the error catalog of the constructors.
 *
 * - `content(E)` and `element-content($c, $after, $names)`: the content rules (XQuery 3.1
 *   §3.9.1.3), engine functions written in JavaScript (functions/constructor-content.ts), so they
 *   are called and never declared.
 * - `document-content($c)`: XPTY0004 for attribute and namespace nodes.
 * - `element-name`/`attribute-name`: a computed name (QName, or a string resolved with the
 *   statically known namespaces passed as a map, by `qname`) with the XQDY0074/0096/0044 checks.
 * - `pi-target`, `namespace-prefix`, `namespace-uri`: the other computed names.
 */
import { format } from '../../../../xmldb-error';
import { CONTENT_ERRORS, CONTENT_FUNCTION, ELEMENT_CONTENT_FUNCTION } from '../../../functions/constructor-content';
import { LocatedQueryError } from '../../../static-errors';
import { lineColumn } from '../../syntax';
import { NS, xmlAttr, xpathString } from '../names';
import type { Scope } from '../scope';
import type { TranslationUnit } from '../unit';
import { braced } from '../emit';

/** Static errors of direct constructors (XQuery 3.1 §3.9.1, §3.9.3, codes of §F). */
export const CONSTRUCTOR_STATIC_ERRORS = {
  XQST0040: 'Duplicate attribute %.',
  XQST0070: "The prefix or namespace '%' cannot be declared.",
  XQST0071: "Duplicate namespace declaration for prefix '%'.",
  XQST0085: "Namespace prefix '%' cannot be undeclared.",
} as const;

/** Dynamic errors the constructors raise at run time. */
export const CONSTRUCTOR_DYNAMIC_ERRORS = {
  ...CONTENT_ERRORS,
  XPTY0004: 'Document content must not contain attribute or namespace nodes.',
  XQDY0074: 'Invalid name: %.',
  XQDY0096: 'Invalid element name: %.',
  XQDY0044: 'Invalid attribute name: %.',
  XQDY0041: 'Invalid processing-instruction target: %.',
  XQDY0064: 'A processing-instruction target must not be "xml".',
  XQDY0072: 'A comment must not contain "--" or end with "-".',
  XQDY0026: 'A processing instruction must not contain "?>".',
  XQDY0101: 'Invalid namespace binding: %.',
} as const;

export type ConstructorStaticCode = keyof typeof CONSTRUCTOR_STATIC_ERRORS;
export type ConstructorDynamicCode = keyof typeof CONSTRUCTOR_DYNAMIC_ERRORS;

/** A static constructor error at `offset` of the query. */
export function constructorError(scope: Scope, code: ConstructorStaticCode, offset: number, ...args: unknown[]): LocatedQueryError {
  return new LocatedQueryError(
    { code, message: format(CONSTRUCTOR_STATIC_ERRORS[code], args), status: 500, phase: 'compile' },
    lineColumn(scope.ctx.source, offset),
  );
}

/** XPath raising the dynamic error `code`; `detail` is an XPath string expression for the `%` slot. */
export function raise(code: ConstructorDynamicCode, detail = '""'): string {
  const [head, tail] = CONSTRUCTOR_DYNAMIC_ERRORS[code].split('%');
  const message = tail === undefined ? xpathString(head) : `${xpathString(head)} || ${detail} || ${xpathString(tail)}`;
  return `${F}error(${F}QName(${xpathString(NS.err)}, ${xpathString(code)}), ${message})`;
}

const F = braced(NS.fn);
const XS = 'xs:'; // the stylesheet root binds xs
const MAP = braced(NS.map);

/** The EQName of runtime helper `local`. */
export function helper(local: string): string {
  return `${braced(NS.gen)}ctor.${local}`;
}

/** Helpers already emitted, per stylesheet. */
const emitted = new WeakMap<TranslationUnit, Set<string>>();

/** The helpers that are engine functions (functions/constructor-content.ts), by helper name. */
const ENGINE_HELPERS = { content: CONTENT_FUNCTION, 'element-content': ELEMENT_CONTENT_FUNCTION } as const;

/**
 * Adds helper `local` (and what it calls) to the stylesheet once; returns its EQName. An engine
 * function is only named: it needs no declaration.
 */
export function useHelper(unit: TranslationUnit, local: HelperName | keyof typeof ENGINE_HELPERS): string {
  if (local === 'content' || local === 'element-content') return `${braced(NS.engine)}${ENGINE_HELPERS[local]}`;
  let done = emitted.get(unit);
  if (!done) emitted.set(unit, (done = new Set()));
  if (!done.has(local)) {
    done.add(local);
    const h: Helper = HELPERS[local];
    for (const dep of h.uses ?? []) useHelper(unit, dep);
    unit.addLibraryDeclaration(helper(local), h.text);
  }
  return helper(local);
}

const fn = (local: string, params: string[], body: string): string =>
  `<xsl:function name="${helper(local)}" as="item()*">\n${params.map((p) => `<xsl:param name="${p}"/>`).join('\n')}\n${body}\n</xsl:function>`;

const sel = (xpath: string): string => `<xsl:sequence select="${xmlAttr(xpath)}"/>`;


const isString = (v: string): string => `(${v} instance of ${XS}string or ${v} instance of ${XS}untypedAtomic)`;

/** `$q`'s lexical form `prefix:local` or `local`. */
const lexical = (q: string): string =>
  `(let $p := ${F}prefix-from-QName(${q}) return if (${F}exists($p)) then $p || ":" || ${F}local-name-from-QName(${q}) else ${F}local-name-from-QName(${q}))`;

/**
 * XPath: `$v` atomized to one QName; strings resolved with `$ns` (prefix → URI) and `$default`
 * for an unprefixed name; `Q{uri}local` accepted.
 */
const resolveName = `let $a := ${F}data($v) return
if (${F}count($a) ne 1) then ${F}error(${F}QName(${xpathString(NS.err)}, "XPTY0004"), "A computed name must be a single atomic value.")
else if ($a instance of ${XS}QName) then $a
else if (${isString('$a')}) then
  let $s := ${F}normalize-space($a) return
  if (${F}matches($s, "^Q\\{[^{}]*\\}[^:{}]+$")) then
    let $l := ${F}replace($s, "^Q\\{[^{}]*\\}", "") return
    if ($l castable as ${XS}NCName) then ${F}QName(${F}normalize-space(${F}replace($s, "^Q\\{([^{}]*)\\}.*$", "$1")), $l) else ${raise('XQDY0074', '$s')}
  else if ($s castable as ${XS}NCName) then ${F}QName($default, $s)
  else
    let $p := ${F}substring-before($s, ":"), $l := ${F}substring-after($s, ":") return
    if ($p castable as ${XS}NCName and $l castable as ${XS}NCName and ${MAP}contains($ns, $p)) then ${F}QName($ns($p), $s)
    else ${raise('XQDY0074', '$s')}
else ${F}error(${F}QName(${xpathString(NS.err)}, "XPTY0004"), "A computed name must be a QName or a string.")`;

/** XPath: `$q0` with the `xml` prefix when it is in the XML namespace without a prefix. */
const xmlPrefixed = `(if (${F}namespace-uri-from-QName($q0) eq ${xpathString(NS.xml)} and ${F}empty(${F}prefix-from-QName($q0))) then ${F}QName(${xpathString(NS.xml)}, "xml:" || ${F}local-name-from-QName($q0)) else $q0)`;

/** XPath over `$q`: true when the name binds xml/xmlns wrongly. */
const reservedName = `(let $u := ${F}namespace-uri-from-QName($q), $p := ${F}prefix-from-QName($q) return
  $p = "xmlns" or $u = ${xpathString(NS.xmlns)} or ($p = "xml" and $u ne ${xpathString(NS.xml)}) or ($u = ${xpathString(NS.xml)} and ${F}not($p = "xml")))`;

/** The helpers declared in XSLT (HELPERS). */
type HelperName = 'document-content' | 'qname' | 'element-name' | 'attribute-name' | 'lexical' | 'pi-target' | 'namespace-prefix' | 'namespace-uri';

interface Helper {
  readonly text: string;
  /** Helpers its text calls, declared with it. */
  readonly uses?: readonly HelperName[];
}

export const HELPERS = {
  'document-content': {
    text: fn('document-content', ['c'], sel(`if ($c[. instance of attribute() or . instance of namespace-node()]) then ${raise('XPTY0004')} else $c`)),
  },
  // the resolution both kinds of computed name share; each checks the names it may not make
  qname: { text: fn('qname', ['v', 'ns', 'default'], sel(`let $q0 := (${resolveName}) return ${xmlPrefixed}`)) },
  'element-name': {
    text: fn('element-name', ['v', 'ns', 'default'], sel(`let $q := ${helper('qname')}($v, $ns, $default) return if (${reservedName}) then ${raise('XQDY0096', `${F}string($q)`)} else $q`)),
    uses: ['qname'],
  },
  'attribute-name': {
    text: fn(
      'attribute-name',
      ['v', 'ns'],
      sel(`let $q := ${helper('qname')}($v, $ns, "") return
if (${reservedName} or (${F}namespace-uri-from-QName($q) eq "" and ${F}local-name-from-QName($q) eq "xmlns")) then ${raise('XQDY0044', `${F}string($q)`)} else $q`),
    ),
    uses: ['qname'],
  },
  lexical: { text: fn('lexical', ['q'], sel(lexical('$q'))) },
  'pi-target': {
    text: fn(
      'pi-target',
      ['v'],
      sel(`let $a := ${F}data($v) return
if (${F}count($a) ne 1 or ${F}not(${isString('$a')})) then ${F}error(${F}QName(${xpathString(NS.err)}, "XPTY0004"), "A processing-instruction target must be a single string.")
else let $s := ${F}normalize-space($a) return
if (${F}not($s castable as ${XS}NCName)) then ${raise('XQDY0041', '$s')}
else if (${F}lower-case($s) eq "xml") then ${raise('XQDY0064')}
else $s`),
    ),
  },
  'namespace-prefix': {
    text: fn(
      'namespace-prefix',
      ['v'],
      sel(`let $a := ${F}data($v) return
if (${F}empty($a)) then ""
else if (${F}count($a) ne 1 or ${F}not(${isString('$a')})) then ${F}error(${F}QName(${xpathString(NS.err)}, "XPTY0004"), "A namespace prefix must be a single string.")
else let $s := ${F}normalize-space($a) return
if ($s eq "" or $s castable as ${XS}NCName) then $s else ${raise('XQDY0074', '$s')}`),
    ),
  },
  'namespace-uri': {
    text: fn(
      'namespace-uri',
      ['p', 'v'],
      sel(`let $a := ${F}data($v) return
if (${F}count($a) gt 1) then ${F}error(${F}QName(${xpathString(NS.err)}, "XPTY0004"), "A namespace URI must be a single value.")
else let $u := ${F}string($a) return
if ($u eq "" or $p eq "xmlns" or $u eq ${xpathString(NS.xmlns)} or ($p eq "xml") ne ($u eq ${xpathString(NS.xml)})) then ${raise('XQDY0101', '$p || "=" || $u')}
else $u`),
    ),
  },
} satisfies Record<HelperName, Helper>;

/** XPath: `E`'s atomized values joined by single spaces (attribute values, text, comments). */
export function joinedValue(xpath: string): string {
  return `${F}string-join(${F}data(${xpath}), " ")`;
}


