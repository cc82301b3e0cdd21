import { doc, engineFixture } from '../helpers';
import { translate } from '../../../../helpers/translation';

/**
 * `for $v in E count $c` as `for $v at $c in E` (flwor/count-position.ts): every query answers what
 * the count clause answers over the tuple stream. `#L` in a query is where the plain form puts a
 * let clause between the for and the count clause, which keeps the count clause as written.
 */
const e = engineFixture();
const rewrittenOf = (query: string): string => query.replaceAll('#L ', '');
const plainOf = (query: string): string => query.replaceAll('#L ', 'let $plain := 0 ');
/** How many tuple sequences the translation numbers by a count clause (tuples.ts `restart`). */
const streams = (query: string): number => translate(query, 'single').xslt.split('}tuples.').length - 1;
const streamed = (query: string): boolean => streams(query) > 0;

const XML = '<r><i id="1"><p>3</p></i><i id="2"><p>7</p></i><i id="3"/><i id="4"><p>1</p></i><i id="5"><p>9</p></i></r>';

async function agree(query: string): Promise<string> {
  expect(streams(rewrittenOf(query))).toBeLessThan(streams(plainOf(query)));
  const [got, want] = await Promise.all([e.outcome(rewrittenOf(query), doc(XML)), e.outcome(plainOf(query), doc(XML))]);
  expect(`${query}: ${got}`).toBe(`${query}: ${want}`);
  return got;
}

describe('translate: a count clause right after the first for binding', () => {
  it.each([
    ['for $i in //i #L count $c return $c || string($i/@id)', 'ok "11"\n"22"\n"33"\n"44"\n"55"'],
    ['for $i in //i #L count $c where $c mod 2 = 0 let $p := $i/p order by $p descending return <r c="{$c}">{string($p)}</r>', 'ok <r c="2">7</r>\n<r c="4">1</r>'],
    ['for $i in //i[p > 2] #L count $c return $c * 10 + xs:integer($i/@id)', 'ok 11\n22\n35'],
    ['for $i in //i #L count $c where $i/p > 2 return $c', 'ok 1\n2\n5'],
    ['for $i in reverse(//i) #L count $c order by $c descending return string($i/@id)', 'ok "1"\n"2"\n"3"\n"4"\n"5"'],
    ['for $i as element(i) in //i #L count $c return $c', 'ok 1\n2\n3\n4\n5'],
    ['for $i in () #L count $c return $c', 'ok '],
    ['for $x in (1 to 3) #L count $n count $m return $n + $m', 'ok 2\n4\n6'],
    ['for $x in ("a", "b") #L count $n for $y in (1, 2) count $m return $x || $n || $m', 'ok "a11"\n"a12"\n"b23"\n"b24"'],
    ['for $i as xs:string in //i #L count $c return $c', 'error XPTY0004'],
  ])('%s', async (query, expected) => {
    expect(await agree(query)).toBe(expected);
  });

  it.each([
    'for $i at $p in //i count $c return $p + $c',
    'for $i allowing empty in () count $c return $c',
    'for $i in //i count $i return $i',
    'for $i in //i, $j in (1, 2) count $c return $c',
    'let $x := 1 for $i in //i count $c return $c',
  ])('leaves other count clauses as written: %s', async (query) => {
    expect(streamed(query)).toBe(true);
  });

  it('keeps the answers of the forms it leaves', async () => {
    expect(await e.outcome('for $i allowing empty in () count $c return $c', doc(XML))).toBe('ok 1');
    expect(await e.outcome('for $i in //i count $i return $i', doc(XML))).toBe('ok 1\n2\n3\n4\n5');
  });
});
