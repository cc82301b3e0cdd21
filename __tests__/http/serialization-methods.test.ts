/**
 * The json and csv output methods as BaseX 13 has them, over REST (serialization/json-output.ts,
 * csv-output.ts): every format of the nested `json` and `csv` parameters, as query-string
 * parameters, as `declare option output:*` and through json:serialize; BaseX 13's HTML5 default
 * of the xhtml and html methods; namespaces kept on top-level nodes; and the errors.
 */
import type request from 'supertest';
import { getQuery, startTestServer, type TestServer } from '../helpers/rest';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ workers: 1 });
  await s.put('/rest/db').expect(201);
  await s.put('/rest/db/p.json', '{"name":"Alice","age":30,"tags":["a",1.50],"ok":true,"none":null,"my key":{}}', 'application/json').expect(201);
  await s.put('/rest/db/ns.xml', '<p:a xmlns:p="u" xmlns="d"><p:b p:x="1"/><c/></p:a>').expect(201);
  await s.put('/rest/db/t.csv', 'id,name\n1,"Smith, J"\n2,say "hi"\n', 'text/csv; header=true').expect(201);
});
afterAll(() => s.close());

/** Reads the body as text whatever its type (the json method may write text JSON.parse refuses: escape=no). */
const asText = (t: request.Test): request.Test =>
  t.buffer(true).parse((res, cb) => {
    let text = '';
    res.setEncoding('utf8');
    res.on('data', (c: string) => (text += c));
    res.on('end', () => cb(null, text));
  });

/** The body of a successful query serialized with the given query-string parameters. */
async function body(query: string, params = ''): Promise<string> {
  const r = await asText(getQuery(s, query, '', params));
  if (r.status !== 200) throw new Error(`${query}: ${r.status} ${r.body as string}`);
  return r.body as string;
}
/** The status and `[CODE] message` line of a failing query. */
async function statusAndError(query: string, params = ''): Promise<[number, string | undefined]> {
  const r = await getQuery(s, query, '', params);
  return [r.status, r.text.split('\n').pop()];
}

const ALICE = '{"name":"Alice","age":30,"tags":["a",1.50],"ok":true,"none":null,"my key":{}}';
const FN = 'http://www.w3.org/2005/xpath-functions';

describe('method=json over nodes, by json format', () => {
  test('direct (default): a stored JSON document comes back as the JSON it was', async () => {
    const r = await getQuery(s, "doc('db/p.json')", '', '&method=json').expect(200);
    expect(r.headers['content-type']).toBe('application/json; charset=UTF-8');
    expect(r.text).toBe(ALICE);
    expect(await body("doc('db/p.json')/json", '&method=json&json=format=direct')).toBe(ALICE);
  });

  test('direct: merged types on the root, lax names', async () => {
    expect(await body('<json objects="json" numbers="a"><a>1</a><b>x</b></json>', '&method=json')).toBe('{"a":1,"b":"x"}');
    expect(await body('<json type="object"><my_0020key/><__id>7</__id></json>', '&method=json')).toBe('{"my key":"","_id":"7"}');
    expect(await body('<json type="object"><my_0020key/></json>', '&method=json&json=lax=yes')).toBe('{"my_0020key":""}');
    // options that only matter when parsing are accepted
    expect(await body('<json type="array"><_>1</_></json>', '&method=json&json=merge=yes,strings=no')).toBe('["1"]');
  });

  test('attributes', async () => {
    const q = '<json type="object"><pair name="a" type="number">1</pair><pair name="b" type="array"><item>x</item></pair></json>';
    expect(await body(q, '&method=json&json=format=attributes')).toBe('{"a":1,"b":["x"]}');
    expect(await statusAndError('<json type="object"><a/></json>', '&method=json&json=format=attributes')).toEqual([500, '[json:serialize] <a> found, <pair> expected.']);
  });

  test('basic, w3 and w3-xml: the fn:json-to-xml vocabulary', async () => {
    const q = `json-to-xml('{"a":[1,"/",true,null,{}]}')`;
    for (const format of ['basic', 'w3', 'w3-xml']) {
      expect([format, await body(q, `&method=json&json=format=${format}`)]).toEqual([format, '{"a":[1,"\\/",true,null,{}]}']);
    }
    // an element of another namespace is written as XML in a string
    expect(await body('<map/>', '&method=json&json=format=basic')).toBe('"<map\\/>"');
  });

  test('jsonml: any element', async () => {
    expect(await body('<a x="1">t<b/><!--c--></a>', '&method=json&json=format=jsonml')).toBe('["a",{"x":"1"},"t",["b"]]');
  });

  test('xquery: nodes are strings, maps and arrays are JSON', async () => {
    expect(await body('<json type="object"/>', '&method=json&json=format=xquery')).toBe('"<json type=\\"object\\"\\/>"');
    expect(await body("map{'a':[1,'x',true(),()],'b':1.5e0,'c':xs:float(0.1)}", '&method=json&json=format=xquery')).toBe('{"a":[1,"x",true,null],"b":1.5,"c":0.1}');
  });

  test('a node inside a map is written in the format too', async () => {
    expect(await body("map{'p':doc('db/p.json'),'x':<x/>}", '&method=json')).toBe(`{"p":${ALICE},"x":"<x\\/>"}`);
    expect(await body("map{'x':<x>1</x>}", '&method=json&json-node-output-method=text')).toBe('{"x":"1"}');
  });

  test('indent (the parameter, or json=indent=yes) and escape', async () => {
    const indented = '{\n  "a": 1,\n  "b": [\n    "x"\n  ],\n  "c": {}\n}';
    const q = '<json type="object"><a type="number">1</a><b type="array"><_>x</_></b><c type="object"/></json>';
    expect(await body(q, '&method=json&indent=yes')).toBe(indented);
    expect(await body(q, '&method=json&json=indent=yes')).toBe(indented);
    expect(await body("map{'a':[1]}", '&method=json&indent=yes&json=indent=no')).toBe('{"a":[1]}');
    expect(await body('<json>"a/b"&#9;</json>', '&method=json')).toBe('"\\"a\\/b\\"\\t"');
    expect(await body('<json>"a/b"&#9;</json>', '&method=json&json=escape=no')).toBe('""a/b"\t"');
    expect(await body("'a/b'", '&method=json&escape-solidus=no')).toBe('"a/b"');
  });

  test('json-lines: one value per item and line', async () => {
    expect(await body("(map{'a':1}, [2], <json type='number'>3</json>)", '&method=json&json-lines=yes&indent=yes')).toBe('{"a":1}\n[2]\n3');
  });

  test('declare option output:method "json" with output:json', async () => {
    const q = 'declare option output:method "json"; declare option output:json "format=attributes,indent=yes";' +
      '<json type="object"><pair name="a" type="number">1</pair></json>';
    const r = await getQuery(s, q).expect(200);
    expect(r.headers['content-type']).toBe('application/json; charset=UTF-8');
    expect(r.text).toBe('{\n  "a": 1\n}');
  });

  test('json:serialize is the same serializer', async () => {
    expect(await body("json:serialize(doc('db/p.json'))")).toBe(ALICE);
    expect(await body(`json:serialize(<json type="object"><pair name="a">/</pair></json>, map{'format':'attributes','escape':false()})`)).toBe('{"a":"/"}');
    expect(await body(`json:serialize(json-to-xml('[1]'), map{'format':'basic','indent':true()})`)).toBe('[\n  1\n]');
  });

  test('errors', async () => {
    expect(await statusAndError('1 to 2', '&method=json')).toEqual([500, '[SERE0023] Only one item can be serialized with JSON.']);
    expect(await statusAndError("map{'a':(1,2)}", '&method=json')).toEqual([500, '[SERE0023] A sequence of 2 items cannot be serialized as one JSON value.']);
    expect(await statusAndError("map{1:1,'1':2}", '&method=json')).toEqual([500, '[SERE0022] Duplicate key: "1".']);
    expect(await body("map{1:1,'1':2}", '&method=json&allow-duplicate-names=yes')).toBe('{"1":1,"1":2}');
    expect(await statusAndError("[xs:double('INF')]", '&method=json')).toEqual([500, '[SERE0020] Numeric value cannot be serialized as JSON: INF.']);
    expect(await statusAndError("map{'f':abs#1}", '&method=json')).toEqual([500, '[SERE0021] Functions cannot be serialized as JSON.']);
    expect(await statusAndError('<a x="1"/>/@x', '&method=json')).toEqual([500, '[SERE0021] Attribute nodes cannot be serialized as JSON.']);
    expect(await statusAndError('<json type="foo"/>', '&method=json')).toEqual([500, '[json:serialize] <json> has invalid type "foo".']);
    expect(await statusAndError('<json type="array"><a/></json>', '&method=json')).toEqual([500, '[json:serialize] <a> found, <_> expected.']);
  });

  test('invalid json parameters are 400 [SEPM0016], from the query string and the prolog', async () => {
    expect(await statusAndError('1', '&method=json&json=format=yaml')).toEqual([400, '[SEPM0016] Invalid value for serialization parameter "json": "yaml" is no valid value of option "format".']);
    expect(await statusAndError('1', '&method=json&json=pretty=yes')).toEqual([400, '[SEPM0016] Invalid value for serialization parameter "json": unknown option "pretty".']);
    expect(await statusAndError('1', '&method=json&json=indent=maybe')).toEqual([400, '[SEPM0016] Invalid value for serialization parameter "json": "maybe" is no valid value of option "indent".']);
    const [status, line] = await statusAndError('declare option output:json "format=yaml"; 1');
    expect([status, line]).toEqual([400, '[SEPM0016] Invalid value for serialization parameter "json": "yaml" is no valid value of option "format".']);
  });
});

describe('method=csv', () => {
  test('direct: a stored CSV document, with its header names', async () => {
    const r = await getQuery(s, "doc('db/t.csv')", '', '&method=csv&csv=header=yes').expect(200);
    expect(r.headers['content-type']).toBe('text/csv; charset=UTF-8');
    expect(r.text).toBe('id,name\n1,"Smith, J"\n2,"say ""hi"""\n');
    expect(await body("doc('db/t.csv')", '&method=csv')).toBe('1,"Smith, J"\n2,"say ""hi"""\n');
    expect(await body('<csv><record><entry>a</entry><entry>b</entry></record></csv>', '&method=csv&csv=header=yes')).toBe('entry,entry\na,b\n');
  });

  test('attributes: header names from the name attributes', async () => {
    const q = `csv:parse('x,y\n1,2', map{'format':'attributes','header':true()})`;
    expect(await body(q, '&method=csv&csv=format=attributes,header=yes')).toBe('x,y\n1,2\n');
    expect(await body(q, '&method=csv&csv=header=yes')).toBe('entry,entry\n1,2\n');
  });

  test('xquery and w3 maps', async () => {
    const q = `csv:parse('x,y\n1,2', map{'format':'xquery','header':true()})`;
    expect(await body(q, '&method=csv&csv=header=yes')).toBe('x,y\n1,2\n');
    expect(await body(q, '&method=csv')).toBe('1,2\n');
    expect(await body("map{'columns':('x','y'),'rows':(['1','2'],['3','4'])}", '&method=csv&csv=format=w3,header=yes')).toBe('x,y\n1,2\n3,4\n');
    expect(await body("[['a','b'],['c','d']]", '&method=csv')).toBe('a,b\nc,d\n');
  });

  test('w3-xml: the fn:csv-to-xml vocabulary', async () => {
    const q = `csv:parse('x,y\n1,"a,b"', map{'format':'w3-xml','header':true()})`;
    expect(await body(q, '&method=csv&csv=format=w3-xml,header=yes')).toBe('x,y\n1,"a,b"\n');
    expect(await body(q, '&method=csv')).toBe('1,"a,b"\n');
  });

  test('separator, quotes, backslashes, quote; the standard csv-* parameters win', async () => {
    const q = `<csv><record><a>x;y</a><b>q"r</b></record></csv>`;
    expect(await body(q, '&method=csv&csv=separator=semicolon')).toBe('"x;y";"q""r"\n');
    expect(await body(q, '&method=csv&csv=separator=tab,quotes=no')).toBe('x;y\tq"r\n');
    expect(await body(q, '&method=csv&csv=separator=semicolon,backslashes=yes')).toBe('"x;y";"q\\"r"\n');
    expect(await body(q, `&method=csv&csv=separator=semicolon,quote='`)).toBe(`'x;y';q"r\n`);
    expect(await body(q, '&method=csv&csv=separator=semicolon&csv-separator=|&csv-header=yes')).toBe('a|b\nx;y|"q""r"\n');
    expect(await body(q, '&method=csv&csv=separator=,,')).toBe('x;y,"q""r"\n');
  });

  test('declare option output:csv', async () => {
    expect(await body('declare option output:method "csv"; declare option output:csv "header=yes,separator=semicolon"; <csv><record><a>1</a><b>2</b></record></csv>')).toBe('a;b\n1;2\n');
  });

  test('invalid csv parameters are 400 [SEPM0016]', async () => {
    expect(await statusAndError('1', '&method=csv&csv=separator=ab')).toEqual([400, '[SEPM0016] Invalid value for serialization parameter "csv": "ab" is no valid value of option "separator".']);
    expect(await statusAndError('1', '&method=csv&csv=format=yaml')).toEqual([400, '[SEPM0016] Invalid value for serialization parameter "csv": "yaml" is no valid value of option "format".']);
    expect(await statusAndError('1', '&method=csv&csv=colour=red')).toEqual([400, '[SEPM0016] Invalid value for serialization parameter "csv": unknown option "colour".']);
  });
});

describe('xhtml and html: HTML5 unless html-version says otherwise (BaseX 10 and later)', () => {
  test.each([
    ['&method=xhtml', '<!DOCTYPE html><html></html>'],
    ['&method=html', '<!DOCTYPE html><html></html>'],
    ['&method=xhtml&html-version=5.0', '<!DOCTYPE html><html></html>'],
    ['&method=xhtml&html-version=1.0', '<html></html>'],
    ['&method=html&html-version=4.01', '<html></html>'],
  ])('<html/> with %s', async (params, expected) => {
    expect(await body('<html/>', params)).toBe(expected);
  });

  test('an html-version that is no version number is 400 [SEPM0016]', async () => {
    expect(await statusAndError('<html/>', '&method=html&html-version=five')).toEqual([400, '[SEPM0016] Invalid value for serialization parameter "html-version": "five" is not a version number.']);
  });

  test('the document type declaration is written for an html root only', async () => {
    expect(await body('<p><br/></p>', '&method=xhtml')).toBe('<p><br /></p>');
    expect(await body('<p><br/></p>', '&method=html')).toBe('<p><br></p>');
  });
});

describe('namespaces are kept on every top-level node', () => {
  const RESULT = `<analyze-string-result xmlns="${FN}"><non-match>a</non-match><match>b</match><non-match>c</non-match></analyze-string-result>`;
  test.each([[''], ['&method=xml'], ['&method=adaptive'], ['&method=xhtml&html-version=1.0']])('analyze-string with %s', async (params) => {
    expect(await body('analyze-string("abc", "b")', params)).toBe(RESULT);
  });

  test('a node from inside a tree, one that is copied, and a prefixed one', async () => {
    expect(await body('analyze-string("abc", "b")/*:match', '')).toBe(`<match xmlns="${FN}">b</match>`);
    expect(await body('analyze-string("abc", "(b)")//*:group', '')).toBe(`<group xmlns="${FN}" nr="1">b</group>`);
    expect(await body('<r>{analyze-string("abc", "b")/*:match}</r>', '')).toBe(`<r><match xmlns="${FN}">b</match></r>`);
    expect(await body('<p:a xmlns:p="u" p:x="1"><p:b/></p:a>/*', '')).toBe('<p:b xmlns:p="u"/>');
    expect(await body("doc('db/ns.xml')/*/*", '')).toBe('<p:b xmlns:p="u" xmlns="d" p:x="1"/>\n<c xmlns:p="u" xmlns="d"/>');
    expect(await body(`json-to-xml('[1]')`, '&method=json&json=format=attributes')).toBe(`"<array xmlns=\\"${FN.replace(/\//g, '\\/')}\\"><number>1<\\/number><\\/array>"`);
  });
});

describe('fn:serialize uses the same serializers', () => {
  test('json and csv with BaseX formats, options as a map or an element', async () => {
    expect(await body(`serialize(<json type="object"><a type="number">1</a></json>, map{'method':'json'})`)).toBe('{"a":1}');
    expect(await body(`serialize(<json type="object"><pair name="a">x</pair></json>, map{'method':'json','json':map{'format':'attributes','indent':true()}})`)).toBe('{\n  "a": "x"\n}');
    expect(await body(`serialize(map{'a':[1]}, map{'method':'json','indent':false()})`)).toBe('{"a":[1]}');
    const element = '<output:serialization-parameters xmlns:output="http://www.w3.org/2010/xslt-xquery-serialization"><output:method value="csv"/><output:csv value="header=yes"/></output:serialization-parameters>';
    expect(await body(`serialize(<csv><record><a>1</a></record></csv>, ${element})`)).toBe('a\n1\n');
  });

  test('other methods keep their namespaces', async () => {
    expect(await body(`serialize(analyze-string('abc', 'b')/*:match)`)).toBe(`<match xmlns="${FN}">b</match>`);
    expect(await body(`serialize((1, 2), map{'method':'text','item-separator':'-'})`)).toBe('1-2');
  });

  test('errors: the serializer\'s codes, SEPM0016 for invalid values', async () => {
    expect(await statusAndError(`serialize(<json type="foo"/>, map{'method':'json'})`)).toEqual([500, '[json:serialize] <json> has invalid type "foo".']);
    expect(await statusAndError(`serialize((1, 2), map{'method':'json'})`)).toEqual([500, '[SERE0023] Only one item can be serialized with JSON.']);
    expect(await statusAndError(`serialize(1, map{'method':'json','json':map{'format':'yaml'}})`)).toEqual([500, '[SEPM0016] Invalid value for serialization parameter "json": "yaml" is no valid value of option "format".']);
  });
});

describe('html output (spec §11)', () => {
  test('no newline follows the document type declaration unless indenting', async () => {
    const html = encodeURIComponent('<html><body/></html>');
    expect((await s.get(`/rest?query=${html}&method=html`).expect(200)).text).toBe('<!DOCTYPE html><html><body></body></html>');
    expect((await s.get(`/rest?query=${html}&method=html&omit-xml-declaration=no`).expect(200)).text).toBe('<!DOCTYPE html><html><body></body></html>');
    expect((await s.get(`/rest?query=${html}&method=html&indent=yes`).expect(200)).text).toBe('<!DOCTYPE html>\n<html>\n  <body></body>\n</html>');
  });
});
