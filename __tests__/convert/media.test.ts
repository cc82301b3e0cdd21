import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { XmldbError } from '../../lib/xmldb-error';
import { convertBody, convertInput, decodeText, inputKind, parseMediaType } from '../../lib/convert';
import { OFFLOAD_BYTES } from '../../lib/threads/offload';

const fixture = (name: string): Buffer => readFileSync(join(__dirname, '../../fixtures/convert', name));
const utf8 = (s: string): Buffer => Buffer.from(s, 'utf8');

describe('inputKind (spec §8.1)', () => {
  const cases: [string | undefined, string][] = [
    [undefined, 'xml'],
    ['', 'xml'],
    ['*/*', 'xml'],
    ['application/xml', 'xml'],
    ['TEXT/XML; charset=UTF-8', 'xml'],
    ['image/svg+xml', 'xml'],
    ['application/xhtml+xml', 'xml'],
    ['application/xml-external-parsed-entity', 'xml'],
    ['text/xml-external-parsed-entity', 'xml'],
    ['application/json', 'json'],
    ['Application/JSON; format=attributes', 'json'],
    ['application/ld+json', 'json'],
    ['text/csv', 'csv'],
    ['application/csv', 'csv'],
    ['text/comma-separated-values', 'csv'],
    ['text/html', 'html'],
    ['text/plain', 'binary'],
    ['application/octet-stream', 'binary'],
    ['image/png', 'binary'],
    ['application/xhtml', 'binary'],
    ['nonsense', 'binary'],
  ];
  it.each(cases)('%j → %s', (header, kind) => {
    expect(inputKind(parseMediaType(header).type)).toBe(kind);
  });
});

describe('parseMediaType', () => {
  it('lower-cases type and parameter names, unquotes values, skips malformed parameters', () => {
    const m = parseMediaType(' Text/CSV ; Header=true;bogus; separator="\\;" ; charset=ISO-8859-1');
    expect(m.type).toBe('text/csv');
    expect([...m.params]).toEqual([
      ['header', 'true'],
      ['separator', ';'],
      ['charset', 'ISO-8859-1'],
    ]);
  });
});

describe('convertInput', () => {
  const cases: [string, Buffer, string | undefined, object, { data: string; nodes: number; suffix: string }][] = [
    ['no content type: XML', utf8('<a x="1"><b/>t</a>'), undefined, {}, { data: '<a x="1"><b/>t</a>', nodes: 5, suffix: 'xml' }],
    ['XML with stripws', utf8('<a>\n <b>x</b>\n</a>'), 'application/xml', { stripws: true }, { data: '<a><b>x</b></a>', nodes: 4, suffix: 'xml' }],
    ['XML with stripns', utf8('<p:a xmlns:p="u"/>'), 'text/xml', { stripns: true }, { data: '<a/>', nodes: 2, suffix: 'xml' }],
    ['XML: UTF-8 BOM removed', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), utf8('<a>é</a>')]), 'application/xml', {}, { data: '<a>é</a>', nodes: 3, suffix: 'xml' }],
    ['XML: UTF-16 with BOM', fixture('utf16.xml'), 'application/xml', {}, { data: '<a>é€</a>', nodes: 3, suffix: 'xml' }],
    ['XML: encoding declaration', fixture('latin1.xml'), 'application/xml', {}, { data: '<a>café</a>', nodes: 3, suffix: 'xml' }],
    ['XML: charset parameter wins', Buffer.from('<a>caf\xe9</a>', 'latin1'), 'application/xml; charset=iso-8859-1', {}, { data: '<a>café</a>', nodes: 3, suffix: 'xml' }],
    ['XML: unknown charset ignored', utf8('<a>é</a>'), 'application/xml; charset=x-bogus', {}, { data: '<a>é</a>', nodes: 3, suffix: 'xml' }],
    ['JSON default format', utf8('{"a":1}'), 'application/json', {}, { data: '<json type="object"><a type="number">1</a></json>', nodes: 6, suffix: 'json' }],
    ['JSON parameters', utf8('{"a":"x"}'), 'application/json; format=attributes; strings=true', {}, { data: '<json type="object"><pair name="a" type="string">x</pair></json>', nodes: 7, suffix: 'json' }],
    ['JSON invalid parameters ignored', utf8('{"a":1}'), 'application/json; format=yaml; merge=maybe; foo=bar', {}, { data: '<json type="object"><a type="number">1</a></json>', nodes: 6, suffix: 'json' }],
    ['JSON with BOM and encoding parameter', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), utf8('"é"')]), 'application/json; encoding=utf-8', {}, { data: '<json>é</json>', nodes: 3, suffix: 'json' }],
    ['JSON stripws does not apply', utf8('[" "]'), 'application/json', { stripws: true }, { data: '<json type="array"><_> </_></json>', nodes: 5, suffix: 'json' }],
    ['CSV', utf8('a,b\n'), 'text/csv', {}, { data: '<csv><record><entry>a</entry><entry>b</entry></record></csv>', nodes: 7, suffix: 'csv' }],
    ['CSV parameters', utf8('x;y\n1;2\n'), 'text/csv; header=yes; separator=semicolon', {}, { data: '<csv><record><x>1</x><y>2</y></record></csv>', nodes: 7, suffix: 'csv' }],
    ['CSV invalid separator ignored', utf8('a;b\n'), 'text/csv; separator=semi', {}, { data: '<csv><record><entry>a;b</entry></record></csv>', nodes: 5, suffix: 'csv' }],
    ['CSV Windows-1252', Buffer.from([0xe9, 0x2c, 0x61]), 'text/csv; charset=windows-1252', {}, { data: '<csv><record><entry>é</entry><entry>a</entry></record></csv>', nodes: 7, suffix: 'csv' }],
    ['HTML', utf8('<p>x'), 'text/html; charset=utf-8', {}, { data: '<html><head/><body><p>x</p></body></html>', nodes: 6, suffix: 'html' }],
  ];
  it.each(cases)('%s', (_name, body, contentType, options, expected) => {
    expect(convertInput(body, contentType, options)).toEqual({ type: 'xml', ...expected });
  });

  it.each(['text/plain', 'application/octet-stream', 'image/png', 'text/plain; charset=utf-8'])('%s is stored as bytes, unchanged', (type) => {
    const body = Buffer.from([0x3c, 0x61, 0x2f, 0x3e, 0xff]);
    const r = convertInput(body, type);
    expect(r).toEqual({ type: 'binary', data: body, suffix: undefined });
  });

  const failures: [string, Buffer, string | undefined, string][] = [
    ['non-XML without content type', utf8('hello'), undefined, 'XML_PROLOG'],
    ['JSON sent as XML', utf8('{"a":1}'), 'application/xml', 'XML_PROLOG'],
    ['invalid JSON', utf8('{"a":}'), 'application/json', 'JSON_UNEXPECTED_X'],
    ['invalid CSV', utf8('"a'), 'text/csv', 'CSV_QUOTE'],
    ['invalid UTF-8', Buffer.from([0x3c, 0x61, 0x3e, 0xff, 0x3c, 0x2f, 0x61, 0x3e]), 'application/xml', 'INPUT_ENCODING_X'],
    ['empty XML body', Buffer.alloc(0), 'application/xml', 'XML_NO_ROOT'],
    ['XXE through convertInput', fixture('xxe-file.xml'), 'application/xml', 'XML_EXTERNAL_ENTITY_X'],
  ];
  it.each(failures)('%s → 400', (_name, body, contentType, code) => {
    let error: unknown;
    try {
      convertInput(body, contentType, { name: 'r' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(XmldbError);
    expect(error).toMatchObject({ status: 400, code });
  });

  it('names the resource in messages', () => {
    expect(() => convertInput(utf8('<a>'), 'application/xml', { name: 'db/a.xml' })).toThrow(
      '"db/a.xml" (Line 1, Column 4): XML document structures must start and end within the same entity.',
    );
  });

  it('encoding error message', () => {
    expect(() => convertInput(Buffer.from([0xff]), 'application/json')).toThrow('Input is not valid UTF-8 data.');
  });
});

describe('decodeText', () => {
  it('UTF-16 BE with BOM', () => {
    expect(decodeText(Buffer.from([0xfe, 0xff, 0x00, 0x61]), undefined, false)).toBe('a');
  });
  it('a UTF-16 encoding declaration without BOM is not trusted for 8-bit sniffing', () => {
    expect(decodeText(utf8('<?xml version="1.0" encoding="UTF-16"?><a/>'), undefined, true)).toBe('<?xml version="1.0" encoding="UTF-16"?><a/>');
  });
});

describe('convertBody', () => {
  /**
   * A conversion with its bytes as a latin1 string (one character a byte): compared as strings,
   * rather than by toEqual's element-wise walk of a Buffer (seconds for these 600 KB).
   */
  const asText = <T extends { data: Buffer }>(r: T) => {
    expect(Buffer.isBuffer(r.data)).toBe(true);
    return { ...r, data: r.data.toString('latin1') };
  };
  // a document larger than a piece of the writer's output, converted off the request thread
  const items = Array.from({ length: 20_000 }, (_, i) => `<i n="${i}">a &amp; ${i}</i>`).join('\n');
  const body = utf8(`<?xml version="1.0"?>\n<r>${items}</r>`);

  test('answers the converted document as UTF-8 bytes, from a thread as inline', async () => {
    expect(body.length).toBeGreaterThan(OFFLOAD_BYTES);
    const r = await convertBody(body, 'application/xml');
    expect(r.type).toBe('xml');
    expect(Buffer.isBuffer(r.data)).toBe(true);
    expect(r.data.toString('utf8')).toBe(`<r>${items}</r>`);
    expect(asText(r)).toEqual(asText({ ...convertInput(body, 'application/xml'), data: Buffer.from(`<r>${items}</r>`, 'utf8') }));
  });

  test('encodes a large XML document while it is written, at the size where that begins too', async () => {
    // CDATA of '<' is stored as '&lt;': four times the bytes the body has, more than expected
    const grows = (size: number) => {
      const head = '<r><![CDATA[';
      const tail = ']]>é</r>';
      return utf8(head + '<'.repeat(size - head.length - Buffer.byteLength(tail)) + tail);
    };
    for (const input of [grows(64 * 1024 - 1), grows(64 * 1024), grows(300_000)]) {
      const expected = convertInput(input, 'application/xml');
      const r = await convertBody(input, 'application/xml');
      expect(asText(r)).toEqual(asText({ ...expected, data: Buffer.from(expected.data as string, 'utf8') }));
      expect(r.data.length).toBe(4 * (input.length - 21) + 9);
    }
  });

  test('stores other media as the bytes given', async () => {
    expect(asText(await convertBody(body, 'application/octet-stream'))).toEqual(asText({ type: 'binary', data: body, suffix: undefined }));
  });
});
