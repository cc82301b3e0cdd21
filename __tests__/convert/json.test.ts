import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { failure } from '../helpers/failure';
import { convertJson, type JsonOptions } from '../../lib/convert/json';
import { JSON_MAX_DEPTH } from '../../lib/convert/json-reader';
import { encodeName } from '../../lib/convert/names';
import { parseToStoredXml } from '../../lib/convert/xml';

const SPEC_INPUT = readFileSync(join(__dirname, '../../fixtures/convert/sample.json'), 'utf8');
const FN = 'xmlns="http://www.w3.org/2005/xpath-functions"';

describe('convertJson', () => {
  const cases: [string, string, JsonOptions, string][] = [
    // direct (spec §14.1, byte for byte)
    [
      'direct: spec example',
      SPEC_INPUT,
      {},
      '<json type="object"><name>Ann</name><age type="number">30</age><tags type="array"><_>x</_><_ type="number">1</_></tags><ok type="boolean">true</ok><none type="null"/><my_0020key type="object"/><__id>7</__id><_0031st type="array"/></json>',
    ],
    ['direct: top-level array', '[1,"a"]', {}, '<json type="array"><_ type="number">1</_><_>a</_></json>'],
    ['direct: top-level string', '"s"', {}, '<json>s</json>'],
    ['direct: top-level scalars', ' true ', {}, '<json type="boolean">true</json>'],
    ['direct: null', 'null', {}, '<json type="null"/>'],
    ['direct: empty string', '{"a":""}', {}, '<json type="object"><a/></json>'],
    ['direct: numbers verbatim', '[1.0,-0,1e400,2.50E-3,12345678901234567890]', {}, '<json type="array"><_ type="number">1.0</_><_ type="number">-0</_><_ type="number">1e400</_><_ type="number">2.50E-3</_><_ type="number">12345678901234567890</_></json>'],
    ['direct: escapes', '{"s":"a\\"b\\\\c\\/d\\n\\t\\u00e9\\ud83d\\ude00<&>"}', {}, '<json type="object"><s>a"b\\c/d\n\té\u{1F600}&lt;&amp;&gt;</s></json>'],
    ['direct: characters XML cannot hold become U+FFFD', '["\\u0000\\ud800x"]', {}, '<json type="array"><_>\uFFFD\uFFFDx</_></json>'],
    ['direct: key names', '{"":1,"a b":2,"-x":3,"é":4,"a:b":5,"\\ud83d\\ude00":6,"×":7}', {}, '<json type="object"><_ type="number">1</_><a_0020b type="number">2</a_0020b><_002dx type="number">3</_002dx><é type="number">4</é><a_003ab type="number">5</a_003ab><\u{1F600} type="number">6</\u{1F600}><_00d7 type="number">7</_00d7></json>'],
    ['direct: duplicates retained by default', '{"a":1,"a":2}', {}, '<json type="object"><a type="number">1</a><a type="number">2</a></json>'],
    ['direct: duplicates use-first', '{"a":1,"a":2}', { duplicates: 'use-first' }, '<json type="object"><a type="number">1</a></json>'],
    ['direct: duplicates use-last', '{"a":1,"b":0,"a":2}', { duplicates: 'use-last' }, '<json type="object"><a type="number">2</a><b type="number">0</b></json>'],
    ['direct: lax names', '{"my key":1,"_id":2,"1st":3,"":4}', { lax: true }, '<json type="object"><my_key type="number">1</my_key><_id type="number">2</_id><_1st type="number">3</_1st><_ type="number">4</_></json>'],
    ['direct: strings', '{"a":"x","b":1}', { strings: true }, '<json type="object"><a type="string">x</a><b type="number">1</b></json>'],
    [
      'direct: merge',
      SPEC_INPUT,
      { merge: true },
      '<json arrays="tags _0031st" booleans="ok" nulls="none" numbers="age" objects="json my_0020key"><name>Ann</name><age>30</age><tags><_>x</_><_ type="number">1</_></tags><ok>true</ok><none/><my_0020key/><__id>7</__id><_0031st/></json>',
    ],
    ['direct: merge with strings', '{"a":"x","b":[1,2]}', { merge: true, strings: true }, '<json arrays="b" numbers="_" objects="json" strings="a"><a>x</a><b><_>1</_><_>2</_></b></json>'],
    ['direct: merge, mixed name keeps types', '{"a":1,"b":{"a":"x"}}', { merge: true }, '<json objects="json b"><a type="number">1</a><b><a>x</a></b></json>'],
    // attributes
    [
      'attributes',
      SPEC_INPUT,
      { format: 'attributes' },
      '<json type="object"><pair name="name">Ann</pair><pair name="age" type="number">30</pair><pair name="tags" type="array"><item>x</item><item type="number">1</item></pair><pair name="ok" type="boolean">true</pair><pair name="none" type="null"/><pair name="my key" type="object"/><pair name="_id">7</pair><pair name="1st" type="array"/></json>',
    ],
    ['attributes: strings', '["x"]', { format: 'attributes', strings: true }, '<json type="array"><item type="string">x</item></json>'],
    ['attributes: key needing escapes', '{"a\\"<&":1}', { format: 'attributes' }, '<json type="object"><pair name="a&quot;&lt;&amp;" type="number">1</pair></json>'],
    // jsonml
    ['jsonml', '["ul",{"class":"x","n":1},["li","a"],["li",{},"b",["br"]],"t"]', { format: 'jsonml' }, '<ul class="x" n="1"><li>a</li><li>b<br/></li>t</ul>'],
    ['jsonml: text escaped', '["p","<&>"]', { format: 'jsonml' }, '<p>&lt;&amp;&gt;</p>'],
    // w3-xml (fn:json-to-xml)
    [
      'w3-xml',
      SPEC_INPUT,
      { format: 'w3-xml' },
      `<map ${FN}><string key="name">Ann</string><number key="age">30</number><array key="tags"><string>x</string><number>1</number></array><boolean key="ok">true</boolean><null key="none"/><map key="my key"/><string key="_id">7</string><array key="1st"/></map>`,
    ],
    ['w3-xml: scalar root', '1.50', { format: 'w3-xml' }, `<number ${FN}>1.50</number>`],
    ['w3-xml: escape', '{"a\\\\b":"x\\u0001\\ny","c":"plain"}', { format: 'w3-xml', escape: true }, `<map ${FN}><string key="a\\\\b" escaped-key="true" escaped="true">x\\u0001\\ny</string><string key="c">plain</string></map>`],
    // liberal
    ['liberal: comments, trailing commas, quotes, bare keys', "// c\n{a: 'x', /* c */ \"b\": [+1, 01, .5,],}", { liberal: true }, '<json type="object"><a>x</a><b type="array"><_ type="number">+1</_><_ type="number">01</_><_ type="number">.5</_></b></json>'],
  ];
  it.each(cases)('%s', (_name, input, options, xml) => {
    const r = convertJson(input, options);
    expect(r.xml).toBe(xml);
    // the node count agrees with the XML parser's count of the same text
    expect(parseToStoredXml(r.xml)).toEqual(r);
  });

  it('spec example node count', () => {
    expect(convertJson(SPEC_INPUT).nodes).toBe(26);
  });
});

describe('convertJson: invalid JSON is a 400', () => {
  const cases: [string, string, JsonOptions, string, string][] = [
    ['empty input', '', {}, 'JSON_EOF', '(Line 1, Column 1): Unexpected end of input.'],
    ['trailing comma', '{"a":1,}', {}, 'JSON_UNEXPECTED_X', "(Line 1, Column 8): Unexpected '}'."],
    ['single quotes', "['a']", {}, 'JSON_UNEXPECTED_X', "(Line 1, Column 2): Unexpected '''."],
    ['bare key', '{a:1}', {}, 'JSON_UNEXPECTED_X', "(Line 1, Column 2): Unexpected 'a'."],
    ['leading zero', '[01]', {}, 'JSON_NUMBER_X', '(Line 1, Column 2): Invalid number "01".'],
    ['trailing dot', '[1.]', {}, 'JSON_NUMBER_X', '(Line 1, Column 2): Invalid number "1.".'],
    ['plus sign', '[+1]', {}, 'JSON_UNEXPECTED_X', "(Line 1, Column 2): Unexpected '+'."],
    ['NaN', '[NaN]', {}, 'JSON_UNEXPECTED_X', "(Line 1, Column 2): Unexpected 'N'."],
    ['unterminated string', '["abc', {}, 'JSON_EOF', '(Line 1, Column 6): Unexpected end of input.'],
    ['unterminated array', '[1,\n2', {}, 'JSON_EOF', '(Line 2, Column 2): Unexpected end of input.'],
    ['bad escape', '["\\x"]', {}, 'JSON_ESCAPE_X', '(Line 1, Column 3): Invalid escape sequence "\\x".'],
    ['bad unicode escape', '["\\u12G4"]', {}, 'JSON_ESCAPE_X', '(Line 1, Column 3): Invalid escape sequence "\\u12G4".'],
    ['control character', '["a\tb"]', {}, 'JSON_CONTROL_X', '(Line 1, Column 4): Unescaped control character (Unicode: 0x9).'],
    ['two values', '1 2', {}, 'JSON_UNEXPECTED_X', "(Line 1, Column 3): Unexpected '2'."],
    ['comment', '[1 // x\n]', {}, 'JSON_UNEXPECTED_X', "(Line 1, Column 4): Unexpected '/'."],
    ['duplicates reject', '{"a":1,\n "a":2}', { duplicates: 'reject' }, 'JSON_DUPLICATE_X', '(Line 2, Column 2): Duplicate key "a".'],
    ['jsonml: not an element', '{"a":1}', { format: 'jsonml' }, 'JSON_JSONML_X', 'Invalid JsonML: an element must be an array starting with its name.'],
    ['jsonml: bad name', '["1a"]', { format: 'jsonml' }, 'JSON_JSONML_X', 'Invalid JsonML: invalid element name "1a".'],
    ['jsonml: bad attribute', '["a",{"x y":"1"}]', { format: 'jsonml' }, 'JSON_JSONML_X', 'Invalid JsonML: invalid attribute name "x y".'],
    ['jsonml: structured attribute', '["a",{"x":[1]}]', { format: 'jsonml' }, 'JSON_JSONML_X', 'Invalid JsonML: attribute "x" has a structured value.'],
    ['jsonml: number child', '["a",1]', { format: 'jsonml' }, 'JSON_JSONML_X', 'Invalid JsonML: a child must be a string or an element, not a number.'],
  ];
  it.each(cases)('%s', (_name, input, options, code, message) => {
    expect(failure(() => convertJson(input, options))).toEqual({ status: 400, code, message });
  });

  it('names the resource', () => {
    expect(failure(() => convertJson('[', { name: 'a.json' })).message).toBe('"a.json" (Line 1, Column 2): Unexpected end of input.');
  });

  it('refuses nesting deeper than the limit, accepts it at the limit', () => {
    const nested = (n: number): string => '['.repeat(n) + ']'.repeat(n);
    expect(convertJson(nested(JSON_MAX_DEPTH)).nodes).toBe(JSON_MAX_DEPTH * 2 + 1);
    expect(failure(() => convertJson(nested(JSON_MAX_DEPTH + 1)))).toMatchObject({ status: 400, code: 'JSON_DEPTH_X' });
  });
});

describe('encodeName', () => {
  const cases: [string, boolean, string][] = [
    ['name', false, 'name'],
    ['', false, '_'],
    ['_', false, '__'],
    ['a_b', false, 'a__b'],
    ['my key', false, 'my_0020key'],
    ['1st', false, '_0031st'],
    ['a1', false, 'a1'],
    ['-a', false, '_002da'],
    ['a-b.c', false, 'a-b.c'],
    ['', true, '_'],
    ['first name', true, 'first_name'],
    ['1st', true, '_1st'],
    ['-a', true, '_-a'],
    ['.a', true, '_.a'],
    [' a', true, '_a'],
    ['a:b', true, 'a_b'],
  ];
  it.each(cases)('%j (lax %s) → %s', (input, lax, name) => {
    expect(encodeName(input, lax)).toBe(name);
  });
});
