/**
 * The util:, string: and bin: modules (functions/util.ts, string.ts, bin.ts) hand the query XDM
 * values only: a map, an array or a function where a value is expected is the error XQuery
 * defines (atomization, FOTY0013; a type error, XPTY0004), never a JavaScript object turned into
 * text; nothing a function answers names the host (no path, no source, no stack), and nothing
 * reaches the log.
 */
import { getQuery, startTestServer, type TestServer } from '../helpers/rest';

let s: TestServer;
const logged: string[] = [];
beforeAll(async () => {
  s = await startTestServer({ workers: 1, log: (line) => logged.push(line) });
  await s.get('/rest?query=1').expect(200);
  logged.length = 0;
});
afterAll(() => s.close());

/** The status and body of a query, checked to name nothing of the host and to leave the log empty. */
async function answer(query: string): Promise<[number, string]> {
  const r = await getQuery(s, query);
  expect(r.text).not.toMatch(/\[object |function \(|=>|node_modules|\.js\b|\.ts\b|\bat [\w.]+ \(|process|require/);
  expect(logged).toEqual([]);
  return [r.status, r.text];
}

const error = (code: string, message: string): [number, string] => [500, `Stopped at ., 1/1:\n[${code}] ${message}`];

describe('util:', () => {
  test('maps, arrays and functions where values are expected are XQuery errors', async () => {
    expect(await answer('util:count-within(1, map { })')).toEqual(error('FOTY0013', 'Cannot atomize a map'));
    expect(await answer('util:range(1, sum#1, 2)')).toEqual(error('FOTY0013', 'Cannot atomize a function'));
    expect(await answer("util:root(map { 'a': 1 })")).toEqual(error('XPTY0004', 'Required type of first argument of root() is node(): actual type is map(*)'));
    expect(await answer('util:strip-namespaces([1])')).toEqual(error('XPTY0004', 'Required type of first argument of strip-namespaces() is node(): actual type is array(xs:integer)'));
    for (const call of ['util:if', 'util:if#2']) expect(await answer(`${call}(map { }, 1)`)).toEqual(error('FORG0006', 'Effective boolean value is not defined for maps'));
  });

  test('its results are XDM values', async () => {
    expect(await answer('util:array-member(sum#1)?1((1, 2)), util:if#3(1, map { }, 2) instance of map(*), util:range([1, 2], 1, 1) instance of array(*)')).toEqual([200, '3\ntrue\ntrue']);
  });
});

describe('string:', () => {
  test('maps, arrays and functions where values are expected are XQuery errors', async () => {
    expect(await answer("string:format('%s', map { 'constructor': 1 })")).toEqual(error('XPTY0004', 'string:format: value 1 is a function item, which has no Java form.'));
    expect(await answer("string:format('%s', string:soundex#1)")).toEqual(error('XPTY0004', 'string:format: value 1 is a function item, which has no Java form.'));
    expect(await answer("string:format('%s', [1])")).toEqual(error('XPTY0004', 'string:format: value 1 is a function item, which has no Java form.'));
    expect(await answer('string:soundex(map { })')).toEqual(error('FOTY0013', 'Cannot atomize a map'));
    expect(await answer("string:levenshtein('a', sum#1)")).toEqual(error('FOTY0013', 'Cannot atomize a function'));
  });

  test('format prints values, never the objects behind them', async () => {
    expect(await answer("string:format('%s|%s|%s|%s', <a>x</a>, xs:date('2026-01-02'), xs:QName('xs:a'), attribute b { 'y' })")).toEqual([200, 'x|2026-01-02|xs:a|y']);
    expect(await answer("string:format('%tY', xs:date('2026-01-02'))")).toEqual(error('string:format', 'IllegalFormatConversionException: Y != xs:date.'));
  });
});

describe('bin:', () => {
  test('maps, arrays and functions where binaries are expected are XQuery errors', async () => {
    expect(await answer('bin:length(map { })')).toEqual(error('FOTY0013', 'Cannot atomize a map'));
    expect(await answer('bin:length(bin:hex#1)')).toEqual(error('FOTY0013', 'Cannot atomize a function'));
    expect(await answer("bin:part(bin:hex('01'), map { })")).toEqual(error('FOTY0013', 'Cannot atomize a map'));
    expect(await answer('bin:join([1])')).toEqual(error('XPTY0004', 'bin:join: xs:base64Binary or xs:hexBinary expected, found xs:integer.'));
    expect(await answer("bin:decode-string(bin:hex('41'), '__proto__')")).toEqual(error('bin:unknown-encoding', "Unknown encoding '__proto__'."));
  });

  test('its results are xs:base64Binary values', async () => {
    expect(await answer("bin:hex('01') instance of xs:base64Binary, bin:to-octets(bin:not(bin:hex('00'))) instance of xs:integer, bin:decode-string(bin:hex('41')) instance of xs:string")).toEqual([200, 'true\ntrue\ntrue']);
  });
});
