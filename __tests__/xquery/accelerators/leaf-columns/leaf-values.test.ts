import { doc, engineFixture, unabbreviated } from '../../language/translate/helpers';
import { translate } from '../../../helpers/translation';
import { plainNumber } from '../../../../lib/xquery/accelerators/leaf-columns/leaf-values';

/**
 * `//name[child op number]` through leaf columns (accelerators/leaf-filter/leaf-filter.ts): every query must
 * answer what its unrewritten form answers (`descendant-or-self::node()/…` written out keeps the
 * axis steps and the predicate), errors included.
 */
const e = engineFixture();
const DOS = 'descendant-or-self::node()';
const WHERE_CALL = 'Q{urn:xmldb-rest:engine}leaf-filter';
const rewritten = (query: string): boolean => translate(query, 'single').xslt.includes(WHERE_CALL);

const XML =
  '<r xmlns:p="urn:p"><i id="1"><v>10</v></i><i id="2"><v> 2.5e1 </v><v>3</v></i><i id="3"/>' +
  '<x><i id="4"><v>-7</v><w>100</w></i></x><i id="5"><v>1<!--c-->5</v></i><i id="6"><p:v>99</p:v><v>.5</v></i></r>';

async function same(query: string, xml: string, expected: string): Promise<void> {
  expect(rewritten(query)).toBe(true);
  expect(rewritten(unabbreviated(query))).toBe(false);
  const [got, want] = await Promise.all([e.adaptive(query, { context: doc(xml) }), e.adaptive(unabbreviated(query), { context: doc(xml) })]);
  expect(got).toBe(want);
  expect(got).toBe(expected);
}

describe('translate: //name[child op number] from leaf columns', () => {
  it.each([
    ['//i[v > 5]/@id/string()', '"1"\n"2"\n"5"'],
    ['//i[v >= 10]/@id/string()', '"1"\n"2"\n"5"'],
    ['//i[v < 3]/@id/string()', '"4"\n"6"'],
    ['//i[v <= 3]/@id/string()', '"2"\n"4"\n"6"'],
    ['//i[v = 25]/@id/string()', '"2"'],
    ['//i[v != 25]/@id/string()', '"1"\n"2"\n"4"\n"5"\n"6"'],
    ['//i[v = 0.5]/@id/string(), //i[v = 5e-1]/@id/string(), //i[v > 14.99]/@id/string()', '"6"\n"6"\n"2"\n"5"'],
    // the literal on the left: the operator turns round
    ['//i[5 < v]/@id/string(), //i[25 = v]/@id/string(), //i[-7 >= v]/@id/string()', '"1"\n"2"\n"5"\n"2"\n"4"'],
    // further predicates, and steps after the filtered one
    ['//i[v > 5][@id > 1]/@id/string(), //i[v > 5]/v/string(), count(//x//i[v < 0])', '"2"\n"5"\n"10"\n" 2.5e1 "\n"3"\n"15"\n1'],
    ['declare namespace p = "urn:p"; //i[p:v > 50]/@id/string(), count(//i[w = 100])', '"6"\n1'],
  ])('%s', async (query, expected) => {
    await same(query, XML, expected);
  });

  it('keeps node identity and document order', async () => {
    const query = `(//i[v > 5])[2] is (/r/i)[2], count(//i[v > 5] | /${DOS}/i), (//i[v > 0])[last()] is /r/i[@id = "6"]`;
    expect(rewritten(query)).toBe(true);
    expect(await e.adaptive(query, { context: doc(XML) })).toBe('true()\n6\ntrue()');
  });

  it.each([
    // values Number() would read otherwise, or that do not cast: the predicate decides, as written
    ['<r><i><v>+5</v></i><i><v>3</v></i></r>', '//i[v > 4]/v/string()', '"+5"'],
    ['<r><i><v>INF</v></i><i><v>-INF</v></i><i><v>NaN</v></i></r>', 'count(//i[v > 4]), count(//i[v != 1])', '1\n2'],
    ['<r><i><v>0x10</v></i></r>', 'count(//i[v > 4])', null],
    ['<r><i><v/></i></r>', 'count(//i[v > 4])', null],
    ['<r><i><v>1 2</v></i></r>', 'count(//i[v = 1])', null],
    ['<r><i><v>1</v></i><i><v>abc</v></i></r>', 'count(//i[v = 1])', null],
  ])('falls back to the predicate: %s', async (xml, query, expected) => {
    expect(rewritten(query)).toBe(true);
    if (expected === null) {
      const [got, want] = await Promise.all([e.error(query, { context: doc(xml) }), e.error(unabbreviated(query), { context: doc(xml) })]);
      expect(got.code).toBe('FORG0001');
      expect(want.code).toBe(got.code);
    } else {
      expect(await e.adaptive(query, { context: doc(xml) })).toBe(expected);
      expect(await e.adaptive(unabbreviated(query), { context: doc(xml) })).toBe(expected);
    }
  });

  it('is not used where the other side is not a leaf or can see the element', async () => {
    for (const query of ['//i[v/w > 5]', '//i[v[1] > 5]', '//i[v > 5][1]', '//i[v > w]', '//i[v > position()]', '//i[v > string()]', '//i[v > count(w)]', '//i[v > random:double()]']) {
      expect(rewritten(query)).toBe(false);
    }
    expect(await e.adaptive('//i[v > "5"]/@id/string()', { context: doc('<r><i id="1"><v>10</v></i><i id="2"><v>6</v></i></r>') })).toBe('"2"');
  });

  it('answers per document over several documents, and below an element through the predicate', async () => {
    const ctx = { kind: 'documents' as const, xml: ['<r><i n="a"><v>1</v></i><i n="b"><v>9</v></i></r>', '<r><i n="c"><v>7</v></i></r>'] };
    const query = '//i[v > 5]/@n/string(), let $r := /r return $r//i[v > 5]/@n/string(), count(<x><i><v>8</v></i></x>//i[v > 5])';
    expect(rewritten(query)).toBe(true);
    expect(await e.adaptive(query, { context: ctx })).toBe(await e.adaptive(unabbreviated(query), { context: ctx }));
    expect(await e.adaptive(query, { context: ctx })).toBe('"b"\n"c"\n"c"\n"b"\n1');
  });

  it('sees a copy modified in the same query with its new values', async () => {
    const query = 'copy $c := (/) modify replace value of node ($c//i)[1]/v with "50" return ($c//i[v > 20]/@id/string(), //i[v > 20]/@id/string())';
    expect(await e.adaptive(query, { context: doc(XML) })).toBe('"1"\n"2"\n"2"');
  });

  it.each([
    ['for $i in //i where $i/v > 5 return string($i/@id)', '"1"\n"2"\n"5"'],
    ['for $i in //i where 5 < $i/v order by number($i/v[1]) descending return string($i/@id)', '"2"\n"5"\n"1"'],
    ['for $i in /r//i where $i/v <= 3 let $n := $i/@id return string($n)', '"2"\n"4"\n"6"'],
    ['for $i in //i let $j := 1 where $i/v > 5 return $j', '1\n1\n1'],
    ['for $i in //i let $v := $i/v, $n := $i/@id where $v > 5 return string($n)', '"1"\n"2"\n"5"'],
    ['for $i in //i let $v := $i/v where $v > 5 return count($v)', '1\n2\n1'],
    ['let $v := 1 for $i in //i let $v := $i/v where $v > 5 where ($i/v > 20) return string($i/@id)', '"2"'],
  ])('a where clause on the variable bound by the last for clause becomes the predicate: %s', async (query, expected) => {
    const written = query.replace(/where (\S+) (\S+) (\S+)/, 'where ($1 $2 $3)');
    expect(rewritten(query)).toBe(true);
    expect(rewritten(written)).toBe(false);
    expect(await e.adaptive(query, { context: doc(XML) })).toBe(await e.adaptive(written, { context: doc(XML) }));
    expect(await e.adaptive(query, { context: doc(XML) })).toBe(expected);
  });

  it.each([
    'for $i at $p in //i where $i/v > 5 return $p',
    'for $i allowing empty in //i where $i/v > 5 return string($i/@id)',
    'for $i as element(i) in //i where $i/v > 5 return string($i/@id)',
    'for $i in //i, $j in (1, 2) where $i/v > 5 return $j',
    'for $j in (1, 2) for $i in //i where $j/v > 5 return 1',
    'for $i in (//i, //v) where $i/v > 5 return 1',
  ])('leaves other where clauses as written: %s', async (query) => {
    expect(rewritten(query)).toBe(false);
    const written = query.replace(/where (\S+) (\S+) (\S+)/, 'where ($1 $2 $3)');
    const [got, want] = await Promise.all([e.adaptive(query, { context: doc(XML) }).catch((x: Error) => x.message), e.adaptive(written, { context: doc(XML) }).catch((x: Error) => x.message)]);
    expect(got).toBe(want);
  });
});

// The plain number of an untyped leaf (leaf-values.ts `plainNumber`), read from its characters:
// exactly the forms and the values the rule names.
/** The plain form as the rule states it (a regular expression), read by Number: what `plainNumber` must answer. */
const PLAIN = /^[ \t\r\n]*-?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?[ \t\r\n]*$/;
const expected = (s: string) => (PLAIN.test(s) ? Number(s) : undefined);

describe('plainNumber', () => {
  const texts = [
    '0', '-0', '-0.0', '5', '5.', '.5', '-.5', '007', '12.50', ' 42 ', '\n\t-3.25\n', '1e3', '1E-3', '-2.5e+2', '.5e1',
    '123456789012345', '1234567890123456', '12345678901234567890', '0.1', '0.3', '2.675', '1.005', '9007199254740993',
    '0.0000000000000000000001', '1.0000000000000000000001', '3.14159265358979', '179769313486231570000000000000000',
    '\r\n7\r', '', ' ', '-', '.', '-.', '+5', '5-', '1 2', '1e', '1e+', 'e5', '0x10', 'INF', 'NaN', '1.2.3', '--1', '5a', '١٢',
  ];

  test.each(texts.map((t) => [JSON.stringify(t), t]))('%s as Number reads a plain number', (_name, t) => {
    const v = plainNumber(`<p>${t}</p>`, 3, 3 + t.length);
    expect(v === undefined ? 'none' : Object.is(v, -0) ? '-0' : v).toEqual(expected(t) === undefined ? 'none' : Object.is(expected(t), -0) ? '-0' : expected(t));
  });

  test('random decimals of up to 24 digits read exactly as Number reads them', () => {
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
    const digits = (k: number) => Array.from({ length: k }, () => Math.floor(random() * 10)).join('');
    for (let i = 0; i < 20000; i++) {
      const t = `${random() < 0.3 ? '-' : ''}${digits(Math.floor(random() * 12))}${random() < 0.7 ? `.${digits(Math.floor(random() * 12))}` : ''}`;
      const v = plainNumber(t);
      const e = expected(t);
      if (!Object.is(v, e)) throw new Error(`${t}: ${v} against ${e}`);
    }
  });
});

