/**
 * The content rules of constructors (XQuery 3.1 §3.9.1.3, functions/constructor-content.ts):
 * atomic runs, arrays, document nodes, function items and attribute order, for direct and
 * computed constructors, each run on the runtime library or the XPath evaluator and again inside a
 * declared function (a stylesheet of its own), with the same answer.
 */
import { doc, engineFixture } from '../helpers';

const e = engineFixture();

/** The query's outcome, the same as the outcome of the query inside a declared function. */
async function both(query: string, context = doc('<r><b>x</b><b>y</b></r>')): Promise<string> {
  const plain = await e.outcome(query, context);
  expect(await e.outcome(`declare function local:q($c) { $c ! (${query}) }; local:q(.)`, context)).toBe(plain);
  return plain;
}

describe('content of one enclosed expression', () => {
  it.each([
    ['<a>{1.5e0, xs:float("1e11"), true(), xs:QName("xs:integer"), xs:date("2020-01-02")}</a>', 'ok <a>1.5 1.0E11 true xs:integer 2020-01-02</a>'],
    ['<a>{"", ""}</a>', 'ok <a> </a>'],
    ['<a>{""}</a>', 'ok <a/>'],
    ['<a>{1, <b/>, 2, 3, <c/>, "z"}</a>', 'ok <a>1<b/>2 3<c/>z</a>'],
    ['<a>{[1, [2, <b/>], 3], 4}</a>', 'ok <a>1 2<b/>3 4</a>'],
    ['<a>{[], ()}</a>', 'ok <a/>'],
    ['<a>{document { <b/>, "t" }, 1}</a>', 'ok <a><b/>t1</a>'],
    ['<a>{document { () }, attribute x {1}}</a>', 'ok <a x="1"/>'],
    ['<a>{document { <b/> }, document { <c/> }}</a>', 'ok <a><b/><c/></a>'],
    ['<a>{/r/b, 1, /r/b/text()}</a>', 'ok <a><b>x</b><b>y</b>1xy</a>'],
    ['<a>{/, 2}</a>', 'ok <a><r><b>x</b><b>y</b></r>2</a>'],
    ['<a>{/}</a>', 'ok <a><r><b>x</b><b>y</b></r></a>'],
    ['element a { 1, document { "d" }, [<b/>], 2 }', 'ok <a>1d<b/>2</a>'],
    ['document { 1, 2, <b/>, [3, 4] }', 'ok 1 2<b/>3 4'],
    ['<a>{1, map {}}</a>', 'error XQTY0105'],
    ['<a>{[sum#1]}</a>', 'error XQTY0105'],
    ['element a { abs#1 }', 'error XQTY0105'],
  ])('%s', async (query, expected) => {
    expect(await both(query)).toBe(expected);
  });
});

describe('attributes among the content', () => {
  it.each([
    ['<a>{attribute x {1}, "", attribute y {2}, <b/>}</a>', 'ok <a x="1" y="2"><b/></a>'],
    ['<a>{"", attribute x {1}}</a>', 'ok <a x="1"/>'],
    ['<a>{text { "" }, attribute x {1}}</a>', 'ok <a x="1"/>'],
    ['<a>{<b/>, attribute x {1}}</a>', 'error XQTY0024'],
    ['<a>t{attribute x {1}}</a>', 'error XQTY0024'],
    ['<a><b/>{attribute x {1}}</a>', 'error XQTY0024'],
    ['<a>{attribute x {1}}{attribute y {2}}</a>', 'ok <a x="1" y="2"/>'],
    ['<a>{attribute x {1}, attribute Q{urn:u}x {2}}</a>', 'ok <a xmlns:ns0="urn:u" x="1" ns0:x="2"/>'],
    ['<a>{attribute Q{urn:u}x {1}, attribute Q{urn:u}x {2}}</a>', 'error XQDY0025'],
    ['<a x="1" y="2">{attribute y {3}}</a>', 'error XQDY0025'],
    ['<a>{/r/b[1] ! attribute n { . }}</a>', 'ok <a n="x"/>'],
    ['element a { attribute x {1}, attribute x {2} }', 'error XQDY0025'],
  ])('%s', async (query, expected) => {
    expect(await both(query)).toBe(expected);
  });
});

it('the content rules are the engine\'s own: a query that calls them by name has no such function', async () => {
  for (const f of ['content(1)', 'element-content((), false(), ())']) {
    expect(await e.outcome(`Q{urn:xmldb-rest:engine}${f}`, doc('<r/>'))).toBe('error XPST0017');
  }
});
