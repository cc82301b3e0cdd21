/**
 * The key tables of hash joins (functions/join-tables.ts): positions by key, looked up by one key
 * or several; a join's table built once, from entries evaluated only then.
 */
import { saxon, type XdmValue } from '../../../lib/saxon';
import { registerExtensionFunctions } from '../../../lib/xquery/functions/extension-functions';

registerExtensionFunctions();
const E = 'Q{urn:xmldb-rest:engine}';
const run = (xpath: string, params: Record<string, unknown> = {}): unknown[] =>
  (saxon().XPath.evaluate(xpath, null, { params, resultForm: 'array' }) as XdmValue).map((v) => (typeof v === 'object' && v !== null ? String(v) : v));

const ENTRIES = ['#1', 'sa', 'kstr', '#2', 'sb', 'sb', '#3', 'sa', 'u1', '#4', 'kbadu', 'sa'];
const TABLE = `let $a := array {1 to 4}, $t := ${E}join-table($a, $e) return `;

describe('join tables', () => {
  it('gives the positions of a key ascending, each once, and of several keys merged', () => {
    const at = (keys: string): unknown[] => run(`${TABLE}${E}join-positions($t, ${keys})`, { e: ENTRIES });
    expect(at('"sa"')).toEqual([1, 3, 4]);
    expect(at('"sb"')).toEqual([2]);
    expect(at('("sb", "sa", "u1")')).toEqual([1, 2, 3, 4]);
    expect(at('"none"')).toEqual([]);
    expect(at('()')).toEqual([]);
    expect(run(`${TABLE}(${E}join-has($t, "kstr"), ${E}join-has($t, "knum"))`, { e: ENTRIES })).toEqual([true, false]);
  });

  it('builds a join\'s table once, evaluating its entries only then', () => {
    // entries that raise an error when evaluated, as a FLWOR (the form join.ts emits)
    const failing = 'for $i in 1 to 2 return error(QName("urn:x", "X"))';
    // the second call finds the array's table and never evaluates its entries
    expect(run(`${TABLE}let $u := ${E}join-table($t, ${failing}) return ${E}join-positions($u, "sb")`, { e: ENTRIES })).toEqual([2]);
    // another array: a table of its own, from its own entries
    expect(run(`${TABLE}let $b := array {1 to 4}, $u := ${E}join-table($b, ("#1", "sz")) return (${E}join-positions($t, "sz"), "|", ${E}join-positions($u, "sz"))`, { e: ENTRIES })).toEqual(['|', 1]);
    expect(() => run(`let $b := array {1}, $u := ${E}join-table($b, ${failing}) return ${E}join-has($u, "sz")`)).toThrow();
  });
});
