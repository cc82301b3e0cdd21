import fc from 'fast-check';
import { doc, engineFixture } from '../helpers';
import { translate } from '../../../../helpers/translation';

/**
 * group by through the hash grouping (group-tuples.ts): every query answers what the XSLT
 * grouping answers. `#K` in a query is where its group by specs end: the hash form leaves it
 * out; the plain form adds a constant xs:decimal key there, a type the hash grouping leaves to
 * `xsl:for-each-group`, without changing the groups. `(//item)`, not a path, keeps keys that are
 * leaves of the items from the grouping by leaves (flwor-group-leaves.test.ts).
 */
const e = engineFixture();
const hashOf = (query: string): string => query.replaceAll('#K', '');
const plainOf = (query: string): string => query.replaceAll('#K', ', $plain := 0.5');

const XML =
  '<r><item id="1" c="a"><k>x</k><v>1</v></item><item id="2" c="b"><k>y</k><v>2.0</v></item><item id="3" c="a"><k>y</k><v>1e0</v></item>' +
  '<item id="4"><k>x</k><v>NaN</v></item><item id="5" c="a"><v>NaN</v></item><item id="6" c=""><k/><v>-0</v></item><item id="7" c="b"><k>x</k><v>0</v><v>9</v></item></r>';

const hashed = (query: string): boolean => {
  const xslt = translate(query, 'single').xslt;
  return xslt.includes('engine}group-tuples') && !xslt.includes('engine}group-leaves');
};

async function agree(query: string, xml = XML): Promise<string> {
  expect(hashed(hashOf(query))).toBe(true);
  // one at a time: a query that waits long in a loaded engine's queue is refused (host/pool.ts)
  const got = await e.outcome(hashOf(query), doc(xml));
  const want = await e.outcome(plainOf(query), doc(xml));
  expect(`${query}: ${got}`).toBe(`${query}: ${want}`);
  return got;
}

describe('translate: group by from a hash map', () => {
  it.each([
    // one key; an absent attribute is an empty key, "" another
    ['for $i in (//item) group by $c := $i/@c #K return <g c="{$c}" e="{empty($c)}">{$i/@id/string()}</g>', 'ok <g c="a" e="false">1 3 5</g>\n<g c="b" e="false">2 7</g>\n<g c="" e="true">4</g>\n<g c="" e="false">6</g>'],
    // several keys, and non-grouping variables in order
    ['for $i at $p in //item let $id := $i/@id group by $c := string($i/@c), $k := $i/k #K return $c || ":" || $k || "=" || string-join($id, ",") || "@" || string-join($p, ",")', 'ok "a:x=1@1"\n"b:y=2@2"\n"a:y=3@3"\n":x=4@4"\n"a:=5@5"\n":=6@6"\n"b:x=7@7"'],
    // numbers: NaN with NaN, 1 with 1.0e0, -0 with 0 (the first key is the group's); numbers and strings apart
    ['for $i in //item let $n := number($i/v[1]) group by $n #K return $n || "=" || count($i)', 'ok "1=2"\n"2=1"\n"NaN=2"\n"-0=2"'],
    ['for $x in (1, "1", 1e0, <a>1</a>, true(), "true", xs:anyURI("1"), xs:untypedAtomic("true")) group by $k := $x #K return count($x)', 'ok 2\n3\n1\n2'],
    ['for $x in (xs:float(0.1), 0.1e0, xs:float(0.1), 1, xs:float(1)) group by $k := $x #K return count($x)', 'ok 2\n1\n2'],
    ['for $x in (xs:date("2020-01-01"), xs:date("2020-01-01"), 1) group by $k := $x #K return count($x)', 'ok 2\n1'],
    // clauses after group by; count; order by on the groups
    ['for $i in //item group by $c := string($i/@c) #K where count($i) gt 1 order by $c descending count $n return $n || $c', 'ok "1b"\n"2a"\n"3"'],
    ['for $i in () group by $c := $i #K return 1', 'ok '],
    ['for $i in (//item) group by $c := $i/v #K return 1', 'error XPTY0004'],
  ])('%s', async (query, expected) => {
    expect(await agree(query)).toBe(expected);
  });

  it('leaves another collation to the XSLT grouping', async () => {
    const query = 'for $x in ("a", "A", "b") group by $k := $x collation "http://www.w3.org/2005/xpath-functions/collation/html-ascii-case-insensitive" return count($x)';
    expect(await e.outcome(query, doc(XML))).toBe('ok 2\n1');
  });

  it('agrees with the XSLT grouping on generated documents and keys', async () => {
    const value = fc.constantFrom('1', '1.0', 'a', 'A', '', 'NaN', '-0', '0');
    const item = fc.record({ c: fc.option(value), k: fc.array(value, { maxLength: 1 }) });
    const document = fc.array(item, { maxLength: 6 }).map(
      (items) => `<r>${items.map((i, n) => `<item id="${n}"${i.c === null ? '' : ` c="${i.c}"`}>${i.k.map((k) => `<k>${k}</k>`).join('')}</item>`).join('')}</r>`,
    );
    const key = fc.constantFrom('$i/@c', 'string($i/@c)', 'number($i/@c)', '$i/k', 'number($i/k) > 0', 'data($i/k) = "a"');
    const query = fc
      .tuple(fc.array(key, { minLength: 1, maxLength: 2 }), fc.boolean())
      .map(([keys, lets]) => {
        const specs = keys.map((k, n) => `$g${n} := ${k}`).join(', ');
        const ret = `string-join((${keys.map((_, n) => `string($g${n})`).join(', ')}), "|") || "=" || string-join($i/@id, ",")`;
        return `for $i in (//item) ${lets ? 'let $x := $i/@id where exists($i) ' : ''}group by ${specs} #K return ${ret}`;
      });
    await fc.assert(
      fc.asyncProperty(document, query, async (xml, q) => {
        await agree(q, xml);
      }),
      { numRuns: 12 },
    );
  });
});
