/** Queries that are one XPath expression run without a compiled stylesheet (translate/translation.ts). */
import { QueryError } from '../../../lib/xquery/query-error';
import { bindForExpression, literalBindings } from '../../../lib/xquery/engine/run-parts';
import { XSLT_CODES } from '../../../lib/xquery/engine/engine';
import type { StringBinding } from '../../../lib/xquery/worker/external-variables';
import { CONTEXT_URI_PARAM, inlinePredicateLiterals, LIBRARY_MAX_LENGTH, xpathToRun, XPATH_MAX_LENGTH, type ContextMode } from '../../../lib/xquery/language/translate';
import { QueryPool, type ContextSpec } from '../../../lib/xquery/host/pool';
import { storeSourceSpec } from '../../../lib/xquery/worker/documents/store-source';
import { storedDocuments } from '../../helpers/stored-documents';
import { translate } from '../../helpers/translation';

describe('which queries are one XPath expression', () => {
  test.each([
    ['arithmetic', '1 + 1'],
    ['a path', '//a[@b = "c"]/string()'],
    ['a FLWOR without order by', 'for $i in 1 to 3 let $j := $i * 2 where $j > 2 return $j'],
    ['quantified, conditional, maps, arrays, lookups', 'if (some $x in (1, 2) satisfies $x = 2) then map { "a": [1, 2] }?a?2 else ()'],
    ['namespace and option declarations', 'declare namespace p = "urn:p"; declare option output:method "text"; p:x'],
    ['group by (on the runtime library)', 'for $i in (2, 1) group by $k := $i return $k'],
    ['declared variables, each reading those before it', 'declare variable $v := 1; declare variable $w as xs:integer := $v + 1; $v + $w'],
    ['a declared literal the body might not read', 'declare variable $db := "x"; if (current-date() lt xs:date("2000-01-01")) then $db else 2'],
    ['a declared empty sequence and a sequence of literals, never read', 'declare variable $a := (); declare variable $b := (1, "two", 3.5e0); 4'],
    ['an external variable', 'declare variable $v external; $v'],
    ['typed external variables with defaults, each reading those before it', 'declare variable $v as xs:integer external; declare variable $w as xs:double* external := $v; $v + sum($w)'],
    ['an external variable of a node type', 'declare variable $v as element()? external := (); $v'],
    ['an external variable on the runtime library', 'declare variable $v external; for $i in (2, 1) group by $k := $i return ($k, $v)'],
    ['an external variable next to a declared one', 'declare variable $v external; declare variable $w := 1; $v, $w'],
    ['declared variables reading external ones, also declared after them', 'declare variable $w := $v * 2; declare variable $v as xs:integer external := 1; declare variable $x := $w + $v; $x'],
    ['an external variable read by a declared function through a declared variable', 'declare variable $v external; declare variable $w := $v || "!"; declare function local:f() { $w }; local:f()'],
    ['a declared function', 'declare function local:f() { 1 }; local:f()'],
    ['a declared variable that calls a declared function', 'declare variable $v := local:f(); declare function local:f() { 1 }; $v'],
    ['a declared variable read by a declared function', 'declare variable $v := 1; declare function local:f() { $v }; local:f()'],
    ['try/catch (on the runtime library)', 'try { 1 } catch * { 2 }'],
    ['format-number with the default decimal format (on the runtime library)', 'format-number(1234.5, "#,##0.00")'],
    ['a declared function called in try/catch', 'declare function local:f() { 1 }; try { local:f() } catch * { 2 }'],
    ['declared functions calling each other, typed', 'declare function local:even($n as xs:integer) as xs:boolean { $n = 0 or local:odd($n - 1) }; declare function local:odd($n as xs:integer) as xs:boolean { $n != 0 and local:even($n - 1) }; local:even(4)'],
  ])('%s: yes', (_name, query) => {
    expect(translate(query).xpath?.expression).toEqual(expect.any(String));
  });

  test.each([
    ['a declared function referenced by name', 'declare function local:f() { 1 }; local:f#0()'],
    ['a declared function found by function-lookup', 'declare function local:f() { 1 }; function-lookup(xs:QName("local:f"), 0)()'],
    ['a declared function that reads a global while another global calls a function', 'declare variable $g := 2; declare variable $v := local:f(); declare function local:f() { $g }; $v'],
    ['an external default that calls a declared function', 'declare variable $v external := local:f(); declare function local:f() { 1 }; $v'],
    ['a declared function with a parameter of a function type', 'declare function local:f($g as function(*)) { $g() }; local:f(true#0)'],
    ['a declared function with an annotation of its own', 'declare %local:note function local:f() { 1 }; local:f()'],
    ['a declared function in a query that needs its stylesheet (a declared decimal format)', 'declare decimal-format local:d decimal-separator = ","; declare function local:f() { 1 }; local:f()'],
    ['a declared variable reading one declared after it', 'declare variable $v := $w; declare variable $w := 1; $v'],
    ['a declared variable reading one declared after it under a condition', 'declare variable $v := if (true()) then 1 else $w; declare variable $w := 1; $v'],
    ['a typed external variable the body might not read', 'declare variable $v as xs:integer external := 1; 2'],
    ['an external variable with a default the body might not read', 'declare variable $v external := 1; if (current-date() lt xs:date("2000-01-01")) then $v else 2'],
    ['an external variable of a function type', 'declare variable $v as function(*)? external := (); $v'],
    ['an external variable whose default reads a declared one', 'declare variable $w := 1; declare variable $v external := $w; $v'],
    ['a declared variable the body might not read next to an external one', 'declare variable $v external; declare variable $w := 1 div 0; if (current-date() lt xs:date("2000-01-01")) then $w else $v'],
    ['a declared variable reading an external one the body might not read', 'declare variable $v external := 1; declare variable $w := $v; if (current-date() lt xs:date("2000-01-01")) then $w else 2'],
    ['an external variable whose default reads one declared after it', 'declare variable $v external := $w; declare variable $w external := 1; $v, $w'],
    ['more external variables than the runtime library carries', `${Array.from({ length: 9 }, (_, i) => `declare variable $v${i} external;`).join(' ')} for $i in (2, 1) group by $k := $i return ($k, $v0)`],
    ['a computed element constructor of a computed name inside a constructor that declares namespaces', '<a xmlns:p="urn:p">{element { "b" } { 1 }}</a>'],
    ['format-number with a decimal format the query declares', 'declare decimal-format local:d decimal-separator = ","; format-number(1.5, "0,0", "local:d")'],
    ['a reference to format-number', 'format-number#2(1, "0")'],
  ])('%s: no', (_name, query) => {
    expect(translate(query).xpath).toBeUndefined();
  });

  test('an expression longer than the library runs is compiled instead', () => {
    const long = Array.from({ length: XPATH_MAX_LENGTH / 2 }, () => '1').join(',');
    expect(translate(long).xpath!.expression.length).toBeGreaterThan(LIBRARY_MAX_LENGTH);
    expect(xpathToRun(translate(long), false)).toBeUndefined();
  });
});

describe('an XPath run answers what the stylesheet answers', () => {
  const data = storedDocuments();
  let pool: QueryPool;
  beforeAll(() => {
    pool = new QueryPool({ size: 1, dbPath: data.path, documentSource: storeSourceSpec() });
  });
  afterAll(() => pool.close());

  const serialization = { method: 'adaptive', 'item-separator': '|' };
  const both = async (query: string, mode: ContextMode, context?: ContextSpec, uri?: string) => {
    const t = translate(query, mode);
    const params = {
      ...Object.fromEntries(literalBindings(t)),
      ...(uri === undefined ? {} : { [CONTEXT_URI_PARAM]: { values: [uri] } }),
    };
    const xpath = xpathToRun(t, uri !== undefined);
    expect(xpath).toBeDefined();
    const outcome = (job: { xpath?: string }) =>
      pool.run({ xslt: t.xslt, ...job, params, context, serialization }).then(
        (r) => r.body,
        (e: QueryError) => `[${e.code}]`,
      );
    return { stylesheet: await outcome({}), xpath: await outcome({ xpath }) };
  };

  test.each([
    ['values', '1 + 1, "a" || "b", 1 div 2, xs:date("2020-01-01"), map { 1: 2 }, [3]'],
    ['a FLWOR', 'for $i at $p in ("a", "b") where $p > 1 return $i || $p'],
    ['the static base URI', 'static-base-uri()'],
    ['a dynamic error', '1 div 0'],
    ['a type error', '(1, 2) + 1'],
    ['no context', '.'],
    ['stored documents', 'doc("db/a.xml")/r/x/string(), count(collection("db")//x)'],
  ])('%s, without context', async (_name, query) => {
    const r = await both(query, 'none');
    expect(r.xpath).toBe(r.stylesheet);
  });

  test.each([
    ['one document', 'single', { xml: ['<a><b>1</b><b>2</b></a>'] }, undefined, '/a/b ! (. * 2), name(.), position(), last()'],
    ['several documents', 'multi', { xml: ['<a/>', '<b/>'] }, undefined, 'count(.), ./*/name()'],
    ['a database', 'multi', undefined, 'db', 'count(.), //x/string()'],
  ] as const)('with %s as the context', async (_name, mode, context, uri, query) => {
    const r = await both(query, mode, context, uri);
    expect(r.xpath).toBe(r.stylesheet);
    expect(r.xpath).not.toMatch(/^\[/);
  });

  /**
   * Global variables bound around the body (variable-lets.ts `declareGlobals`) against the same
   * variables as `xsl:variable`s, which an unused declared function that stays an
   * `xsl:function` (its parameter is of a function type) keeps them.
   */
  test.each([
    ['values and types', 'none', 'declare variable $a := 1; declare variable $b as xs:integer := $a + 1; declare variable $c as xs:string* := ("x", "y"); $a + $b, $c'],
    ['a type error', 'none', 'declare variable $a as xs:string := 1; $a'],
    ['an error in a variable read', 'none', 'declare variable $a := 1 div 0; declare variable $b := $a + 1; 2, $b'],
    ['the context document', 'single', 'declare variable $n := count(//b); declare variable $first := /a/b[1]; $n, $first/string(), count(.)'],
    ['a variable shadowed by a local one', 'none', 'declare variable $a := 1; let $a := 2 return $a, $a'],
    ['a variable read through another', 'none', 'declare variable $a := 2; declare variable $b := $a * $a; $b'],
    ['literals the body might not read', 'none', 'declare variable $a := "x"; declare variable $b := (); declare variable $c := (1, 2.5, 3e0, "d"); if (current-date() lt xs:date("2000-01-01")) then ($a, $b) else $c'],
  ] as const)('declared variables as let bindings: %s', async (_name, mode, query) => {
    expect(translate(query, mode).xslt).not.toContain('<xsl:variable');
    const declared = `declare function local:unused($f as function(*)) { 0 }; ${query}`;
    expect(translate(declared, mode).xslt).toContain('<xsl:variable');
    const context = mode === 'single' ? { xml: ['<a><b>1</b><b>2</b></a>'] } : undefined;
    const r = await both(query, mode, context);
    expect(r.xpath).toBe(r.stylesheet);
    const t = translate(declared, mode);
    const params = Object.fromEntries(literalBindings(t));
    const asVariables = await pool.run({ xslt: t.xslt, params, context, serialization }).then(
      (x) => x.body,
      (e: QueryError) => `[${e.code}]`,
    );
    expect(r.xpath).toBe(asVariables);
  });

  /**
   * A let binding is evaluated when bound: a variable the body may not read stays a lazy
   * xsl:variable; so do variables a generated function reads.
   */
  test.each([
    ['never read', 'declare variable $a := error(xs:QName("local:e")); 2', '2'],
    ['read under a condition', 'declare variable $a := error(xs:QName("local:e")); if (current-date() lt xs:date("2000-01-01")) then $a else 3', '3'],
    ['read in a constructor of a generated function', 'declare variable $x := (1, 2); element a { namespace p { "urn:p" }, $x } ! string()', '"1 2"'],
    ['read by a variable never read', 'declare variable $a := error(xs:QName("local:e")); declare variable $b := $a; declare variable $c := 4; $c', '4'],
    ['a literal of a type it does not have, never read', 'declare variable $a as xs:integer := "a"; 5', '5'],
    ['a literal next to a call, never read', 'declare variable $a := ("a", ()); declare variable $b := error(xs:QName("local:e")); 6', '6'],
  ])('declared variables that stay xsl:variables: %s', async (_name, query, expected) => {
    const t = translate(query);
    expect(t.xslt).toContain('<xsl:variable');
    expect(t.xpath).toBeUndefined();
    expect((await pool.run({ xslt: t.xslt, params: Object.fromEntries(literalBindings(t)), serialization })).body).toBe(expected);
  });

  test.each([
    ['integer', '//x[string-length(.) > 1]/string(), count(//*[string-length(local-name()) = 1]) + 5'],
    ['decimal and double', '//x[. = 2.5]/string(), //x[. >= 1e1]/string()'],
    ['string', '//x[. = "a"], //x[. != "10"][. < "3"]/string()'],
    ['a type error', '//x[. eq 2]'],
    ['a cast error', '//x[. > 2]'],
  ])('predicate literals written in (%s)', async (_name, query) => {
    const t = translate(query, 'single');
    const xpath = inlinePredicateLiterals(xpathToRun(t, false)!, t.literals);
    expect(xpath).not.toBe(xpathToRun(t, false));
    const params = Object.fromEntries(literalBindings(t));
    const context = { xml: ['<r><x>2.5</x><x>10</x><x>a</x></r>'] };
    const outcome = (job: { xpath?: string }) =>
      pool.run({ xslt: t.xslt, ...job, params, context, serialization }).then(
        (r) => r.body,
        (e: QueryError) => `[${e.code}]`,
      );
    expect(await outcome({ xpath })).toBe(await outcome({}));
  });

  /**
   * External variables as the evaluator's parameters, bound around the body (variable-lets.ts
   * `externalLets`), against the stylesheet's `xsl:param`s: given a value or not, converted to
   * their types as a parameter's value is (function conversion rules), and their errors.
   */
  test.each([
    ['untyped, given', 'declare variable $a external; $a', ['x']],
    ['untyped with a default, given and not', 'declare variable $a external := 1; $a', ['x'], undefined],
    ['a typed default reading the one before', 'declare variable $a as xs:integer external; declare variable $b as xs:integer* external := ($a, $a); sum($b)', ['4']],
    ['cast from the request', 'declare variable $a as xs:integer+ external; $a + 1', ['41', '1']],
    ['promoted to xs:double', 'declare variable $a as xs:double external := 1; $a instance of xs:double, $a', undefined],
    ['promoted to xs:float', 'declare variable $a as xs:float external := 1.5; $a instance of xs:float', undefined],
    ['xs:anyURI promoted to xs:string', 'declare variable $a as xs:string external := xs:anyURI("urn:a"); $a instance of xs:string', undefined],
    ['an untyped node atomized and cast', 'declare variable $a as xs:integer external := <n>5</n>; $a + 1', undefined],
    ['a node type', 'declare variable $a as element(n)* external := (<n/>, <n/>); count($a)', undefined],
    ['a default of the wrong type', 'declare variable $a as xs:integer external := "a"; $a', undefined],
    ['a default of the wrong cardinality', 'declare variable $a as xs:integer external := (1, 2); $a', undefined],
    ['a request value that does not cast', 'declare variable $a as xs:integer external; $a', ['a']],
    ['a node where an atomic value is declared', 'declare variable $a as element() external; $a', ['x']],
    ['read by declared variables, given and not', 'declare variable $a external := 1; declare variable $b := $a * 2; declare variable $c := $b + $a; $c', ['5'], undefined],
    ['typed, read by a declared variable of a type', 'declare variable $a as xs:integer external; declare variable $b as xs:string := string($a + 1); $b', ['41'], ['a']],
    ['read by a declared function through a declared variable', 'declare variable $a external; declare variable $g := $a || "!"; declare function local:f() { $g }; local:f()', ['x']],
    ['a declared variable that raises an error', 'declare variable $a external := 0; declare variable $b := 1 div $a; $b', undefined, ['2']],
  ] as const)('external variables as parameters: %s', async (_name, query, ...runs) => {
    const t = translate(query);
    const xpath = xpathToRun(t, false);
    expect(xpath).toBeDefined();
    for (const values of runs) {
      const given = values === undefined ? {} : { [t.externals[0].param]: { values: [...values], type: t.externals[0].type } };
      const ownParams = { ...Object.fromEntries(literalBindings(t)), ...given };
      const outcome = (job: { xpath?: string }, params: Record<string, StringBinding>) =>
        pool.run({ xslt: t.xslt, ...job, params, serialization }).then(
          (r) => r.body,
          (e: QueryError) => `[${e.code}]`,
        );
      const expressionParams = { ...ownParams };
      bindForExpression(expressionParams, t);
      const [stylesheet, expression] = [await outcome({}, ownParams), await outcome({ xpath }, expressionParams)];
      expect(expression).toBe(stylesheet.replace(/^\[(\w+)\]$/, (code, c: string) => (XSLT_CODES[c] ? `[${XSLT_CODES[c]}]` : code)));
    }
  });

  /** Where saxon-js's parameter conversion departs from XPath 3.1 §3.1.5.2, the expression follows the specification. */
  test.each([
    // the cast of an untyped value is a cast (FORG0001), which saxon-js reports as a mismatched parameter (XTTE0590)
    ['an untyped value that does not cast', 'declare variable $a as xs:integer external := xs:untypedAtomic("a"); $a', '[FORG0001]'],
    // the first member type of the union xs:numeric that the value casts to (saxon-js: another one)
    ['untyped atomic to xs:numeric', 'declare variable $a as xs:numeric external := xs:untypedAtomic("2"); $a instance of xs:double', 'true()'],
  ])('external variables as parameters: %s', async (_name, query, expected) => {
    const t = translate(query);
    const params = Object.fromEntries(literalBindings(t));
    bindForExpression(params, t);
    const body = await pool.run({ xslt: t.xslt, xpath: xpathToRun(t, false), params, serialization }).then(
      (r) => r.body,
      (e: QueryError) => `[${e.code}]`,
    );
    expect(body).toBe(expected);
  });

  test('an XPath run compiles nothing', async () => {
    const before = pool.compilations;
    const t = translate('sum((1 to 10)[. mod 2 = 0])');
    const params = Object.fromEntries(literalBindings(t));
    expect((await pool.run({ xslt: t.xslt, xpath: xpathToRun(t, false), params })).body).toBe('30');
    expect(pool.compilations).toBe(before);
  });
});
