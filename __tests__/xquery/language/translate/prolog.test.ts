import { engineFixture } from './helpers';

const e = engineFixture();

describe('translate: prolog', () => {
  it.each([
    ['declare namespace p = "urn:p"; declare variable $p:x := 1; $p:x, $Q{urn:p}x', '1\n1'],
    ['declare variable $a := $b + 1; declare variable $b := 1; $a', '2'],
    ['declare variable $x as xs:integer := 2; $x * $x', '4'],
    ['declare function local:f($n) { if ($n le 1) then 1 else $n * local:f($n - 1) }; local:f(5)', '120'],
    ['declare function local:f($a) { 1 }; declare function local:f($a, $b) { 2 }; local:f(0), local:f(0, 0)', '1\n2'],
    ['declare function local:f($a as xs:double) as xs:double { $a }; local:f(1) instance of xs:double', 'true()'],
    ['declare function local:g() { $v }; declare variable $v := "v"; local:g()', '"v"'],
    ['declare %private function local:f() { 1 }; local:f#0(), function-name(local:f#0)', '1\nQ{http://www.w3.org/2005/xquery-local-functions}f'],
    ['declare default function namespace "urn:f"; declare function f() { 3 }; f(), Q{http://www.w3.org/2005/xpath-functions}abs(-1)', '3\n1'],
    ['declare namespace ns = "urn:ns"; declare function ns:function() { "reserved local name" }; ns:function()', '"reserved local name"'],
    ['declare decimal-format local:d decimal-separator = ","; format-number(1.5, "0,0", "Q{http://www.w3.org/2005/xquery-local-functions}d")', '"1,5"'],
    ['declare boundary-space preserve; declare ordering unordered; 1', '1'],
    // not circular: a function that refers to the variable, called only from the body
    ['declare variable $v := local:g(); declare function local:f() { $v }; declare function local:g() { 2 }; local:f()', '2'],
    ['declare variable $v := let $v := 3 return $v; $v', '3'],
    // a cycle only through a branch that is not taken is no cycle (XQDY0054 is dynamic)
    ['declare variable $v := local:f(); declare function local:f() { if (current-date() lt xs:date("1990-01-01")) then $v + 1 else 22 }; $v', '22'],
    ['declare variable $v := local:f#0; declare function local:f() { $v }; function-arity($v)', '0'],
    ['declare variable $v := function() { local:f() }; declare function local:f() { $v }; $v() instance of function(*)', 'true()'],
  ])('%s', async (query, expected) => {
    expect(await e.adaptive(query)).toBe(expected);
  });

  it.each([
    ['declare %public %simple %Q{urn:x}y function local:f() { 1 }; local:f()', '1'],
    ['declare %updating function local:f() { () }; 1', '1'],
    ['declare namespace a = "urn:a"; declare %a:b(1, "c") %private variable $v := 2; $v', '2'],
    ['declare namespace rest = "http://exquery.org/ns/restxq"; declare %rest:path("/x") %output:method("text") function local:f() { 3 }; local:f()', '3'],
    ['%Q{urn:x}y function() { 4 }()', '4'],
  ])('accepts the annotations of %s', async (query, expected) => {
    expect(await e.adaptive(query)).toBe(expected);
  });

  it.each([
    ['declare variable $x := 1; declare variable $x := 2; $x', 'XQST0049', 1, 27],
    ['declare function local:f() { 1 }; declare function local:f() { 2 }; 1', 'XQST0034', 1, 35],
    ['declare function local:f($a, $a) { 1 }; 1', 'XQST0039', 1, 30],
    ['declare function f() { 1 }; 1', 'XQST0045', 1, 1],
    ['declare namespace p = "urn:a"; declare namespace p = "urn:b"; 1', 'XQST0033', 1, 32],
    ['declare namespace xml = "urn:a"; 1', 'XQST0070', 1, 1],
    // XQuery 3.1 §4.14: no default namespace may be the xml or xmlns namespace
    ['declare default element namespace "http://www.w3.org/XML/1998/namespace"; 1', 'XQST0070', 1, 1],
    ['declare default element namespace "http://www.w3.org/2000/xmlns/"; 1', 'XQST0070', 1, 1],
    ['declare default function namespace "http://www.w3.org/XML/1998/namespace"; 1', 'XQST0070', 1, 1],
    // XQuery 3.1 §4.15: annotations in reserved namespaces, on functions and variables
    ['declare %xml:x function local:f() { 1 }; 1', 'XQST0045', 1, 9],
    ['declare %fn:x function local:f() { 1 }; 1', 'XQST0045', 1, 9],
    ['declare %xs:x function local:f() { 1 }; 1', 'XQST0045', 1, 9],
    ['declare %xsi:x function local:f() { 1 }; 1', 'XQST0045', 1, 9],
    ['declare %math:x function local:f() { 1 }; 1', 'XQST0045', 1, 9],
    ['declare %map:x function local:f() { 1 }; 1', 'XQST0045', 1, 9],
    ['declare %array:x("v") function local:f() { 1 }; 1', 'XQST0045', 1, 9],
    ['declare %x function local:f() { 1 }; 1', 'XQST0045', 1, 9],
    ['declare %Q{http://www.w3.org/2012/xquery}y function local:f() { 1 }; 1', 'XQST0045', 1, 9],
    ['declare %xml:x variable $v := 1; 1', 'XQST0045', 1, 9],
    ['declare %fn:x variable $v := 1; 1', 'XQST0045', 1, 9],
    ['declare %public %fn:x variable $v := 1; 1', 'XQST0045', 1, 17],
    ['1 ! %map:x function() { 1 }()', 'XQST0045', 1, 5],
    ['declare %p:x function local:f() { 1 }; 1', 'XPST0081', 1, 9],
    ['declare %public %private function local:f() { 1 }; 1', 'XQST0106', 1, 17],
    ['declare %private %private variable $v := 1; 1', 'XQST0116', 1, 18],
    ['%public function() { 1 }()', 'XQST0125', 1, 1],
    ['import module namespace m = "urn:m"; 1', 'XQST0059', 1, 1],
    ['declare option output:nonsense "x"; 1', 'XQST0109', 1, 1],
    ['declare variable $x := $y; 1', 'XPST0008', 1, 24],
    ['declare function local:f() { . }; local:f()', 'XPDY0002', undefined, undefined],
    // a variable is not in scope in its own initializer
    ['declare variable $v := $v; true()', 'XPST0008', 1, 24],
    ['declare variable $v := function() { $v }; 1', 'XPST0008', 1, 37],
    // circular through functions, even when the variable is never used
    ['declare variable $v := local:f(); declare function local:f() { local:g($v) }; declare function local:g($a) { 1 }; true()', 'XQDY0054', 1, 1],
    ['declare variable $a := $b; declare variable $b := local:f(); declare function local:f() { $a }; 1', 'XQDY0054', 1, 1],
  ])('%s raises %s', async (query, code, line, column) => {
    const err = await e.error(query);
    expect(err.code).toBe(code);
    if (line !== undefined) expect(err).toMatchObject({ line, column });
  });

  it('applies output declarations over the request parameters', async () => {
    const r = await e.run('declare option output:method "json"; declare option output:indent "no"; map { "a": 1 }', {
      serialization: { method: 'xml' },
    });
    expect(r).toMatchObject({ body: '{"a":1}', contentType: 'application/json; charset=UTF-8' });
  });
});
