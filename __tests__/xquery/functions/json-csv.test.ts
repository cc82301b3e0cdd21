/**
 * BaseX's json: and csv: modules over REST (functions/json.ts, functions/csv.ts): the formats, round
 * trips, errors with BaseX's codes, and json:doc/csv:doc under the file-access rule.
 */
import fs from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { failureBody, queryBody, seedUsers, startTestServer, tempDir, type TestServer } from '../../helpers/rest';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ workers: 1 });
  await s.get('/rest?query=1').expect(200); // the worker is up before the first test's time limit counts
  await s.put('/rest/files').expect(201);
  await s.put('/rest/files/data.json', Buffer.from('{"name":"größe","n":[1,2.50]}'), 'application/octet-stream').expect(201);
  await s.put('/rest/files/data.csv', Buffer.from('id;名前\n1;a\n2;b\n'), 'application/octet-stream').expect(201);
});
afterAll(() => s.close());

const ok = (query: string) => queryBody(s, query);
/** The `[CODE] message` line of a query that must fail with 500. */
/** The `[CODE] message` line of a query that must fail with 500. */
const fails = async (query: string) => (await failureBody(s, query)).split('\n').pop();

const JSON_TEXT = `'{"a":[1,"x",true,null,{}],"b_c":"","d":1.50}'`;

describe('json:parse', () => {
  test('direct (default): a document with typed elements; keys become element names', async () => {
    expect(await ok(`json:parse(${JSON_TEXT})`)).toBe(
      '<json type="object"><a type="array"><_ type="number">1</_><_>x</_><_ type="boolean">true</_><_ type="null"/><_ type="object"/></a><b__c/><d type="number">1.50</d></json>',
    );
    expect(await ok(`json:parse(${JSON_TEXT}) instance of document-node(), json:parse(${JSON_TEXT})/json/d/text(), json:parse('{"größe":1}')/json/größe => string()`)).toBe('true\n1.50\n1');
    expect(await ok(`json:parse('{"a":[1]}', map { 'merge': true() })`)).toBe('<json arrays="a" numbers="_" objects="json"><a><_>1</_></a></json>');
  });

  test('attributes, basic and jsonml', async () => {
    expect(await ok(`json:parse('{"a":[1,"x"]}', map { 'format': 'attributes' })`)).toBe('<json type="object"><pair name="a" type="array"><item type="number">1</item><item>x</item></pair></json>');
    expect(await ok(`json:parse('{"a":[1,"x"]}', map { 'format': 'basic' })`)).toBe(
      '<map xmlns="http://www.w3.org/2005/xpath-functions"><array key="a"><number>1</number><string>x</string></array></map>',
    );
    expect(await ok(`json:parse('["a",{"b":"c"},"d",["e"]]', map { 'format': 'jsonml' })`)).toBe('<a b="c">d<e/></a>');
    expect(await ok(`json:parse('["a\\\\b"]', map { 'format': 'basic', 'escape': true() })/*/*/@escaped/string()`)).toBe('true');
  });

  test('xquery: maps, arrays, doubles, booleans, and () for null; a repeated key keeps its first value', async () => {
    expect(await ok(`json:parse(${JSON_TEXT}, map { 'format': 'xquery' })`)).toBe('map{"a":[1.0e0,"x",true(),(),map{}],"b_c":"","d":1.5e0}');
    expect(await ok(`json:parse('{"a":1,"a":2}', map { 'format': 'xquery' })?a, json:parse('[1]', map { 'format': 'xquery' })?1 instance of xs:double`)).toBe('1\ntrue');
  });

  test('the empty sequence gives the empty sequence; liberal JSON needs the option', async () => {
    expect(await ok('count(json:parse(()))')).toBe('0');
    expect(await ok(`json:parse("{a:1,}", map { 'liberal': true(), 'format': 'xquery' })?a`)).toBe('1');
    expect(await fails(`json:parse("{a:1}")`)).toBe("[json:parse] (Line 1, Column 2): Unexpected 'a'.");
  });

  test('invalid JSON is json:parse; unknown options and values are XPTY0004', async () => {
    expect(await fails(`json:parse('[1,')`)).toBe('[json:parse] (Line 1, Column 4): Unexpected end of input.');
    expect(await fails(`json:parse('{}', map { 'foo': 1 })`)).toBe("[XPTY0004] Unknown option 'foo'.");
    expect(await fails(`json:parse('{}', map { 'format': 'bla' })`)).toBe(
      "[XPTY0004] Invalid 'format' value 'bla'; must be one of: direct,attributes,basic,jsonml,xquery.",
    );
    expect(await fails(`json:parse('{}', map { 'liberal': 'maybe' })`)).toBe("[XPTY0004] Option 'liberal' must be a boolean: 'maybe'.");
  });
});

describe('json:serialize', () => {
  test('round trips in every format give the JSON back', async () => {
    for (const format of ['direct', 'attributes', 'basic', 'xquery']) {
      const q = `json:serialize(json:parse(${JSON_TEXT}, map { 'format': '${format}' }), map { 'format': '${format}' })`;
      expect([format, await ok(q)]).toEqual([format, format === 'xquery' ? '{"a":[1,"x",true,null,{}],"b_c":"","d":1.5}' : '{"a":[1,"x",true,null,{}],"b_c":"","d":1.50}']);
    }
    expect(await ok(`json:serialize(json:parse('{"a":[1]}', map { 'merge': true() }))`)).toBe('{"a":[1]}');
    expect(await ok(`json:serialize(json:parse('["a",{"b":"c"},"d"]', map { 'format': 'jsonml' }), map { 'format': 'jsonml' })`)).toBe('["a",{"b":"c"},"d"]');
    expect(await ok(`let $x := json:parse('{"größe":"名前"}') return json:parse(json:serialize($x))/json/größe/string()`)).toBe('名前');
  });

  test('indent writes one member per line', async () => {
    expect(await ok(`json:serialize(json:parse('{"a":[1,{}],"b":{"c":null}}'), map { 'indent': true() })`)).toBe(
      '{\n  "a": [\n    1,\n    {}\n  ],\n  "b": {\n    "c": null\n  }\n}',
    );
  });

  test('maps, arrays, atomic values and other XML go through the json output method', async () => {
    expect(await ok(`json:serialize(map { 'a': '</x>', 'b': [1, true()] })`)).toBe('{"a":"<\\/x>","b":[1,true]}');
    expect(await ok('json:serialize(<x/>), json:serialize(())')).toBe('"<x\\/>"\nnull');
  });

  test('XML that breaks its format is json:serialize', async () => {
    expect(await fails(`json:serialize(<json type='foo'/>)`)).toBe('[json:serialize] <json> has invalid type "foo".');
    expect(await fails(`json:serialize(<json><a type='number'>x</a></json>)`)).toBe('[json:serialize] <json> is typed as "string" and cannot be nested.');
    expect(await fails(`json:serialize(<json type='array'><a/></json>)`)).toBe('[json:serialize] <a> found, <_> expected.');
    expect(await fails(`json:serialize(<json type='number'>one</json>)`)).toBe('[json:serialize] Value of <json> is no number: "one".');
    expect(await fails('json:serialize((1, 2))')).toBe('[XPTY0004] json:serialize: at most one item expected.');
  });
});

const CSV_TEXT = `'a,b&#10;1,2&#10;3,"x,y"'`;

describe('csv:parse and csv:serialize', () => {
  test('direct, attributes and xquery formats, with and without a header', async () => {
    expect(await ok(`csv:parse(${CSV_TEXT})`)).toBe(
      '<csv><record><entry>a</entry><entry>b</entry></record><record><entry>1</entry><entry>2</entry></record><record><entry>3</entry><entry>x,y</entry></record></csv>',
    );
    expect(await ok(`csv:parse(${CSV_TEXT}, map { 'header': true() })`)).toBe('<csv><record><a>1</a><b>2</b></record><record><a>3</a><b>x,y</b></record></csv>');
    expect(await ok(`csv:parse(${CSV_TEXT}, map { 'header': true(), 'format': 'attributes' })`)).toBe(
      '<csv><record><entry name="a">1</entry><entry name="b">2</entry></record><record><entry name="a">3</entry><entry name="b">x,y</entry></record></csv>',
    );
    expect(await ok(`csv:parse(${CSV_TEXT}, map { 'header': true(), 'format': 'xquery' })`)).toBe('map{"records":(["1","2"],["3","x,y"]),"names":["a","b"]}');
    expect(await ok(`csv:parse('x;y', map { 'separator': 'semicolon', 'format': 'xquery' })?records?2`)).toBe('y');
  });

  test('round trips in every format give the CSV back', async () => {
    for (const format of ['direct', 'attributes', 'xquery']) {
      const options = `map { 'header': true(), 'format': '${format}' }`;
      expect([format, await ok(`csv:serialize(csv:parse(${CSV_TEXT}, ${options}), ${options})`)]).toEqual([format, 'a,b\n1,2\n3,"x,y"\n']);
    }
    expect(await ok(`csv:serialize(csv:parse('a;b', map { 'separator': 'semicolon' }), map { 'separator': 'tab' })`)).toBe('a\tb\n');
    expect(await ok(`csv:serialize(csv:parse('a,"b""c"'), map { 'quotes': false() })`)).toBe('a,b"c\n');
  });

  test('unreadable CSV is csv:parse; a bad separator or format is XPTY0004', async () => {
    expect(await fails(`csv:parse('a,"b')`)).toBe('[csv:parse] (Line 1): Quote not closed before the end of the input.');
    expect(await fails(`csv:parse('a', map { 'format': 'bla' })`)).toBe("[XPTY0004] Invalid 'format' value 'bla'; must be one of: direct,attributes,w3-xml,xquery.");
    expect(await fails(`csv:parse('a', map { 'separator': 'ab' })`)).toBe("[XPTY0004] Invalid separator: 'ab'.");
  });
});

describe('json:doc and csv:doc', () => {
  test('read stored resources by database path', async () => {
    expect(await ok(`json:doc('files/data.json')/json/name/string(), json:doc('/files/data.json', map { 'format': 'xquery' })?n?2`)).toBe('größe\n2.5');
    expect(await ok(`csv:doc('files/data.csv', map { 'separator': ';', 'header': true() })`)).toBe('<csv><record><id>1</id><名前>a</名前></record><record><id>2</id><名前>b</名前></record></csv>');
    expect(await fails(`json:doc('files/missing.json')`)).toBe("[FODC0002] Resource 'files/missing.json' does not exist.");
  });

  test('without file access, host files are refused', async () => {
    expect(await fails(`json:doc('file:///etc/passwd')`)).toBe("[FODC0002] Access to 'file:///etc/passwd' is denied.");
    expect(await fails(`csv:doc('file:///etc/passwd')`)).toBe("[FODC0002] Access to 'file:///etc/passwd' is denied.");
  });

  test('with allowFileAccess, an admin reads host files and a read user is refused', async () => {
    const dbPath = tempDir();
    await seedUsers(dbPath, [
      { name: 'admin', password: 'admin-pw', perm: 'admin' },
      { name: 'reader', password: 'pw', perm: 'read' },
    ]);
    const open = await startTestServer({ dbPath, workers: 1, allowFileAccess: true });
    const folder = tempDir('xmldb-host-');
    const file = path.join(folder, 'host.json');
    fs.writeFileSync(file, '{"secret":"host"}');
    try {
      const query = `/rest?query=${encodeURIComponent(`json:doc('file://${file}')/json/secret/string()`)}`;
      expect((await request(open.app).get(query).auth('admin', 'admin-pw').expect(200)).text).toBe('host');
      const refused = await request(open.app).get(query).auth('reader', 'pw').expect(500);
      expect(refused.text.split('\n').pop()).toBe(`[FODC0002] Access to 'file://${file}' is denied.`);
    } finally {
      await open.close();
      fs.rmSync(folder, { recursive: true, force: true });
    }
  });
});
