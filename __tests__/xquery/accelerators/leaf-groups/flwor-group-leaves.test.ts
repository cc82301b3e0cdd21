import fc from 'fast-check';
import type { QueryContext } from '../../../../lib/xquery/engine/engine';
import { doc, engineFixture } from '../../language/translate/helpers';
import { translate } from '../../../helpers/translation';

/**
 * group by over leaves of the for variable's elements (accelerators/leaf-groups/flwor-group-leaves.ts,
 * accelerators/leaf-groups/leaf-groups.ts): every query answers what the plain grouping answers, groups,
 * their order and errors included. `#K` in a query is where its group by specs end: the leaf
 * form leaves it out; the plain form adds a constant xs:decimal key there, which no leaf
 * grouping takes and which leaves the groups as they are (it goes to `xsl:for-each-group`).
 */
const e = engineFixture();
const leafOf = (query: string): string => query.replaceAll('#K', '');
const plainOf = (query: string): string => query.replaceAll('#K', ', $plain := 0.5');
const byLeaves = (query: string): boolean => translate(query, 'single').xslt.includes('engine}group-leaves');

const XML =
  '<r><item id="1" c="a"><k>x</k><v>1</v><a><b>p</b></a></item><item id="2" c="b"><k>y</k><v>2.0</v><a><b>q</b></a></item>' +
  '<item id="3" c="a"><k>y</k><v>1e0</v><a><b>p</b></a></item><item id="4"><k>x</k><v>NaN</v><a/></item><item id="5" c="a"><v>NaN</v></item>' +
  '<item id="6" c=""><k/><v>-0</v>t<a><b/></a></item><item id="7" c="b"><k>x</k><v>0</v><v>9</v>t</item></r>';

async function agree(query: string, context: QueryContext = doc(XML)): Promise<string> {
  expect(byLeaves(leafOf(query))).toBe(true);
  expect(byLeaves(plainOf(query))).toBe(false);
  // one at a time: a query that waits long in a loaded engine's queue is refused (host/pool.ts)
  const got = await e.outcome(leafOf(query), context);
  const want = await e.outcome(plainOf(query), context);
  expect(`${query}: ${got}`).toBe(`${query}: ${want}`);
  return got;
}

describe('translate: group by leaves of the for variable', () => {
  it.each([
    // a child element; an absent one is an empty key, an empty one the key ""
    ['for $i in //item group by $c := $i/k #K return <g c="{$c}" e="{empty($c)}">{count($i)}</g>', 'ok <g c="x" e="false">3</g>\n<g c="y" e="false">2</g>\n<g c="" e="true">1</g>\n<g c="" e="false">1</g>'],
    // an attribute; the key is xs:untypedAtomic
    ['for $i in //item group by $c := $i/@c #K return $c instance of xs:untypedAtomic and string-join($i/@id, ",") != ""', 'ok true()\ntrue()\nfalse()\ntrue()'],
    ['for $i in //item group by $c := $i/@c #K return string($c) || "=" || string-join($i/@id, ",")', 'ok "a=1,3,5"\n"b=2,7"\n"=4"\n"=6"'],
    ['for $i in //item group by $c := data($i/@c) #K return string($c) || "=" || string-join($i/@id, ",")', 'ok "a=1,3,5"\n"b=2,7"\n"=4"\n"=6"'],
    // paths below children, text(), the element itself
    ['for $i in //item group by $b := $i/a/b #K return string($b) || "=" || string-join($i/@id, ",")', 'ok "p=1,3"\n"q=2"\n"=4,5,7"\n"=6"'],
    ['for $i in //item group by $t := $i/text() #K return string($t) || "=" || count($i)', 'ok "=5"\n"t=2"'],
    ['for $k in //k group by $k #K return string($k) || "=" || ($k instance of xs:untypedAtomic)', 'ok "x=true"\n"y=true"\n"=true"'],
    // several keys; the values of one key do not run into the next
    ['for $i in //item group by $c := $i/@c, $k := $i/k #K return $c || ":" || $k || "=" || string-join($i/@id, ",")', 'ok "a:x=1"\n"b:y=2"\n"a:y=3"\n":x=4"\n"a:=5"\n":=6"\n"b:x=7"'],
    // lets before: a key named by a let, lets read by where clauses only, a let shadowed by a key
    ['for $i in //item let $c := $i/@c group by $c #K return $c || "=" || count($i)', 'ok "a=3"\n"b=2"\n"=1"\n"=1"'],
    ['for $i in //item let $n := $i/@id where $n > 2 let $k := $i/k where exists($k) group by $c := $i/@c #K return $c || "=" || string-join($i/@id, ",")', 'ok "a=3"\n"=4"\n"=6"\n"b=7"'],
    ['for $i in //item let $c := $i/v group by $c := $i/@c #K return $c || "=" || count($i)', 'ok "a=3"\n"b=2"\n"=1"\n"=1"'],
    // a where clause holding a join, a group by inside another FLWOR
    ['for $i in //item where exists(for $j in //item where $j/k = $i/k and $j/@id != $i/@id return $j) group by $c := $i/k #K return $c || "=" || string-join($i/@id, ",")', 'ok "x=1,4,7"\n"y=2,3"'],
    ['for $x in ("a", "b") return (for $i in //item where $i/@c = $x group by $k := $i/k #K return $x || $k || count($i))', 'ok "ax1"\n"ay1"\n"a1"\n"by1"\n"bx1"'],
    // lets read after the clause: the leaves of the group's elements, in order
    ['for $i in //item let $v := $i/v, $b := $i/a/b let $w := $i/@id group by $c := $i/@c #K return $c || "=" || string-join($v, ",") || "/" || count($b) || "/" || sum($w) || "/" || ($v[last()] is $i[last()]/v[last()]) || ($w[1] is $i[1]/@id)', 'ok "a=1,1e0,NaN/2/9/truetrue"\n"b=2.0,0,9/1/9/truetrue"\n"=NaN/0/4/truetrue"\n"=-0/1/6/truetrue"'],
    ['for $i in //item let $t := $i/text(), $k := $i/k/text() group by $c := $i/@c #K return $c || "=" || count($t) || string-join($k)', 'ok "a=0xy"\n"b=1yx"\n"=0x"\n"=1"'],
    ['for $i in //item let $v := $i/v where $v = 1 let $v := $i/k group by $c := $i/@c #K return $c || "=" || string-join($v, ",")', 'ok "a=x,y"'],
    // clauses after: where, order by, count; aggregates of the grouped variable
    ['for $i in //item group by $c := $i/@c #K where count($i) gt 1 order by $c descending count $n return $n || $c || sum($i/@id) || "/" || avg($i/@id) || "/" || min($i/@id) || "/" || max($i/@id)', 'ok "1b9/4.5/2/7"\n"2a9/3/1/5"'],
    ['for $i in //item[@id > 2] group by $c := $i/@c #K order by count($i), $c return <g>{$c, string-join($i/@id, " ")}</g>', 'ok <g>4</g>\n<g> 6</g>\n<g>b 7</g>\n<g>a 3 5</g>'],
    // no tuples; a key of two items (XPTY0004)
    ['for $i in //none group by $c := $i/@c #K return 1', 'ok '],
    ['for $i in //item group by $c := $i/v #K return 1', 'error XPTY0004'],
    ['for $i in //item group by $c := $i/@c, $t := $i/a/b #K return 1', 'ok 1\n1\n1\n1\n1\n1'],
  ])('%s', async (query, expected) => {
    expect(await agree(query)).toBe(expected);
  });

  it('groups the elements of several documents, and of a tree without a document node as written', async () => {
    const context: QueryContext = { kind: 'documents', xml: ['<r><i c="a"/><i c="b"/></r>', '<r><i c="b"/><i/></r>'] };
    expect(await agree('for $i in //i group by $c := $i/@c #K return $c || count($i)', context)).toBe('ok "a1"\n"b2"\n"1"');
    // keys met first in a later document, two and three keys
    const three: QueryContext = { kind: 'documents', xml: ['<r><i c="a" d="1"/><i c="b"/></r>', '<r><i c="b"/><i c="a" d="1"/><i c="c" d="2"/></r>', '<r><i d="2" c="c"/><i/><i c="a" d="2"/></r>'] };
    expect(await agree('for $i in //i group by $c := $i/@c, $d := $i/@d #K return $c || $d || count($i)', three)).toBe('ok "a12"\n"b2"\n"c22"\n"1"\n"a21"');
    expect(await agree('for $i in //i group by $c := $i/@c, $d := $i/@d, $e := $i/@e #K order by $d descending empty greatest, $c return $c || $d || count($i)', three)).toBe('ok "1"\n"b2"\n"a21"\n"c22"\n"a12"');
    // the elements of a constructed element have no document node: the function declines
    expect(await agree('for $i in <r><i c="a"/><i c="b"/><i c="a"/></r>/i group by $c := $i/@c #K return $c || count($i)')).toBe('ok "a2"\n"b1"');
    // some of the elements of a name, found by their index
    expect(await agree('for $i in /r/item[@id != 2][k] group by $c := $i/@c #K return $c || string-join($i/@id)')).toBe('ok "a13"\n"4"\n"6"\n"b7"');
  });

  it('groups into as many groups as there are elements, in order of first appearance', async () => {
    const items = Array.from({ length: 300 }, (_, n) => `<item id="${n % 250}" c="${n % 7}"><k>${(n * 37) % 101}</k></item>`).join('');
    const context = doc(`<r>${items}</r>`);
    await agree('for $i in //item group by $id := $i/@id #K return $id || "=" || count($i)', context);
    await agree('for $i in //item group by $c := $i/@c, $k := $i/k #K order by count($i) descending, $k return $c || "/" || $k || "=" || count($i)', context);
  });

  it('reads names in namespaces', async () => {
    const xml = '<r xmlns:n="a b"><n:i n:c="1"><n:k>x</n:k></n:i><n:i n:c="2"><n:k>x</n:k></n:i><n:i n:c="1"/></r>';
    const query = 'declare namespace n = "a b"; for $i in //n:i group by $c := $i/@n:c, $k := $i/n:k #K return $c || $k || count($i)';
    expect(await agree(query, doc(xml))).toBe('ok "1x1"\n"2x1"\n"11"');
  });

  it('groups by the first, nth or last child of a name, and collects the lets of such paths', async () => {
    expect(await agree('for $i in //item group by $v := $i/v[1] #K return $v || count($i)')).toBe('ok "11"\n"2.01"\n"1e01"\n"NaN2"\n"-01"\n"01"');
    expect(await agree('for $i in //item let $l := $i/v[last()] group by $c := $i/@c #K return $c || string-join($l, ",")')).toBe('ok "a1,1e0,NaN"\n"b2.0,9"\n"NaN"\n"-0"');
    expect(await agree('for $i in //item group by $w := $i/v[2] #K return $w || count($i)')).toBe('ok "6"\n"91"');
  });

  it('is not used where other variables, types, positions or collations are involved', () => {
    for (const query of [
      'for $i in //item let $p := $i/v + 1 group by $c := $i/@c return count($p)',
      'for $i in //item let $p := $i/v[position() = 1] group by $c := $i/@c return count($p)',
      'for $i in //item let $p := $i/v group by $i return count($p)',
      'for $i at $n in //item group by $c := $i/@c return 1',
      'for $i in //item group by $c as xs:untypedAtomic? := $i/@c return 1',
      'for $i in //item group by $c := $i/@c collation "http://www.w3.org/2005/xpath-functions/collation/html-ascii-case-insensitive" return 1',
      'for $i in //item group by $c := $i/k[last() - 1] return 1',
      'for $i in //item group by $c := string($i/@c) return 1',
      'for $i in //item group by $c := $i/@c, $c := $i/k return 1',
      'for $i in //item let $i := $i/k group by $c := $i return 1',
      'for $i in //item for $j in $i/k group by $c := $i/@c return 1',
      'for $i in (1, 2) group by $c := $i return 1',
      'for $i in //item/@c group by $c := $i return 1',
    ]) {
      expect(`${query}: ${byLeaves(query)}`).toBe(`${query}: false`);
    }
  });

  it('agrees with the plain grouping on generated documents and queries', async () => {
    const value = fc.constantFrom('1', 'a', 'A', '', ' a');
    const item = fc.record({ c: fc.option(value), k: fc.array(value, { maxLength: 2 }), b: fc.option(value), t: fc.option(value) });
    const document = fc.array(item, { maxLength: 6 }).map(
      (items) =>
        `<r>${items
          .map((i, n) => `<item id="${n}"${i.c === null ? '' : ` c="${i.c}"`}>${i.k.map((k) => `<k>${k}</k>`).join('')}${i.b === null ? '' : `<a><b>${i.b}</b></a>`}${i.t ?? ''}</item>`)
          .join('')}</r>`,
    );
    const key = fc.constantFrom('$i/@c', '$i/k', '$i/a/b', '$i/a/@c', '$i/text()');
    const before = fc.constantFrom('', 'let $x := $i/@id ', 'where $i/@id > 1 ', 'let $x := $i/k where exists($x) ', 'let $g0 := $i/k ', 'let $x := $i/a/b ');
    const after = fc.constantFrom(
      '',
      'order by count($i) descending ',
      'where count($i) > 1 ',
      'count $n ',
      'order by $g0 descending empty greatest ',
      'order by string($g0), count($i) descending ',
      'order by count($i) count $n where $n le 3 ',
    );
    const query = fc.tuple(fc.array(key, { minLength: 1, maxLength: 3 }), before, after).map(([keys, b, a]) => {
      const specs = keys.map((k, n) => `$g${n} := ${k}`).join(', ');
      const lets = b.startsWith('let $x') ? ' || "/" || string-join($x, ",")' : '';
      const ret = `string-join((${keys.map((_, n) => `string($g${n})`).join(', ')}), "|") || "=" || string-join($i/@id, ",") || "/" || count($i)${lets}`;
      return `for $i in //item ${b}group by ${specs} #K ${a}return ${ret}`;
    });
    // several documents: each numbers its leaves apart, the groups span them
    const documents = fc.array(document, { minLength: 1, maxLength: 3 });
    await fc.assert(
      fc.asyncProperty(documents, query, async (xml, q) => {
        await agree(q, { kind: 'documents', xml });
      }),
      { numRuns: 15 },
    );
  }, 120_000);
});
