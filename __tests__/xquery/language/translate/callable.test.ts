import { engineFixture } from './helpers';

const e = engineFixture();

const GLOBAL_JS = 'http://saxonica.com/ns/globalJS';
const IXSL = 'http://saxonica.com/ns/interactiveXSLT';

describe('translate: the function allow-list', () => {
  it.each([
    // a name outside fn, math, map, array, xs, the implemented modules and the query's own
    [`Q{${GLOBAL_JS}}eval("1")`, `[XPST0017] Unknown function: Q{${GLOBAL_JS}}eval#1.`],
    [`declare namespace ixsl = "${IXSL}"; ixsl:eval("1")`, '[XPST0017] Unknown function: ixsl:eval#1.'],
    [`declare namespace ixsl = "${IXSL}"; ixsl:get#2`, '[XPST0017] Unknown function: ixsl:get#2.'],
    [`"1" => Q{${GLOBAL_JS}}eval()`, `[XPST0017] Unknown function: Q{${GLOBAL_JS}}eval#1.`],
    [`Q{${GLOBAL_JS}}eval(?)("1")`, `[XPST0017] Unknown function: Q{${GLOBAL_JS}}eval#1.`],
    ['declare namespace saxon = "http://saxon.sf.net/"; saxon:evaluate("1")', '[XPST0017] Unknown function: saxon:evaluate#1.'],
    ['Q{http://www.w3.org/1999/XSL/Transform}evaluate("1")', '[XPST0017] Unknown function: Q{http://www.w3.org/1999/XSL/Transform}evaluate#1.'],
    ['Q{urn:unknown}f()', '[XPST0017] Unknown function: Q{urn:unknown}f#0.'],
    // the engine's own functions, which the translator's calls keep using
    ['Q{urn:xmldb-rest:engine}doc("db/a.xml")', '[XPST0017] Unknown function: Q{urn:xmldb-rest:engine}doc#1.'],
    ['Q{urn:xmldb-rest:engine}uri-collection#1', '[XPST0017] Unknown function: Q{urn:xmldb-rest:engine}uri-collection#1.'],
    ['Q{urn:xmldb-rest:update}copy(<a/>)', '[XPST0017] Unknown function: Q{urn:xmldb-rest:update}copy#1.'],
    // declaring in those namespaces (XQuery's reserved ones give the same error)
    ['declare function Q{urn:xmldb-rest:engine}doc($u) { 1 }; 1', '[XQST0045] Function Q{urn:xmldb-rest:engine}doc is declared in a reserved namespace.'],
    [`declare namespace js = "${GLOBAL_JS}"; declare function js:eval($s) { $s }; js:eval("1")`, '[XQST0045] Function js:eval is declared in a reserved namespace.'],
    ['declare variable $Q{urn:xmldb-rest:var}x := 1; 2', '[XQST0045] Variable $Q{urn:xmldb-rest:var}x is declared in a reserved namespace.'],
    ['let $Q{urn:xmldb-rest:var}focus.item := 1 return 2', '[XQST0045] Variable $Q{urn:xmldb-rest:var}focus.item is declared in a reserved namespace.'],
    ['for $x in 1 return $Q{urn:xmldb-rest:var}x.1', '[XPST0008] Undeclared variable: $Q{urn:xmldb-rest:var}x.1.'],
    // fn:transform would compile a stylesheet of the query's choosing
    ['transform(map { "stylesheet-text": "<x/>" })', '[FOXT0004] fn:transform is disabled: queries may not run stylesheets.'],
    ['transform#1(map { })', '[FOXT0004] fn:transform is disabled: queries may not run stylesheets.'],
    ['function-lookup(xs:QName("fn:transform"), 1)(map { })', '[FOXT0004] fn:transform is disabled: queries may not run stylesheets.'],
    ['load-xquery-module("urn:m")', '[FOQM0006] No XQuery processor available'],
  ])('%s → %s', async (query, line) => {
    expect((await e.error(query)).body.split('\n').pop()).toBe(line);
  });

  it.each([
    // function-lookup answers within the same list: unknown names are the empty sequence
    [`exists(function-lookup(QName("${GLOBAL_JS}", "eval"), 1))`, 'false()'],
    [`exists(function-lookup(QName("${IXSL}", "window"), 0))`, 'false()'],
    ['exists(function-lookup(QName("urn:xmldb-rest:engine", "doc"), 1))', 'false()'],
    ['exists(function-lookup(QName("urn:xmldb-rest:gen", "function-lookup"), 2))', 'false()'],
    ['exists(function-lookup(xs:QName("fn:current"), 0))', 'false()'],
    ['function-lookup(xs:QName("fn:function-lookup"), 2)(QName("urn:xmldb-rest:engine", "doc"), 1) => exists()', 'false()'],
    ['let $f := function-lookup#2 return exists($f(QName("urn:xmldb-rest:engine", "doc"), 1))', 'false()'],
    // and finds what a query may call
    ['function-lookup(xs:QName("fn:abs"), 1)(-3)', '3'],
    ['function-lookup(xs:QName("math:sqrt"), 1)(4)', '2.0e0'],
    ['function-lookup(xs:QName("xs:integer"), 1)("7")', '7'],
    ['declare function local:f($x) { $x * 2 }; function-lookup(xs:QName("local:f"), 1)(4), exists(function-lookup(xs:QName("local:f"), 2))', '8\nfalse()'],
    ['declare namespace p = "urn:p"; declare function p:f() { "p" }; function-lookup(QName("urn:p", "f"), 0)()', '"p"'],
    ['<a>x</a>/function-lookup(xs:QName("fn:name"), 0)()', '"a"'],
    ['function-lookup(xs:QName("fn:function-lookup"), 2)(xs:QName("fn:upper-case"), 1)("a")', '"A"'],
    ['function-lookup(?, 1)(xs:QName("fn:abs"))(-1)', '1'],
    // fn:doc found by lookup is the engine's: stored resources, no host files
    ['function-lookup(xs:QName("fn:doc-available"), 1)("file:///etc/passwd")', 'false()'],
    ['environment-variable("PATH"), available-environment-variables()', ''],
  ])('%s → %s', async (query, expected) => {
    expect(await e.adaptive(query)).toBe(expected);
  });
});
