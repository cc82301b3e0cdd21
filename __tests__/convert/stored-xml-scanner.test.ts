/**
 * The stored-text scanner (convert/stored-xml-scanner.ts) must report what the full parser
 * reports (attributes, comments and processing instructions aside), or answer false and leave the
 * text to the parser.
 */
import { parseToStoredXml } from '../../lib/convert/xml';
import { parseXmlInto, type XmlSink } from '../../lib/convert/xml-parser';
import { scanStoredXml } from '../../lib/convert/stored-xml-scanner';
import type { Pair } from '../../lib/convert/writer';

type Event = ['start', string, Pair[]] | ['end'] | ['text', string];

/** A sink that records elements, namespace declarations and text (adjacent text merged). */
function recorder(): { sink: XmlSink; events: Event[] } {
  const events: Event[] = [];
  const sink: XmlSink = {
    startElement: (name, _attributes, namespaces = []) => void events.push(['start', name, [...namespaces]]),
    endElement: () => void events.push(['end']),
    characters: (s) => {
      const last = events[events.length - 1];
      if (last?.[0] === 'text') last[1] += s;
      else if (s !== '') events.push(['text', s]);
    },
    comment: () => undefined,
    processingInstruction: () => undefined,
  };
  return { sink, events };
}

function parsed(text: string): Event[] {
  const { sink, events } = recorder();
  parseXmlInto(text, sink);
  return events;
}

/** The scanner's events; undefined when it leaves the text to the parser. */
function scanned(text: string): Event[] | undefined {
  const { sink, events } = recorder();
  return scanStoredXml(text, sink) ? events : undefined;
}

describe('scanStoredXml', () => {
  const inputs = [
    '<a/>',
    '<a x="1"><b/>t</a>',
    '<a>\n <b>x</b>\n</a>',
    '<a>x<![CDATA[<y>&]]>z</a>',
    '<!--c1--><?p1 d?><a><!-- x --><?p2?></a><!--c2-->',
    '<p:a xmlns:p="urn:p" xmlns="urn:d" p:x="1" y="2"><b/></p:a>',
    '<a xmlns="urn:d"><b xmlns=""/></a>',
    '<a t="&lt;&amp;&quot;&apos;&#x41;">&lt;&gt;&amp;&#65;&#x1F600;</a>',
    '<a x="a\tb\nc&#10;d&#9;e" y=\'>"\' z="/>">&#13;</a>',
    '<a>"]]&gt;\'</a>',
    '<items><item id="i1" category="golf"><name>golf-1</name><price>12.50</price><description>alpha bravo</description></item>\n<item id="i2"><price> 7 </price></item></items>',
    '<r><item><price> 1&#x35;<!--c-->0 </price></item><item><price><![CDATA[2]]>e2</price></item></r>',
    '<a>\u00e9\u{1F600}<b\u00e9/></a>',
  ];

  it.each(inputs)('reports stored text as the parser does: %s', (input) => {
    const stored = parseToStoredXml(input).xml;
    expect(scanned(stored)).toEqual(parsed(stored));
  });

  it.each(inputs)('reports the text it reads as the parser does, stored or not: %s', (input) => {
    expect(scanned(input)).toEqual(parsed(input));
  });

  it.each([
    ['a byte order mark', '\uFEFF<a/>'],
    ['a carriage return', '<a>x\ry</a>'],
    ['a DOCTYPE', '<!DOCTYPE a [<!ENTITY n "5">]><a>&n;</a>'],
    ['a declared entity', '<a>&n;</a>'],
    ['an unclosed reference', '<a>&amp</a>'],
    ['a character reference to a character XML forbids', '<a>&#1;</a>'],
    ['a namespace value to normalise', '<a xmlns="urn:&#9;x"/>'],
    ['a namespace value with a tab', '<a xmlns="urn:\tx"/>'],
    ['xmlns:xml', '<a xmlns:xml="http://www.w3.org/XML/1998/namespace"/>'],
    ['xmlns:xmlns', '<a xmlns:xmlns="urn:x"/>'],
    ['an empty prefixed declaration', '<a xmlns:p=""/>'],
    ['the xmlns namespace bound', '<a xmlns="http://www.w3.org/2000/xmlns/"/>'],
    ['white space around =', '<a x = "1"/>'],
    ['an attribute without white space before it', '<a x="1"y="2"/>'],
    ['an unquoted attribute', '<a x=1/>'],
    ['an unclosed attribute', '<a x="1/>'],
    ['a mismatched end tag', '<a><b></a></b>'],
    ['an end tag with a longer name', '<a></ab>'],
    ['an end tag without an open element', '<a/></a>'],
    ['two roots', '<a/><b/>'],
    ['no root', '<!--c-->'],
    ['text outside the root', 'x<a/>'],
    ['text after the root', '<a/>x'],
    ['an unclosed element', '<a><b/>'],
    ['an unclosed comment', '<a><!-- x</a>'],
    ['an unclosed CDATA section', '<a><![CDATA[x</a>'],
    ['CDATA outside the root', '<![CDATA[x]]><a/>'],
    ['an unclosed processing instruction', '<a><?p x</a>'],
    ['other markup', '<a><!ELEMENT a ANY></a>'],
    ['an unclosed start tag', '<a'],
    ['an empty name', '< a/>'],
  ])('leaves the text to the parser for %s', (_what, text) => {
    expect(scanned(text)).toBeUndefined();
  });
});
