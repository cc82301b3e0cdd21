/**
 * The one-pass summary of stored text (accelerators/leaf-summaries/summary-scan.ts) gives what the
 * general summary (the stored-text scanner's events, or the parser's) gives, and leaves every
 * other form to it.
 */
import { parseToStoredXml } from '../../../../lib/convert/xml';
import { DocumentSummary } from '../../../../lib/xquery/accelerators/leaf-summaries/leaf-summaries';
import { scanSummary } from '../../../../lib/xquery/accelerators/leaf-summaries/summary-scan';

describe('scanSummary', () => {
  const docs = [
    '<r><item id="1" note="a>b"><price>10</price><qty>3</qty><name>n/a</name></item><item><price> 1&#x35;0 </price><qty/></item><x><price>7</price></x></r>',
    '<r><item><price>10</price><item><price>1</price></item><price>600</price></item><item><x><price>900</price></x></item><x><qty>4</qty></x></r>',
    '<r><item><price><b>5</b></price><qty>2</qty></item><item><price><item><price>5</price></item></price></item></r>',
    '<r><item><price/><qty>1e2</qty></item><item>text<price>3</price>more</item></r>',
    '<?p x?><!--before--><r>\n  <item>\n    <price>-0</price>\n    <qty>12345678901234567890</qty>\n  </item>\n</r>\n<!--after-->',
    '<r><item><price>AT&amp;T</price><qty>&lt;5</qty></item><item a=\'x\'><price>2.5</price><qty>0.1</qty></item></r>',
  ];
  const pairs = [['Q{}item', 'Q{}price'], ['Q{}item', 'Q{}qty'], ['Q{}item', 'Q{}name'], ['Q{}x', 'Q{}price'], ['Q{}x', 'Q{}qty'], ['Q{}item', ''], ['Q{}r', 'Q{}item'], ['Q{}none', 'Q{}price']];
  /** The same document in a form the one-pass scan leaves to the general summary (a comment inside the root changes no value). */
  const general = (doc: string) => doc.replace(/<r>/, '<r><!--general-->');

  test.each(docs.map((doc, i) => [i, doc]))('answers every pair as the general summary does (document %i)', (_i, doc) => {
    expect(scanSummary(doc)).toBeDefined();
    expect(scanSummary(general(doc))).toBeUndefined();
    const fast = DocumentSummary.of(doc);
    const slow = DocumentSummary.of(general(doc));
    for (const [name, child] of pairs) {
      expect([name, child, fast.summary(name, child)]).toEqual([name, child, slow.summary(name, child)]);
      const one = { name, child };
      expect([name, child, DocumentSummary.of(doc, one).summary(name, child)]).toEqual([name, child, DocumentSummary.of(general(doc), one).summary(name, child)]);
    }
  });

  test('stored text of such documents is read in one pass', () => {
    for (const doc of docs) expect(scanSummary(parseToStoredXml(doc).xml)).toBeDefined();
  });

  test.each([
    ['a namespace declaration', '<r xmlns="urn:d"><item/></r>'],
    ['a prefixed element', '<r><p:item xmlns:p="urn:p"/></r>'],
    ['an undeclared prefix', '<r><p:item/></r>'],
    ['a comment inside the root', '<r><item><price>1<!--c-->2</price></item></r>'],
    ['a processing instruction inside the root', '<r><?p?></r>'],
    ['a CDATA section', '<r><item><price><![CDATA[2]]></price></item></r>'],
    ['a carriage return', '<r>\r\n<item/></r>'],
    ['a DOCTYPE', '<!DOCTYPE r><r/>'],
    ['an unknown entity', '<r><item><price>&n;</price></item></r>'],
    ['text after the root', '<r/>x'],
    ['a second root', '<r/><r/>'],
    ['an end tag that does not match', '<r><item></itemx></r>'],
    ['an unclosed element', '<r><item>'],
  ])('leaves %s to the general summary', (_name, doc) => {
    expect(scanSummary(doc)).toBeUndefined();
  });
});
