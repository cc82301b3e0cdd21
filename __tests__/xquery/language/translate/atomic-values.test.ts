/**
 * Element content statically known to be atomic values (translate/atomic-values.ts) is built as
 * text directly, without the run-time dispatch of `engine:content` and the attribute checks of
 * `engine:element-content` (functions/constructor-content.ts): the answers must be exactly XQuery 3.1 §3.9.1.3's, on the first run (the
 * runtime library) and the next ones (the query's own stylesheet), with plain constructor calls and
 * with XSLT instructions; content not provably atomic keeps the general translation.
 */
import { doc, engineFixture } from './helpers';
import { translate } from '../../../helpers/translation';

const e = engineFixture();
const CONTENT = 'Q{urn:xmldb-rest:engine}content(';

/** Whether both translations (plain constructor calls, XSLT instructions) dispatch content at run time. */
function dispatches(query: string): [boolean, boolean] {
  const t = (plainConstructors: boolean): boolean => translate(query, 'single', { plainConstructors }).xslt.includes(CONTENT);
  return [t(true), t(false)];
}

/** The answer of two runs (the library's, then the stylesheet's), which must agree. */
async function answer(query: string, xml = '<r/>'): Promise<string> {
  const once = (): Promise<string> => e.outcome(query, doc(xml));
  const first = await once();
  expect(await once()).toBe(first);
  return first;
}

const ITEMS = '<items><item><price>10</price></item><item><price>9.5</price></item></items>';

describe('translate: element content of atomic values', () => {
  it.each([
    ['<a>{1}{2}</a>', '<a>12</a>'],
    ['<a>{1}{2}{3}</a>', '<a>123</a>'],
    ['<a>{1, 2}</a>', '<a>1 2</a>'],
    ['<a>{1}x{2}</a>', '<a>1x2</a>'],
    ['<a>{()}</a>', '<a/>'],
    ['<a>x{()}y</a>', '<a>xy</a>'],
    ['<a>{""}</a>', '<a/>'],
    ['<a>{""}{1}</a>', '<a>1</a>'],
    ['<a>{1}<b/>{2}</a>', '<a>1<b/>2</a>'],
    ['<a>{1 to 3}{"x" || "y"}</a>', '<a>1 2 3xy</a>'],
    ['<a>{1e0 div 0, xs:double("NaN"), 1.0, -0e0, 1.5e7}</a>', '<a>INF NaN 1 -0 1.5E7</a>'],
    ['<a>{if (true()) then 1 else "x"}{1 = 1, 1 instance of xs:integer}</a>', '<a>1true true</a>'],
    ['<a>{count((1, 2))}-{string(<b>x</b>)}{xs:date("2020-01-02")}</a>', '<a>2-x2020-01-02</a>'],
    ['<a b="{1, 2}{-1}" c="{()}">{2 + 2}</a>', '<a b="1 2-1" c="">4</a>'],
    ['<a>{data(<b>x</b>)}</a>', '<a>x</a>'],
    ['for $i in 1 to 3 let $x := $i * 2.5 return <r n="{$i}">{$x}</r>', '<r n="1">2.5</r>\n<r n="2">5</r>\n<r n="3">7.5</r>'],
    [
      'for $i in 1 to 9 let $x := ($i * 7) mod 5 where $x mod 2 = 0 order by $x descending, $i return <r n="{$i}">{$x}</r>',
      '<r n="2">4</r>\n<r n="7">4</r>\n<r n="1">2</r>\n<r n="6">2</r>\n<r n="5">0</r>',
    ],
    ['for $x at $p in ("a", "b") return <r>{$p}{$x}</r>', '<r>1a</r>\n<r>2b</r>'],
    ['for $x in (1, 2, 1) group by $x order by $x count $c return <r>{$x, $c}</r>', '<r>1 1</r>\n<r>2 2</r>'],
    ['for $x in (1, 2, 1) let $y := $x * 10 group by $x return <r>{$y}</r>', '<r>10 10</r>\n<r>20</r>'],
    ['<p:a xmlns:p="urn:p">{1}{2}</p:a>', '<p:a xmlns:p="urn:p">12</p:a>'],
    ['<r><a>{1, 2}</a><b n="{1 + 1}">{()}</b></r>', '<r><a>1 2</a><b n="2"/></r>'],
    ['element a {1, 2}', '<a>1 2</a>'],
    ['element a {()}', '<a/>'],
  ])('%s', async (query, expected) => {
    expect(dispatches(query)).toEqual([false, false]);
    expect(await answer(query)).toBe(`ok ${expected}`);
  });

  it.each([
    // attributes after atomic content: the general check decides
    ['<a>{1}{attribute b {2}}</a>', 'error XQTY0024'],
    ['<a>{()}{attribute b {2}}</a>', 'ok <a b="2"/>'],
    ['<a>{""}{attribute b {2}}{1}</a>', 'ok <a b="2">1</a>'],
    ['<a>{1}<b/>{attribute c {2}}</a>', 'error XQTY0024'],
    ['<r>{for $i in 1 to 2 return <x>{$i}{$i * 2}</x>}</r>', 'ok <r><x>12</x><x>24</x></r>'],
    ['<p:a xmlns:p="urn:p">{1}{attribute b {2}}</p:a>', 'error XQTY0024'],
    ['<a>{1}{<b/>, attribute c {3}}</a>', 'error XQTY0024'],
    ['<a b="1">{attribute b {2}, 3}</a>', 'error XQDY0025'],
    // content not known to be atomic
    ['<a>{(1, <b/>)}</a>', 'ok <a>1<b/></a>'],
    ['let $v := <b>x</b> return <a>{$v}</a>', 'ok <a><b>x</b></a>'],
    ['let $v := (1, <b>x</b>) return <a>{$v}</a>', 'ok <a>1<b>x</b></a>'],
    ['<a>{[1, [2, 3]]}</a>', 'ok <a>1 2 3</a>'],
    ['<a>{document {<b/>}}</a>', 'ok <a><b/></a>'],
    ['<a>{concat#2}</a>', 'error XQTY0105'],
    ['declare variable $g := 1; <a>{$g}</a>', 'ok <a>1</a>'],
    ['declare function local:f() { 1 }; <a>{local:f()}</a>', 'ok <a>1</a>'],
    ['for $x in (1, <b/>) return <a>{$x}</a>', 'ok <a>1</a>\n<a><b/></a>'],
    ['for $f in (1, 2) let $g := function() { $f } return <a>{$g()}</a>', 'ok <a>1</a>\n<a>2</a>'],
  ])('%s (general)', async (query, expected) => {
    expect(dispatches(query)).toContain(true);
    expect(await answer(query)).toBe(expected);
  });

  it('reads documents the same', async () => {
    expect(dispatches('for $p in //price return <a>{$p}</a>')).toEqual([true, true]);
    expect(await answer('for $p in //price return <a>{$p}</a>', ITEMS)).toBe('ok <a><price>10</price></a>\n<a><price>9.5</price></a>');
    expect(dispatches('for $p in //price return <a>{data($p)}</a>')).toEqual([false, false]);
    expect(await answer('for $p in //price order by number($p) return <a p="{$p}">{data($p)}</a>', ITEMS)).toBe('ok <a p="9.5">9.5</a>\n<a p="10">10</a>');
  });
});
