import { isPure } from '../../../../lib/xquery/language/analysis/pure';
import { parseQuery } from '../../../../lib/xquery/language/syntax';

const pure = (query: string) => isPure(parseQuery(query));

describe('pure queries: a result from the text and external variables alone', () => {
  test.each([
    ['arithmetic', '1 + 1'],
    ['strings, sequences, higher-order functions', 'string-join(for $i in 1 to 3 return string($i), ",") , sort((3, 1)), (1, 2) ! (. * 2)'],
    ['math, map, array and xs', 'math:pi(), map:size(map { 1: 2 }), array:size([1]), xs:integer("1")'],
    ['constructors and copy/modify', 'copy $x := <a/> modify insert node <b/> into $x return $x'],
    ['external variables', 'declare variable $k external; $k * 2'],
    ['prolog functions and variables', 'declare variable $v := 2; declare function local:f($x) { $x + $v }; local:f(1)'],
    ['named references and arrows to fn', 'let $f := upper-case#1 return $f("a") => lower-case()'],
    ['a prolog function shadowing nothing', 'declare function local:doc($x) { $x }; local:doc("k")'],
    ['the context item (an error when none is given)', '.'],
  ])('%s', (_name, query) => {
    expect(pure(query)).toBe(true);
  });

  test.each([
    ['the clock', 'current-dateTime()'],
    ['the clock through a reference', 'let $f := current-date#0 return $f()'],
    ['the clock through an arrow', '() => current-time()'],
    ['the implicit time zone', 'implicit-timezone()'],
    ['documents', 'doc("db/x.xml")'],
    ['documents through an arrow', '"db/x.xml" => doc()'],
    ['collections', 'collection("db")'],
    ['text resources', 'unparsed-text("db/a.txt")'],
    ['JSON documents', 'json-doc("db/a.json")'],
    ['trace output', 'trace(1)'],
    ['fn:put, even where it is not the body', 'copy $x := <a/> modify put($x, "db/x.xml") return $x'],
    ['random numbers', 'random-number-generator()?number'],
    ['environment', 'environment-variable("HOME"), available-environment-variables()'],
    ['functions chosen at run time', 'function-lookup(xs:QName("fn:current-date"), 0)()'],
    ['parsed XML (its DTD may name external entities)', 'parse-xml("<a/>")'],
    ['an extension module', 'random:double()'],
    ['an extension module without effects', 'hash:md5("a")'],
    ['a database function', 'db:list()'],
    ['xquery:eval', 'xquery:eval("1")'],
    ['a function in a prolog-declared namespace', 'declare namespace x = "urn:x"; x:f()'],
    ['an undeclared prefix', 'q:f()'],
    ['a pragma', '(# basex:non-deterministic #) { 1 }'],
    ['a module import', 'import module namespace m = "urn:m" at "m.xqm"; 1'],
    ['a context item declaration', 'declare context item := 1; .'],
    ['impurity inside a prolog function', 'declare function local:now() { current-dateTime() }; 1'],
  ])('not %s', (_name, query) => {
    expect(pure(query)).toBe(false);
  });

  it('takes syntax it does not list as impure', () => {
    const module = parseQuery('1 + 1');
    const unknown = { ...module, body: { kind: 'SomeLaterExpr', start: 0, end: 5 } } as unknown as typeof module;
    expect(isPure(unknown)).toBe(false);
  });
});
