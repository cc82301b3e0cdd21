/**
 * Function items of module functions (translate/functions.ts moduleFunctionItem): named references
 * and partial applications call the module's function, not the built-in function that has the
 * same local name (saxon-js 2.7 resolves a function item of an extension function by its local
 * name: `db:list#0` ran fn:list, `ft:tokenize#1` fn:tokenize, `xquery:eval#1` fn:eval).
 */
import { failureBody, queryBody, serverOfFile } from '../../helpers/rest';

const server = serverOfFile();
const ok = (query: string, path = '') => queryBody(server(), query, path);
const fails = (query: string) => failureBody(server(), query);

describe('module functions as items', () => {
  test('named references call the module function', async () => {
    expect(await ok("ft:tokenize#1('Ab Cd'), ft:normalize#1('Éa')")).toBe('ab\ncd\nea');
    expect(await ok("for-each(('1+1', '2*3'), xquery:eval#1), json:serialize#1(map { 'a': 1 })")).toBe('2\n6\n{"a":1}');
    expect(await ok('let $f := db:list#0 return (function-arity($f), count($f()))')).toBe('0\n0');
  });

  test('partial applications call it with the fixed arguments', async () => {
    expect(await ok("xquery:eval(?)('2+2'), json:serialize(?, map { 'indent': false() })([1, 2])")).toBe('4\n[1,2]');
    expect(await ok("let $d := string:levenshtein('ab', ?) return ($d('abc'), $d('ab'))")).toBe('0.6666666666666666\n1');
  });

  test('fn:function-lookup finds no module function (saxon-js would call the built-in of its local name)', async () => {
    expect(await ok("count(function-lookup(xs:QName('db:list'), 0)), count(function-lookup(xs:QName('xquery:eval'), 1)), exists(function-lookup(xs:QName('fn:tokenize'), 1))")).toBe('0\n0\ntrue');
  });

  test('errors are the module function\'s', async () => {
    expect(await fails("db:get#1('nodb')")).toBe("Stopped at ., 1/1:\n[db:open] Database 'nodb' was not found.");
    expect(await fails("ft:tokenize#1(1, 2)")).toMatch(/^Stopped at ., 1\/1:\n\[XPTY0004\] /);
  });

  test('a reference reads the databases a direct call reads', async () => {
    const s = server();
    await s.put('/rest/fi').expect(201);
    await s.put('/rest/fi/a.xml', '<a>x</a>').expect(201);
    expect(await ok("db:get#1('fi') ! string(), db:list#1('fi')")).toBe('x\na.xml');
  });
});
