/**
 * Declared functions as function items of the query's one expression (translate/function-items.ts):
 * which queries get them, and that a run as one expression answers what the same query with
 * `xsl:function`s answers, errors included.
 */
import { QueryError } from '../../../../lib/xquery/query-error';
import { literalBindings } from '../../../../lib/xquery/engine/run-parts';
import { xpathToRun } from '../../../../lib/xquery/language/translate';
import { QueryPool } from '../../../../lib/xquery/host/pool';
import { XSLT_CODES } from '../../../../lib/xquery/engine/engine';
import { translate } from '../../../helpers/translation';
import { engineFixture } from './helpers';

describe('the translation', () => {
  test('a declared function is an item of the expression, not an xsl:function', () => {
    const t = translate('declare function local:twice($x) { 2 * $x }; local:twice(3)');
    expect(t.xpath?.expression).toContain('function(');
    expect(t.xslt).not.toContain('<xsl:function');
  });

  test('without items (the option off), the same query declares an xsl:function and is no expression', () => {
    const t = translate('declare function local:twice($x) { 2 * $x }; local:twice(3)', 'none', { expressionForms: false });
    expect(t.xslt).toContain('<xsl:function');
    expect(t.xpath).toBeUndefined();
  });

  test('a query that needs its stylesheet anyway keeps xsl:functions', () => {
    // a declared decimal format is a declaration of the query's own stylesheet
    const t = translate('declare decimal-format local:d decimal-separator = ","; declare function local:f() { 1 }; local:f()');
    expect(t.xslt).toContain('<xsl:function name="Q{http://www.w3.org/2005/xquery-local-functions}f"');
    expect(t.xslt).not.toContain('functions(0)');
  });

  test('an updating function is an item of the expression too', () => {
    const t = translate('declare %updating function local:del($n) { delete node $n }; copy $c := <a><b/></a> modify local:del($c/b) return $c');
    expect(t.xpath?.expression).toContain('function(');
    expect(t.xslt).not.toContain('<xsl:function');
  });

  test('a named reference that a higher-order function only calls is an inline function calling the item', () => {
    const t = translate('declare function local:twice($x) { 2 * $x }; for-each((1, 2), local:twice#1)');
    expect(t.xpath?.expression).toContain('function($Q{urn:xmldb-rest:var}ref');
    expect(t.xslt).not.toContain('<xsl:function');
  });

  test.each([
    ['returned', 'declare function local:f($x) { $x }; local:f#1'],
    ['asked for its name', 'declare function local:f($x) { $x }; function-name(local:f#1)'],
    ['in the sequence a higher-order function passes on', 'declare function local:f() { 1 }; fold-left(local:f#0, (), function($a, $f) { $f })'],
    ['bound to a variable first', 'declare function local:f($x) { $x }; let $g := local:f#1 return for-each(1, $g)'],
  ])('a named reference that is an item of the query (%s) keeps xsl:functions', (_name, query) => {
    const t = translate(query);
    expect(t.xpath).toBeUndefined();
    expect(t.xslt).toContain('<xsl:function');
  });

  test('a function that calls no declared function and uses no focus is written out where it is called', () => {
    const t = translate('declare function local:twice($x as xs:integer) as xs:integer { 2 * $x }; for $i in 1 to 3 return local:twice(local:twice($i))');
    expect(t.xpath?.expression).not.toContain('functions(0)(');
    // its item stays in the map, for references to it
    expect(t.xpath?.expression).toContain('0: function(');
  });

  test.each([
    ['calls itself', 'declare function local:f($n) { if ($n = 0) then 0 else local:f($n - 1) }; local:f(3)', 'functions(0)('],
    ['calls another declared function', 'declare function local:g($n) { $n }; declare function local:f($n) { local:g($n) + 1 }; local:f(3)', 'functions(1)('],
    ['calls another declared function by an arrow', 'declare function local:g($n) { $n }; declare function local:f($n) { $n => local:g() }; local:f(3)', 'functions(1)('],
    ['names a declared function', 'declare function local:g($n) { $n }; declare function local:f($n) { for-each($n, local:g#1) }; local:f(3)', 'functions(1)('],
    ['uses the focus (absent in a function)', 'declare function local:f() { . }; (1, 2) ! local:f()', 'functions(0)('],
    ['is given a placeholder', 'declare function local:f($a, $b) { $a + $b }; local:f(?, 1)(2)', 'functions(0)('],
    ['is updating', 'declare %updating function local:del($n) { delete node $n }; copy $c := <a><b/></a> modify local:del($c/b) return $c', 'functions(0)('],
  ])('a function that %s is called through the map', (_name, query, call) => {
    expect(translate(query).xpath?.expression).toContain(call);
  });

  test('names of the query never reach the generated code: functions are numbered', () => {
    const t = translate('declare namespace q = "urn:marker-7f3a"; declare function q:f($x) { $x }; q:f(1)');
    expect(t.xpath?.expression).toEqual(expect.any(String));
    expect(t.xpath?.expression).not.toContain('marker-7f3a');
  });
});

describe('a run as one expression answers what xsl:functions answer', () => {
  let pool: QueryPool;
  beforeAll(() => {
    pool = new QueryPool({ size: 1 });
  });
  afterAll(() => pool.close());
  const serialization = { method: 'adaptive', 'item-separator': '|' };

  const outcome = (job: { xslt: string; xpath?: string }, params: ReturnType<typeof literalBindings>) =>
    pool.run({ ...job, params: Object.fromEntries(params), serialization }).then(
      (r) => r.body,
      // the codes a client sees: the engine reports XSLT's type errors as XQuery's
      (e: QueryError) => `[${XSLT_CODES[e.code] ?? e.code}]`,
    );

  test.each([
    ['a recursive function', 'declare function local:fib($n as xs:integer) as xs:integer { if ($n < 2) then $n else local:fib($n - 1) + local:fib($n - 2) }; local:fib(15)'],
    ['functions calling each other', 'declare function local:even($n) { if ($n = 0) then true() else local:odd($n - 1) }; declare function local:odd($n) { if ($n = 0) then false() else local:even($n - 1) }; local:even(10), local:odd(7)'],
    ['a global variable read by a function', 'declare variable $g := 5; declare function local:add($a) { $a + $g }; local:add(1)'],
    ['a partial application and an arrow', 'declare function local:cat($a, $b) { $a || $b }; let $p := local:cat(?, "!") return ($p("hi"), "x" => local:cat("y"))'],
    ['a function passed on through a partial application', 'declare function local:sq($x) { $x * $x }; for-each((1, 2, 3), local:sq(?)), sum((1 to 4) ! local:sq(.))'],
    ['overloads by arity', 'declare function local:f() { 0 }; declare function local:f($a) { $a }; declare function local:f($a, $b) { $a + $b }; local:f(), local:f(1), local:f(1, 2)'],
    ['an untyped argument cast to the parameter type', 'declare function local:f($a as xs:integer) { $a + 1 }; local:f(xs:untypedAtomic("41"))'],
    ['an integer promoted to xs:double, a URI to xs:string', 'declare function local:d($a as xs:double) { $a }; declare function local:s($a as xs:string) as xs:string { $a }; local:d(1) instance of xs:double, local:s(xs:anyURI("u")) instance of xs:string'],
    ['an optional and a sequence parameter', 'declare function local:f($a as xs:string?, $b as xs:integer*) { ($a, count($b)) }; local:f((), ()), local:f("x", 1 to 3)'],
    ['a wrong argument type', 'declare function local:f($a as xs:integer) { $a }; local:f("x")'],
    ['a wrong argument cardinality', 'declare function local:f($a as xs:integer) { $a }; local:f((1, 2))'],
    ['an empty argument for a required one', 'declare function local:f($a as xs:integer+) { $a }; local:f(())'],
    ['a wrong node kind', 'declare function local:f($a as element()) { $a }; local:f(1)'],
    ['a wrong result type', 'declare function local:f($a) as xs:integer { $a }; local:f("x")'],
    ['a function body without focus', 'declare function local:f() { . }; local:f()'],
    ['a dynamic error in a function', 'declare function local:f($a) { $a idiv 0 }; local:f(1)'],
    ['a local variable of the body shadowing a parameter name', 'declare function local:f($a) { let $a := $a * 2 return $a }; let $a := 10 return (local:f(1), $a)'],
    ['global variables that call the functions', 'declare variable $v := local:f() + 1; declare variable $w := local:g($v); declare function local:f() { 41 }; declare function local:g($x) { $x * 2 }; $v, $w, local:f()'],
    ['a function that is never called', 'declare function local:unused($a as xs:integer) { $a }; 1'],
    ['deep recursion', 'declare function local:down($n) { if ($n = 0) then "bottom" else local:down($n - 1) }; local:down(2000)'],
    [
      'named references that higher-order functions call',
      'declare function local:sq($x) { $x * $x }; declare function local:add($a, $b) { $a + $b }; declare function local:even($x as xs:integer) as xs:boolean { $x mod 2 = 0 }; ' +
        'for-each((1, 2, 3), local:sq#1), fold-left(1 to 4, 0, local:add#2), fold-right(1 to 3, 0, local:add#2), sort((3, 1, 2), (), local:sq#1), filter(1 to 6, local:even#1), ' +
        'for-each-pair((1, 2), (3, 4), local:add#2), apply(local:add#2, [1, 2]), array:for-each([1, 2], local:sq#1), array:filter([1, 2], local:even#1), array:fold-left([1, 2], 0, local:add#2), ' +
        'array:sort([2, 1], (), local:sq#1), map:for-each(map { 1: 2 }, local:add#2), (1, 2) => for-each(local:sq#1)',
    ],
    ['a named reference called with an argument of a wrong type', 'declare function local:f($a as xs:integer) { $a }; for-each("x", local:f#1)'],
    ['a named reference of an arity the higher-order function does not call', 'declare function local:f($a, $b) { $a }; for-each((1, 2), local:f#2)'],
    ['a named reference whose function raises an error', 'declare function local:f($a) { $a idiv 0 }; sum(for-each((1, 2), local:f#1))'],
    // calls written out where they stand (`inlineOf`)
    ['a written-out function in nested calls and in the argument of its own call', 'declare function local:f($a) { $a + 1 }; for $a in (10, 20) return local:f(local:f($a)), local:f(local:f(local:f(0)))'],
    ['a written-out function with its conversions, inside another function', 'declare function local:c($v as xs:decimal?) as xs:decimal? { 2.5 * $v }; declare function local:all($e) { $e ! local:c(zero-or-one(.)) }; local:all((<p>2</p>, <p>3.5</p>, <p>4</p>)), local:c(())'],
    ['a written-out function given an argument of a wrong type, and returning one', 'declare function local:f($a as xs:integer) as xs:string { $a }; local:f(1)'],
    ['a written-out function that names a built-in function', 'declare function local:f($x) { for-each($x, abs#1) }; local:f((-1, 2)), local:f(-3)'],
    ['a written-out function of no parameters', 'declare function local:k() { 40 + 2 }; local:k() + local:k()'],
    ['a function that uses the focus, called where there is one', 'declare function local:f() { . }; (1, 2) ! local:f()'],
    ['a written-out function whose parameter has the name of a variable at the call', 'declare function local:f($x) { $x * 2 }; let $x := 5 return (local:f($x + 1), $x)'],
  ])('%s', async (_name, query) => {
    const items = translate(query);
    const xpath = xpathToRun(items, false);
    expect(xpath).toBeDefined();
    const functions = translate(query, 'none', { expressionForms: false });
    expect(functions.xslt).toContain('<xsl:function');
    const stylesheet = await outcome({ xslt: functions.xslt }, literalBindings(functions));
    expect(await outcome({ xslt: items.xslt, xpath }, literalBindings(items))).toBe(stylesheet);
  });

  test('a global that calls a function and may not be read stays an xsl:variable, and the functions xsl:functions', async () => {
    // the variable cannot be a let around the body (variable-lets.ts declareGlobals): the query is
    // translated again without items, whose map an xsl:variable could not see
    const t = translate('declare variable $v := local:f(); declare function local:f() { 1 }; if (current-date() lt xs:date("2000-01-01")) then $v else 2');
    expect(t.xpath).toBeUndefined();
    expect(t.xslt).toContain('<xsl:function');
    expect(t.xslt).toContain('<xsl:variable');
    expect(await outcome({ xslt: t.xslt }, literalBindings(t))).toBe('2');
  });
});

describe('through the engine (XPath evaluator and runtime library)', () => {
  const fx = engineFixture();

  test('a function that builds elements runs on the library', async () => {
    expect(await fx.adaptive('declare function local:item($i as xs:integer) { <item n="{$i}">{$i * 2}</item> }; for $i in 1 to 3 return local:item($i)')).toBe(
      '<item n="1">2</item>\n<item n="2">4</item>\n<item n="3">6</item>',
    );
  });

  test('updating functions as items in copy-modify expressions (on the library)', async () => {
    const query =
      'declare %updating function local:add($n, $v) { insert node <v>{$v}</v> into $n }; declare %updating %private function local:drop($n) { delete node $n/v[1] }; ' +
      'copy $c := <a/> modify (local:add($c, 1), local:add($c, 2)) return (copy $d := $c modify local:drop($d) return $d)';
    expect(translate(query).xpath?.library).toBe(true);
    expect(await fx.adaptive(query)).toBe('<a><v>2</v></a>');
  });

  test('a wrong argument names the function and the parameter as declared', async () => {
    const e = await fx.error('declare function local:f($count as xs:integer) { $count }; local:f("x")');
    expect(e.code).toBe('XPTY0004');
    expect(e.body).toContain('[XPTY0004] Argument $count of local:f#1 does not match the declared type xs:integer.');
  });

  test('a wrong result names the function as declared', async () => {
    const e = await fx.error('declare function local:f($a) as xs:integer { $a }; local:f("x")');
    expect(e.body).toContain('[XPTY0004] The result of local:f#1 does not match the declared type xs:integer.');
  });

  test('the items map can be neither read nor replaced by the query', async () => {
    const read = await fx.error('declare function local:f() { 1 }; local:f(), $Q{urn:xmldb-rest:var}functions');
    expect(read.code).toBe('XPST0008');
    const declared = await fx.error('declare variable $Q{urn:xmldb-rest:var}functions := map {}; declare function local:f() { 1 }; local:f()');
    expect(declared.code).toBe('XQST0045');
  });
});
