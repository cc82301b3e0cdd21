/**
 * The emitter: the one place where names, namespace URIs and strings become text of the generated
 * XPath and XSLT. Queries are untrusted code, and the generated stylesheet is code too: what a
 * query wrote must reach it as data of the constructs below, never as code of its own.
 *
 * Contract (every function here holds it for any input; no other module builds these pieces):
 * - `Q{uri}` (`braced`, `eqname`, `uriWildcard`): the URI holds no `{` or `}` and no whitespace but
 *   U+0020 (what syntax/uri-literals.ts refuses in a query); otherwise XQST0046 is thrown. Other
 *   modules append to `braced(uri)` only local names of their own (`braced(NS.fn)` + `count`),
 *   never a name from the query, which goes through `eqname`.
 * - local names and prefixes (`eqname`, `localWildcard`, `lexicalQName`) are NCNames (XML
 *   Namespaces 1.0 §3); otherwise XPST0003 is thrown. The parser already guarantees both, so
 *   these throws are a second wall, not the first.
 * - `xpathString`: an XPath string literal (XPath 3.1 §2.2.1 StringLiteral, the delimiter
 *   doubled) with exactly the value given.
 * - `xmlAttr`, `xmlText`: text for a double-quoted XML attribute value / character content
 *   (`&`, `<`, `"`, tab and line ends as references, so attribute-value normalization keeps
 *   them, XML 1.0 §3.3.3). Generated XPath inside an XSLT attribute goes through `xmlAttr`.
 * - `avt`: a fixed value for an attribute value template (XSLT 3.0 §5.6.1): `{` and `}` doubled,
 *   then `xmlAttr`.
 * - Comments and processing instructions a query constructs are never written as markup of the
 *   generated stylesheet: their values reach `xsl:comment`/`xsl:processing-instruction` through
 *   `select` with `xpathString`, their targets through `avt` (its own markers, translate/unit.ts
 *   `marker`, hold only numbers).
 * - Namespace URIs a query binds to a prefix of the stylesheet (translate/unit.ts `prefixFor`)
 *   are attribute values (`xmlAttr`), with the prefix written by `lexicalQName`.
 */
import { isNCName } from '../../../convert/names';
import { escapeAttribute, escapeText } from '../../../xml';
import { LocatedQueryError } from '../../static-errors';

/** A URI the generated code cannot carry: `{`, `}` or whitespace other than U+0020. */
const UNSAFE_URI = /[{}]|[^\S ]/u;

function refused(code: 'XQST0046' | 'XPST0003', message: string): LocatedQueryError {
  return new LocatedQueryError({ code, message, status: 500, phase: 'compile' });
}

/** The URI, if `Q{uri}` can carry it; XQST0046 otherwise. */
function checkedUri(uri: string): string {
  if (UNSAFE_URI.test(uri)) throw refused('XQST0046', `Invalid URI "${uri}".`);
  return uri;
}

/** The name, if it is an NCName; XPST0003 otherwise. */
function checkedNCName(name: string): string {
  if (!isNCName(name)) throw refused('XPST0003', `Invalid name "${name}".`);
  return name;
}

/** `Q{uri}`: the prefix of an EQName (XPath 3.1 §2.2.1 BracedURILiteral). */
export function braced(uri: string): string {
  return `Q{${checkedUri(uri)}}`;
}

/** `Q{uri}local`: an EQName (XPath 3.1 §2.2.1 URIQualifiedName). */
export function eqname(name: { readonly uri: string; readonly local: string }): string {
  return `${braced(name.uri)}${checkedNCName(name.local)}`;
}

/** `Q{uri}*`: any name in the namespace `uri`. */
export function uriWildcard(uri: string): string {
  return `${braced(uri)}*`;
}

/** `*:local`: the local name in any namespace. */
export function localWildcard(local: string): string {
  return `*:${checkedNCName(local)}`;
}

/** `prefix:local` or `local`: a lexical QName, for the `name` of `xsl:element`/`xsl:attribute`. */
export function lexicalQName(prefix: string | undefined, local: string): string {
  return prefix ? `${checkedNCName(prefix)}:${checkedNCName(local)}` : checkedNCName(local);
}

/** An XPath string literal with the value `s`. */
export function xpathString(s: string): string {
  return `"${s.replace(/"/g, '""')}"`;
}

/** Text for a double-quoted attribute value of the generated stylesheet. */
export const xmlAttr: (s: string) => string = escapeAttribute;

/** Character content of the generated stylesheet. */
export const xmlText: (s: string) => string = escapeText;

/** A fixed value in an attribute value template: braces doubled, then escaped for the attribute. */
export function avt(s: string): string {
  return xmlAttr(s.replace(/[{}]/g, '$&$&'));
}
