/**
 * Document order over stored documents (compact trees) with the document-order patch: the row
 * comparison orders every pair of nodes as saxon-js's own comparison does, and unions,
 * intersections, differences and path steps over stored nodes (attributes, text, nodes of two
 * documents, nodes of saxon-js's own DOM among them) give what they give over saxon-js's parse.
 */
import { saxon, type XdmNode } from '../../lib/saxon';
import { patchDocumentOrder } from '../../lib/saxon/patches/document-order';
import { parseToCompactTree } from '../../lib/tree/build-tree';
import { TreeView, treeNode } from '../../lib/tree/tree-dom';
import { compareTreeOrder, placeStored } from '../../lib/tree/tree-order';

type Compare = (a: unknown, b: unknown) => number;
const domUtils = (saxon().internals as unknown as { DomUtils: { fb: Compare & { __documentOrderPatched?: boolean } } }).DomUtils;
const original = domUtils.fb;
patchDocumentOrder();

const XML =
  '<?pi a?><r xmlns:p="urn:p" a="1" p:b="2" c="3"><s id="1">one<t k="x">two</t><!--c--></s><s id="2"><t k="y"/>three<u><t/></u></s>tail</r><!--end-->';
const OTHER = '<o><s id="9">nine</s><t k="z"/></o>';

const dom = saxon().getPlatform().parseXmlFromString(XML);
const otherDom = saxon().getPlatform().parseXmlFromString(OTHER);
const view = new TreeView(parseToCompactTree(XML));
const otherView = new TreeView(parseToCompactTree(OTHER));

const sign = (n: number) => Math.sign(n);

describe('the row comparison', () => {
  test('the patch is in place, once', () => {
    expect(domUtils.fb).not.toBe(original);
    expect(domUtils.fb.__documentOrderPatched).toBe(true);
    const patched = domUtils.fb;
    patchDocumentOrder();
    expect(domUtils.fb).toBe(patched);
  });

  test('orders every pair of nodes and attributes of a tree as saxon-js does', () => {
    const nodes = saxon().XPath.evaluate('//node() | //@* | /', view.document, { resultForm: 'array' }) as unknown as unknown[];
    expect(nodes.length).toBe(22);
    let fast = 0;
    for (const a of nodes) {
      for (const b of nodes) {
        const byRow = compareTreeOrder(a, b, original);
        expect([a, b, byRow]).toEqual([a, b, expect.any(Number)]);
        fast++;
        expect([a, b, sign(byRow!)]).toEqual([a, b, sign(original(a, b))]);
      }
    }
    expect(fast).toBe(nodes.length * nodes.length);
  });

  test('orders the nodes of two trees by their documents, and leaves nodes of other DOMs to saxon-js', () => {
    const a = saxon().XPath.evaluate('(//t)[1]', view.document) as unknown;
    const b = saxon().XPath.evaluate('//s', otherView.document) as unknown;
    expect([treeNode(a)?.v, treeNode(b)?.v]).toEqual([view, otherView]);
    const documents = sign(original(view.document, otherView.document));
    expect(documents).not.toBe(0);
    expect(sign(compareTreeOrder(a, b, original)!)).toBe(documents);
    expect(sign(compareTreeOrder(b, a, original)!)).toBe(-documents);
    const parsed = saxon().XPath.evaluate('//s', otherDom) as unknown;
    expect(treeNode(parsed)).toBeUndefined();
    expect(compareTreeOrder(a, parsed, original)).toBeUndefined();
    expect(compareTreeOrder(parsed, a, original)).toBeUndefined();
  });
});

/** Each item as its document's name and its path there, or its value. */
function described(query: string, doc: unknown, other: unknown): string[] {
  const items = saxon().XPath.evaluate(query, doc, { resultForm: 'array', params: { other } }) as unknown as unknown[];
  return items.map((item) => {
    if (typeof item !== 'object' || item === null || !('nodeType' in item)) return `value ${String(item)}`;
    const path = String(saxon().XPath.evaluate('path(.)', item as XdmNode));
    const root = saxon().XPath.evaluate('root(.)', item as XdmNode);
    return `${root === doc ? 'main' : root === other ? 'other' : 'made'} ${path}`;
  });
}

const QUERIES = [
  '//t | //s',
  '(//t, //s, //text(), //t) / .',
  '//s/(reverse(.//node()))',
  '(//@* | //s | //comment()) ! name()',
  '//@* | /r',
  '(//t/@k, //s/@id, //@*) / .',
  '/r/@* | /r/@*[2]',
  '(/r/@c, /r/@a) / .',
  '//node() intersect (//t | //text())',
  '//node() except //t',
  '(//@* except //@k) ! string()',
  '(//t)[1] << (//t)[2], (//t)[3] >> (//s)[1], //@a << (//s)[1], //@c >> //@a, (//t)[2] << (//t)[1]',
  '($other//node() | //node())',
  '(//s, $other//s, //t, $other//t) / .',
  '($other//t, //t) intersect (//t, $other//t)',
  '(parse-xml("<m><s/></m>")//s | //s | $other//s)',
  '(//t, parse-xml("<m><t/><t/></m>")//t) / .',
  'innermost(//node()), outermost(//t)',
];

/**
 * The items grouped by document, the groups in the order of their documents' names: nodes of two
 * documents come in the order saxon-js numbers the documents (as it meets them), which is not
 * the same for two runs over different document objects; within one document the order is fixed.
 */
function byDocument(items: string[]): string[][] {
  const groups: string[][] = [];
  for (const item of items) {
    const name = item.split(' ')[0];
    const last = groups[groups.length - 1];
    if (last !== undefined && last[0].split(' ')[0] === name) last.push(item);
    else groups.push([item]);
  }
  return groups.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
}

describe('stored documents in the order of the store', () => {
  test('two stored documents come in the order of their databases and paths, whichever saxon-js compared first', () => {
    const doc = (db: string, path: string) => {
      const d = new TreeView(parseToCompactTree(`<d n="${db}/${path}"/>`)).document;
      placeStored(d, db, path);
      return d;
    };
    const [b, a, other, earlier] = [doc('db', 'd/b.xml'), doc('db', 'a.xml'), doc('db2', 'a.xml'), doc('Db', 'z.xml')];
    const names = (query: string) => (saxon().XPath.evaluate(query, null, { params: { b, a, other, earlier }, resultForm: 'array' }) as unknown as string[]).join(' ');
    // saxon-js numbers a document when it first compares it: b before a here
    expect(names('($b, $a)/d/@n/string()')).toBe('db/a.xml db/d/b.xml');
    expect(names('($other, $b, $a, $earlier)/d/@n/string()')).toBe('Db/z.xml db/a.xml db/d/b.xml db2/a.xml');
    expect(sign(domUtils.fb(b, a))).toBe(1);
    expect(sign(domUtils.fb(a, b))).toBe(-1);
  });
});

describe('sequences of stored nodes in document order', () => {
  test.each(QUERIES)('%s', (query) => {
    const expected = byDocument(described(query, dom, otherDom));
    // each document's nodes together, once each, in that document's order
    expect(new Set(expected.map((g) => g[0].split(' ')[0])).size).toBe(expected.length);
    expect(byDocument(described(query, view.document, otherView.document))).toEqual(expected);
  });
});
