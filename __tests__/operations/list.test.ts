import { Readable } from 'node:stream';
import { databaseListing } from '../../lib/operations/list';
import type { ResourceInfo } from '../../lib/store/types';

const NS = 'http://basex.org/rest';

function resource(path: string, size = 1): ResourceInfo {
  return { path, type: 'xml', contentType: 'application/xml', size, bytes: size, modified: 0, etag: 'e' } as ResourceInfo;
}

async function chunksOf(body: string | Buffer | Readable): Promise<string[]> {
  if (!(body instanceof Readable)) throw new Error('expected a stream');
  const out: string[] = [];
  for await (const chunk of body) out.push(Buffer.from(chunk as Buffer).toString('utf8'));
  return out;
}

describe('database listings (spec §4)', () => {
  test('a large directory is written in chunks of about 64 KiB, sorted, with every entry', async () => {
    const names = Array.from({ length: 5000 }, (_, i) => `r${String(4999 - i).padStart(4, '0')}.xml`);
    const resources = [...names.map((n) => resource(n)), resource('Sub/x.xml'), resource('sub2/y.xml')];
    const result = databaseListing('db', '', resources, {});
    expect(result.contentType).toBe('application/xml; charset=UTF-8');
    const chunks = await chunksOf(result.body);
    expect(chunks.length).toBeGreaterThan(3);
    for (const chunk of chunks) expect(chunk.length).toBeLessThan(64 * 1024 + 200);
    const expected =
      `<database xmlns="${NS}" name="db">` +
      [...names]
        .sort()
        .map((n) => `<resource type="xml" content-type="application/xml" size="1">${n}</resource>`)
        .join('') +
      '<dir>Sub</dir><dir>sub2</dir></database>';
    expect(chunks.join('')).toBe(expected);
  });

  test('a small listing is one body; names are escaped', () => {
    const result = databaseListing('db', 'd', [resource('d/a&b<c>.xml'), resource('d/"q".xml', 7)], { indent: 'yes' });
    expect(result.body).toBe(
      `<database xmlns="${NS}" name="db">\n` +
        `  <resource type="xml" content-type="application/xml" size="7">"q".xml</resource>\n` +
        `  <resource type="xml" content-type="application/xml" size="1">a&amp;b&lt;c&gt;.xml</resource>\n` +
        '</database>',
    );
  });
});
