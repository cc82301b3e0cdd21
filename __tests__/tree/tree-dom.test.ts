/**
 * The compact tree as saxon-js's DOM: every XPath below gives the same answer on the tree as on
 * saxon-js's own parse of the same text, and the tree's nodes keep their identity.
 */
import { saxon, type XdmNode } from '../../lib/saxon';
import { parseToCompactTree } from '../../lib/tree/build-tree';
import { TreeView, importable, treeNode } from '../../lib/tree/tree-dom';
import { elementRows, elementRowsIn } from '../../lib/tree/name-rows';
import { nameIdAt, stringValue } from '../../lib/tree/compact-tree';

const XML = [
  '<?xml-stylesheet href="s.css"?><!--before-->',
  '<site xmlns:x="urn:x" xmlns="urn:d" a="1">',
  '<people><person id="p1" x:k="v"><name>Ann</name><age>3</age></person>',
  '<person id="p2"><name>Bob &amp; Co</name><!--c--><?pi some data?></person>',
  '<person id="p3" xmlns=""><name xml:lang="en">Cy</name></person></people>',
  '<x:y b="2">text <b>bold</b> tail<x:z/></x:y>',
  '<m xml:space="preserve">  </m><e/><u>\u{1F600} \u00e9</u>',
  '</site><!--after-->',
].join('');

const QUERIES = [
  'count(//*)',
  'count(//node())',
  'count(//@*)',
  '//*:person[@id = "p2"]/*:name/string()',
  'string(/*:site/*:y)',
  '//*:b/../@b/string()',
  '//*:person[1]/following::node() ! name()',
  '(//*:name | //*:age) ! local-name()',
  '//*:person/preceding-sibling::* ! @id',
  '//*:person[last()]/preceding-sibling::*[1]/@id/string()',
  '/*:site/in-scope-prefixes(.) => sort()',
  '//*:person[3]/in-scope-prefixes(.) => sort()',
  '//*:person[1]/namespace-uri-for-prefix("x", .), //*:name[1]/namespace-uri-for-prefix("", .), //*:z/namespace-uri-for-prefix("x", .)',
  '//*:person[3]/namespace-uri-for-prefix("", .), //*:person[3]/*:name/namespace-uri-for-prefix("x", .), /*:site/namespace-uri-for-prefix("none", .)',
  '//*:y/namespace-uri(), //*:person[3]/namespace-uri(), //*:z/namespace-uri()',
  '//comment() ! string()',
  '//processing-instruction() ! (name() || "=" || string())',
  '(//*:person)[2] << /*:site/*:y',
  '(//*:person)[2] is (//*:person)[2]',
  '(//*:person)[2] is (//*:person)[3]',
  'path(//*:b)',
  '//text()[contains(., "tail")] ! string()',
  'root(//*:b) is /',
  'deep-equal(//*:person[1], //*:person[1])',
  'sum(//*:age)',
  '//@* ! (name() || "=" || string())',
  '//@*:k/namespace-uri()',
  '//*:name/@xml:lang/string()',
  'string(//*:m) => string-length()',
  'string(//*:u)',
  'string(/)',
  'count(//*:e/node()), count(//*:e/@*)',
  'reverse(//*:person/*:name) ! string()',
  '/node() ! name()',
  '/*:site/*:people/*:person[@id="p1"]/@*:k/string()',
  'serialize(/*:site/*:people/*:person[1])',
  'serialize(/*:site/*:y)',
  'serialize(/)',
  'sort(//*:person, (), function($p) { $p/*:name }) ! string(@id)',
];

function evaluate(xpath: string, doc: unknown): string {
  try {
    return saxon().serialize(saxon().XPath.evaluate(xpath, doc, { resultForm: 'array' }), { method: 'adaptive' });
  } catch (e) {
    return `error: ${(e as Error).message}`;
  }
}

describe('a compact tree read by saxon-js', () => {
  const dom = saxon().getPlatform().parseXmlFromString(XML);
  const view = new TreeView(parseToCompactTree(XML));

  test.each(QUERIES)('%s', (query) => {
    const expected = evaluate(query, dom);
    expect(expected).not.toMatch(/^error/);
    expect(evaluate(query, view.document)).toBe(expected);
  });

  test('a node is the same object each time it is reached', () => {
    const a = saxon().XPath.evaluate('//*:person[2]', view.document) as XdmNode;
    const b = saxon().XPath.evaluate('//*:name[. = "Bob & Co"]/..', view.document) as XdmNode;
    expect(a).toBe(b);
    expect(treeNode(a)?.p).toBeGreaterThan(0);
  });

  test('in a document of many pages of node objects, a node is the same object however it is reached, on either side of a page end', () => {
    // rows: the document 0, <r> 1, the <e> elements 2 … 10001; pages of the view are 4096 rows
    const xml = `<r>${Array.from({ length: 10000 }, (_, i) => `<e i="${i + 1}"/>`).join('')}</r>`;
    const big = new TreeView(parseToCompactTree(xml));
    const one = (query: string) => saxon().XPath.evaluate(query, big.document) as XdmNode;
    for (const k of [4094, 4095, 4096, 8190, 8191, 10000]) {
      const byPosition = one(`(//e)[${k}]`);
      expect(one(`//e[@i = "${k}"]`)).toBe(byPosition);
      expect(treeNode(byPosition)?.p).toBe(k + 1);
      if (k < 10000) expect(one(`(//e)[${k}]/following-sibling::e[1]`)).toBe(one(`(//e)[${k + 1}]`));
      expect(one(`(//e)[${k}]/preceding-sibling::e[1]`)).toBe(one(`(//e)[${k - 1}]`));
    }
    expect(saxon().XPath.evaluate('count(//e), string((//e)[last()]/@i)', big.document)).toEqual([10000, '10000']);
  });

  test('lastChild and previousSibling skip the subtrees of the children before them', () => {
    // rows: the document 0, <r> 1, <a> 2, <x> 3, text 4, <b> 5, <c> 6, <y> 7, <z> 8, text 9
    const nested = new TreeView(parseToCompactTree('<r><a><x>1</x></a><b/><c><y/><z>2</z></c></r>'));
    type Linked = { lastChild: unknown; previousSibling: unknown; firstChild: unknown };
    const node = (pre: number) => nested.node(pre) as unknown as Linked;
    const rowOf = (n: unknown) => (n === null ? null : treeNode(n)?.p);
    expect([1, 2, 3, 5, 6, 8].map((pre) => rowOf(node(pre).lastChild))).toStrictEqual([6, 3, 4, null, 8, 9]);
    expect([2, 3, 5, 6, 7, 8].map((pre) => rowOf(node(pre).previousSibling))).toStrictEqual([null, null, 2, 5, null, 7]);
  });

  test('the tree cannot be modified through the DOM', () => {
    const person = saxon().XPath.evaluate('//*:person[1]', view.document) as unknown as { appendChild(n: unknown): void; setAttribute(n: string, v: string): void };
    expect(() => person.appendChild(null)).toThrow('A stored document cannot be modified.');
    expect(() => person.setAttribute('q', '1')).toThrow('A stored document cannot be modified.');
  });

  test('cloneNode gives the copy of saxon-js DOM, as a node of that DOM that can be modified', () => {
    type Cloneable = { cloneNode(deep: boolean): { appendChild(n: unknown): void; childNodes: ArrayLike<unknown> } };
    const write = (n: unknown) => saxon().serialize(n as XdmNode, { method: 'xml', 'omit-xml-declaration': true });
    for (const path of ['(//*:person)[1]', '//*:y', '(//comment())[1]', '(//processing-instruction())[1]', '(//text())[1]', '/']) {
      const fromTree = (saxon().XPath.evaluate(path, view.document) as unknown as Cloneable).cloneNode(true);
      expect(treeNode(fromTree)).toBeUndefined();
      expect(write(fromTree)).toBe(write((saxon().XPath.evaluate(path, dom) as unknown as Cloneable).cloneNode(true)));
    }
    const person = saxon().XPath.evaluate('//*:person[1]', view.document);
    const shallow = importable(person) as unknown as { childNodes: ArrayLike<unknown>; appendChild(n: unknown): void };
    expect(shallow.childNodes.length).toBe(0);
    const copy = saxon().getPlatform().parseXmlFromString('<r/>') as unknown as { importNode(n: unknown, deep: boolean): unknown; createTextNode(t: string): unknown };
    const imported = copy.importNode(shallow, false) as { appendChild(n: unknown): void };
    imported.appendChild(copy.createTextNode('new'));
    expect(write(imported)).toBe('<person id="p1" x:k="v">new</person>');
  });
});

describe('the two readers of stored text', () => {
  // the fast scanner reads stored text; text it does not take (here a carriage return, a tab in an
  // attribute value) goes to the full parser: the same tree either way
  test.each([
    ['scanned', '<a x="1 &amp; 2" y="&#x9;"><!--c--><?p  d e?><b>t&lt;</b></a>'],
    ['parsed', '<a x="1 &amp; 2" y="\t">\r\n<!--c--><?p  d e?><b>t&lt;</b></a>'],
  ])('%s', (_, xml) => {
    const dom = saxon().getPlatform().parseXmlFromString(xml);
    const tree = new TreeView(parseToCompactTree(xml)).document;
    for (const q of ['serialize(/)', '/a/@* ! string-to-codepoints(.)', '//processing-instruction() ! string()', 'string(//b)']) expect(evaluate(q, tree)).toBe(evaluate(q, dom));
  });
});

describe('rows of a compact tree', () => {
  const tree = parseToCompactTree('<a><b>1</b><c><b>2<b>3</b></b></c><p:b xmlns:p="urn:p"/><q:b xmlns:q="urn:p"/></a>');

  test('elements by expanded name, whatever the prefix', () => {
    expect(Array.from(elementRows(tree, 'Q{}b')).map((pre) => stringValue(tree, pre))).toEqual(['1', '23', '3']);
    expect(elementRows(tree, 'Q{urn:p}b').length).toBe(2);
    expect(elementRows(tree, 'Q{}none').length).toBe(0);
  });

  test('elements by name below one element', () => {
    const c = elementRows(tree, 'Q{}c')[0];
    expect(Array.from(elementRowsIn(tree, 'Q{}b', c + 1, tree.end.at(c))).map((pre) => stringValue(tree, pre))).toEqual(['23', '3']);
  });

  test('adjacent text is one node, whitespace strings are shared', () => {
    const t = parseToCompactTree('<a> <b/> <c>x&amp;y<![CDATA[z]]></c></a>');
    expect(Array.from(t.kind)).toEqual([9, 1, 3, 1, 3, 1, 3]);
    expect(t.strings.at(t.ref[6])).toBe('x&yz');
    expect(t.ref[2]).toBe(t.ref[4]);
    expect(t.strings.count).toBe(2);
  });

  test('thousands of strings read back in order; short ones repeated are shared; a name in two namespaces is two names', () => {
    const values = Array.from({ length: 5000 }, (_, i) => (i % 7 === 0 ? ` ${i}` : i % 11 === 0 ? ' ' : `v${i}`));
    const t = parseToCompactTree(`<a xmlns:p="urn:p" xmlns:q="urn:q">${values.map((v, i) => `<p:b x="${v}">${v}</p:b><q:b/>${i}`).join('')}</a>`);
    const b = elementRows(t, 'Q{urn:p}b');
    expect(b.length).toBe(5000);
    expect(Array.from(b, (pre) => t.strings.at(t.attrValue[t.attrStart.at(pre)]))).toEqual(values);
    expect(Array.from(b, (pre) => stringValue(t, pre))).toEqual(values);
    expect(elementRows(t, 'Q{urn:q}b').length).toBe(5000);
    expect(t.ref[b[0]]).not.toBe(t.ref[b[0] + 2]);
    // an attribute value and the text right after it with the same characters: one string
    expect(Array.from(b, (pre) => t.ref[pre + 1])).toEqual(Array.from(b, (pre) => t.attrValue[t.attrStart.at(pre)]));
    // ' ' recurs among thousands of others: found again in the table of recent strings most times
    const spaces = Array.from(b, (pre) => t.attrValue[t.attrStart.at(pre)]).filter((_, i) => values[i] === ' ');
    expect(new Set(spaces).size).toBeLessThan(spaces.length / 4);
    expect(new Set(Array.from(b, (pre) => t.attrValue[t.attrStart.at(pre)]).filter((_, i) => i % 7 === 0)).size).toBe(Math.ceil(5000 / 7));
  });

  test('strings longer than 64 characters are kept each time they occur; shorter ones once when they repeat at once', () => {
    const long = 'w'.repeat(65);
    const t = parseToCompactTree(`<a><b>${long}</b><b>${long}</b><c>2000-01-01</c><c>2000-01-01</c></a>`);
    const texts = Array.from(t.kind, (k, pre) => (k === 3 ? pre : -1)).filter((pre) => pre >= 0);
    expect(texts.map((pre) => t.strings.at(t.ref[pre]))).toEqual([long, long, '2000-01-01', '2000-01-01']);
    expect(t.ref[texts[0]]).not.toBe(t.ref[texts[1]]);
    expect(t.ref[texts[2]]).toBe(t.ref[texts[3]]);
    expect(t.strings.count).toBe(3);
  });

  test('every string reads back from the one table: attribute values (empty too), text, comments, PI data, any character', () => {
    const t = parseToCompactTree('<a x="" y="é&lt;𝄞"><!--c€--><?p data ✓?>text 😀<b z="1">日本</b></a>');
    const strings = (from: number, to: number) => Array.from(t.attrValue.slice(from, to), (i) => t.strings.at(i));
    expect(strings(t.attrStart.at(1), t.attrStart.at(2))).toEqual(['', 'é<𝄞']);
    expect([2, 3, 4, 6].map((pre) => t.strings.at(t.ref[pre]))).toEqual(['c€', 'data ✓', 'text 😀', '日本']);
    // a PI's target beside its data; an element's name; no name for text or a comment
    expect([3, 1, 5, 4, 2].map((pre) => nameIdAt(t, pre)).map((id) => t.names[id]?.qname)).toEqual(['p', 'a', 'b', undefined, undefined]);
    expect(strings(t.attrStart.at(5), t.attrStart.at(6))).toEqual(['1']);
    expect(t.strings.count).toBe(7);
  });
});
