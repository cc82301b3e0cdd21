import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { convertCsv, separatorChar, type CsvOptions } from '../../lib/convert/csv';
import { parseToStoredXml } from '../../lib/convert/xml';
import { failure } from '../helpers/failure';

const SPEC_INPUT = 'name,age\n"Smith, J",41\n"say ""hi""",\n';
const FN = 'xmlns="http://www.w3.org/2005/xpath-functions"';

describe('convertCsv', () => {
  const cases: [string, string, CsvOptions, string][] = [
    [
      'direct: spec example',
      SPEC_INPUT,
      {},
      '<csv><record><entry>name</entry><entry>age</entry></record><record><entry>Smith, J</entry><entry>41</entry></record><record><entry>say "hi"</entry><entry/></record></csv>',
    ],
    [
      'direct: CR LF fixture, same result',
      readFileSync(join(__dirname, '../../fixtures/convert/sample.csv'), 'utf8'),
      {},
      '<csv><record><entry>name</entry><entry>age</entry></record><record><entry>Smith, J</entry><entry>41</entry></record><record><entry>say "hi"</entry><entry/></record></csv>',
    ],
    ['empty input', '', {}, '<csv/>'],
    ['no trailing newline', 'a,b', {}, '<csv><record><entry>a</entry><entry>b</entry></record></csv>'],
    ['blank line in the middle', 'a\n\nb\n', {}, '<csv><record><entry>a</entry></record><record/><record><entry>b</entry></record></csv>'],
    ['quoted empty field is not a blank line', 'a\n""\n', {}, '<csv><record><entry>a</entry></record><record><entry/></record></csv>'],
    ['newline inside quotes', 'a,"b\nc"\n', {}, '<csv><record><entry>a</entry><entry>b\nc</entry></record></csv>'],
    ['no trimming', ' a , b \n', {}, '<csv><record><entry> a </entry><entry> b </entry></record></csv>'],
    ['quote inside an unquoted field is literal', 'a"b,c\n', {}, '<csv><record><entry>a"b</entry><entry>c</entry></record></csv>'],
    ['ragged rows', 'a,b,c\nd\n', {}, '<csv><record><entry>a</entry><entry>b</entry><entry>c</entry></record><record><entry>d</entry></record></csv>'],
    ['markup escaped', '<a>,&\n', {}, '<csv><record><entry>&lt;a&gt;</entry><entry>&amp;</entry></record></csv>'],
    ['header', SPEC_INPUT, { header: true }, '<csv><record><name>Smith, J</name><age>41</age></record><record><name>say "hi"</name><age/></record></csv>'],
    ['header: name rewriting and extra fields', 'first name,2nd,-x,.y,,a:b\n1,2,3,4,5,6,7\n', { header: true }, '<csv><record><first_name>1</first_name><_2nd>2</_2nd><_-x>3</_-x><_.y>4</_.y><_>5</_><a_b>6</a_b><entry>7</entry></record></csv>'],
    ['header: lossless names with lax=false', 'first name,_\n1,2\n', { header: true, lax: false }, '<csv><record><first_0020name>1</first_0020name><__>2</__></record></csv>'],
    ['header only', 'a,b\n', { header: true }, '<csv/>'],
    ['separator ;', 'a;b,c\n', { separator: ';' }, '<csv><record><entry>a</entry><entry>b,c</entry></record></csv>'],
    ['separator tab', 'a\tb\n', { separator: '\t' }, '<csv><record><entry>a</entry><entry>b</entry></record></csv>'],
    ['quotes=false', '"a,b",c\n', { quotes: false }, '<csv><record><entry>"a</entry><entry>b"</entry><entry>c</entry></record></csv>'],
    ['backslashes', '"a\\"b",c\n', { backslashes: true }, '<csv><record><entry>a"b</entry><entry>c</entry></record></csv>'],
    ['trim-whitespace', ' a , b \n', { trimWhitespace: true }, '<csv><record><entry>a</entry><entry>b</entry></record></csv>'],
    ['skip-empty', 'a,,c\n', { skipEmpty: true }, '<csv><record><entry>a</entry><entry>c</entry></record></csv>'],
    ['skip-empty with header keeps columns aligned', 'x,y,z\n1,,3\n', { header: true, skipEmpty: true }, '<csv><record><x>1</x><z>3</z></record></csv>'],
    ['attributes without header', 'a,b\n', { format: 'attributes' }, '<csv><record><entry>a</entry><entry>b</entry></record></csv>'],
    ['attributes with header', SPEC_INPUT, { format: 'attributes', header: true }, '<csv><record><entry name="name">Smith, J</entry><entry name="age">41</entry></record><record><entry name="name">say "hi"</entry><entry name="age"/></record></csv>'],
    ['w3-xml with header', 'name,age\nAnn,30\n\n', { format: 'w3-xml', header: true }, `<csv ${FN}><columns><column>name</column><column>age</column></columns><rows><row><field column="name">Ann</field><field column="age">30</field></row><row/></rows></csv>`],
    ['w3-xml without header', 'a,b\n', { format: 'w3-xml' }, `<csv ${FN}><rows><row><field>a</field><field>b</field></row></rows></csv>`],
    ['text after a closing quote is kept', '"a"b,c\n', {}, '<csv><record><entry>"a"b</entry><entry>c</entry></record></csv>'],
    ['mixed line ends', 'a\r\n"b\r\nc"\rd\n\r\ne', {}, '<csv><record><entry>a</entry></record><record><entry>b\nc</entry></record><record><entry>d</entry></record><record/><record><entry>e</entry></record></csv>'],
    ['characters XML cannot hold', 'a\u0001b\n', {}, '<csv><record><entry>a\uFFFDb</entry></record></csv>'],
  ];
  it.each(cases)('%s', (_name, input, options, xml) => {
    const r = convertCsv(input, options);
    expect(r.xml).toBe(xml);
    expect(parseToStoredXml(r.xml)).toEqual(r);
  });

  it('spec example node count', () => {
    expect(convertCsv(SPEC_INPUT).nodes).toBe(16);
  });
});

describe('convertCsv: unreadable input is a 400', () => {
  it('unclosed quote', () => {
    expect(failure(() => convertCsv('a\n"b,c\n', { name: 'x.csv' }))).toEqual({
      status: 400,
      code: 'CSV_QUOTE',
      message: '"x.csv" (Line 2): Quote not closed before the end of the input.',
    });
  });
  it('a doubled quote at the end leaves the quote open', () => {
    expect(failure(() => convertCsv('"a""\n'))).toMatchObject({ status: 400, code: 'CSV_QUOTE' });
  });
});

describe('separatorChar', () => {
  const cases: [string, string | undefined][] = [
    ['comma', ','],
    ['semicolon', ';'],
    ['colon', ':'],
    ['tab', '\t'],
    ['space', ' '],
    ['TAB', '\t'],
    ['|', '|'],
    ['ab', undefined],
    ['"', undefined],
    ['', undefined],
  ];
  it.each(cases)('%j → %j', (value, char) => {
    expect(separatorChar(value)).toBe(char);
  });
});
