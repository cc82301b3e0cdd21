/**
 * The key tables of hash joins (functions/join-tables.ts): positions by key, looked up by one key
 * or several, for the query that made the table only.
 */
import { saxon, type XdmValue } from '../../../lib/saxon';
import { registerExtensionFunctions } from '../../../lib/xquery/functions/extension-functions';

registerExtensionFunctions();
const E = 'Q{urn:xmldb-rest:engine}';
const run = (xpath: string, params: Record<string, unknown> = {}): unknown[] =>
  (saxon().XPath.evaluate(xpath, null, { params, resultForm: 'array' }) as XdmValue).map((v) => (typeof v === 'object' && v !== null ? String(v) : v));

describe('join tables', () => {
  const ENTRIES = ['#1', 'sa', 'kstr', '#2', 'sb', 'sb', '#3', 'sa', 'u1', '#4', 'kbadu', 'sa'];

  it('gives the positions of a key ascending, each once, and of several keys merged', () => {
    const [table] = run(`${E}join-table($e)`, { e: ENTRIES });
    const at = (keys: string[]): unknown[] => run(`${E}join-positions($t, $k)`, { t: table, k: keys });
    expect(at(['sa'])).toEqual([1, 3, 4]);
    expect(at(['sb'])).toEqual([2]);
    expect(at(['sb', 'sa', 'u1'])).toEqual([1, 2, 3, 4]);
    expect(at(['none'])).toEqual([]);
    expect(at([])).toEqual([]);
    expect(run(`${E}join-has($t, "kstr"), ${E}join-has($t, "knum")`, { t: table })).toEqual([true, false]);
  });

  it('lives for the turn that made it only', async () => {
    const [table] = run(`${E}join-table($e)`, { e: ENTRIES });
    expect(run(`${E}join-has($t, "kbadu")`, { t: table })).toEqual([true]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(() => run(`${E}join-has($t, "kbadu")`, { t: table })).toThrow(/after its query/);
  });
});
