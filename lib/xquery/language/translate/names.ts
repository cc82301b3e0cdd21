/**
 * Resolved names in the generated XSLT/XPath: which spelling each kind of name gets.
 *
 * The translator resolves every QName statically and emits `Q{uri}local` everywhere, so the
 * stylesheet needs no prefix declarations and the query's prefixes never leak into XSLT. The
 * text itself is written by the emitter (emit.ts), which these functions call.
 */
import { NS } from '../../constants';
import { braced, eqname, lexicalQName, localWildcard, xmlAttr, xpathString } from './emit';

export { INTERNAL_NAMESPACE_PREFIX, NS, PREDECLARED, RESERVED_NAMESPACES } from '../../constants';

/** Stylesheet parameter (xs:string?) naming the database context `db[/path]` in `multi` mode (translation.ts). */
export const CONTEXT_URI_PARAM = eqname({ uri: NS.gen, local: 'context-uri' });

/** The data of a call tried first (unit.ts `TriedFirst`). */
export const FIRST_DATA_PARAM = eqname({ uri: NS.engine, local: 'first-data' });

/** A resolved name: namespace URI ('' for none) and local part. */
export interface QName {
  readonly uri: string;
  readonly local: string;
  /** The prefix as written, kept for messages and constructed element names. */
  readonly prefix?: string;
}

// The emitter's writers the translator's modules import together with the name helpers below.
export { eqname, xmlAttr, xmlText, xpathString } from './emit';

/*
 * Non-ASCII names and saxon-js 2.7. Its XPath tokenizer compares characters with numbers as
 * strings, so a character beyond ASCII (any other NameStartChar/NameChar of XML 1.0 fifth
 * edition; an astral one as its two UTF-16 code units) is read as a name character only in an
 * unprefixed name (`ä`, `aä`) and after the first character of the local part of `prefix:local`.
 * It ends the local part of `Q{uri}local`, and it cannot start the local part of `prefix:local`
 * or `*:local`. So names are written as EQNames when their local part is ASCII, and otherwise:
 * declared names (variables, functions) in an ASCII spelling of their own (`declaredName`),
 * node names in tests as an unprefixed name or a predicate on the node name (`nameTest`).
 */
const EQNAME_LOCAL = /^[A-Za-z_][A-Za-z0-9_.-]*$/;

/** Whether saxon-js reads `Q{uri}local` with this local part. */
export function isEQNameWritable(local: string): boolean {
  return EQNAME_LOCAL.test(local);
}

/**
 * The EQName under which the generated code declares and refers to a variable or function:
 * `Q{uri}local`, or for a local part saxon-js cannot read there, the local part spelled in ASCII
 * (`n` + the ASCII letters, digits, `.` and `-` as they are + every other character as `_hex_`)
 * in a namespace of its own (NS.ascii + uri), so it meets no name a query can write.
 */
export function declaredName(name: QName): string {
  if (isEQNameWritable(name.local)) return eqname(name);
  let local = 'n';
  for (const ch of name.local) local += /[A-Za-z0-9.-]/.test(ch) ? ch : `_${ch.codePointAt(0)!.toString(16)}_`;
  return eqname({ uri: `${NS.ascii}${name.uri}`, local });
}

/**
 * A node name as XPath reads it in a node test: the EQName; the unprefixed name when it has no
 * namespace (the generated code sets no default element namespace); otherwise undefined, and
 * the caller tests the node name in a predicate (`nameTestPredicate`).
 */
export function nodeNameInXPath(name: QName): string | undefined {
  if (isEQNameWritable(name.local)) return eqname(name);
  return name.uri === '' ? lexicalQName(undefined, name.local) : undefined;
}

/** `[node-name() eq QName(uri, local)]`: the test of a node name XPath cannot write. */
export function nameTestPredicate(name: QName): string {
  return `[${braced(NS.fn)}node-name() eq ${braced(NS.fn)}QName(${xpathString(name.uri)}, ${xpathString(name.local)})]`;
}

/** A name test on an axis: `Q{u}l`, `l`, or `*` with a predicate on the node name. */
export function nameTest(name: QName): string {
  return nodeNameInXPath(name) ?? `*${nameTestPredicate(name)}`;
}

/** The wildcard `*:local`: as written, or `*` with a predicate on the local name. */
export function localNameTest(local: string): string {
  return isEQNameWritable(local) ? localWildcard(local) : `*[${braced(NS.fn)}local-name() eq ${xpathString(local)}]`;
}

/** The name as the user wrote it, for messages (`local:f`, `x`, `Q{u}x`). */
export function displayName(name: QName): string {
  if (name.prefix) return `${name.prefix}:${name.local}`;
  return name.uri ? `Q{${name.uri}}${name.local}` : name.local;
}

/** `error(QName(err-ns, CODE), message)` as XPath: raises a W3C error at run time. */
export function xpathError(code: string, message: string): string {
  return `${braced(NS.fn)}error(${braced(NS.fn)}QName(${xpathString(NS.err)}, ${xpathString(code)}), ${xpathString(message)})`;
}

/**
 * A sequence type for an `as` attribute. saxon-js 2.7 misreads `Q{…}local` atomic types in
 * `xsl:function` parameter types, so xs types use the `xs` prefix the stylesheet root declares.
 */
export function asAttribute(type: string): string {
  return xmlAttr(type.split(braced(NS.xs)).join('xs:'));
}
