import fc from 'fast-check';
import { doc, engineFixture, unabbreviated } from '../../language/translate/helpers';
import { translate } from '../../../helpers/translation';

/**
 * count, sum, avg, min and max over paths to leaves from per-document structures
 * (accelerators/leaf-aggregates/paths-aggregate.ts, accelerators/leaf-aggregates/leaf-aggregates.ts): every form answers what the path
 * written out answers (`descendant-or-self::node()/…` keeps the axis steps, so nothing is
 * rewritten), errors included.
 */
const e = engineFixture();
const xslt = (query: string): string => translate(query, 'single').xslt;
const rewritten = (query: string): boolean => /engine\}(aggregate-leaves|count-descendants)/.test(xslt(query));

const DOCS: Record<string, string> = {
  numbers:
    '<r xmlns:p="urn:p"><item id="1" n="3" p:n="9"><price>1.5</price><q>2</q></item><item id="2" n="-0"><price> 2 </price></item>' +
    '<x><item n="1e2"><price>-3e1</price><price>7</price></item></x><price>.25</price></r>',
  words: '<r><item id="i1" n="a"><price>abc</price></item><item id="i2" n="b"><price>1</price></item></r>',
  special: '<r><item n="INF"><price>NaN</price></item><item n="+1"><price>1</price></item></r>',
  empty: '<r/>',
  mixed: '<r><item><price>1<!--c-->2</price></item><item><price><b>3</b>4</price></item><item><price/></item></r>',
  zeros: '<r><item n="0"><price>-0</price></item><item n="-0"><price>0</price></item><item n="0.0"><price>-0.0</price></item></r>',
  blank: '<r><item n=""><price/></item></r>',
};

const FUNCTIONS = ['count', 'sum', 'avg', 'min', 'max'];
const PATHS = [
  '//item/price',
  '//price',
  '//item/@n',
  '//item/@id',
  '//item/price/text()',
  '//item/price/data()',
  '//item/@n/data()',
  '//price/text()',
  '//item/q',
  '//none/price',
  '$d//price',
  '$d//item/@n',
];

async function agree(query: string, xml: string): Promise<string> {
  // one at a time: a query that waits long in a loaded engine's queue is refused (host/pool.ts)
  const got = await e.outcome(query, doc(xml));
  const want = await e.outcome(unabbreviated(query), doc(xml));
  expect(`${query}: ${got}`).toBe(`${query}: ${want}`);
  return got;
}

describe('translate: aggregates over paths to leaves', () => {
  it('rewrites every function over every such path, and not the written-out path', () => {
    for (const f of FUNCTIONS) {
      for (const path of PATHS) {
        const query = `let $d := (/) return ${f}(${path})`;
        expect(`${query} ${rewritten(query)}`).toBe(`${query} true`);
        expect(rewritten(unabbreviated(query))).toBe(false);
      }
    }
  });

  it.each(Object.keys(DOCS))('answers as the path written out: %s', async (name) => {
    const queries = FUNCTIONS.flatMap((f) => PATHS.map((path) => `let $d := (/) return ${f}(${path})`));
    const outcomes: string[] = [];
    for (const q of queries) outcomes.push(await agree(q, DOCS[name]));
    // counts never fail: the queries themselves are sound
    expect(outcomes.filter((o, i) => queries[i].includes('count(') && !o.startsWith('ok '))).toEqual([]);
  });

  it.each([
    ['numbers', 'avg(//item/price), max(//price), min(//item/@n), sum(//item/price/text()), count(//item/@n)', 'ok -4.875e0\n7.0e0\n-0.0e0\n-1.95e1\n3'],
    ['words', 'count(//item/@id), max(//item/@id)', 'error FORG0001'],
    ['empty', 'count(//price), sum(//price), avg(//price), min(//price), max(//price), "end"', 'ok 0\n0\n"end"'],
    ['special', 'max(//price)', 'ok NaN'],
    ['mixed', 'count(//price/text()), sum(//price/text()), count(//price)', 'ok 3\n7.0e0\n3'],
  ])('%s: %s', async (name, query, expected) => {
    expect(rewritten(query)).toBe(true);
    expect(await agree(query, DOCS[name])).toBe(expected);
  });

  it('counts a document given twice once, as the path does, and keeps the errors of the root', async () => {
    expect(await agree('let $d := (/, /) return (count($d//price), sum($d//price), max($d//item/@n))', DOCS.numbers)).toBe('ok 5\n-1.925e1\n1.0e2');
    expect(await agree('let $d := <e/> return sum($d//price)', DOCS.numbers)).toBe('ok 0');
    expect(await agree('let $d := 1 return sum($d//price)', DOCS.numbers)).toBe('error XPTY0019');
    expect((await e.error('avg(//price)', {})).code).toBe('XPDY0002');
    expect((await e.error('let $e := <e><price>1</price></e> return $e ! max(//price)')).code).toBe('XPDY0050');
  });

  it('counts the elements below one element as the path does, and leaves other roots to it', async () => {
    const query = 'for $e in (/r, /r/item[1], /r/x, /r/item[2]/price) return count($e//price), count(/r/x//item), count((/r/x, /r/x/item)//price)';
    expect(rewritten(query)).toBe(true);
    expect(await agree(query, DOCS.numbers)).toBe('ok 5\n1\n2\n0\n1\n2');
    expect(await agree('let $e := /r/item[1] return (count($e//price), count($e//@n), count($e//price/text()), count($e//q))', DOCS.numbers)).toBe('ok 1\n1\n1\n1');
    expect(await agree('let $e := <e><price/><x><price/></x></e> return count($e//price)', DOCS.empty)).toBe('ok 2');
  });

  it('agrees with the path written out on generated documents and paths', async () => {
    const value = fc.constantFrom('1', '2.5', '-0', ' 7 ', '1e3', 'x', '', 'NaN', '-12.75', '.5');
    const item = fc.record({ price: fc.array(value, { maxLength: 2 }), n: fc.option(value), text: fc.boolean() });
    const document = fc.array(item, { maxLength: 5 }).map(
      (items) =>
        `<r>${items
          .map((i) => `<item${i.n === null ? '' : ` n="${i.n}"`}>${i.price.map((p) => (i.text ? `<price>${p}<!---->0</price>` : `<price>${p}</price>`)).join('')}</item>`)
          .join('')}</r>`,
    );
    const query = fc
      .tuple(fc.constantFrom(...FUNCTIONS), fc.constantFrom('//item/price', '//price', '//item/@n', '//price/text()', '//item/@n/data()', '$d//price'))
      .map(([f, path]) => `let $d := (/) return ${f}(${path})`);
    await fc.assert(
      fc.asyncProperty(document, query, async (xml, q) => {
        await agree(q, xml);
      }),
      { numRuns: 40 },
    );
  });
});
