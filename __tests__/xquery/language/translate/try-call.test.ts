/**
 * try/catch as a call of the runtime library's lib.try (translate/conditional.ts), which lets a
 * query run as one expression: the same answers and errors as the lifted xsl:try of a query's own
 * stylesheet (TranslateOptions.expressionForms false).
 */
import { QueryError } from '../../../../lib/xquery/query-error';
import { literalBindings } from '../../../../lib/xquery/engine/run-parts';
import { XSLT_CODES } from '../../../../lib/xquery/engine/engine';
import { EXPRESSION_PARAM, libraryExpression, libraryStylesheet, xpathToRun, type ContextMode } from '../../../../lib/xquery/language/translate';
import { QueryPool, type ContextSpec } from '../../../../lib/xquery/host/pool';
import { translate } from '../../../helpers/translation';

let pool: QueryPool;
beforeAll(() => {
  pool = new QueryPool({ size: 1 });
});
afterAll(() => pool.close());
const serialization = { method: 'adaptive', 'item-separator': '|' };

/** The outcome a client sees: the result, or the error's code (XSLT's as the engine reports them) and message. */
const outcome = (job: Parameters<QueryPool['run']>[0]) =>
  pool.run(job).then(
    (r) => r.body,
    (e: QueryError) => `[${XSLT_CODES[e.code] ?? e.code}] ${e.message}`,
  );

/** The query run on the runtime library as one expression, and run on its own stylesheet with xsl:try. */
async function both(query: string, mode: ContextMode = 'none', context?: ContextSpec): Promise<{ call: string; lifted: string }> {
  const t = translate(query, mode);
  expect(t.xpath?.library).toBe(true);
  const expression = xpathToRun(t, false)!;
  const call = await outcome({ xslt: libraryStylesheet(), params: { [EXPRESSION_PARAM]: { values: [libraryExpression(expression, t.literals)] } }, context, serialization });
  const own = translate(query, mode, { expressionForms: false });
  expect(own.xslt).toContain('<xsl:try>');
  const lifted = await outcome({ xslt: own.xslt, params: Object.fromEntries(literalBindings(own)), context, serialization });
  return { call, lifted };
}

test.each([
  ['an error caught by any test', 'try { 1 div 0 } catch * { "caught", $err:code }'],
  ['no error', 'try { 1 } catch * { "caught" }'],
  ['a clause chosen by name, of several', 'try { 1 div 0 } catch err:XPTY0004 { 1 } catch err:FOAR0001 { 2 } catch * { 3 }'],
  ['alternatives in one clause', 'try { 1 div 0 } catch err:XPTY0004 | err:FOAR0001 { "union" }'],
  ['wildcards by namespace and by local name', 'try { error(QName("urn:x", "x:E")) } catch Q{urn:x}* { "ns" }, try { error(QName("urn:x", "x:E")) } catch *:E { "local" }'],
  ['an error no clause names goes on to the outer try', 'try { try { 1 div 0 } catch err:XPTY0004 { 1 } } catch * { $err:code, $err:description }'],
  ['an error no clause names leaves the query', 'try { 1 div 0 } catch err:XPTY0004 { 1 }'],
  ['fn:error with a value and a code prefix', 'try { error(QName("urn:x", "x:E"), "d", ("v", 3)) } catch * { prefix-from-QName($err:code), count($err:value), $err:description }'],
  ['fn:error not caught keeps its code and description', 'try { error(QName("urn:x", "x:E"), "described") } catch err:* { 1 }'],
  ['a type error, by its XQuery code', 'try { "a" + 1 } catch err:XPTY0004 { local-name-from-QName($err:code) }'],
  ['the err variables module, line and column', 'try { 1 div 0 } catch * { ($err:module, $err:line-number, $err:column-number) ! (. instance of xs:anyAtomicType), empty($err:additional) }'],
  ['the err variables line and column: the start of the body in the query', 'try {\n  1 div 0 } catch * { $err:line-number, $err:column-number }, (: a comment :) try { error() } catch * { $err:line-number || ":" || $err:column-number }'],
  ['local variables in the body and the clause', 'let $x := 0 return try { 1 div $x } catch * { $x, "!" }'],
  ['in a FLWOR, each iteration', 'for $i in 1 to 3 return try { if ($i = 2) then error() else $i } catch * { "e" }'],
  ['a constructor in the body', 'try { <a>{1 div 0}</a> } catch * { "in constructor" }'],
  ['a local variable of the clause named like an err variable', 'try { 1 div 0 } catch * { let $code := "mine" return ($code, $err:description) }'],
  ['a rethrow from a clause', 'try { try { 1 div 0 } catch * { error($err:code, "again") } } catch * { $err:description }'],
  ['the focus of a path step', '(<a>1</a>, <a>x</a>, <a>3</a>) ! (try { xs:integer(.) } catch * { "bad " || position() || "/" || last() })'],
  ['no focus where none is set', 'try { . } catch err:XPDY0002 { "no focus" }'],
  ['a stack overflow not caught by name', 'declare function local:down($n) { if ($n = 0) then 0 else 1 + local:down($n - 1) }; try { local:down(1000000) } catch err:FOAR0001 { 1 }'],
  ['a stack overflow caught by any test', 'declare function local:down($n) { if ($n = 0) then 0 else 1 + local:down($n - 1) }; try { local:down(1000000) } catch * { "caught" }'],
  ['an error of an engine function not caught by name', 'try { doc("nodb/x.xml") } catch err:FOAR0001 { 1 }'],
  ['an error of an engine function caught', 'try { doc("nodb/x.xml") } catch * { $err:code }'],
  ['the time limit of xquery:eval, not caught by name', 'try { xquery:eval("count((1 to 100000000) ! (. * 2))", map {}, map { "timeout": 0.05 }) } catch err:FOAR0001 { 1 }'],
  ['a declared function in the body', 'declare function local:f($n) { if ($n = 0) then error(xs:QName("local:bottom")) else local:f($n - 1) }; try { local:f(5) } catch local:bottom { "bottom" }'],
])('%s', async (_name, query) => {
  const r = await both(query);
  expect(r.call).toBe(r.lifted);
});

test('an err variable by a prefix that a constructor in the clause declares (QT3 try-catch-err-code-variable-13)', async () => {
  // the namespaced constructor keeps the query's stylesheet; the call form is tried first, and its
  // look at the clause's variables must not resolve the prefix outside the constructor
  const t = translate('try { 1 div 0 } catch * { <e code="{$e:code}" xmlns:e="http://www.w3.org/2005/xqt-errors"/> }');
  expect(await outcome({ xslt: t.xslt, params: Object.fromEntries(literalBindings(t)), serialization })).toBe('<e xmlns:e="http://www.w3.org/2005/xqt-errors" code="err:FOAR0001"/>');
});

test('the focus of a context document', async () => {
  const r = await both('/r/v ! (try { xs:integer(.) * 2 } catch * { name(..) || position() })', 'single', { xml: ['<r><v>1</v><v>x</v></r>'] });
  expect(r.call).toBe(r.lifted);
  expect(r.call).toBe('2|"r2"');
});
