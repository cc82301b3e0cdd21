/**
 * Namespace URIs as a query writes them: URILiterals (prolog declarations, imports), the
 * BracedURILiteral of an EQName (`Q{uri}local`) and namespace declaration attributes of direct
 * element constructors (`xmlns:p="uri"`, whose value XQuery 3.1 §3.9.1.2 reads as a URILiteral).
 *
 * - Whitespace: the value (references already resolved) is whitespace-normalized as the
 *   `xs:anyURI` type is (XQuery 3.1 §2.4.5 URI Literals, XPath 3.1 §2.1.1 statically known
 *   namespaces): the `collapse` facet of XML Schema 1.1 Part 2 §4.3.6, which treats only
 *   #x9, #xA, #xD and #x20 as whitespace. Every later check (reserved and hidden namespaces,
 *   the allow-list of callable functions) sees the normalized URI, the one saxon-js would use.
 * - Refused with XQST0046, which XQuery 3.1 §2.4.5 allows for a value that is not a valid URI
 *   (RFC 3986 admits none of these characters unescaped):
 *   - any character JavaScript reads as whitespace other than U+0020 (U+00A0, U+2028, U+FEFF,
 *     ...): the engine runs on JavaScript, and a URI it trimmed or split differently from the
 *     query's own reading could name a namespace the checks never saw;
 *   - in a URILiteral and a namespace declaration attribute, `{` or `}`, which no `Q{uri}local`
 *     of the generated code could carry. A BracedURILiteral may hold them as references
 *     (`Q{&#x7B;}x`; QT3 Constr-compelem-eqname-entities-5 requires the element's namespace URI
 *     to be "{}"): the generated code carries such a URI only where it is data (the `namespace`
 *     of a constructor), and the emitter refuses it where it would be a `Q{uri}` (translate/emit.ts).
 */

const XML_WHITESPACE = /[\t\n\r ]+/g;

/** The `collapse` whitespace normalization of XML Schema (runs of XML whitespace → one space, trimmed). */
export function normalizeUriLiteral(value: string): string {
  return value.replace(XML_WHITESPACE, ' ').replace(/^ | $/g, '');
}

/** Why a normalized URILiteral is refused (XQST0046), or undefined when it is accepted. */
export function uriLiteralProblem(uri: string): string | undefined {
  return problem(uri, /[{}]|[^\S ]/u);
}

/** Why the normalized URI of a BracedURILiteral is refused (XQST0046), or undefined. */
export function bracedUriLiteralProblem(uri: string): string | undefined {
  return problem(uri, /[^\S ]/u);
}

function problem(uri: string, refused: RegExp): string | undefined {
  const bad = refused.exec(uri);
  if (!bad) return undefined;
  const c = bad[0];
  return `Invalid URI "${uri}": character ${/[{}]/.test(c) ? `"${c}"` : `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`} is not allowed`;
}
