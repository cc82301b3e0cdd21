import { contentTypeOf, mediaTypeOf, suffixOf, xmlContentTypeOf } from '../../lib/store/media-types';

describe('media types (spec §4.1)', () => {
  test.each([
    ['a.xml', 'application/xml'],
    ['a.txt', 'text/plain'],
    ['a.json', 'application/json'],
    ['a.csv', 'text/csv'],
    ['a.html', 'text/html'],
    ['a.htm', 'text/html'],
    ['a.xhtml', 'application/xhtml+xml'],
    ['a.png', 'image/png'],
    ['a.jpg', 'image/jpeg'],
    ['a.gif', 'image/gif'],
    ['a.svg', 'image/svg+xml'],
    ['a.pdf', 'application/pdf'],
    ['a.zip', 'application/zip'],
    ['a.css', 'text/css'],
    ['a.js', 'text/ecmascript'],
    ['a.xq', 'application/xquery'],
    ['a.xqm', 'application/xquery'],
    ['a.xquery', 'application/xquery'],
    ['a.xsl', 'text/xml'],
    ['a.xslt', 'application/xslt+xml'],
    ['a.bin', 'application/x-binary'],
    ['dir/LOGO.PNG', 'image/png'],
    ['a.Json', 'application/json'],
    ['noext', 'application/octet-stream'],
    ['a.unknown', 'application/octet-stream'],
    ['dir.png/file', 'application/octet-stream'],
    ['a.', 'application/octet-stream'],
  ])('%s → %s', (name, type) => {
    expect(mediaTypeOf(name)).toBe(type);
  });

  test.each([
    ['doc.xml', 'application/xml'],
    ['doc.json', 'application/xml'],
    ['doc', 'application/xml'],
    ['style.xsl', 'text/xml'],
    ['pic.SVG', 'image/svg+xml'],
    ['page.xhtml', 'application/xhtml+xml'],
    ['page.html', 'application/xml'],
  ])('XML document %s → %s', (name, type) => {
    expect(xmlContentTypeOf(name)).toBe(type);
    expect(contentTypeOf('xml', name)).toBe(type);
  });

  test('binaries and values take the suffix type', () => {
    expect(contentTypeOf('binary', 'doc.json')).toBe('application/json');
    expect(contentTypeOf('value', 'v.txt')).toBe('text/plain');
    expect(suffixOf('a/b.c.TXT')).toBe('txt');
  });
});
