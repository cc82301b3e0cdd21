import { doc, engineFixture, unabbreviated } from '../../language/translate/helpers';
import { translate } from '../../../helpers/translation';

/**
 * `count(//name)` and `sum(//name)` from the worker's per-document structures
 * (accelerators/leaf-aggregates/paths-aggregate.ts): the same answers and errors as the path written out.
 */
const e = engineFixture();
const xslt = (query: string, mode: 'single' | 'none' = 'single'): string => translate(query, mode).xslt;
const COUNT = 'Q{urn:xmldb-rest:engine}count-descendants';
const SUM = 'Q{urn:xmldb-rest:engine}aggregate-leaves';

const XML = '<r xmlns:p="urn:p"><p>1.5</p><x><p> 2 </p><p>-3e1</p></x><p:p>100</p:p><q><p>.25</p></q></r>';

describe('translate: count(//name) and sum(//name) from indexes', () => {
  it.each([
    ['count(//p), sum(//p)', '4\n-2.625e1'],
    ['count(//q), sum(//q), count(//none), sum(//none)', '1\n2.5e-1\n0\n0'],
    ['declare namespace n = "urn:p"; count(//n:p), sum(//n:p)', '1\n1.0e2'],
    ['count(//x), sum(//q)', '1\n2.5e-1'],
  ])('%s', async (query, expected) => {
    expect(xslt(query)).toContain(COUNT);
    expect(xslt(query)).toContain(SUM);
    expect(xslt(unabbreviated(query))).not.toContain(COUNT);
    const [got, want] = await Promise.all([e.adaptive(query, { context: doc(XML) }), e.adaptive(unabbreviated(query), { context: doc(XML) })]);
    expect(got).toBe(want);
    expect(got).toBe(expected);
  });

  it.each([
    // values that are not plain numbers: fn:sum as written decides
    ['<r><p>INF</p><p>1</p></r>', 'sum(//p)', 'INF'],
    ['<r><p>+1</p><p>1</p></r>', 'sum(//p)', '2.0e0'],
    ['<r><p>-0</p></r>', 'sum(//p), string(sum(//p))', '-0.0e0\n"-0"'],
  ])('%s: %s', async (xml, query, expected) => {
    expect(await e.adaptive(query, { context: doc(xml) })).toBe(expected);
    expect(await e.adaptive(unabbreviated(query), { context: doc(xml) })).toBe(expected);
  });

  it('keeps the errors of fn:sum and of a leading /', async () => {
    const bad = doc('<r><p>1</p><p>x</p></r>');
    expect((await e.error('sum(//p)', { context: bad })).code).toBe('FORG0001');
    expect((await e.error('count(//p)', {})).code).toBe('XPDY0002');
    expect((await e.error('let $e := <e><p/></e> return $e ! count(//p)')).code).toBe('XPDY0050');
  });

  it('adds the values in document order, over several documents', async () => {
    const values = Array.from({ length: 300 }, (_, i) => ((i * 7919) % 100003) / 100 + 0.1);
    const xml = (from: number, to: number) => `<r>${values.slice(from, to).map((v) => `<p>${v}</p>`).join('')}</r>`;
    const ctx = { kind: 'documents' as const, xml: [xml(0, 100), xml(100, 300)] };
    const query = 'sum(//p), count(//p), let $d := (/) return count($d//p)';
    expect(await e.adaptive(query, { context: ctx })).toBe(await e.adaptive(unabbreviated(query), { context: ctx }));
  });

  it('counts the different values of a leaf path as distinct-values does', async () => {
    const xml = '<r><i a="1"><p>x</p><p>X</p></i><i a="01"><p>x</p><p> x</p></i><i a="1"><p><b>x</b></p><p/></i><i/></r>';
    const context = { kind: 'documents' as const, xml: [xml, '<r><i a="2"><p>y</p><p>x</p></i></r>'] };
    for (const query of ['count(distinct-values(//i/p))', 'count(distinct-values(//i/@a))', 'count(distinct-values(//p))', 'count(distinct-values(//i/p/data()))', 'count(distinct-values(//p/text()))']) {
      const plain = query.replace('distinct-values(', 'distinct-values((').replace(/\)\)$/, ', ())))');
      expect(xslt(plain)).not.toContain('count-distinct');
      expect(`${query}: ${await e.adaptive(query, { context })}`).toBe(`${query}: ${await e.adaptive(plain, { context })}`);
    }
    expect(xslt('count(distinct-values(//i/p))')).toContain('count-distinct');
    expect(await e.adaptive('count(distinct-values(//i/p)), count(distinct-values(//i/@a))', { context: doc(xml) })).toBe('4\n2');
    // a collation named in the call: distinct-values as written
    const named = 'count(distinct-values(//i/p, "http://www.w3.org/2005/xpath-functions/collation/html-ascii-case-insensitive"))';
    expect(xslt(named)).not.toContain('count-distinct');
    expect(await e.adaptive(named, { context: doc(xml) })).toBe('3');
  });

  it('is not used for other paths', () => {
    for (const query of ['count(//p[1])', 'count(//p/q/r)', 'count(/r//p)', 'count(.//p)', 'sum(//p[. > 1])', 'count(//*)', 'avg(//p/@a/text())', 'sum(//p/q[1])']) {
      expect(xslt(query)).not.toContain(COUNT);
      expect(xslt(query)).not.toContain(SUM);
    }
  });
});
