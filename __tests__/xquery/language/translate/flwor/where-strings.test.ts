import { doc, engineFixture } from '../helpers';
import { translate } from '../../../../helpers/translation';

/**
 * `for $v in P where $v/C op "s"` → `for $v in P[C op "s"]` (flwor/filter.ts): the where clause
 * becomes the predicate that the leaf filter answers (accelerators/leaf-filter); every query
 * answers what the where clause as written answers (`where ($v/C op "s")`, which is left alone),
 * tuples, order and errors included.
 */
const e = engineFixture();
const rewritten = (query: string): boolean => translate(query, 'single').xslt.includes('Q{urn:xmldb-rest:engine}leaf-filter');
const writtenOf = (query: string): string => query.replace(/where (\S+) (\S+) ("[^"]*"|\S+)/, 'where ($1 $2 $3)');

const XML =
  '<r><i id="1"><c>delta</c><p>3</p></i><i id="2"><c>alpha</c><c>delta</c><p>1</p></i><i id="3"/>' +
  '<x><i id="4"><c>Delta</c><p>2</p></i></x><i id="5"><c>del<!--x-->ta</c><p>5</p></i><i id="6"><c/><p>4</p></i><i id="7"><c> delta</c></i></r>';

async function same(query: string, expected: string): Promise<void> {
  expect(rewritten(query)).toBe(true);
  const written = writtenOf(query);
  expect(rewritten(written)).toBe(false);
  const [got, want] = await Promise.all([e.outcome(query, doc(XML)), e.outcome(written, doc(XML))]);
  expect(got).toBe(want);
  expect(got).toBe(expected);
}

describe('translate: a where clause comparing a child with a string literal', () => {
  it.each([
    ['for $i in //i where $i/c = "delta" return string($i/@id)', 'ok "1"\n"2"\n"5"'],
    ['for $i in //i where "delta" = $i/c return string($i/@id)', 'ok "1"\n"2"\n"5"'],
    ['for $i in //i where $i/c != "delta" return string($i/@id)', 'ok "2"\n"4"\n"6"\n"7"'],
    ['for $i in //i where $i/c < "delta" return string($i/@id)', 'ok "2"\n"4"\n"6"\n"7"'],
    ['for $i in //i where $i/c >= "delta" return string($i/@id)', 'ok "1"\n"2"\n"5"'],
    ['for $i in //i where $i/c = "" return string($i/@id)', 'ok "6"'],
    ['for $i in //i let $c := $i/c where $c = "delta" return string($i/@id) || count($c)', 'ok "11"\n"22"\n"51"'],
    ['for $i in //i let $p := $i/p where $i/c = "delta" order by $p descending count $r return <r n="{$r}" p="{$p}"/>', 'ok <r n="1" p="5"/>\n<r n="2" p="3"/>\n<r n="3" p="1"/>'],
    ['for $i in //i where $i/c = "delta" group by $k := $i/c[last()] return $k || count($i)', 'ok "delta3"'],
    ['for $i in //i where $i/p = "3" return string($i/@id)', 'ok "1"'],
  ])('%s', async (query, expected) => {
    await same(query, expected);
  });

  it.each([
    'for $i at $n in //i where $i/c = "delta" return $n',
    'for $i in //i where $i/c = $i/p return 1',
    'for $i in //i where $i/c eq "delta" return 1',
    'for $i in //i where $i/c/text() = "delta" return 1',
  ])('leaves other where clauses as written: %s', async (query) => {
    expect(rewritten(query)).toBe(false);
    const [got, want] = await Promise.all([e.outcome(query, doc(XML)), e.outcome(writtenOf(query), doc(XML))]);
    expect(got).toBe(want);
  });
});
