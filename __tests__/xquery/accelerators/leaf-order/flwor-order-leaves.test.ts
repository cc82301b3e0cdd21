import fc from 'fast-check';
import type { QueryContext } from '../../../../lib/xquery/engine/engine';
import { doc, engineFixture } from '../../language/translate/helpers';
import { translate } from '../../../helpers/translation';

/**
 * order by over leaves of the for variable's elements (accelerators/leaf-order/, engine:order-leaves)
 * and return clauses reading a leaf of them (accelerators/leaf-returns/, engine:leaf-returns): every
 * query answers what the plain evaluation answers, order, types and errors included. `#K` in a
 * query is where its order specs end: the leaf form leaves it out, the plain form adds a constant
 * key `0`, which no leaf sort takes and which leaves the order as it is. `#R` follows the return
 * clause: the plain form adds ` ! .`, which no leaf return takes and which returns the same items.
 */
const e = engineFixture();
const leafOf = (query: string): string => query.replaceAll('#K', '').replaceAll('#R', '');
const plainOf = (query: string): string => query.replaceAll('#K', ', 0').replaceAll('#R', ' ! .');
const xslt = (query: string): string => translate(query, 'single').xslt;

async function agree(query: string, context: QueryContext = doc(XML)): Promise<string> {
  const leaf = xslt(leafOf(query));
  const plain = xslt(plainOf(query));
  expect(leaf.includes('engine}order-leaves') || leaf.includes('engine}leaf-returns')).toBe(true);
  expect(plain.includes('engine}order-leaves') || plain.includes('engine}leaf-returns')).toBe(false);
  const got = await e.outcome(leafOf(query), context);
  const want = await e.outcome(plainOf(query), context);
  expect(`${query}: ${got}`).toBe(`${query}: ${want}`);
  return got;
}

const XML =
  '<r><item id="1" c="b"><p>10</p><n>x</n></item><item id="2" c="a"><p>9.5</p><n>y</n></item><item id="3"><p>-0</p><n/></item>' +
  '<item id="4" c="a"><p> 10 </p></item><item id="5" c="c"><p>abc</p><n>x</n></item><item id="6" c=""><p></p><n>é</n></item>' +
  '<item id="7" c="b"><p>1e1</p><n>𝔸</n></item><item id="8" c="a"><p>0</p><n>Z</n></item></r>';

describe('translate: order by leaves of the for variable', () => {
  it.each([
    // number(): NaN for no leaf, an empty one and a non-number, -0 equal to 0, ties in input order
    ['for $i in //item order by number($i/p) #K return string($i/@id) #R', 'ok "5"\n"6"\n"3"\n"8"\n"2"\n"1"\n"4"\n"7"'],
    ['for $i in //item order by number($i/p) descending #K return string($i/@id) #R', 'ok "1"\n"4"\n"7"\n"2"\n"3"\n"8"\n"5"\n"6"'],
    ['for $i in //item order by number($i/p) descending empty greatest #K return data($i/@id) #R', 'ok "5"\n"6"\n"1"\n"4"\n"7"\n"2"\n"3"\n"8"'],
    ['for $i in //item order by number($i/q) #K return number($i/p) #R', 'ok 1.0e1\n9.5e0\n-0.0e0\n1.0e1\nNaN\nNaN\n1.0e1\n0.0e0'],
    // the leaf as xs:untypedAtomic (compared as a string, codepoints), empty for none
    ['for $i in //item order by $i/@c #K return string($i/@id) #R', 'ok "3"\n"6"\n"2"\n"4"\n"8"\n"1"\n"7"\n"5"'],
    ['for $i in //item order by $i/@c descending empty greatest #K return string($i/@id) #R', 'ok "3"\n"5"\n"1"\n"7"\n"2"\n"4"\n"8"\n"6"'],
    ['for $i in //item order by data($i/n) #K return $i/n/string()', 'ok ""\n"Z"\n"x"\n"x"\n"y"\n"é"\n"𝔸"'],
    ['for $i in //item order by $i/n/string() descending #K return $i/n/data() #R', 'ok "𝔸"\n"é"\n"y"\n"x"\n"x"\n"Z"\n""'],
    ['for $i in //item order by $i/@c/data() #K return $i/@c/string() #R', 'ok ""\n"a"\n"a"\n"a"\n"b"\n"b"\n"c"'],
    ['for $i in //item order by $i/n/text() descending #K return string($i/n) #R', 'ok "𝔸"\n"é"\n"y"\n"x"\n"x"\n"Z"\n""\n""'],
    ['for $i in //item order by string($i/@c) #K, number($i/p) descending return string($i/@id) #R', 'ok "3"\n"6"\n"4"\n"2"\n"8"\n"1"\n"7"\n"5"'],
    ['for $i in //item order by $i #K return string($i/@id) #R', 'ok "4"\n"3"\n"8"\n"1"\n"7"\n"2"\n"5"\n"6"'],
    // where and let clauses before the sort; the return clause evaluated per node
    ['for $i in //item where $i/@c = "a" order by number($i/p) #K return $i', 'ok <item id="8" c="a"><p>0</p><n>Z</n></item>\n<item id="2" c="a"><p>9.5</p><n>y</n></item>\n<item id="4" c="a"><p> 10 </p></item>'],
    ['for $i in //item let $c := $i/@c where $c != "" and $i/@id < 7 order by $i/n descending #K return data($i/@id) #R', 'ok "2"\n"1"\n"5"\n"4"'],
    ['for $i in //item where exists($i/n) and $i/@id > 1 order by number($i/p) #K return <x>{$i/@id}</x>', 'ok <x id="5"/>\n<x id="6"/>\n<x id="3"/>\n<x id="8"/>\n<x id="2"/>\n<x id="7"/>'],
    // a leaf that is no number in a where clause: FORG0001 as written
    ['for $i in //item where $i/p > 0 order by number($i/p) #K return string($i/@id) #R', 'error FORG0001'],
    // nothing to sort
    ['for $i in //none order by number($i/p) #K return string($i/@id) #R', 'ok '],
  ])('%s', async (query, expected) => {
    expect(await agree(query)).toBe(expected);
  });

  it('leaves the errors of keys and return clauses of more than one leaf to the plain evaluation', async () => {
    const two = doc('<r><item id="1"><n>a</n></item><item id="2"><n>b</n><n>c</n></item></r>');
    expect(await agree('for $i in //item order by $i/n #K return 1', two)).toBe('error XPTY0004');
    expect(await agree('for $i in //item order by number($i/n) #K return 1', two)).toBe('error XPTY0004');
    expect(await agree('for $i in //item order by $i/@id descending #K return string($i/n) #R', two)).toBe('error XPTY0004');
    expect(await agree('for $i in //item order by $i/@id descending #K return data($i/n) #R', two)).toBe('ok "b"\n"c"\n"a"');
  });

  it('reads the return clause alone from the leaves after a for clause and its where clauses', async () => {
    for (const query of [
      'for $i in //item where $i/p > 5 return string($i/@id) #R',
      'for $i in //item return data($i/n) #R',
      'for $i in //item return number($i/p) #R',
      'for $i in //item where $i/@c = "a" return string($i) #R',
      'for $i in //item return $i/n/string() #R',
      'for $i in //item return $i/p/data() #R',
    ]) {
      expect(xslt(leafOf(query))).toContain('engine}leaf-returns');
      expect(await e.outcome(leafOf(query), doc(XML))).toBe(await e.outcome(plainOf(query), doc(XML)));
    }
  });

  it('sorts the elements of several documents, and declines for nodes that have no document', async () => {
    const context: QueryContext = { kind: 'documents', xml: ['<r><i k="2"/><i k="b"/></r>', '<r><i k="1"/><i/></r>', '<r><i k="1e0"/></r>'] };
    expect(await agree('for $i in //i order by number($i/@k) #K return string($i/@k) #R', context)).toBe('ok "b"\n""\n"1"\n"1e0"\n"2"');
    expect(await agree('for $i in //i order by $i/@k descending #K return string($i/@k) #R', context)).toBe('ok "b"\n"2"\n"1e0"\n"1"\n""');
    expect(await agree('for $i in <r><i k="2"/><i k="1"/></r>/i order by $i/@k #K return string($i/@k) #R')).toBe('ok "1"\n"2"');
    expect(await agree('for $i in (//item[@id = 7], //item[@id = 2], //item[@id = 7]) order by number($i/p) #K return string($i/@id) #R')).toBe('ok "2"\n"7"\n"7"');
  });

  it('sorts by the first, nth or last child of a name', async () => {
    const xml = doc('<r><item id="1"><p>3</p><p>1</p></item><item id="2"><p>2</p></item><item id="3"/><item id="4"><p>0</p><p>5</p><p>4</p></item></r>');
    expect(await agree('for $i in //item order by number($i/p[1]) #K return string($i/@id) #R', xml)).toBe('ok "3"\n"4"\n"2"\n"1"');
    expect(await agree('for $i in //item order by $i/p[last()] descending empty greatest #K return string($i/@id) #R', xml)).toBe('ok "3"\n"4"\n"2"\n"1"');
    expect(await agree('for $i in //item order by $i/p[2] #K, $i/@id descending return string($i/@id) #R', xml)).toBe('ok "3"\n"2"\n"1"\n"4"');
  });

  it('is not used where other variables, positions or collations are involved', () => {
    for (const query of [
      'for $i in //item let $p := $i/p order by $p return 1',
      'for $i in //item let $p := $i/p order by $i/p return $p',
      'for $i at $n in //item order by $i/p return 1',
      'for $i in //item for $j in $i/n order by $i/p return 1',
      'for $i in //item order by $i/p collation "http://www.w3.org/2005/xpath-functions/collation/html-ascii-case-insensitive" return 1',
      'for $i in //item order by $i/p[position() = 1] return 1',
      'for $i in //item order by xs:double($i/p) return 1',
      'for $i in //item let $i := $i/n order by $i return 1',
      'for $i in //item order by $i/p count $n return 1',
    ]) {
      expect(`${query}: ${xslt(query).includes('engine}order-leaves')}`).toBe(`${query}: false`);
    }
  });

  it('agrees with the plain sort on generated documents and queries', async () => {
    const value = fc.constantFrom('1', '02', '-1.5', 'a', 'A', '', ' 3 ', 'NaN', '+2', 'INF');
    const item = fc.record({ c: fc.option(value), k: fc.array(value, { maxLength: 2 }), b: fc.option(value) });
    const document = fc.array(item, { maxLength: 6 }).map(
      (items) =>
        `<r>${items
          .map((i, n) => `<item id="${n}"${i.c === null ? '' : ` c="${i.c}"`}>${i.k.map((k) => `<k>${k}</k>`).join('')}${i.b === null ? '' : `<a><b>${i.b}</b></a>`}</item>`)
          .join('')}</r>`,
    );
    const leaf = fc.constantFrom('$i/@c', '$i/k', '$i/a/b', '$i/a/@c', '$i/a/b/text()');
    const key = fc.tuple(leaf, fc.constantFrom('', 'number', 'string', 'data', '/string()'), fc.constantFrom('', ' descending'), fc.constantFrom('', ' empty greatest'));
    const where = fc.constantFrom('', 'where $i/@id > 1 ', 'where $i/a/b = "1" ', 'let $x := $i/k where exists($x) ');
    const ret = fc.constantFrom('string($i/@id)', 'data($i/a/b)', 'number($i/@c)', 'string($i/k)', '$i/k/string()', '$i/a/b/data()');
    const query = fc.tuple(fc.array(key, { minLength: 1, maxLength: 2 }), where, ret).map(([keys, w, r]) => {
      const specs = keys.map(([l, f, d, g]) => `${f.startsWith('/') ? `${l}${f}` : f ? `${f}(${l})` : l}${d}${g}`).join(', ');
      return `for $i in //item ${w}order by ${specs} #K return ${r} #R`;
    });
    const documents = fc.array(document, { minLength: 1, maxLength: 3 });
    await fc.assert(
      fc.asyncProperty(documents, query, async (xml, q) => {
        await agree(q, { kind: 'documents', xml });
      }),
      { numRuns: 25 },
    );
  }, 120_000);
});
