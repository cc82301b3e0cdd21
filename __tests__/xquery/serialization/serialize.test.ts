import { QueryCompiler } from '../../../lib/xquery/worker/compile';
import { evaluate } from '../../../lib/xquery/worker/evaluate';
import { QueryError } from '../../../lib/xquery/query-error';
import { applyQueryPatches } from '../../../lib/saxon/patches';
import { contentTypeFor, encodeBody } from '../../../lib/xquery/serialization/response-encoding';
import { serialize } from '../../../lib/xquery/serialization/serialize';
import { select } from '../worker/helpers';
import { registerExtensionFunctions } from '../../../lib/xquery/functions/extension-functions';
import { thrown } from '../../helpers/failure';
import { translate } from '../../helpers/translation';

registerExtensionFunctions();

// this thread evaluates queries as a query worker does (worker/thread.ts)
applyQueryPatches();

const compiler = new QueryCompiler({ max: 256 });
const value = (expr: string) => evaluate(compiler.compile(select(expr)), { initialTemplate: 'main' });
const ser = (expr: string, params: Record<string, string> = {}) => serialize(value(expr), params);

const serError = (expr: string, params: Record<string, string>): QueryError => thrown(() => ser(expr, params), QueryError);

describe('basex (default) and adaptive', () => {
  it('separate items by newline', () => {
    expect(ser('1 to 3')).toBe('1\n2\n3');
    expect(ser('1 to 3', { method: 'adaptive' })).toBe('1\n2\n3');
    expect(ser("(parse-xml('<a/>')/*, parse-xml('<b/>')/*)")).toBe('<a/>\n<b/>');
  });

  it('basex writes top-level atomic values as plain strings', () => {
    expect(ser("('a\"b<&', true(), 1e0, 2.5, xs:date('2020-01-01'), QName('u', 'p:l'))")).toBe('a"b<&\ntrue\n1\n2.5\n2020-01-01\np:l');
    expect(ser("map{'a':'b'}")).toBe('map{"a":"b"}');
  });

  it('adaptive writes atomic values per Serialization 3.1, XML-escaped', () => {
    const cases: Array<[string, string]> = [
      ["'a\"b<&'", '"a""b&lt;&amp;"'],
      ["xs:untypedAtomic('u')", '"u"'],
      ["xs:anyURI('http://x')", '"http://x"'],
      ['true(), false()', 'true()\nfalse()'],
      ['1, -7, 2.5, xs:decimal(3)', '1\n-7\n2.5\n3'],
      ['1e0, 12345678.9e0, 1e-7, -0e0', '1.0e0\n1.23456789e7\n1.0e-7\n-0.0e0'],
      ["xs:double('NaN'), xs:double('INF'), xs:double('-INF')", 'NaN\nINF\n-INF'],
      ['xs:float(1.5)', 'xs:float("1.5")'],
      ["xs:date('2020-01-01'), xs:dayTimeDuration('PT1H')", 'xs:date("2020-01-01")\nxs:dayTimeDuration("PT1H")'],
      ["QName('u:v', 'p:l')", 'Q{u:v}l'],
      ["xs:hexBinary('0a')", 'xs:hexBinary("0A")'],
    ];
    for (const [expr, expected] of cases) expect(ser(expr, { method: 'adaptive' })).toBe(expected);
  });

  it('xs:float: the shortest round-tripping decimal, in F&O canonical form', () => {
    expect(ser("xs:float(1e11), xs:float('1.2345e-2'), xs:float(5.7), xs:float(1e-7), xs:float(-1e17)", { method: 'adaptive' })).toBe(
      'xs:float("1.0E11")\nxs:float("0.012345")\nxs:float("5.7")\nxs:float("1.0E-7")\nxs:float("-1.0E17")',
    );
    expect(ser("xs:float(1e6), xs:float(100000), xs:float(0.000001), xs:float('-0'), xs:float('INF')")).toBe('1.0E6\n100000\n0.000001\n-0\nINF');
    // saxon's own string conversion (string(), casts, node content) goes through the same routine
    expect(ser("string(xs:float(1e11)), xs:float('1.2345e-2') cast as xs:string, string-join((xs:float(1e-9), xs:float(0.1)), ' ')")).toBe('1.0E11\n0.012345\n1.0E-9 0.1');
    expect(ser('string(1e11), string(xs:double(0.1))')).toBe('1.0E11\n0.1');
  });

  it('adaptive maps, arrays and functions', () => {
    expect(ser("map{'a':1}", { method: 'adaptive' })).toBe('map{"a":1}');
    expect(ser("map{'b':(1,2)}", { method: 'adaptive' })).toBe('map{"b":(1,2)}');
    expect(ser("map{'c':()}", { method: 'adaptive' })).toBe('map{"c":()}');
    expect(ser('map{}', { method: 'adaptive' })).toBe('map{}');
    expect(ser("[1,(2,3),[],'x']", { method: 'adaptive' })).toBe('[1,(2,3),[],"x"]');
    expect(ser('abs#1', { method: 'adaptive' })).toBe('Q{http://www.w3.org/2005/xpath-functions}abs#1');
    expect(ser('function($a, $b) { $a }', { method: 'adaptive' })).toBe('(anonymous-function)#2');
  });

  it('adaptive nodes: XML, attributes as name="value", namespaces as xmlns', () => {
    expect(ser(`parse-xml('<a x="1&amp;"><b/>t</a>')`, { method: 'adaptive' })).toBe('<a x="1&amp;"><b/>t</a>');
    expect(ser(`parse-xml('<a x="1&quot;"/>')/*/@x`, { method: 'adaptive' })).toBe('x="1&quot;"');
    expect(ser(`parse-xml('<a xmlns:p="u"/>')/*/namespace::p`, { method: 'adaptive' })).toBe('xmlns:p="u"');
    expect(ser(`parse-xml('<a><!--c--><?pi d?>t</a>')/*/node()`, { method: 'adaptive' })).toBe('<!--c-->\n<?pi d?>\nt');
  });

  it('undeclares the default namespace for a no-namespace element (xmlns="")', () => {
    const q = `parse-xml('<e xmlns="urn:x"><a xmlns=""><b/></a><p:c xmlns:p="urn:p" xmlns=""/></e>')`;
    for (const method of ['adaptive', 'xml']) expect(ser(q, { method })).toBe('<e xmlns="urn:x"><a xmlns=""><b/></a><p:c xmlns:p="urn:p" xmlns=""/></e>');
    expect(ser(`parse-xml('<e xmlns="urn:x"><a xmlns=""/></e>')/*/*`, { method: 'xml' })).toBe('<a/>');
    expect(ser(`parse-xml('<e xmlns="urn:x"><a/></e>')`, { method: 'xml' })).toBe('<e xmlns="urn:x"><a/></e>');
  });

  it('item-separator replaces the newline (the QT3 wire form)', () => {
    expect(ser('1 to 3', { method: 'adaptive', 'item-separator': '\uE000' })).toBe('1\uE0002\uE0003');
    expect(ser('1 to 3', { 'item-separator': ',' })).toBe('1,2,3');
  });

  it('indent', () => {
    expect(ser("parse-xml('<a><b/></a>')", { indent: 'yes' })).toBe('<a>\n  <b/>\n</a>');
  });
});

describe('results of many elements (written in chunks)', () => {
  // XQuery, translated as the engine does: element constructors make parentless elements
  const xquery = (query: string, params: Record<string, string> = {}) => {
    const t = translate(query);
    const result = evaluate(compiler.compile(t.xslt), { params: Object.fromEntries(t.literals.map((l) => [l.param, { values: [l.value], type: l.type }])) });
    return serialize(result, params);
  };
  const expected = (n: number, each: (i: number) => string, separator: string) => Array.from({ length: n }, (_, k) => each(k + 1)).join(separator);

  it('basex, adaptive and xml write each element as saxon-js does, in order, past any chunk', () => {
    const query = 'for $i in 1 to 3000 return <r n="{$i}" m="a&amp;b">{$i}<s/></r>';
    const each = (i: number) => `<r n="${i}" m="a&amp;b">${i}<s/></r>`;
    expect(xquery(query)).toBe(expected(3000, each, '\n'));
    expect(xquery(query, { method: 'adaptive', 'item-separator': '|' })).toBe(expected(3000, each, '|'));
    expect(xquery(query, { method: 'xml' })).toBe(expected(3000, each, ''));
    expect(xquery(query, { method: 'xml', 'item-separator': ', ' })).toBe(expected(3000, each, ', '));
  });

  it('elements saxon-js writes (namespaces, comments) and atomic values between plain ones', () => {
    const query = 'declare namespace p = "urn:p"; for $i in 1 to 2000 return if ($i mod 500 = 0) then (<p:x>{$i}</p:x>, <c>{comment {$i}}</c>, $i, $i) else <r>{$i}</r>';
    const xml = (i: number) => (i % 500 === 0 ? `<p:x xmlns:p="urn:p">${i}</p:x><c><!--${i}--></c>${i} ${i}` : `<r>${i}</r>`);
    expect(xquery(query, { method: 'xml' })).toBe(expected(2000, xml, ''));
    const basex = (i: number) => (i % 500 === 0 ? `<p:x xmlns:p="urn:p">${i}</p:x>\n<c><!--${i}--></c>\n${i}\n${i}` : `<r>${i}</r>`);
    expect(xquery(query)).toBe(expected(2000, basex, '\n'));
  });
});

describe('xml, xhtml, html, text', () => {
  it('xml: a space between adjacent atomic values, nothing between nodes', () => {
    expect(ser('1 to 3', { method: 'xml' })).toBe('1 2 3');
    expect(ser("(1, parse-xml('<c/>')/*, 2, 3)", { method: 'xml' })).toBe('1<c/>2 3');
    expect(ser("(parse-xml('<a/>')/*, parse-xml('<b/>')/*)", { method: 'xml' })).toBe('<a/><b/>');
    expect(ser("'a<b'", { method: 'xml' })).toBe('a&lt;b');
    expect(ser('[1, [2, 3]]', { method: 'xml' })).toBe('1 2 3');
  });

  it('xml: item-separator between all items', () => {
    expect(ser('1 to 3', { method: 'xml', 'item-separator': ',' })).toBe('1,2,3');
    expect(ser("parse-xml('<a><b/>t</a>')", { method: 'xml', 'item-separator': ',' })).toBe('<a><b/>t</a>');
  });

  it('xml: omit-xml-declaration=no writes the declaration', () => {
    expect(ser("parse-xml('<a/>')", { method: 'xml', 'omit-xml-declaration': 'no' })).toBe('<?xml version="1.0" encoding="UTF-8"?><a/>');
    expect(ser("parse-xml('<a/>')", { method: 'xml' })).toBe('<a/>');
  });

  it('xml: attributes and maps cannot be serialized (SENR0001)', () => {
    expect(serError(`parse-xml('<a x="1"/>')/*/@x`, { method: 'xml' }).code).toBe('SENR0001');
    expect(serError("map{'a':1}", { method: 'xml' }).code).toBe('SENR0001');
  });

  it('xhtml: empty non-void elements as start and end tag', () => {
    expect(ser("parse-xml('<html></html>')", { method: 'xhtml', 'html-version': '1.0' })).toBe('<html></html>');
    expect(ser("parse-xml('<html></html>')", { method: 'xhtml', 'html-version': '1.0', indent: 'yes' })).toBe('<html></html>');
  });

  it('xhtml and html write HTML5 unless html-version says otherwise (BaseX 10 and later)', () => {
    expect(ser("parse-xml('<html></html>')", { method: 'xhtml' })).toBe('<!DOCTYPE html><html></html>');
    expect(ser("parse-xml('<html></html>')", { method: 'xhtml', 'html-version': '5.0' })).toBe('<!DOCTYPE html><html></html>');
    // with xhtml, version is the XML version: it does not turn HTML5 off
    expect(ser("parse-xml('<html></html>')", { method: 'xhtml', version: '1.0' })).toBe('<!DOCTYPE html><html></html>');
    expect(ser("parse-xml('<html></html>')", { method: 'html' })).toBe('<!DOCTYPE html><html></html>');
    expect(ser("parse-xml('<html></html>')", { method: 'html', 'html-version': '4.01' })).toBe('<html></html>');
    expect(ser("parse-xml('<html></html>')", { method: 'html', version: '4.0' })).toBe('<html></html>');
    expect(ser("parse-xml('<p/>')", { method: 'html' })).toBe('<p></p>');
  });

  it('xhtml: a given doctype-system', () => {
    expect(ser("parse-xml('<html></html>')", { method: 'xhtml', 'doctype-system': 'about:legacy-compat' })).toMatch(
      /^<!DOCTYPE html\s+SYSTEM "about:legacy-compat"><html><\/html>$/,
    );
    expect(ser("parse-xml('<p><br/><span/></p>')/*", { method: 'xhtml' })).toBe('<p><br /><span></span></p>');
  });

  it('html', () => {
    expect(ser("parse-xml('<p><br/><span/></p>')/*", { method: 'html' })).toBe('<p><br><span></span></p>');
  });

  it('text: string values', () => {
    expect(ser("parse-xml('<a>1</a>')", { method: 'text' })).toBe('1');
    expect(ser("('a<b', 'c')", { method: 'text' })).toBe('a<b c');
  });
});

describe('json and csv', () => {
  it('json', () => {
    expect(ser("map{'a':1}", { method: 'json' })).toBe('{"a":1}');
    expect(ser("[1,'x',true()]", { method: 'json' })).toBe('[1,"x",true]');
    expect(ser("'s'", { method: 'json' })).toBe('"s"');
    expect(ser('()', { method: 'json' })).toBe('');
    expect(serError('1 to 2', { method: 'json' }).code).toBe('SERE0023');
  });

  it('csv from <csv><record> documents, with header and separator', () => {
    const doc = "parse-xml('<csv><record><a>1</a><b>x,y</b></record><record><a>2</a><b>q\"</b></record></csv>')";
    expect(ser(doc, { method: 'csv' })).toBe('1,"x,y"\n2,"q"""\n');
    expect(ser(doc, { method: 'csv', 'csv-header': 'yes', 'csv-separator': ';' })).toBe('a;b\n1;x,y\n2;"q"""\n');
    expect(ser(doc, { method: 'csv', csv: 'header=yes,separator=semicolon' })).toBe('a;b\n1;x,y\n2;"q"""\n');
  });

  it('csv from arrays', () => {
    expect(ser("[[1, 'a'], [2, 'b']]", { method: 'csv' })).toBe('1,a\n2,b\n');
  });
});

describe('contentTypeFor (spec §11.1)', () => {
  it('media-type wins, then method, then the operation default; charset appended', () => {
    expect(contentTypeFor({ 'media-type': 'xxx' }, 'application/xml')).toBe('xxx; charset=UTF-8');
    expect(contentTypeFor({ 'media-type': 'text/x; charset=latin1' }, 'application/xml')).toBe('text/x; charset=latin1');
    const byMethod: Record<string, string> = {
      xml: 'application/xml', adaptive: 'application/xml', basex: 'application/xml', xhtml: 'text/html',
      html: 'text/html', text: 'text/plain', json: 'application/json', csv: 'text/csv',
    };
    for (const [method, type] of Object.entries(byMethod)) {
      expect(contentTypeFor({ method }, 'text/plain')).toBe(`${type}; charset=UTF-8`);
    }
    expect(contentTypeFor({}, 'application/xml')).toBe('application/xml; charset=UTF-8');
    expect(contentTypeFor({}, 'text/plain')).toBe('text/plain; charset=UTF-8');
    expect(contentTypeFor({ encoding: 'ISO-8859-1' }, 'application/xml')).toBe('application/xml; charset=ISO-8859-1');
  });
});

describe('encodeBody', () => {
  it('encodes, with character references where the encoding falls short', () => {
    expect(encodeBody('ä€', 'UTF-8').toString('utf8')).toBe('ä€');
    expect(encodeBody('ä€', 'ISO-8859-1')).toEqual(Buffer.from('ä&#x20AC;', 'latin1'));
    expect(encodeBody('ä', 'US-ASCII').toString('ascii')).toBe('&#xE4;');
  });
});
