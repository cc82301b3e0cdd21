/**
 * The element-name patch (lib/saxon/patches/element-names.ts): saxon-js's node-name accessor
 * hands out one kept xs:QName per element name, and everything that reads names answers as
 * before, for names that share a local part but not a prefix or namespace, for constructed
 * elements, and past the bound of the table.
 */
import { parseToSaxonDocument, saxon, type XdmNode } from '../../lib/saxon';
import { applyQueryPatches } from '../../lib/saxon/patches';

type NameAccessor = (node: unknown) => { prefix: string; q: string; local: string } | null;
const dom = () => (saxon().internals as unknown as { DomUtils: { X: NameAccessor } }).DomUtils;

const XML = '<r xmlns:p="urn:one" xmlns:q="urn:two"><p:x a="1"/><q:x/><x/><p:x/><y xmlns="urn:one"><x/></y></r>';

/** Evaluates `expression` on `doc` and joins the string values of its items with `|`. */
function strings(expression: string, doc: XdmNode): string {
  const value = saxon().XPath.evaluate(expression, doc, { resultForm: 'array' }) as unknown[];
  return value.map((item) => String(item)).join('|');
}

const QUERIES: [string, string][] = [
  ['name()', '//*!name()'],
  ['local-name()', '//*!local-name()'],
  ['namespace-uri()', '//*!namespace-uri()'],
  ['node-name() as EQName', '//*!node-name()!(prefix-from-QName(.) || "=" || namespace-uri-from-QName(.) || ":" || local-name-from-QName(.))'],
  ['name tests', 'count(//x), count(//Q{urn:one}x), count(//Q{urn:two}x), count(//*:x), count(//Q{urn:one}*)'],
  ['deep-equal of same local names', 'deep-equal(/r/*[1], /r/*[4]), deep-equal(/r/*[1], /r/*[2]), deep-equal(/r/*[2], /r/*[3])'],
  ['constructed elements', 'let $e := parse-xml("<a xmlns:p=""urn:three""><p:x/></a>") return ($e//*!name(), $e//*!namespace-uri())'],
];

describe('element names', () => {
  const expected = new Map<string, string>();
  beforeAll(() => {
    // what saxon-js answers before the patch
    const doc = parseToSaxonDocument(XML);
    for (const [name, q] of QUERIES) expected.set(name, strings(q, doc));
    applyQueryPatches();
  });

  test('an element name is built once and handed out again for every element of that name', () => {
    const [p1, q1, x1, p2] = saxon().XPath.evaluate('/r/*', parseToSaxonDocument(XML), { resultForm: 'array' }) as unknown[];
    const X = dom().X;
    expect(X(p1)).toBe(X(p2));
    expect(X(p1)).not.toBe(X(q1));
    expect([X(p1), X(q1), X(x1)].map((n) => `${n!.prefix}|${n!.q}|${n!.local}`)).toEqual(['p|urn:one|x', 'q|urn:two|x', '||x']);
  });

  test.each(QUERIES)('%s: the same answer as unpatched, twice', (name, q) => {
    const doc = parseToSaxonDocument(XML);
    expect(strings(q, doc)).toBe(expected.get(name));
    expect(strings(q, doc)).toBe(expected.get(name));
  });

  test('fixed answers of names that share a local part', () => {
    const doc = parseToSaxonDocument(XML);
    expect(strings('//*!name()', doc)).toBe('r|p:x|q:x|x|p:x|y|x');
    expect(strings('//*!namespace-uri()', doc)).toBe('|urn:one|urn:two||urn:one|urn:one|urn:one');
  });

  test('more distinct names than the table keeps: every name still right', () => {
    const names = Array.from({ length: 5000 }, (_, i) => `e${i}`);
    const doc = parseToSaxonDocument(`<r>${[...names, ...names].map((n) => `<${n}/>`).join('')}</r>`);
    expect(strings('/r/*!local-name()', doc)).toBe([...names, ...names].join('|'));
    expect(strings('count(/r/e4999), count(/r/e0)', doc)).toBe('2|2');
  });

  test('a name the accessor rejects is rejected every time (never kept)', () => {
    const bad = { nodeType: 1, localName: '1x', prefix: '', namespaceURI: '' };
    expect(() => dom().X(bad)).toThrow(/Invalid local name/);
    expect(() => dom().X(bad)).toThrow(/Invalid local name/);
  });

  test('attributes and other nodes keep their own names', () => {
    const doc = parseToSaxonDocument('<r a="1" xmlns:p="urn:one" p:b="2"><?pi x?></r>');
    expect(strings('/r/@*!name(), /r/processing-instruction()!name(), /r/@*!namespace-uri()', doc)).toBe('a|p:b|pi||urn:one');
  });
});
