/**
 * The language wall alone: whatever URIs, names and strings a query holds, in whatever position,
 * the translator either refuses the query with a static error or generates code that calls and
 * names nothing the query did not. Checked on the generated code itself (helpers/generated-code.ts),
 * first with the parser's checks of URIs, then with them switched off (the emitter alone).
 */
import fc from 'fast-check';
import { XQuerySyntaxError, parseQuery } from '../../lib/xquery/language/syntax';
import { LocatedQueryError } from '../../lib/xquery/static-errors';
import { generatedCode } from '../helpers/generated-code';
import { INTERNAL_NAMESPACE_PREFIX, NS } from '../../lib/xquery/constants';
import { MODULE_NAMESPACES } from '../../lib/xquery/module-namespaces';
import { normalizeUriLiteral } from '../../lib/xquery/language/syntax/uri-literals';
import { translate } from '../helpers/translation';

// Switches the parser's refusal of unsafe URIs off, so that the emitter is tested alone.
let mockParserChecksUris = true;
jest.mock('../../lib/xquery/language/syntax/uri-literals', () => {
  const actual = jest.requireActual('../../lib/xquery/language/syntax/uri-literals');
  return {
    ...actual,
    uriLiteralProblem: (uri: string) => (mockParserChecksUris ? actual.uriLiteralProblem(uri) : undefined),
    bracedUriLiteralProblem: (uri: string) => (mockParserChecksUris ? actual.bracedUriLiteralProblem(uri) : undefined),
  };
});

/** What query data carries to reach code: a call in a namespace no query may call. */
const CANARY_NS = 'urn:canary';
const PAYLOAD = `Q{${CANARY_NS}}boom(`;
const HIDDEN = ['http://saxonica.com/ns/interactiveXSLT', 'http://saxonica.com/ns/globalJS', 'http://saxon.sf.net/'];
const WHITESPACE = [' ', '\t', '\n', '\r', '\u00a0', '\u2028', '\u2029', '\ufeff', '\u3000', '\u0085', '\u000b', '\u000c'];
const DANGEROUS = ['{', '}', '{{', '}}', '"', "'", '""', '&', '<', '>', ']]>', '-->', '?>', '(:', ':)', '$', '#', '(', ')', ',', '!', '/', ':', ';', '\\', 'é', '\u{1F600}', 'Ω'];
const FRAGMENTS = [PAYLOAD, `x}a), (${PAYLOAD}map{}, 'x')), (()!Q{y`, `"), ${PAYLOAD}), ("`, `'), ${PAYLOAD}), ('`, `{${PAYLOAD})}`, 'urn:a', 'http://example.com/'];

const piece = fc.oneof(fc.constantFrom(...WHITESPACE), fc.constantFrom(...DANGEROUS), fc.constantFrom(...FRAGMENTS), fc.constantFrom(...HIDDEN), fc.string({ maxLength: 4 }));
/** Pieces of URIs the parser accepts (no braces, only XML whitespace), so that most queries reach the emitter. */
const acceptedPiece = fc.oneof(
  fc.constantFrom(...WHITESPACE.slice(0, 4)),
  fc.constantFrom(...DANGEROUS.filter((d) => !/[{}]/.test(d))),
  fc.constantFrom(...HIDDEN, 'urn:a', 'http://example.com/', "'), boom(('", '"), Q(urn:canary)boom(("'),
);
/** A namespace URI: anything, hidden namespaces wrapped in whitespace of every kind included. */
const uriArb = fc.oneof(
  { arbitrary: fc.array(acceptedPiece, { minLength: 1, maxLength: 6 }).map((a) => a.join('')), weight: 3 },
  fc.array(piece, { maxLength: 6 }).map((a) => a.join('')),
  fc.tuple(fc.array(fc.constantFrom(...WHITESPACE), { maxLength: 3 }), fc.constantFrom(...HIDDEN), fc.array(fc.constantFrom(...WHITESPACE), { maxLength: 3 })).map(
    ([a, h, b]) => a.join('') + h + b.join(''),
  ),
);
/** A string value. */
const stringArb = fc.array(piece, { maxLength: 6 }).map((a) => a.join(''));
/** An NCName (no "y": the canary's word never is a name). */
const nameArb = fc
  .tuple(fc.constantFrom('a', 'b', '_', 'é', 'Ω', 'x', 'E'), fc.array(fc.constantFrom('a', 'z', '-', '.', '1', '_', 'ü', '\u0300'), { maxLength: 5 }))
  .map(([h, t]) => h + t.join(''));

/** A string literal of XQuery with the value `s`. */
const lit = (s: string): string => `"${s.replace(/&/g, '&amp;').replace(/"/g, '""')}"`;
/** The same in a direct constructor's attribute (`{`, `}` doubled, `<` as a reference). */
const attr = (s: string): string => `"${s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;').replace(/[{}]/g, '$&$&').replace(/[\t\n\r]/g, (c) => `&#${c.charCodeAt(0)};`)}"`;
/** A BracedURILiteral (`{`, `}` only as references). */
const braced = (u: string): string => `Q{${u.replace(/&/g, '&amp;').replace(/\{/g, '&#x7B;').replace(/\}/g, '&#x7D;')}}`;
/** Text of a direct comment or PI: what their grammar cannot hold is left out. */
const plain = (s: string): string => s.replace(/-+/g, '').replace(/\?>/g, '').replace(/#\)/g, '');

type Position = (u: string, n: string, s: string) => string;

/** Every position where a query puts a URI, a name or a string, each as a query. */
const POSITIONS: Readonly<Record<string, Position>> = {
  'namespace declaration, name test': (u, n) => `declare namespace p = ${lit(u)}; document{<r/>}/p:${n}`,
  'namespace declaration, attribute test': (u, n) => `declare namespace p = ${lit(u)}; <r/>/@p:${n}`,
  'default element namespace': (u, n) => `declare default element namespace ${lit(u)}; <${n}/>, document{<r/>}/${n}`,
  'default function namespace': (u, n) => `declare default function namespace ${lit(u)}; declare function local:${n}() { 1 }; local:${n}()`,
  'xmlns:p on a direct constructor': (u, n, s) => `<p:${n} xmlns:p=${attr(u)} a=${attr(s)}>{ p:${n} }</p:${n}>`,
  'xmlns on a direct constructor': (u, n, s) => `<${n} xmlns=${attr(u)}>{ ${lit(s)} }<c/></${n}>`,
  'xmlns:p around computed constructors': (u, n, s) => `<a xmlns:p=${attr(u)}>{ element p:${n} { attribute p:${n} { ${lit(s)} }, element ${n} { ${lit(s)} } } }</a>`,
  'computed constructors of prefixed names': (u, n, s) => `declare namespace p = ${lit(u)}; element p:${n} { attribute p:${n} { ${lit(s)} }, ${lit(s)} }`,
  'computed constructors of computed names': (u, n, s) => `declare namespace p = ${lit(u)}; element { "p:${n}" } { attribute { ${lit(s)} } { ${lit(s)} }, element { ${lit(s)} } {} }`,
  'computed element and attribute': (u, n, s) => `element ${braced(u)}${n} { attribute ${braced(u)}${n} { ${lit(s)} } }`,
  'computed names from strings': (u, n, s) => `element { ${lit(s)} } { attribute { ${lit(`p:${n}`)} } { ${lit(u)} } }`,
  'computed namespace': (u, n) => `element r { namespace ${n} { ${lit(u)} } }`,
  'computed comment and PI': (_u, n, s) => `comment { ${lit(s)} }, processing-instruction ${n} { ${lit(s)} }, processing-instruction { ${lit(s)} } { 1 }`,
  'direct comment and PI': (_u, n, s) => `<r><!--${plain(s)}--><?${n.replace(/^xml/i, 'q')} ${plain(s)}?></r>`,
  'kind tests': (u, n) => `declare namespace p = ${lit(u)}; document{<r/>}//element(p:${n}), document{<r/>}//attribute(p:${n}), <r/> instance of element(${braced(u)}${n})`,
  'wildcards': (u, n) => `document{<r/>}//${braced(u)}*, document{<r/>}//*:${n}, document{<r/>}/@${braced(u)}*`,
  'typeswitch': (u, n) => `declare namespace p = ${lit(u)}; typeswitch (<r/>) case element(p:${n}) return 1 case attribute(${braced(u)}${n}) return 2 default return 3`,
  'global variable': (u, n, s) => `declare namespace p = ${lit(u)}; declare variable $p:${n} := ${lit(s)}; $p:${n}`,
  'external variable': (u, n) => `declare variable ${'$'}${braced(u)}${n} external := 1; $${braced(u)}${n}`,
  'local variables': (u, n, s) => `let $${braced(u)}${n} := ${lit(s)} for $${n} at $p in (1, 2) return ($${braced(u)}${n}, $${n}, $p)`,
  'function and parameter names': (u, n, s) => `declare namespace p = ${lit(u)}; declare function p:${n}($p:${n}) { $p:${n} }; p:${n}(${lit(s)}), p:${n}#1(1), ${lit(s)} => p:${n}()`,
  'inline function parameters': (u, n) => `function($${braced(u)}${n}) { $${braced(u)}${n} }(1)`,
  'decimal format': (u, n, s) => `declare namespace p = ${lit(u)}; declare decimal-format p:${n} infinity = ${lit(s)}; format-number(1, "0", "p:${n}")`,
  'catch clauses': (u, n, s) => `declare namespace p = ${lit(u)}; try { error(QName(${lit(u)}, "${n}"), ${lit(s)}) } catch p:${n} | ${braced(u)}* | *:${n} { $err:description }`,
  'string literals': (_u, _n, s) => `${lit(s)}, concat(${lit(s)}, ${lit(s)}), <a b="{${lit(s)}}">{ ${lit(s)} }</a>, string-length(${lit(s)}) = 3`,
  'string literals in a FLWOR': (_u, _n, s) => `for $x in (${lit(s)}, "b") where $x = ${lit(s)} order by $x return $x || ${lit(s)}`,
  'casts to xs:QName': (u, n, s) => `declare namespace p = ${lit(u)}; xs:QName("p:${n}"), ${lit(s)} castable as xs:QName, QName(${lit(u)}, "p:${n}")`,
  'pragma': (u, n, s) => `(# ${braced(u)}${n} ${plain(s)} #) { 1 }`,
  'option': (u, n, s) => `declare option ${braced(u)}${n} ${lit(s)}; 1`,
  'module import (unknown modules are refused)': (u) => `import module namespace p = ${lit(u)}; 1`,
  'module import with location (unknown modules are refused)': (u, _n, s) => `import module namespace p = ${lit(u)} at ${lit(s)}; 1`,
  'collations (unknown ones are refused)': (u, _n, s) => `for $x in (${lit(s)}, "a") order by $x collation ${lit(u)} return $x`,
  'default collation (unknown ones are refused)': (u) => `declare default collation ${lit(u)}; 1`,
  'base URI': (u) => `declare base-uri ${lit(u)}; static-base-uri()`,
  'function lookup': (u, n) => `function-lookup(QName(${lit(u)}, "${n}"), 0)`,
  'full-text words, options and URIs': (u, n, s) =>
    `declare ft-option using stop words at ${lit(u)}; ${lit(s)} contains text ${lit(s)} using stop words (${lit(s)}) using language ${lit(s)} using thesaurus at ${lit(u)} relationship ${lit(s)} ftand { ${lit(s)} } all words weight { 1 } ftor (# ${braced(u)}${n} ${plain(s)} #) { ${lit(s)} phrase } ordered`,
  'full-text extension option and score': (u, n, s) => `declare namespace p = ${lit(u)}; for $x score $s in (${lit(s)})[. contains text ${lit(s)} using option p:${n} ${lit(s)}] return $s`,
};

/** Whether `e` is a static error the engine reports as `[CODE] message`. */
function isStaticError(e: unknown): boolean {
  return e instanceof XQuerySyntaxError || e instanceof LocatedQueryError;
}

/** Namespaces of the translator's own names in generated code. */
const OWN_NAMESPACES = new Set<string>(['', ...Object.values(NS), ...Object.values(MODULE_NAMESPACES)]);

/**
 * Translates `query` in every context mode; checks the code of each (its names are the
 * translator's own or in the namespace `uri` the query wrote), or that it was refused. Whether translated.
 */
function checkQuery(query: string, uri: string): boolean {
  const queryNamespaces = new Set([normalizeUriLiteral(uri), `${NS.ascii}${normalizeUriLiteral(uri)}`]);
  for (const contextMode of ['none', 'single', 'multi'] as const) {
    let translation;
    try {
      translation = translate(query, contextMode);
    } catch (e) {
      if (!isStaticError(e)) throw e;
      return false;
    }
    const code = generatedCode(translation);
    for (const name of code.names) {
      const own = OWN_NAMESPACES.has(name.uri) || name.uri.startsWith(INTERNAL_NAMESPACE_PREFIX);
      if (!own && !queryNamespaces.has(name.uri)) throw new Error(`a namespace the query did not write: Q{${name.uri}}${name.local} for ${query}`);
      if (name.call && HIDDEN.some((h) => name.uri.trim().startsWith(h.trim()))) throw new Error(`call of a hidden function Q{${name.uri}}${name.local} for ${query}`);
      if (name.call && name.uri === CANARY_NS) throw new Error(`query data became a call: Q{${name.uri}}${name.local} for ${query}`);
    }
    if (code.residue.includes('canary') || code.residue.includes('boom')) throw new Error(`query data became code for ${query}:\n${code.residue}`);
  }
  return true;
}

const RUNS = 60;

describe.each([
  ['with the parser checking URIs', true],
  ['with the parser checks off (the emitter alone)', false],
])('translator: no query data in generated code, %s', (_label, parserChecks) => {
  beforeAll(() => {
    mockParserChecksUris = parserChecks;
  });
  afterAll(() => {
    mockParserChecksUris = true;
  });

  it.each(Object.entries(POSITIONS))('%s', (name, position) => {
    let translated = 0;
    fc.assert(
      fc.property(uriArb, nameArb, stringArb, (u, n, s) => {
        if (checkQuery(position(u, n, s), u)) translated++;
      }),
      { numRuns: RUNS },
    );
    // the property checked generated code, not only refusals
    if (!name.includes('refused')) expect(translated).toBeGreaterThan(RUNS / 10);
  });
});

describe('translator: URIs the generated code cannot carry are static errors', () => {
  it.each([
    ['a "}" in a namespace declaration', `declare namespace p = "x}a), (Q{http://saxonica.com/ns/interactiveXSLT}get(map{}, 'constructor.name')), (()!Q{y"; document{<r/>}/p:a`],
    ['a "{" in xmlns', '<p:a xmlns:p="x{{y"/>'],
    ['a "}" in the default element namespace', 'declare default element namespace "}"; <a/>'],
    ['a "}" in the default function namespace', 'declare default function namespace "a}b"; 1'],
    ['a no-break space', 'declare namespace p = "\u00a0http://saxonica.com/ns/interactiveXSLT"; <r/>/p:a'],
  ])('%s: XQST0046', (_what, query) => {
    expect(() => parseQuery(query)).toThrow(expect.objectContaining({ code: 'XQST0046' }));
  });

  it.each([
    ['a name test', 'document{<r/>}/Q{x&#x7D;a}b'],
    ['a wildcard', 'document{<r/>}//Q{x&#x7D;a}*'],
    ['a global variable', 'declare variable $Q{&#x7B;}v := 1; $Q{&#x7B;}v'],
    ['a function', 'declare function Q{&#x7D;}f() { 1 }; Q{&#x7D;}f()'],
    ['a kind test', '<r/> instance of element(Q{&#x7D;}a)'],
  ])('a "{" or "}" of a braced URI literal in %s: XQST0046 from the emitter', (_what, query) => {
    expect(() => translate(query, 'none')).toThrow(expect.objectContaining({ code: 'XQST0046' }));
  });

  it('a "{" or "}" of a braced URI literal in a constructor name is data: carried', () => {
    const query = 'element Q{&#x7B;&#x7D;}x {}, attribute Q{&#x7D;}y {}';
    const code = generatedCode(translate(query, 'none'));
    expect(code.names.filter((n) => /[{}]/.test(n.uri))).toEqual([]);
  });

  it('a hidden namespace in XML whitespace is the hidden namespace: its functions cannot be declared', () => {
    const query = 'declare namespace i = " http://saxonica.com/ns/interactiveXSLT\t"; declare function i:get($o, $p) { () }; i:get(map{}, "constructor.name")';
    expect(() => translate(query, 'none')).toThrow(expect.objectContaining({ code: 'XQST0045' }));
  });
});
