import { doc, engineFixture, unabbreviated } from '../../language/translate/helpers';
import type { QueryContext } from '../../../../lib/xquery/engine/engine';
import { translate } from '../../../helpers/translation';

/**
 * `E//name` through the element-name index (accelerators/name-index/paths-index.ts, accelerators/name-index/name-index.ts):
 * every query must answer what its unrewritten form answers (`descendant-or-self::node()/…`
 * written out is not abbreviated, so it keeps the axis steps).
 */
const e = engineFixture();
const XML =
  '<r xmlns:p="urn:p"><a id="1"><b n="1">x<c>c1</c></b><a id="3"><b n="2"><b n="3"/></b></a></a>' +
  '<a id="2"><b n="4">y<c>c2</c><c>c3</c></b><p:b n="5">z</p:b></a><!--b--><?b b?></r>';
const DOS = 'descendant-or-self::node()';

/** What `query` answers over `context` (XML by default), once its unabbreviated form has answered the same. */
async function asWritten(query: string, context: QueryContext = doc(XML)): Promise<string> {
  const [got, want] = await Promise.all([e.adaptive(query, { context }), e.adaptive(unabbreviated(query), { context })]);
  expect(got).toBe(want);
  return got;
}

const INDEX_CALL = 'Q{urn:xmldb-rest:engine}descendants';
const COUNT_CALL = 'Q{urn:xmldb-rest:engine}count-descendants';
const rewritten = (query: string): boolean => {
  const xslt = translate(query, 'single').xslt;
  return xslt.includes(INDEX_CALL) || xslt.includes(COUNT_CALL);
};

describe('translate: //name through the element-name index', () => {
  it.each([
    // [query, its unrewritten form, expected, rewritten?]
    ['count(//b)', `count(/${DOS}/b)`, '4', true],
    ['//b/@n/string()', `/${DOS}/b/@n/string()`, '"1"\n"2"\n"3"\n"4"', true],
    ['//b/c/string()', `/${DOS}/b/c/string()`, '"c1"\n"c2"\n"c3"', true],
    ['//b[1]/@n/string()', `/${DOS}/b[1]/@n/string()`, '"1"\n"2"\n"3"\n"4"', true],
    ['(//b)[1]/@n/string()', `(/${DOS}/b)[1]/@n/string()`, '"1"', true],
    ['//b[last()]/@n/string()', `/${DOS}/b[last()]/@n/string()`, '"1"\n"2"\n"3"\n"4"', true],
    // boolean predicates that read no position filter the index's answer
    ['//b[@n = "2"]/@n/string(), //b[@n > 2 and c]/@n/string()', `/${DOS}/b[@n = "2"]/@n/string(), /${DOS}/b[@n > 2 and c]/@n/string()`, '"2"\n"4"', true],
    ['//b[not(c)][@n > 1]/@n/string(), count(//b[some $c in c satisfies $c = "c3"])', `/${DOS}/b[not(c)][@n > 1]/@n/string(), count(/${DOS}/b[some $c in c satisfies $c = "c3"])`, '"2"\n"3"\n1', true],
    // a predicate that is a number, or reads position() or last(), stays on the child step, of
    // the parents of the index's elements (paths-index.ts `parentsOfNamedCall`)
    ['//b[position() = 1]/@n/string(), //b[last() > 1]/@n/string()', `/${DOS}/b[position() = 1]/@n/string(), /${DOS}/b[last() > 1]/@n/string()`, '"1"\n"2"\n"3"\n"4"', true],
    ['//b[c[1]][last()]/@n/string()', `/${DOS}/b[c[1]][last()]/@n/string()`, '"1"\n"4"', true],
    // a predicate that is nodes (a step, a path ending in a step, a union) counts by whether it is empty
    ['//b[c]/@n/string(), //b[b/@n]/@n/string(), count(//b[text() | c]), count(//b[..//c]), count(//a[/])', `/${DOS}/b[c]/@n/string(), /${DOS}/b[b/@n]/@n/string(), count(/${DOS}/b[text() | c]), count(/${DOS}/b[../${DOS}/c]), count(/${DOS}/a[/])`, '"1"\n"4"\n"2"\n2\n2\n3', true],
    ['//b[c[1]]/@n/string(), //b[(c, @n)[2] = "c3"]/@n/string()', `/${DOS}/b[c[1]]/@n/string(), /${DOS}/b[(c, @n)[2] = "c3"]/@n/string()`, '"1"\n"4"\n"4"', true],
    ['//b[(1, 2)[2]]/@n/string()', `/${DOS}/b[(1, 2)[2]]/@n/string()`, '', true],
    ['count(//*)', `count(/${DOS}/*)`, '12', false],
    ['count(//*:b), count(//@n), count(//comment()), count(//text())', `count(/${DOS}/*:b), count(/${DOS}/@n), count(/${DOS}/comment()), count(/${DOS}/text())`, '5\n5\n1\n6', false],
    ['count(//a//b), //a//b/@n/string()', `count(/${DOS}/a/${DOS}/b), /${DOS}/a/${DOS}/b/@n/string()`, '4\n"1"\n"2"\n"3"\n"4"', true],
    ['//b//b/@n/string()', `/${DOS}/b/${DOS}/b/@n/string()`, '"3"', true],
    ['r//c/string(), count(/r//b/..)', `r/${DOS}/c/string(), count(/r/${DOS}/b/..)`, '"c1"\n"c2"\n"c3"\n4', true],
    ['let $x := /r/a[1] return $x//b/@n/string()', `let $x := /r/a[1] return $x/${DOS}/b/@n/string()`, '"1"\n"2"\n"3"', true],
    ['let $x := (/r/a[2], /r/a[1]) return $x//b/@n/string()', `let $x := (/r/a[2], /r/a[1]) return $x/${DOS}/b/@n/string()`, '"1"\n"2"\n"3"\n"4"', true],
    ['let $x := <x><b/><y><b/></y></x> return count($x//b)', `let $x := <x><b/><y><b/></y></x> return count($x/${DOS}/b)`, '2', true],
    ['//a/@id//b, //comment()//b', `/${DOS}/a/@id/${DOS}/b, /${DOS}/comment()/${DOS}/b`, '', true],
    ['declare namespace q = "urn:p"; //q:b/@n/string(), count(//Q{urn:p}b), count(//Q{}b)', `declare namespace q = "urn:p"; /${DOS}/q:b/@n/string(), count(/${DOS}/Q{urn:p}b), count(/${DOS}/Q{}b)`, '"5"\n1\n4', true],
    ['sum(//b/@n), string-join(//c, ",")', `sum(/${DOS}/b/@n), string-join(/${DOS}/c, ",")`, '1.0e1\n"c1,c2,c3"', true],
  ])('%s', async (query, plain, expected, isRewritten) => {
    expect(rewritten(query)).toBe(isRewritten);
    expect(rewritten(plain)).toBe(false);
    const [got, want] = await Promise.all([e.adaptive(query, { context: doc(XML) }), e.adaptive(plain, { context: doc(XML) })]);
    expect(got).toBe(want);
    expect(got).toBe(expected);
  });

  const xslt = (q: string) => translate(q, 'single').xslt;
  const ELEMENTS_CALL = 'Q{urn:xmldb-rest:engine}descendant-elements(';

  it.each([
    ['count(//comment()[. = "b"]), count(//node()[. instance of comment()])', '1\n1'],
    ['declare namespace p = "urn:p"; count(//p:*[@n]), count(//*:b[@n > 1]), count(//Q{}*[@n])', '1\n4\n4'],
  ])('%s: one descendant:: step for //node()[p] and other wildcards', async (query, expected) => {
    expect(xslt(query)).toContain('/descendant::');
    expect(xslt(query)).not.toContain(ELEMENTS_CALL);
    expect(xslt(unabbreviated(query))).not.toContain('/descendant::');
    expect(await asWritten(query)).toBe(expected);
  });

  it.each([
    ['count(//*[string-length(local-name()) > 0]), count(//*[@n = "2"]), //a//*[@n > 3]/@n/string()', '12\n1\n"4"\n"5"'],
    ['count(//*), //*[@id][not(@id = "1")]/@id/string(), count(//b//*)', '12\n"3"\n"2"\n4'],
    ['count(//*[@*[string-length(.) > 0]]), count(//*[text()]), //*[c | *:b]/@n/string(), count(//*[not(*)][../@n])', '8\n6\n"1"\n"2"\n"4"\n4'],
    ['count(//*[(@n)]), count(//*[../@id][text() | *]), count(//*[@n][@n > 2])', '5\n5\n3'],
    ['let $x := /r/a[1] return (count($x//*), $x//*[@n]/@n/string(), count($x/b//*))', '5\n"1"\n"2"\n"3"\n1'],
    ['(//*)[3]/@n/string(), (//*[@n])[last()]/@n/string(), count(//* | //b), count((//*, //*) / .)', '"1"\n"5"\n12\n12'],
    ['declare default element namespace "urn:p"; count(//*), count(//*[@n > 4])', '12\n1'],
  ])('%s: //*[p] from the list of descendant elements', async (query, expected) => {
    expect(xslt(query)).toContain(ELEMENTS_CALL);
    expect(xslt(unabbreviated(query))).not.toContain(ELEMENTS_CALL);
    expect(await asWritten(query)).toBe(expected);
  });

  it.each([
    ['count(//@*[. = "2"]), //@n[. > 2]/string(), //@id[. eq "3"]/../@id/string()', '2\n"3"\n"4"\n"5"\n"3"'],
    ['count(//@*[contains(., "1")]), //@n[. > 1][1]/string(), count(//@*), count(//@n[. = ("1", "5")])', '2\n"2"\n"3"\n"4"\n"5"\n8\n2'],
  ])('%s: //@a[p] from the elements of the document, the first comparison choosing them', async (query, expected) => {
    expect(xslt(query)).toContain(ELEMENTS_CALL);
    expect(xslt(query)).not.toContain(`${DOS}/attribute::`);
    expect(await asWritten(query)).toBe(expected);
  });

  it('chooses the elements of //@a[. op V] only by a value that does not read the focus', async () => {
    // `../../@id` read from the element would be its grandparent's: no attribute would pass
    const query = '//@n[. = ../../@id]/string()';
    expect(xslt(query)).not.toContain('descendants-matching');
    expect(await e.adaptive(query, { context: doc(XML) })).toBe('"1"');
    // `@* eq "1"` of an element with two attributes would raise XPTY0004: each attribute is compared
    expect(await e.adaptive('//@*[. eq "1"]/name()', { context: doc('<r><x a="1" b="2"/></r>') })).toBe('"a"');
  });

  it('answers //@a[p] over several documents and constructed ones', async () => {
    const ctx = { kind: 'documents' as const, xml: ['<r a="1"><x a="2"/></r>', '<r><x a="2" b="2"/></r>'] };
    const query = 'count(//@*[. = "2"]), //@a[. < 3]/string()';
    expect(await asWritten(query, ctx)).toBe('3\n"1"\n"2"\n"2"');
    const built = 'let $d := document { <r><x a="1"/><x a="2"/></r> } return $d ! (count(//@a[. = "2"]), //@a[. = "2"] is /r/x[2]/@a)';
    expect(await e.adaptive(built)).toBe('1\ntrue()');
  });

  it('lets the elements of e[p]/@a[. op V] be chosen by @a op V too', async () => {
    const query = 'count(//b/@n[. = "2"]), //*/@n[. > 3]/string(), /r/a/@id[. = "2"]/../b/@n/string(), //b[1]/@n[. = "1"]/string(), //a[@id > 1]/@id[. < 3]/string()';
    expect(xslt(query)).toContain('Q{urn:xmldb-rest:engine}leaf-filter(');
    expect(await asWritten(query)).toBe('1\n"4"\n"5"\n"4"\n"1"\n"2"');
  });

  it('lets the elements of //e[p]/c[. op V] be chosen by c op V too', async () => {
    const query = '//b/c[. = "c2"]/string(), count(//a/b[. > "x"]), //*/c[. != "c1"]/string(), //a[@id]/b[. = "xc1"][1]/@n/string()';
    expect(xslt(query)).toContain('Q{urn:xmldb-rest:engine}leaf-filter(');
    expect(await asWritten(query)).toBe('"c2"\n2\n"c2"\n"c3"\n"1"');
    // a value comparison of one child of several is an error the step as written does not raise
    expect(await e.adaptive('//b/c[. eq "c3"]/string()', { context: doc(XML) })).toBe('"c3"');
  });

  it('takes the nodes of .., ancestor:: and sibling steps once before the next step', async () => {
    const query = 'count(//c/../c), //c/../@n/string(), //b/following-sibling::*/name(), count(//b/ancestor::a/b), count(//c/..)';
    expect(xslt(query)).toContain(' ! .)/');
    expect(await asWritten(query)).toBe('3\n"1"\n"4"\n"a"\n"p:b"\n3\n2');
  });

  it('answers descendant::name[p] and descendant::*[p] written out from the index and the element list', async () => {
    const query =
      'count(/descendant::b), /r/descendant::b[2]/@n/string(), count(/descendant::*), /descendant::*[@n > 3]/@n/string(), ' +
      'count(/descendant::*/@*[. = "2"]), (/r/a)[1]/descendant::b[last()]/@n/string(), /r/a/descendant::b[1]/@n/string(), ' +
      '/r/a ! count(descendant::b[@n > 1])';
    // the same steps unrewritten: the descendants as a parenthesized path, its predicates after it
    const d = `(${DOS}/child::`;
    const plain =
      `count(/${DOS}/child::b), /r/${d}b)[2]/@n/string(), count(/${DOS}/child::*), /${d}*)[@n > 3]/@n/string(), ` +
      `count(/${DOS}/child::*/@*[. = "2"]), (/r/a)[1]/${d}b)[last()]/@n/string(), /r/a/${d}b)[1]/@n/string(), ` +
      `/r/a ! count(${d}b)[@n > 1])`;
    expect(xslt(query)).toContain(INDEX_CALL);
    expect(xslt(query)).toContain(ELEMENTS_CALL);
    expect(rewritten(plain)).toBe(false);
    expect(await e.adaptive(query, { context: doc(XML) })).toBe(await e.adaptive(plain, { context: doc(XML) }));
    expect(await e.adaptive(query, { context: doc(XML) })).toBe('4\n"2"\n12\n"4"\n"5"\n2\n"3"\n"1"\n"4"\n2\n1');
  });

  it('raises XPTY0020 for descendant:: written out on an atomic focus, as the axis step does', async () => {
    for (const query of ['(1, 2) ! descendant::b[1]', '"a" ! descendant::*[@id]', '(1, 2) ! count(descendant::b)', '(1, 2) ! (descendant::b[1]/c)']) {
      expect([query, (await e.error(query)).code]).toEqual([query, 'XPTY0020']);
    }
  });

  it('keeps //*[p] with a positional predicate on the child step', async () => {
    const query = '//*[1]/name(), //*[last()]/name(), //*[position() > 2]/name()';
    expect(xslt(query)).not.toContain(ELEMENTS_CALL);
    await asWritten(query);
  });

  it('keeps //name[p] on the child step when p runs a function item, which may be position#0', async () => {
    for (const query of [
      'let $f := position#0 return //b[$f() = 1]/@n/string()',
      'let $f := position#0 return //b[apply($f, array:join(())) = 1]/@n/string()',
      'let $f := last#0 return //b[$f() = 2 and @n > 0]/@n/string()',
    ]) {
      expect(xslt(query)).toContain('/child::Q{}b[');
      await asWritten(query);
    }
  });

  it('answers //* per document, over constructed trees, with the node identity and errors of a path', async () => {
    const ctx = { kind: 'documents' as const, xml: ['<r><b>1</b><x><b>2</b></x></r>', '<r><b>3</b></r>'] };
    const many = 'count(//*), //*[. = "3"]/name()';
    expect(await asWritten(many, ctx)).toBe('6\n"r"\n"b"');
    const built = 'let $d := document { <r><b/><c><d/></c></r> }, $e := <e><b/><c><d/></c></e> return (count($d//*), count($e//*), ($e//*)[3] is $e/c/d, ($d//*[not(*)])[2] is $d/r/c/d)';
    expect(xslt(built)).toContain(ELEMENTS_CALL);
    expect(await e.adaptive(built)).toBe('4\n3\ntrue()\ntrue()');
    expect((await e.error('(1, 2)//*[. = 1]')).code).toBe((await e.error(`(1, 2)/${DOS}/*[. = 1]`)).code);
    expect((await e.error('//*[@n]')).code).toBe('XPDY0002');
    expect((await e.error('let $e := <e/> return $e ! (//*[@n])')).code).toBe('XPDY0050');
  });

  it('keeps node identity: the indexed nodes are the document nodes', async () => {
    const query =
      `(//b)[1] is (//b)[1], (//b)[2] is (/${DOS}/b)[2], (//b)[3] is /r/a/a/b/b, ` +
      `count(//b | /${DOS}/b), count(//b intersect /${DOS}/b), count((//b, //b) / .), //c[2]/.. is (//b)[4]`;
    expect(rewritten(query)).toBe(true);
    expect(await e.adaptive(query, { context: doc(XML) })).toBe('true()\ntrue()\ntrue()\n4\n4\n4\ntrue()');
  });

  it('answers //name per document over a sequence of documents', async () => {
    const ctx = { kind: 'documents' as const, xml: ['<r><b>1</b><x><b>2</b></x></r>', '<r><b>3</b></r>'] };
    for (const [query, plain] of [
      ['//b/string()', `/${DOS}/b/string()`],
      ['count(//b), sum(//b)', `count(/${DOS}/b), sum(/${DOS}/b)`],
      ['let $d := (/) return ($d//b ! string(), count($d//b))', `let $d := (/) return ($d/${DOS}/b ! string(), count($d/${DOS}/b))`],
    ]) {
      expect(await e.adaptive(query, { context: ctx })).toBe(await e.adaptive(plain, { context: ctx }));
    }
    expect(await e.adaptive('//b/string()', { context: ctx })).toBe('"1"\n"2"\n"3"');
    expect(await e.adaptive('let $d := (/) return count($d//b)', { context: ctx })).toBe('3');
  });

  it('answers //name over constructed documents', async () => {
    const query = 'let $d := (document { <r><b/><b><b/></b></r> }, document { <b/> }) return (count($d//b), count($d[2]//b), $d[1]//b[b] is ($d[1]//b)[2])';
    expect(rewritten(query)).toBe(true);
    expect(await e.adaptive(query)).toBe('4\n1\ntrue()');
  });

  it('applies the default element namespace', async () => {
    const ctx = doc('<r xmlns="urn:d"><x id="1"><x id="2"/></x><y xmlns=""><x id="3"/></y></r>');
    const query = 'declare default element namespace "urn:d"; //x/@id/string(), count(//Q{}x), count(//y), count(r//x)';
    const plain = `declare default element namespace "urn:d"; /${DOS}/x/@id/string(), count(/${DOS}/Q{}x), count(/${DOS}/y), count(r/${DOS}/x)`;
    expect(rewritten(query)).toBe(true);
    expect(await e.adaptive(query, { context: ctx })).toBe(await e.adaptive(plain, { context: ctx }));
    expect(await e.adaptive(query, { context: ctx })).toBe('"1"\n"2"\n1\n0\n2');
  });

  it('keeps the errors of a path', async () => {
    expect((await e.error('1 ! (//b)')).code).toMatch(/^XPTY00(20|04)$/);
    expect((await e.error('(1, 2)//b')).code).toBe((await e.error(`(1, 2)/${DOS}/b`)).code);
    expect((await e.error('//b')).code).toBe('XPDY0002');
    expect((await e.error('let $e := <e><b/></e> return $e ! (//b)')).code).toBe('XPDY0050');
  });
});
