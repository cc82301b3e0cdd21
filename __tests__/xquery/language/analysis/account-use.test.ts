import { usesAccount } from '../../../../lib/xquery/language/analysis/account-use';
import { parseQuery } from '../../../../lib/xquery/language/syntax';

const uses = (query: string) => usesAccount(parseQuery(query));

describe('queries that may call a user: function get their account', () => {
  test.each([
    ['a call', 'user:current()'],
    ['a prefix of its own', 'declare namespace u = "http://basex.org/modules/user"; u:list()'],
    ['a named reference', 'user:exists#1("a")'],
    ['an arrow', '"a" => user:exists()'],
    ['xquery:eval', 'xquery:eval("1")'],
    ['xslt:', 'xslt:transform(<a/>, <b/>)'],
    ['function-lookup', 'function-lookup(xs:QName("fn:true"), 0)()'],
    ['an imported module', 'import module namespace m = "urn:m" at "m.xqm"; 1'],
  ])('%s', (_name, query) => {
    expect(uses(query)).toBe(true);
  });

  test.each([
    ['arithmetic', '1 + 1'],
    ['databases', 'db:list(), doc("a/b.xml")'],
    ['a declared function', 'declare function local:current() { 1 }; local:current()'],
  ])('not %s', (_name, query) => {
    expect(uses(query)).toBe(false);
  });
});
