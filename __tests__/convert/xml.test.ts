import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { failure } from '../helpers/failure';
import { parseToStoredXml, parseToCompactDom, type XmlOptions } from '../../lib/convert/xml';
import { ENTITY_LIMITS } from '../../lib/convert/xml-parser';
import { XML_LIMITS } from '../../lib/convert/xml-limits';

const fixture = (name: string): string => readFileSync(join(__dirname, '../../fixtures/convert', name), 'utf8');

describe('parseToStoredXml: normalised text and node count', () => {
  const cases: [string, string, XmlOptions, string, number][] = [
    ['empty element', '<a/>', {}, '<a/>', 2],
    ['spec §4 example', '<a x="1"><b/>t</a>', {}, '<a x="1"><b/>t</a>', 5],
    ['start/end pair becomes empty tag', '<a></a>', {}, '<a/>', 2],
    ['declaration dropped', '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<a/>', {}, '<a/>', 2],
    ['doctype dropped', '<!DOCTYPE a SYSTEM "a.dtd">\n<a/>', {}, '<a/>', 2],
    ['doctype with internal subset dropped', '<!DOCTYPE a [<!ELEMENT a (#PCDATA)><!ATTLIST a z CDATA "d">]><a/>', {}, '<a/>', 2],
    ['whitespace kept by default', '<a>\n <b>x</b>\n</a>', {}, '<a>\n <b>x</b>\n</a>', 6],
    ['stripws drops whitespace-only text', '<a>\n <b>x</b>\n</a>', { stripws: true }, '<a><b>x</b></a>', 4],
    ['stripws keeps text with content', '<a> x <b> </b></a>', { stripws: true }, '<a> x <b/></a>', 4],
    ['stripws honours xml:space', '<a><b xml:space="preserve"> <c> </c></b><d> </d></a>', { stripws: true }, '<a><b xml:space="preserve"> <c> </c></b><d/></a>', 8],
    ['xml:space="default" resets', '<a xml:space="preserve"><b xml:space="default"> </b> </a>', { stripws: true }, '<a xml:space="preserve"><b xml:space="default"/> </a>', 6],
    ['CDATA becomes text and merges', '<a>x<![CDATA[<y>&]]>z</a>', {}, '<a>x&lt;y&gt;&amp;z</a>', 3],
    ['empty CDATA adds nothing', '<a><![CDATA[]]></a>', {}, '<a/>', 2],
    ['comments and PIs kept, also around the root', '<!--c1--><?p1 d?><a><!-- x --><?p2?></a><!--c2-->', {}, '<!--c1--><?p1 d?><a><!-- x --><?p2?></a><!--c2-->', 7],
    ['namespaces kept, not counted', '<p:a xmlns:p="urn:p" xmlns="urn:d" p:x="1" y="2"><b/></p:a>', {}, '<p:a xmlns:p="urn:p" xmlns="urn:d" p:x="1" y="2"><b/></p:a>', 5],
    ['default namespace undeclared', '<a xmlns="urn:d"><b xmlns=""/></a>', {}, '<a xmlns="urn:d"><b xmlns=""/></a>', 3],
    ['stripns removes prefixes and declarations', '<p:a xmlns:p="urn:p" xmlns="urn:d" p:x="1" y="2"><b/></p:a>', { stripns: true }, '<a x="1" y="2"><b/></a>', 5],
    ['stripns: colliding attributes keep the first', '<a xmlns:p="urn:p" p:x="1" x="2"/>', { stripns: true }, '<a x="1"/>', 3],
    ['stripns keeps xml: attributes', '<a xml:lang="en"/>', { stripns: true }, '<a xml:lang="en"/>', 3],
    ['predefined and character references', '<a t="&lt;&amp;&quot;&apos;&#x41;">&lt;&gt;&amp;&#65;&#x1F600;</a>', {}, '<a t="&lt;&amp;&quot;\'A">&lt;&gt;&amp;A\u{1F600}</a>', 4],
    ['attribute value normalisation', '<a x="a\tb\nc&#10;d&#9;e"/>', {}, '<a x="a b c&#xA;d&#x9;e"/>', 3],
    [
      'attribute value normalisation around references, in entity text too',
      '<!DOCTYPE a [<!ENTITY e "x&#9;y\tz">]><a x="long text &e; &lt;&amp; end\t" y="&e;" z="\r\n"/>',
      {},
      '<a x="long text x y z &lt;&amp; end " y="x y z" z=" "/>',
      5,
    ],
    ['CR LF and CR become LF', '<a>x\r\ny\rz</a>', {}, '<a>x\ny\nz</a>', 3],
    ['character reference to CR kept', '<a>x&#13;</a>', {}, '<a>x&#xD;</a>', 3],
    ['> and quotes in text', '<a>"]]&gt;\'</a>', {}, '<a>"]]&gt;\'</a>', 3],
    ['single-quoted attributes', "<a x='\"1\"'/>", {}, '<a x="&quot;1&quot;"/>', 3],
    ['white space in tags', '<a\n  x = "1"\n></a >', {}, '<a x="1"/>', 3],
    ['BOM removed', '\uFEFF<a/>', {}, '<a/>', 2],
    ['internal entity expanded', '<!DOCTYPE a [<!ENTITY n "Ann">]><a>&n;&n;</a>', {}, '<a>AnnAnn</a>', 3],
    ['internal entity with markup', '<!DOCTYPE a [<!ENTITY e "x<b>y</b>z">]><a>&e;</a>', {}, '<a>x<b>y</b>z</a>', 6],
    ['nested internal entities', '<!DOCTYPE a [<!ENTITY i "in"><!ENTITY o "[&i;]">]><a t="&o;">&o;</a>', {}, '<a t="[in]">[in]</a>', 4],
    ['character reference in entity value', '<!DOCTYPE a [<!ENTITY amp2 "&#38;#38;">]><a>&amp2;</a>', {}, '<a>&amp;</a>', 3],
    ['parameter entity reference: later declarations ignored', '<!DOCTYPE a [<!ENTITY x "1"><!ENTITY % p "">%p;<!ENTITY y "2">]><a>&x;</a>', {}, '<a>1</a>', 3],
    ['non-ASCII names', '<ñ é="1">ü</ñ>', {}, '<ñ é="1">ü</ñ>', 4],
    ['xml-stylesheet PI', '<?xml-stylesheet href="a.xsl"?><a/>', {}, '<?xml-stylesheet href="a.xsl"?><a/>', 3],
  ];
  it.each(cases)('%s', (_name, input, options, xml, nodes) => {
    expect(parseToStoredXml(input, options)).toEqual({ xml, nodes });
  });

  it('output parses to the same output (idempotent)', () => {
    for (const [, input, options] of cases) {
      const once = parseToStoredXml(input, options);
      expect(parseToStoredXml(once.xml, options)).toEqual(once);
    }
  });

  it('node counts agree with saxon-js on the stored text', () => {
    for (const [, input, options] of cases) {
      const { xml, nodes } = parseToStoredXml(input, options);
      const doc = parseToCompactDom(xml);
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const SaxonJS = require('saxon-js');
      const count = SaxonJS.XPath.evaluate('count($d/descendant-or-self::node()) + count($d//@*)', null, { params: { d: doc } });
      expect(count).toBe(nodes);
    }
  });
});

describe('parseToStoredXml: malformed input is a 400 with position', () => {
  const cases: [string, string, string, string][] = [
    ['mismatched end tag', '<a>\n<b>\n</c></a>', 'XML_END_TAG_XX', '"in.xml" (Line 3, Column 1): Element <b> is closed by </c>.'],
    ['unclosed element', '<a><b>', 'XML_EOF', '"in.xml" (Line 1, Column 7): XML document structures must start and end within the same entity.'],
    ['empty document', '', 'XML_NO_ROOT', '"in.xml" (Line 1, Column 1): Document has no root element.'],
    ['only a comment', '<!--x-->', 'XML_NO_ROOT', '"in.xml" (Line 1, Column 9): Document has no root element.'],
    ['text before the root', 'x<a/>', 'XML_PROLOG', '"in.xml" (Line 1, Column 1): Content is not allowed in prolog.'],
    ['two root elements', '<a/><b/>', 'XML_TRAILING', '"in.xml" (Line 1, Column 5): Content is not allowed after the root element.'],
    ['text after the root', '<a/>x', 'XML_TRAILING', '"in.xml" (Line 1, Column 5): Content is not allowed after the root element.'],
    ['duplicate attribute', '<a b="1" b="2"/>', 'XML_DUP_ATTR_X', '"in.xml" (Line 1, Column 1): Attribute "b" is specified more than once.'],
    ['duplicate expanded attribute', '<a xmlns:p="u" xmlns:q="u" p:x="1" q:x="2"/>', 'XML_DUP_ATTR_X', '"in.xml" (Line 1, Column 1): Attribute "q:x" is specified more than once.'],
    ['< in attribute', '<a x="<"/>', 'XML_ATTR_LT', '"in.xml" (Line 1, Column 7): The value of an attribute must not contain \'<\'.'],
    ['unquoted attribute', '<a x=1/>', 'XML_EXPECTED_X', '"in.xml" (Line 1, Column 6): Expected a quoted attribute value.'],
    ['attribute without value', '<a b/>', 'XML_EXPECTED_X', "\"in.xml\" (Line 1, Column 5): Expected '='."],
    ['missing space between attributes', '<a x="1"y="2"/>', 'XML_EXPECTED_X', "\"in.xml\" (Line 1, Column 9): Expected white space, '>' or '/>'."],
    ['control character', '<a>\u0001</a>', 'XML_CHAR_X', '"in.xml" (Line 1, Column 4): Invalid XML character (Unicode: 0x1).'],
    ['lone surrogate', '<a>\uD800</a>', 'XML_CHAR_X', '"in.xml" (Line 1, Column 4): Invalid XML character (Unicode: 0xD800).'],
    ['invalid character reference', '<a>&#0;</a>', 'XML_CHARREF_X', '"in.xml" (Line 1, Column 4): Invalid character reference "&#0;".'],
    ['malformed character reference', '<a>&#xZZ;</a>', 'XML_CHARREF_X', '"in.xml" (Line 1, Column 4): Invalid character reference "&#xZZ;".'],
    ['bare ampersand', '<a>a & b</a>', 'XML_NAME', '"in.xml" (Line 1, Column 7): Invalid or missing name.'],
    ['reference without semicolon', '<a>&amp</a>', 'XML_EXPECTED_X', "\"in.xml\" (Line 1, Column 8): Expected ';' after the entity name."],
    ['undeclared entity', '<a>&nbsp;</a>', 'XML_ENTITY_X', '"in.xml" (Line 1, Column 4): Undeclared entity "&nbsp;".'],
    [']]> in content', '<a>]]></a>', 'XML_CDATA_END', "\"in.xml\" (Line 1, Column 4): The sequence ']]>' is not allowed in content."],
    ['-- in comment', '<a><!-- a -- b --></a>', 'XML_COMMENT', "\"in.xml\" (Line 1, Column 11): The string '--' is not allowed in comments."],
    ['comment ending in -', '<a><!-- a ---></a>', 'XML_COMMENT', "\"in.xml\" (Line 1, Column 11): The string '--' is not allowed in comments."],
    ['misplaced XML declaration', '<a><?xml version="1.0"?></a>', 'XML_DECL', '"in.xml" (Line 1, Column 4): Malformed or misplaced XML declaration.'],
    ['malformed XML declaration', '<?xml encoding="UTF-8"?><a/>', 'XML_DECL', '"in.xml" (Line 1, Column 1): Malformed or misplaced XML declaration.'],
    ['declaration after white space', ' <?xml version="1.0"?><a/>', 'XML_DECL', '"in.xml" (Line 1, Column 2): Malformed or misplaced XML declaration.'],
    ['reserved PI target', '<a><?XML x?></a>', 'XML_PI_TARGET_X', '"in.xml" (Line 1, Column 4): Invalid processing instruction target "XML".'],
    ['unbound element prefix', '<p:a/>', 'XML_PREFIX_X', '"in.xml" (Line 1, Column 1): Namespace prefix "p" is not declared.'],
    ['unbound attribute prefix', '<a p:x="1"/>', 'XML_PREFIX_X', '"in.xml" (Line 1, Column 1): Namespace prefix "p" is not declared.'],
    ['prefix out of scope', '<a><b xmlns:p="u"/><p:c/></a>', 'XML_PREFIX_X', '"in.xml" (Line 1, Column 20): Namespace prefix "p" is not declared.'],
    ['empty prefixed namespace', '<a xmlns:p=""/>', 'XML_NS_DECL_X', '"in.xml" (Line 1, Column 1): Invalid namespace declaration: xmlns:p="".'],
    ['xml prefix rebound', '<a xmlns:xml="urn:x"/>', 'XML_NS_DECL_X', '"in.xml" (Line 1, Column 1): Invalid namespace declaration: xmlns:xml="urn:x".'],
    ['invalid QName', '<a:b:c/>', 'XML_QNAME_X', '"in.xml" (Line 1, Column 1): Invalid qualified name: "a:b:c".'],
    ['invalid name start', '<1a/>', 'XML_NAME', '"in.xml" (Line 1, Column 2): Invalid or missing name.'],
    ['markup declaration in content', '<a><!ELEMENT a ANY></a>', 'XML_MARKUP', '"in.xml" (Line 1, Column 4): Malformed markup.'],
    ['DOCTYPE after the root', '<a/><!DOCTYPE a>', 'XML_TRAILING', '"in.xml" (Line 1, Column 5): Content is not allowed after the root element.'],
    ['two DOCTYPEs', '<!DOCTYPE a><!DOCTYPE a><a/>', 'XML_DOCTYPE_X', '"in.xml" (Line 1, Column 13): Malformed document type declaration: misplaced or repeated DOCTYPE.'],
    ['unterminated DOCTYPE', '<!DOCTYPE a [<!ENTITY x "1">', 'XML_EOF', '"in.xml" (Line 1, Column 29): XML document structures must start and end within the same entity.'],
    ['unbalanced entity', '<!DOCTYPE a [<!ENTITY e "<b>">]><a>&e;</b></a>', 'XML_ENTITY_MARKUP_X', '"in.xml" (Line 1, Column 36): Entity "&e;" is not allowed here or has unbalanced markup.'],
    ['recursive entity', '<!DOCTYPE a [<!ENTITY e "x&f;"><!ENTITY f "&e;">]><a>&e;</a>', 'XML_ENTITY_RECURSION_X', '"in.xml" (Line 1, Column 54): Recursive entity reference "&e;".'],
    ['< from an entity in an attribute', '<!DOCTYPE a [<!ENTITY e "&#60;">]><a x="&e;"/>', 'XML_ATTR_LT', '"in.xml" (Line 1, Column 41): The value of an attribute must not contain \'<\'.'],
    ['unparsed entity', '<!DOCTYPE a [<!NOTATION n SYSTEM "n"><!ENTITY e SYSTEM "x" NDATA n>]><a>&e;</a>', 'XML_UNPARSED_ENTITY_X', '"in.xml" (Line 1, Column 73): Reference to unparsed entity "&e;".'],
  ];
  it.each(cases)('%s', (_name, input, code, message) => {
    expect(failure(() => parseToStoredXml(input, { name: 'in.xml' }))).toEqual({ status: 400, code, message });
  });

  it('without a resource name the prefix has only the position', () => {
    expect(failure(() => parseToStoredXml('<a>')).message).toBe(
      '(Line 1, Column 4): XML document structures must start and end within the same entity.',
    );
  });
});

describe('parseToStoredXml: no external access, bounded entity expansion', () => {
  it('external entity (XXE): refused without reading the file', () => {
    expect(failure(() => parseToStoredXml(fixture('xxe-file.xml'), { name: 'x.xml' }))).toEqual({
      status: 400,
      code: 'XML_EXTERNAL_ENTITY_X',
      message: '"x.xml" (Line 3, Column 4): External entity "&x;" is not loaded.',
    });
  });

  it('external entity that is declared but not referenced is harmless', () => {
    expect(parseToStoredXml('<!DOCTYPE a [<!ENTITY x SYSTEM "file:///etc/passwd">]><a>ok</a>')).toEqual({ xml: '<a>ok</a>', nodes: 3 });
  });

  it('external parameter entity and external DTD are not loaded', () => {
    expect(parseToStoredXml(fixture('xxe-parameter.xml'))).toEqual({ xml: '<a/>', nodes: 2 });
    expect(parseToStoredXml(fixture('xxe-external-dtd.xml'))).toEqual({ xml: '<a>ok</a>', nodes: 3 });
  });

  it('billion laughs stops at the entity budget', () => {
    expect(failure(() => parseToStoredXml(fixture('billion-laughs.xml')))).toMatchObject({ status: 400, code: 'XML_ENTITY_LIMIT' });
  });

  it('quadratic blowup exceeds the character budget', () => {
    expect(2000 * 10000).toBeGreaterThan(ENTITY_LIMITS.characters);
    expect(failure(() => parseToStoredXml(fixture('quadratic-blowup.xml')))).toMatchObject({ status: 400, code: 'XML_ENTITY_LIMIT' });
  });

  it('nesting is accepted up to the limit and refused past it, without overflowing the stack', () => {
    const nested = (depth: number) => '<a>'.repeat(depth) + '</a>'.repeat(depth);
    expect(parseToStoredXml(nested(XML_LIMITS.depth)).nodes).toBe(XML_LIMITS.depth + 1);
    expect(failure(() => parseToStoredXml(nested(XML_LIMITS.depth + 1), { name: 'deep.xml' }))).toStrictEqual({
      status: 400,
      code: 'XML_DEPTH_X',
      message: `"deep.xml" (Line 1, Column ${3 * XML_LIMITS.depth + 1}): Elements are nested deeper than ${XML_LIMITS.depth} levels.`,
    });
    expect(failure(() => parseToStoredXml(nested(100_000)))).toMatchObject({ status: 400, code: 'XML_DEPTH_X' });
  });

  it('attributes and namespace declarations of one element are limited', () => {
    const attrs = (n: number) => Array.from({ length: n }, (_, i) => ` a${i}="x"`).join('');
    expect(parseToStoredXml(`<a${attrs(XML_LIMITS.attributes)}/>`).nodes).toBe(2 + XML_LIMITS.attributes);
    expect(failure(() => parseToStoredXml(`<a${attrs(XML_LIMITS.attributes + 1)}/>`))).toStrictEqual({
      status: 400,
      code: 'XML_ATTRIBUTES_X',
      message: `(Line 1, Column 1): An element has more than ${XML_LIMITS.attributes} attributes.`,
    });
    const decls = Array.from({ length: XML_LIMITS.attributes + 1 }, (_, i) => ` xmlns:p${i}="urn:${i}"`).join('');
    expect(failure(() => parseToStoredXml(`<a${decls}/>`))).toMatchObject({ status: 400, code: 'XML_ATTRIBUTES_X' });
  });
});

describe('parseToCompactDom', () => {
  it('gives a document node of the stored text', () => {
    const doc = parseToCompactDom(parseToStoredXml('<a xmlns="urn:d"><b xmlns="">t</b></a>').xml);
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const SaxonJS = require('saxon-js');
    expect(SaxonJS.XPath.evaluate('$d/*/*!(namespace-uri() || "|" || string())', null, { params: { d: doc } })).toBe('|t');
  });
});
