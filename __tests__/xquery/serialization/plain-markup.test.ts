/**
 * Plain element trees written directly (serialization/plain-markup.ts) come out exactly as
 * saxon-js writes them (serialization/node-output.ts), and every other tree is left to saxon-js.
 */
import { QueryCompiler } from '../../../lib/xquery/worker/compile';
import { evaluate } from '../../../lib/xquery/worker/evaluate';
import { applyQueryPatches } from '../../../lib/saxon/patches';
import { serializeNode } from '../../../lib/xquery/serialization/node-output';
import { plainMarkup, writePlainMarkup } from '../../../lib/xquery/serialization/plain-markup';
import { registerExtensionFunctions } from '../../../lib/xquery/functions/extension-functions';
import { translate } from '../../helpers/translation';
import { saxon, type XdmNode } from '../../../lib/saxon';
import { parseToCompactTree } from '../../../lib/tree/build-tree';
import { TreeView } from '../../../lib/tree/tree-dom';

registerExtensionFunctions();
applyQueryPatches();

const compiler = new QueryCompiler({ max: 256 });
const run = (t: ReturnType<typeof translate>) =>
  evaluate(compiler.compile(t.xslt), { params: Object.fromEntries(t.literals.map((l) => [l.param, { values: [l.value], type: l.type }])) }) as XdmNode[];
/** The nodes a query's own stylesheet answers (plain constructors as engine:plain-element calls). */
const nodes = (query: string) => run(translate(query));
/** The same query translated with constructor instructions (`plainConstructors: false`), built by saxon-js. */
const built = (query: string) => run(translate(query, 'none', { plainConstructors: false }));
const bySaxon = (node: XdmNode) => serializeNode(node, { method: 'xml', indent: false, 'omit-xml-declaration': true });

describe('plain trees: the text saxon-js writes', () => {
  test.each([
    ['<a/>'],
    ['<a b="1" c=""/>'],
    ['<a>t</a>'],
    ['<a x="{1}"><b><c>{2}</c>t</b><d/>{3}</a>'],
    ['for $i in 1 to 5 return <r n="{$i}"><v>{$i * 2}</v>{$i}</r>'],
    ['<a b="{codepoints-to-string((9, 10, 13, 32 to 126, 160, 255, 8233, 65533))}">{codepoints-to-string((9, 10, 13, 32 to 126, 160, 255, 8233, 65533))}</a>'],
    ['<a b="&lt;&amp;&gt;&quot;&apos;">&lt;&amp;&gt;]]&gt;{"&quot;"}</a>'],
    ['<a>{1}<b/>{()}<c>{""}</c></a>'],
    ['<a b="1" c="2">t<d e="3" f="4"/></a>'],
  ])('%s', (query) => {
    for (const make of [nodes, built]) {
      for (const node of make(query)) {
        const direct = plainMarkup(node);
        expect(direct).toBeDefined();
        expect(direct).toBe(bySaxon(node));
      }
    }
  });
});

describe('elements of stored documents: the text saxon-js writes', () => {
  const elements = (xml: string): XdmNode[] => saxon().XPath.evaluate('//*', new TreeView(parseToCompactTree(xml)).document, { resultForm: 'array' }) as XdmNode[];

  test('in a document without namespaces, every element as saxon-js writes it', () => {
    const xml = '<r><item id="1" c="a&amp;b&#10;"><name>x &lt; y</name><v>1</v></item>\n  <item id="2"><empty/><t>a<b>c</b>d</t></item></r>';
    for (const node of elements(xml)) {
      expect(plainMarkup(node)).toBeDefined();
      expect(plainMarkup(node)).toBe(bySaxon(node));
    }
  });

  test.each([
    ['a namespace declaration on an ancestor', '<r xmlns:p="urn:p"><a/></r>'],
    ['a default namespace', '<r xmlns="urn:d"><a/></r>'],
    ['an attribute in a namespace elsewhere', '<r><a/><b xml:lang="en"/></r>'],
  ])('left to saxon-js with %s', (_name, xml) => {
    for (const node of elements(xml)) expect(plainMarkup(node)).toBeUndefined();
  });

  test('elements of trees whose names are numbered otherwise, one after another, each with its own names', () => {
    // the markup of names is kept for the tree written last: each switch must find the other's
    const first = elements('<r><a x="1"><b y="2">t</b></a></r>');
    const second = elements('<s><b y="3"><a x="4"/></b><c x="5"/></s>');
    const made = nodes('(<b y="6"><a/></b>, <c z="7">u</c>)');
    for (const node of [first[1], second[1], first[2], made[0], second[3], first[0], made[1], second[0]]) {
      expect(plainMarkup(node)).toBe(bySaxon(node));
    }
    expect(plainMarkup(second[0])).toBe('<s><b y="3"><a x="4"/></b><c x="5"/></s>');
    expect(plainMarkup(first[0])).toBe('<r><a x="1"><b y="2">t</b></a></r>');
  });

  test('a comment or a processing instruction below', () => {
    const [r, a] = elements('<r><a><!--c--></a><b/></r>');
    expect(plainMarkup(r)).toBeUndefined();
    expect(plainMarkup(a)).toBeUndefined();
  });

  test('a tree found not plain after part of it was written leaves the pieces before it as they were', () => {
    for (const xml of ['<r><a x="1">t<b/></a><!--c--></r>', '<r><a>t</a><b><c xml:lang="en"/></b></r>']) {
      const [r] = elements(xml);
      const out = ['before'];
      expect(writePlainMarkup(r, out)).toBe(false);
      expect(out).toEqual(['before']);
    }
    const [, a] = elements('<r><a x="1">t<b/></a><!--c--></r>');
    const out = ['before'];
    expect(writePlainMarkup(a, out)).toBe(true);
    expect(out.join('')).toBe('before<a x="1">t<b/></a>');
  });
});

describe('other trees: left to saxon-js', () => {
  test.each([
    ['a namespace declaration', '<a xmlns:p="urn:p"/>'],
    ['a default namespace', '<a xmlns="urn:d"><b/></a>'],
    ['a prefixed attribute', '<a xml:lang="en"/>'],
    ['an element in a namespace', 'declare namespace p = "urn:p"; <p:a/>'],
    ['a copied element keeping its namespaces', '<x>{<a xmlns:p="urn:p"><b/></a>/b}</x>'],
    ['a comment', '<a><!--c--></a>'],
    ['a processing instruction', '<a><?p x?></a>'],
    ['a control character', '<a>{codepoints-to-string(133)}</a>'],
    ['an attribute with a line separator', '<a b="{codepoints-to-string(8232)}"/>'],
    ['a character beyond the BMP', '<a>{codepoints-to-string(128512)}</a>'],
    ['an element with a parent', '<a><b/></a>/b'],
    ['a document node', 'document { <a/> }'],
    ['a text node', 'text { "t" }'],
  ])('%s', (_name, query) => {
    for (const node of nodes(query)) expect(plainMarkup(node)).toBeUndefined();
  });
});
