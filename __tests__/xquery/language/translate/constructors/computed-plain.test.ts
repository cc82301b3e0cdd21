/**
 * Computed element, attribute and text constructors as calls of the runtime library's
 * constructor functions (constructors/xpath.ts `plainComputedCall` where their names are static
 * and in no namespace, constructors/namespaced-elements.ts `namespacedComputedCall` for other
 * static names): the answers and errors of the generated functions they replace, on the
 * library, on the XPath evaluator and in a stylesheet of its own; the other cases keep the
 * generated functions.
 */
import { doc, engineFixture } from '../helpers';
import { translate } from '../../../../helpers/translation';

const e = engineFixture();
const context = doc('<r><b>x</b><b>y</b></r>');

/** Whether the translation of `query` still generates a function for a constructor. */
const lifts = (query: string): boolean => /<xsl:function name="Q\{urn:xmldb-rest:gen\}f\d+"/.test(translate(query, 'single').xslt);

describe('plain computed constructors', () => {
  it.each([
    ['element a {}', 'ok <a/>'],
    ['element a { attribute b {1, 2}, "x", 3 }', 'ok <a b="1 2">x 3</a>'],
    ['element a { <b/>, element c { 3 }, () }', 'ok <a><b/><c>3</c></a>'],
    ['element a { /r/b, /r/b/text() }', 'ok <a><b>x</b><b>y</b>xy</a>'],
    ['element a { . }', 'ok <a><r><b>x</b><b>y</b></r></a>'],
    ['for $i in 1 to 2 return element e { attribute n { $i }, $i * 2 }', 'ok <e n="1">2</e>\n<e n="2">4</e>'],
    ['attribute b { 1, 2 }', 'ok b="1 2"'],
    ['attribute b {}', 'ok b=""'],
    ['<a>{attribute b { /r/b }}</a>', 'ok <a b="x y"/>'],
    ['text { 1, 2 }', 'ok 1 2'],
    ['count(text { () }), count(text { "" }), count(text {})', 'ok 0\n1\n0'],
    ['element a { text { "t" }, text { () } }', 'ok <a>t</a>'],
    ['element a { element b { element c {} } }/b/c ! (name(), name(..), name(../..))', 'ok "c"\n"b"\n"a"'],
    ['let $x := element a {} return ($x is $x, $x is element a {})', 'ok true()\nfalse()'],
    ['base-uri(element a {}) = static-base-uri()', 'ok true()'],
    ['declare base-uri "http://example.org/q/"; base-uri(element a {})', 'ok "http://example.org/q/"'],
    ['element a { 1 idiv 0 }', 'error FOAR0001'],
    ['element a { attribute b {1}, attribute b {2} }', 'error XQDY0025'],
    ['element a { "x", attribute b {1} }', 'error XQTY0024'],
    ['element a { map {} }', 'error XQTY0105'],
    ['attribute xmlns { 1 }', 'error XQDY0044'],
    // names in namespaces, or declarations around (namespaced-elements.ts `namespacedComputedCall`)
    ['declare namespace p = "urn:p"; element p:a { attribute p:b { 1 }, element c { 2 } }', 'ok <p:a xmlns:p="urn:p" p:b="1"><c>2</c></p:a>'],
    ['attribute xml:id { " x  y " }', 'ok xml:id="x y"'],
    ['declare default element namespace "urn:d"; element a { element b {}, element Q{}c {} }', 'ok <a xmlns="urn:d"><b/><c xmlns=""/></a>'],
    ['<p:x xmlns:p="urn:p">{element a { attribute p:b {} }}</p:x>/a ! (., sort(in-scope-prefixes(.)))', 'ok <a xmlns:p="urn:p" p:b=""/>\n"p"\n"xml"'],
    ['element xml:a { 1 }', 'ok <xml:a>1</xml:a>'],
    ['element Q{http://www.w3.org/2000/xmlns/}a {}', 'error XQDY0096'],
    // computed names (namespaced-elements.ts `computedNameCall`)
    ['declare namespace p = "urn:p"; for $n in ("a", "p:b", "Q{urn:q}c", QName("urn:r", "r:d")) return element { $n } { attribute { $n } { 1 } }', 'ok <a a="1"/>\n<p:b xmlns:p="urn:p" p:b="1"/>\n<c xmlns:ns0="urn:q" xmlns="urn:q" ns0:c="1"/>\n<r:d xmlns:r="urn:r" r:d="1"/>'],
    ['declare default element namespace "urn:d"; element { "a" } { attribute { "b" } {} }', 'ok <a xmlns="urn:d" b=""/>'],
    ['element { "a" } { attribute { "xml:id" } { " x  y " } }', 'ok <a xml:id="x y"/>'],
    ['element { "p:a" } {}', 'error XQDY0074'],
    ['element { "a b" } {}', 'error XQDY0074'],
    ['element { 1 } {}', 'error XPTY0004'],
    ['element { () } {}', 'error XPTY0004'],
    ['element { "xmlns:a" } {}', 'error XQDY0074'],
    ['element { QName("http://www.w3.org/2000/xmlns/", "a") } {}', 'error XQDY0096'],
    ['attribute { "xmlns" } {}', 'error XQDY0044'],
  ])('%s', async (query, expected) => {
    expect(await e.outcome(query, context)).toBe(expected);
    // the same inside a declared function: a stylesheet of its own
    const [, prolog, body] = /^((?:declare [^;]*; )*)(.*)$/.exec(query)!;
    expect(await e.outcome(`${prolog}declare function local:q($c) { $c ! (${body}) }; local:q(.)`, context)).toBe(expected);
  });

  it.each([
    ['element a { 1 }', false],
    ['attribute b { 1 }', false],
    ['text { 1 }', false],
    ['element p:a { 1 }', false],
    ['element { "a" } { 1 }', false],
    ['<p:x xmlns:p="urn:p">{element { "a" } {}}</p:x>', true],
    ['attribute xml:id { " x " }', false],
    ['declare default element namespace "urn:d"; element a {}', false],
    ['<p:x xmlns:p="urn:p">{element a {}}</p:x>', false],
    ['element Q{http://www.w3.org/2000/xmlns/}a {}', true],
    ['declare copy-namespaces no-preserve, inherit; element a {}', true],
  ])('%s generates a function: %s', (query, lifted) => {
    expect(lifts(query.replace('element p:a', 'declare namespace p = "urn:p"; element p:a'))).toBe(lifted);
  });

  it.each([
    ['declare default element namespace "urn:d"; element a { element b {} }', 'ok <a xmlns="urn:d"><b/></a>'],
    ['<p:x xmlns:p="urn:p">{element a {}}</p:x>', 'ok <p:x xmlns:p="urn:p"><a/></p:x>'],
    ['element xmlns {}', 'ok <xmlns/>'],
  ])('%s: as before', async (query, expected) => {
    expect(await e.outcome(query, context)).toBe(expected);
  });
});
