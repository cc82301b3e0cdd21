import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DomHandler } from 'domhandler';
import { convertHtml, type HtmlOptions } from '../../lib/convert/html';
import { parseToStoredXml } from '../../lib/convert/xml';
import { XML_LIMITS } from '../../lib/convert/xml-limits';
import { failure } from '../helpers/failure';

describe('convertHtml', () => {
  const cases: [string, string, HtmlOptions, string][] = [
    ['plain text gets html/head/body', 'hello', {}, '<html><head/><body>hello</body></html>'],
    ['empty input', '', {}, '<html><head/><body/></html>'],
    [
      'fixture: doctype dropped, head elements sorted, implied end tags',
      readFileSync(join(__dirname, '../../fixtures/convert/sample.html'), 'utf8'),
      {},
      '<html><head><title>Sample</title></head><body><p class="intro">Hello <b>world<br/>\n<ul><li>one</li><li>two</li></ul>\n</b></p></body></html>',
    ],
    ['full document kept in place', '<HTML LANG=en><HEAD><META CHARSET=utf-8></HEAD><BODY CLASS=b><P>x</P></BODY></HTML>', {}, '<html lang="en"><head><meta charset="utf-8"/></head><body class="b"><p>x</p></body></html>'],
    ['void elements are empty', '<p>a<br>b<img src=x.png alt=""><hr>', {}, '<html><head/><body><p>a<br/>b<img src="x.png" alt=""/></p><hr/></body></html>'],
    ['entities decoded, text re-escaped', '<p title="a&quot;&lt;">&amp; &lt;b&gt; &copy; &nbsp;</p>', {}, '<html><head/><body><p title="a&quot;&lt;">&amp; &lt;b&gt; \u00a9 \u00a0</p></body></html>'],
    ['script text escaped', '<script>if (a < b && c) x()</script><p>y', {}, '<html><head><script>if (a &lt; b &amp;&amp; c) x()</script></head><body><p>y</p></body></html>'],
    ['comments kept and made well-formed', '<!-- top --><p>x<!-- a -- b -->', {}, '<!-- top --><html><head/><body><p>x<!-- a - - b --></p></body></html>'],
    ['xmlns dropped: root in no namespace', '<html xmlns="http://www.w3.org/1999/xhtml" xmlns:x="urn:x"><p>x</p></html>', {}, '<html><head/><body><p>x</p></body></html>'],
    ['invalid names rewritten, duplicates dropped', '<p @click=a 1x=b id=1 ID=2 x:y=c xml:lang=en>t</p>', {}, '<html><head/><body><p _click="a" _1x="b" id="1" x_y="c" xml:lang="en">t</p></body></html>'],
    ['prefixed element names rewritten', '<svg:rect/><o:p>x</o:p>', {}, '<html><head/><body><svg_rect/><o_p>x</o_p></body></html>'],
    ['self-closing syntax honoured', '<svg><path d="M0"/><path d="M1"/></svg>', {}, '<html><head/><body><svg><path d="M0"/><path d="M1"/></svg></body></html>'],
    ['stray end tags ignored, open ones closed', '</x><div><span>a</div>b', {}, '<html><head/><body><div><span>a</span></div>b</body></html>'],
    ['processing instructions dropped', '<?xml version="1.0"?><p>x</p>', {}, '<html><head/><body><p>x</p></body></html>'],
    ['text after </html> goes to body', '<html><body>a</body></html>b', {}, '<html><head/><body>ab</body></html>'],
    ['characters XML cannot hold', '<p>a\u0001b</p>', {}, '<html><head/><body><p>a\uFFFDb</p></body></html>'],
    ['whitespace kept by default', '<ul>\n <li>a</li>\n</ul>', {}, '<html><head/><body><ul>\n <li>a</li>\n</ul></body></html>'],
    ['stripws', '<ul>\n <li>a</li>\n</ul>', { stripws: true }, '<html><head/><body><ul><li>a</li></ul></body></html>'],
  ];
  it.each(cases)('%s', (_name, input, options, xml) => {
    const r = convertHtml(input, options);
    expect(r.xml).toBe(xml);
    expect(parseToStoredXml(r.xml)).toEqual(r);
  });

  it('deeply nested HTML is converted up to the nesting limit and refused past it, without overflowing the stack', () => {
    const within = XML_LIMITS.depth - 2; // html and body enclose the divs
    expect(convertHtml('<div>'.repeat(within) + 'x').nodes).toBe(1 + 3 + within + 1);
    expect(failure(() => convertHtml('<div>'.repeat(within + 1) + 'x'))).toStrictEqual({
      status: 400,
      code: 'XML_DEPTH_X',
      message: `Elements are nested deeper than ${XML_LIMITS.depth} levels.`,
    });
    expect(failure(() => convertHtml('<div>'.repeat(50_000) + 'x'))).toMatchObject({ status: 400, code: 'XML_DEPTH_X' });
  });

  it('parsing stops at the first element past the nesting limit', () => {
    // htmlparser2 takes time quadratic in the open elements: 100,000 took seconds to parse.
    const opened = jest.spyOn(DomHandler.prototype, 'onopentag');
    try {
      expect(failure(() => convertHtml('<div>'.repeat(100_000)))).toMatchObject({ status: 400, code: 'XML_DEPTH_X' });
      expect(opened).toHaveBeenCalledTimes(XML_LIMITS.depth + 1);
    } finally {
      opened.mockRestore();
    }
  });

  it('an element with more attributes than the limit is refused', () => {
    const attrs = (n: number) => Array.from({ length: n }, (_, i) => ` a${i}="x"`).join('');
    expect(convertHtml(`<p${attrs(XML_LIMITS.attributes)}>x</p>`).xml).toContain(`a${XML_LIMITS.attributes - 1}="x"`);
    expect(failure(() => convertHtml(`<p${attrs(XML_LIMITS.attributes + 1)}>x</p>`))).toStrictEqual({
      status: 400,
      code: 'XML_ATTRIBUTES_X',
      message: `An element has more than ${XML_LIMITS.attributes} attributes.`,
    });
  });
});
