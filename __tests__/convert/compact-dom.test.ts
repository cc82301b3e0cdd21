import { parseToCompactDom } from '../../lib/convert/xml';
import { XML_LIMITS } from '../../lib/convert/xml-limits';
import { saxon } from '../../lib/saxon';

/** saxon-js's own parse, not compacted. */
function plainDocument(xml: string): unknown {
  return (saxon().XPath as unknown as { evaluate(x: string, c: unknown, o: object): unknown }).evaluate('parse-xml($xml)', null, { params: { xml } });
}

function evaluate(xpath: string, doc: unknown): string {
  const xp = saxon().XPath as unknown as { evaluate(x: string, c: unknown, o: object): unknown };
  return String(xp.evaluate(`string-join((${xpath}) ! string(), '|')`, doc, { namespaceContext: { p: 'urn:p' } }));
}

interface Element {
  firstChild: Element | null;
  nextSibling: Element | null;
  childNodes: ArrayLike<unknown>;
  attributes: ArrayLike<unknown> & { b?: unknown };
  ae: Record<string, string> | null;
}

const XML =
  '<p:root xmlns:p="urn:p" xmlns="urn:d" a="1"><x id="1" k="v">one</x><!--c--><x id="2"><p:y xmlns:q="urn:q" q:z="3">two</p:y></x>\n<?pi d?><e/></p:root>';

describe('compacted documents', () => {
  test('lists are arrays of their exact length with the DOM prototype; empty namespace maps are gone', () => {
    const doc = parseToCompactDom(XML) as Element;
    const root = doc.firstChild!;
    expect(Array.isArray(root.childNodes)).toBe(true);
    expect(root.childNodes.length).toBe(6);
    expect(Array.isArray(root.attributes)).toBe(true);
    expect(root.attributes.b).toBe(root);
    expect(root.ae).toEqual({ p: 'urn:p', '': 'urn:d' });
    const x = root.firstChild!;
    expect(x.ae).toBeNull();
    expect((x.attributes as unknown as { item(i: number): unknown }).item(1)).toBe(x.attributes[1]);
    const plain = plainDocument(XML) as Element;
    expect(Array.isArray(plain.firstChild!.childNodes)).toBe(false); // what the compaction changes
  });

  test.each([
    ['names and namespaces', '//*!name()'],
    ['namespace URIs', '//*!namespace-uri()'],
    ['in-scope prefixes', '//*!sort(in-scope-prefixes(.))'],
    ['prefix resolution', '//p:y!namespace-uri-for-prefix("q", .), //*:x!namespace-uri-for-prefix("", .)'],
    ['attributes', '//@*!(name() || "=" || .)'],
    ['attribute by name', '//x/@id, //p:y/@*:z'],
    ['child positions', '/*/node()!(position() || ":" || node-name(.))'],
    ['siblings', '//x[1]/following-sibling::node()!name(), //e/preceding-sibling::*!name()'],
    ['document order', '(//@id, //x, //text())/name()'],
    ['serialization', 'serialize(/)'],
    ['deep copy', 'serialize(parse-xml(serialize(/)))'],
    ['string values', '//x'],
    ['elements without attributes', '//*[not(@*)]!name(), //e/@*!name(), //e/@id, count(//p:y/@*)'],
    ['base URIs', '//*!base-uri(.)'],
  ])('%s read the same as on the uncompacted document', (_name, xpath) => {
    expect(evaluate(xpath, parseToCompactDom(XML))).toBe(evaluate(xpath, plainDocument(XML)));
  });

  test('elements without attributes share one frozen empty list with the DOM prototype', () => {
    const doc = parseToCompactDom(XML) as Element;
    const other = parseToCompactDom('<r><s/></r>') as Element;
    const x2 = doc.firstChild!.firstChild!.nextSibling!.nextSibling!;
    const e = x2.nextSibling!.nextSibling!.nextSibling!;
    const empty = e.attributes as unknown as { length: number; getNamedItem(n: string): unknown; item(i: number): unknown };
    expect(e.attributes).toBe(other.firstChild!.attributes);
    expect(other.firstChild!.firstChild!.attributes).toBe(e.attributes);
    expect(Object.isFrozen(empty)).toBe(true);
    expect(empty.length).toBe(0);
    expect(empty.getNamedItem('id')).toBeUndefined();
    expect(empty.item(0) ?? null).toBeNull();
    const plain = plainDocument(XML) as Element;
    expect(Object.getPrototypeOf(empty)).toBe(Object.getPrototypeOf(plain.firstChild!.attributes));
    expect(x2.attributes).not.toBe(e.attributes); // x2 has an id
    expect(x2.attributes.length).toBe(1);
  });

  test('a deep document is compacted to its last level', () => {
    const depth = XML_LIMITS.depth; // the deepest a stored document can be
    const doc = parseToCompactDom(`${'<a>'.repeat(depth)}x${'</a>'.repeat(depth)}`) as Element;
    let el = doc.firstChild!;
    for (let i = 1; i < depth; i++) el = el.firstChild!;
    expect(Array.isArray(el.childNodes)).toBe(true);
    expect(el.ae).toBeNull();
  });
});
