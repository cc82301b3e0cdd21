/** The update model: saxon nodes → model → XML text with namespace fix-up. */
import { saxon } from '../../../lib/saxon';
import { serializeModel, toModel, type MElement } from '../../../lib/xquery/update/model';

const parse = (xml: string) => saxon().getPlatform().parseXmlFromString(xml);
const el = (uri: string, prefix: string, local: string, extra: Partial<MElement> = {}): MElement => ({
  kind: 'element', uri, prefix, local, attributes: [], namespaces: new Map(), children: [], parent: null, ...extra,
});

describe('serializeModel', () => {
  test('round-trips a parsed document', () => {
    const text = '<p:a xmlns:p="urn:p" xmlns="urn:d" p:k="v" j="w&amp;&lt;&quot;"><b>t &amp; &lt;</b><!--c--><?pi d?></p:a>';
    expect(serializeModel(toModel(parse(text)))).toBe(text);
  });

  test('declares missing bindings of element and attribute names', () => {
    const e = el('urn:q', 'q', 'e', { attributes: [{ uri: 'urn:r', prefix: 'r', local: 'x', value: '1' }] });
    expect(serializeModel(e)).toBe('<q:e xmlns:q="urn:q" xmlns:r="urn:r" r:x="1"/>');
  });

  test('a fresh prefix where the attribute prefix is taken, none for the xml namespace', () => {
    const e = el('urn:q', 'p', 'e', {
      attributes: [
        { uri: 'urn:other', prefix: 'p', local: 'x', value: '1' },
        { uri: 'http://www.w3.org/XML/1998/namespace', prefix: 'xml', local: 'lang', value: 'en' },
        { uri: 'urn:n', prefix: '', local: 'y', value: '2' },
      ],
    });
    expect(serializeModel(e)).toBe('<p:e xmlns:p="urn:q" xmlns:ns1="urn:other" xmlns:ns2="urn:n" ns1:x="1" xml:lang="en" ns2:y="2"/>');
  });

  test('undeclares the default namespace for a no-namespace child', () => {
    const child = el('', '', 'n');
    const parent = el('urn:d', '', 'a', { children: [child] });
    child.parent = parent;
    expect(serializeModel(parent)).toBe('<a xmlns="urn:d"><n xmlns=""/></a>');
  });

  test('in-scope namespaces of a copied element are declared on it', () => {
    const doc = parse('<r xmlns:p="urn:p"><p:a/></r>') as unknown as { documentElement: { firstChild: never } };
    expect(serializeModel(toModel(doc.documentElement.firstChild))).toBe('<p:a xmlns:p="urn:p"/>');
  });
});
