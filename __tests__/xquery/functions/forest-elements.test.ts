/**
 * engine:forest-element (functions/forest-elements.ts): plain direct constructors whose content
 * holds nodes are built in a forest of copies when every node can be copied without a namespace
 * to carry, and by the runtime library's function otherwise; both give the same element.
 */
import { castString, isNode, saxon, type XdmNode, type XdmValue } from '../../../lib/saxon';
import { parseToCompactTree } from '../../../lib/tree/build-tree';
import { TreeView, treeNode } from '../../../lib/tree/tree-dom';
import { registerExtensionFunctions } from '../../../lib/xquery/functions/extension-functions';
import { serverOfFile } from '../../helpers/rest';
import { translate } from '../../helpers/translation';

registerExtensionFunctions();
const server = serverOfFile();
const FOREST_ELEMENT = 'Q{urn:xmldb-rest:engine}forest-element';
const XML = '<r><p id="1"><n>Ann</n><!--c--><?pi d?></p><p id="2"><n>Bob</n>tail</p></r>';

beforeAll(async () => {
  await server().put('/rest/fe').expect(201);
  await server().put('/rest/fe/d.xml', XML, 'application/xml').expect(201);
  await server().put('/rest/fe/ns.xml', '<r xmlns:x="urn:x"><x:p>1</x:p><q xml:lang="en">2</q></r>', 'application/xml').expect(201);
});

/** The forest element built from `content`, or false() when it declines. */
function build(content: XdmValue, attributes: string[] = []): XdmValue {
  return saxon().XPath.evaluate(`${FOREST_ELEMENT}((), "e", $a, $c)`, null, { params: { a: attributes, c: content }, resultForm: 'array' }) as XdmValue;
}
const serialized = (v: XdmValue): string => saxon().serialize(v[0] as XdmNode, { method: 'xml', 'omit-xml-declaration': true } as never);

describe('engine:forest-element', () => {
  const view = new TreeView(parseToCompactTree(XML));
  const nodes = (xpath: string): XdmValue => saxon().XPath.evaluate(xpath, view.document, { resultForm: 'array' }) as XdmValue;

  it('copies nodes of stored documents, with attributes, comments, processing instructions and text', () => {
    const built = build([...nodes('/r/p[1]'), ...nodes('/r/p[2]/text()'), ...nodes('/r/p[1]/comment()')], ['k', 'v']);
    expect(isNode(built[0])).toBe(true);
    expect(serialized(built)).toBe('<e k="v"><p id="1"><n>Ann</n><!--c--><?pi d?></p>tail<!--c--></e>');
    // a copy, in a tree of its own
    expect(treeNode(built[0])!.v).not.toBe(view);
  });

  it('copies plain elements of saxon-js\'s DOM that have no parent, and text of any parent', () => {
    const made = saxon().XPath.evaluate('Q{urn:xmldb-rest:engine}plain-element((), "m", ("a", "1"), ("x", Q{urn:xmldb-rest:engine}plain-element((), "i", (), "y")))', null, { resultForm: 'array' }) as XdmValue;
    const parsed = saxon().XPath.evaluate('parse-xml("<d><t>z</t></d>")//t/text()', null, { resultForm: 'array' }) as XdmValue;
    expect(serialized(build([...made, ...parsed]))).toBe('<e><m a="1">x<i>y</i></m>z</e>');
  });

  it.each([
    ['an attribute', () => nodes('/r/p[1]/@id')],
    ['an element of a tree with namespaces', () => saxon().XPath.evaluate('/*/*', new TreeView(parseToCompactTree('<r xmlns:x="urn:x"><x:a/></r>')).document, { resultForm: 'array' }) as XdmValue],
    ['an element of saxon-js\'s DOM with a parent', () => saxon().XPath.evaluate('parse-xml("<d><t>z</t></d>")//t', null, { resultForm: 'array' }) as XdmValue],
    ['a document node', () => [view.document as unknown as XdmValue[number]]],
    ['an atomic value', () => [castString('1', 'string')]],
  ])('declines %s', (_, content) => {
    expect(build([...nodes('/r/p[1]/n'), ...content()])).toEqual([false]);
  });
});

describe('plain constructors with node content', () => {
  it.each([
    ['<e>{/r/p[1]}</e>', '<e><p id="1"><n>Ann</n><!--c--><?pi d?></p></e>'],
    ['<e a="{1 + 1}">{/r/p/n, 3, "x"}<f/>{/r/p[2]/text()}</e>', '<e a="2"><n>Ann</n><n>Bob</n>3 x<f/>tail</e>'],
    ['<e>{for $p in /r/p return <q>{$p/n}</q>}</e>', '<e><q><n>Ann</n></q><q><n>Bob</n></q></e>'],
    ['<e>{/r/p[1]/@id, /r/p[1]/n}</e>', '<e id="1"><n>Ann</n></e>'],
    ['<e>{/r/p[1]/n, /r/p[1]/@id}</e>', 'XQTY0024'],
    ['<e>{db:get("fe", "ns.xml")/r/*}</e>', '<e><x:p xmlns:x="urn:x">1</x:p><q xmlns:x="urn:x" xml:lang="en">2</q></e>'],
    ['<e>{<x><y/></x>/y}</e>', '<e><y/></e>'],
    ['let $e := <e>{/r/p[1]/n}</e> return ($e/n is (/r/p[1]/n), $e/n/.. is $e, base-uri($e) = static-base-uri())', 'false true true'],
  ])('%s', async (query, expected) => {
    expect(translate(query, 'single').xslt).toContain(FOREST_ELEMENT);
    const r = await server().get(`/rest/fe/d.xml?query=${encodeURIComponent(query)}`);
    if (expected.startsWith('XQ')) expect([r.status, r.text]).toEqual([500, expect.stringContaining(`[${expected}]`)]);
    else expect([r.status, r.text.replace(/\n/g, ' ')]).toEqual([200, expected]);
  });
});
