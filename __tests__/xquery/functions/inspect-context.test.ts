/**
 * inspect:functions and inspect:context over REST (translate/inspect-calls.ts, functions/inspect.ts):
 * BaseX's documented example, exact bodies, and the refusal of a module URI.
 */
import { failureBody, queryBody, serverOfFile } from '../../helpers/rest';

const server = serverOfFile();
const ok = (query: string) => queryBody(server(), query);
const fails = (query: string) => failureBody(server(), query);

describe('inspect:functions', () => {
  test('invokes the declared functions, private ones too (docs.basex.org example)', async () => {
    expect(await ok('declare %private function local:one() { 12 }; declare %private function local:two() { 34 }; for $f in inspect:functions() return $f()')).toBe('12\n34');
  });

  test('gives every declared function, in the order of the declarations, callable with its own arity', async () => {
    const prolog = 'declare function local:a($x as xs:integer) as xs:integer { $x + 1 }; declare function local:a() { 0 }; ';
    expect(await ok(`${prolog}inspect:functions() ! (function-name(.) ! string() || '#' || function-arity(.))`)).toBe('a#1\na#0');
    expect(await ok(`${prolog}inspect:functions()[function-arity(.) = 1](41)`)).toBe('42');
    expect(await fails(`${prolog}inspect:functions()[function-arity(.) = 1]('x')`)).toMatch(/^Stopped at [^\n]*\n\[XPTY0004\] Supplied value xs:string\('x'\) does not match required type xs:integer/);
  });

  test('a query without declarations has none; a reference gives the same', async () => {
    expect(await ok('count(inspect:functions())')).toBe('0');
    expect(await ok('declare function local:h() { 7 }; inspect:functions#0() ! .()')).toBe('7');
    expect(await ok('declare variable $g := inspect:functions(); declare function local:h() { 7 }; $g ! .()')).toBe('7');
  });

  test('a module URI names no module a query may import: XQST0059', async () => {
    expect(await fails("inspect:functions('code/sample.xqm')")).toBe("Stopped at ., 1/1:\n[XQST0059] Module 'code/sample.xqm' could not be found.");
    expect(await fails("inspect:functions('file:///etc/passwd')")).toBe("Stopped at ., 1/1:\n[XQST0059] Module 'file:///etc/passwd' could not be found.");
  });
});

describe('inspect:context', () => {
  test('describes the variables, then the functions of the query, as inspect:module describes a module', async () => {
    const q = `declare namespace x = 'X';
      (:~ The value. :)
      declare variable $x:v as xs:string := 'a';
      declare %private function x:f(
        $n as xs:integer
      ) as xs:integer { $n + 1 };
      declare variable $e external := 1;
      inspect:context()`;
    expect(await ok(q)).toBe(
      '<context><variable name="x:v" uri="X" type="xs:string" external="false"><description>The value.</description></variable>'
        + '<variable name="e" uri="" external="true"/>'
        + '<function name="x:f" uri="X" external="false"><argument name="n" type="xs:integer"/>'
        + '<annotation name="private" uri="http://www.w3.org/2012/xquery"/><return type="xs:integer"/></function></context>',
    );
  });

  test('is empty for a query without declarations; its functions can be looked up and called', async () => {
    expect(await ok('inspect:context()')).toBe('<context/>');
    expect(await ok('declare function local:f() { 42 }; inspect:context()/function ! function-lookup(QName(@uri, @name), 0) ! .()')).toBe('42');
    expect(await ok('declare function local:f() { 1 }; inspect:context#0()/function/@name/string()')).toBe('local:f');
  });
});
