import '../../../../lib/xquery/functions/db';
import { withFileAccess } from '../../../../lib/xquery/worker/guards/resource-guard';
import { StoreSource } from '../../../../lib/xquery/worker/documents/store-source';
import { beforeCollecting, collectionCount, collectSoon, prepareCollection } from '../../../../lib/threads/collect-garbage';
import { serialize } from '../../../../lib/xquery/serialization/serialize';
import { dataFolder, queryFailure, run, text, xml, CONTEXT } from '../../../helpers/worker-queries';

const data = dataFolder();

describe('StoreSource: fn:doc', () => {
  it('answers a stored document by db/path, the same node on every call', () => {
    const source = new StoreSource({ dbPath: data.path });
    expect(text(source, "e:doc('docs/a.xml')/a/x[2]/string()")).toBe('2');
    expect(text(source, "e:doc('docs/a.xml') is e:doc('docs/a.xml')")).toBe('true');
    const [first] = run(source, "e:doc('docs/a.xml')");
    const [second] = run(source, "e:doc('docs/a.xml')");
    expect(second).toBe(first);
    expect(source.parses).toBe(1);
  });

  it('accepts /db/path, the default base URI form, backslashes and dot segments', () => {
    const source = new StoreSource({ dbPath: data.path });
    const forms = ['/docs/a.xml', 'file:///xmldb-rest/docs/a.xml', 'docs\\dir\\..\\a.xml', 'docs/./a.xml'];
    for (const uri of forms) expect(text(source, `e:doc('${uri}') is e:doc('docs/a.xml')`)).toBe('true');
    expect(source.parses).toBe(1);
  });

  it('gives documents the document and base URI /db/path (as BaseX shows them)', () => {
    const source = new StoreSource({ dbPath: data.path });
    expect(text(source, "document-uri(e:doc('docs/dir/b.xml')), base-uri(e:doc('docs/dir/b.xml')/b)")).toBe('/docs/dir/b.xml|/docs/dir/b.xml');
  });

  it('follows BaseX for a path that names a directory', () => {
    const source = new StoreSource({ dbPath: data.path });
    expect(text(source, "e:doc('docs/dir/sub')/*/name()")).toBe('d');
    expect(queryFailure(source, "e:doc('docs/dir')")).toEqual({ code: 'FODC0002', message: "Database path 'docs/dir' yields more than one document." });
    expect(queryFailure(source, "e:doc('docs/none.xml')")).toEqual({ code: 'FODC0002', message: "Database path 'docs/none.xml' yields no documents." });
    expect(queryFailure(source, "e:doc('docs/notes.txt')")).toMatchObject({ code: 'FODC0002', message: "Database path 'docs/notes.txt' yields no documents." });
    expect(queryFailure(source, "e:doc('nodb/a.xml')")).toEqual({ code: 'FODC0002', message: "Resource 'nodb/a.xml' not found." });
    expect(queryFailure(source, "e:doc('no db/a.xml')")).toMatchObject({ code: 'FODC0002' });
  });

  it('answers doc-available without raising errors', () => {
    const source = new StoreSource({ dbPath: data.path });
    expect(text(source, "e:doc-available('docs/a.xml'), e:doc-available('docs/dir'), e:doc-available('docs/x.xml'), e:doc-available('nodb/a'), e:doc-available('file:///etc/hostname')")).toBe('true|false|false|false|false');
  });

  it('decodes %-escapes when the text as written names nothing', async () => {
    await data.store.write(['docs'], (w) => w.putResource('docs', 'with space.xml', xml('<s/>')));
    const source = new StoreSource({ dbPath: data.path });
    expect(text(source, "e:doc('docs/with%20space.xml')/*/name(), e:doc('docs/with space.xml')/*/name()")).toBe('s|s');
    expect(text(source, "collection('docs/with%20space.xml')/*/name()")).toBe('s');
  });

  it('parses a new version after a write (new etag) and keeps the old node while referenced', async () => {
    const source = new StoreSource({ dbPath: data.path });
    const [before] = run(source, "e:doc('docs/a.xml')");
    await data.store.write(['docs'], (w) => w.putResource('docs', 'a.xml', xml('<a><x>changed</x></a>')));
    expect(text(source, "e:doc('docs/a.xml')/a/x/string()")).toBe('changed');
    const [after] = run(source, "e:doc('docs/a.xml')");
    expect(after).not.toBe(before);
    expect(source.parses).toBe(2);
    await data.store.write(['docs'], (w) => w.deleteResources('docs', 'a.xml'));
    expect(queryFailure(source, "e:doc('docs/a.xml')").code).toBe('FODC0002');
  });

  it('keeps node identity for documents larger than the cache (the last one read is kept alone)', () => {
    const source = new StoreSource({ dbPath: data.path, cacheBytes: 4 });
    expect(text(source, "e:doc('docs/a.xml') is e:doc('docs/a.xml')")).toBe('true');
    expect(source.cache.count).toBe(1);
    expect(text(source, "e:doc('docs/dir/b.xml') is e:doc('docs/dir/b.xml'), e:doc('docs/a.xml') is e:doc('docs/a.xml')")).toBe('true|true');
    expect(source.cache.count).toBe(1);
  });
});

describe('StoreSource: the views of stored documents are renewed between queries', () => {
  it('gives a cached document a new document node once the views made enough nodes and its view its share, from its tree, not parsed again', () => {
    const source = new StoreSource({ dbPath: data.path, renewNodes: 6 });
    const [a] = run(source, "e:doc('docs/a.xml')");
    const [b] = run(source, "e:doc('docs/dir/b.xml')");
    const ids = text(source, "e:doc('docs/a.xml') ! (generate-id(.), generate-id(a/x[2]))");
    // few nodes made so far: nothing to renew
    expect(source.parsed.renewalDue).toBe(false);
    source.parsed.renewViews();
    expect(run(source, "e:doc('docs/a.xml')")[0]).toBe(a);
    expect(text(source, "e:doc('docs/a.xml')//x ! string()")).toBe('1|2');
    expect(source.parsed.renewalDue).toBe(true);
    source.parsed.renewViews();
    expect(source.parsed.renewalDue).toBe(false);
    const [renewed] = run(source, "e:doc('docs/a.xml')");
    expect(renewed).not.toBe(a);
    // a view that made fewer nodes than that keeps them
    expect(run(source, "e:doc('docs/dir/b.xml')")[0]).toBe(b);
    expect(source.parses).toBe(2);
    // the same document: content, URIs, identity within a query, order among stored documents
    expect(text(source, "e:doc('docs/a.xml')//x ! string()")).toBe('1|2');
    expect(text(source, "document-uri(e:doc('docs/a.xml')), base-uri(e:doc('docs/a.xml')/a/x[1])")).toBe('/docs/a.xml|/docs/a.xml');
    expect(text(source, "e:doc('docs/a.xml')/a/x[2] is e:doc('docs/a.xml')//x[last()], e:doc('docs/a.xml') is root(e:doc('docs/a.xml')//x[1])")).toBe('true|true');
    expect(text(source, "collection('docs') ! name(*)")).toBe('a|b|c|d');
    expect(text(source, "e:doc('docs/a.xml') ! (generate-id(.), generate-id(a/x[2]))")).toBe(ids);
    // a node kept from before is still a whole node of its own document
    expect(serialize([a], { method: 'xml' })).toBe('<a><x>1</x><x>2</x></a>');
  });
});

describe('StoreSource: a renewal in a worker', () => {
  beforeAll(() => prepareCollection());
  afterAll(() => beforeCollecting(() => undefined));

  it('lets the old view go: the collection it comes before frees it', async () => {
    const source = new StoreSource({ dbPath: data.path, renewNodes: 6 });
    expect(text(source, "e:doc('docs/a.xml')//x ! string()")).toBe('1|2');
    const old = new WeakRef(run(source, "e:doc('docs/a.xml')")[0] as object);
    // past the turn in which the reference was made (which keeps its target until the turn ends)
    await new Promise((resolve) => setTimeout(resolve, 0));
    beforeCollecting(() => source.parsed.renewViews());
    const before = collectionCount();
    collectSoon();
    const deadline = Date.now() + 10_000;
    while (collectionCount() === before && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(collectionCount()).toBeGreaterThan(before);
    expect(source.parsed.renewalDue).toBe(false);
    expect(old.deref()).toBeUndefined();
    expect(text(source, "e:doc('docs/a.xml')//x ! string()")).toBe('1|2');
  });
});

describe('StoreSource: collections and the database context', () => {
  it('answers collection(db) and collection(db/dir) in path order, through saxon and the engine', () => {
    const source = new StoreSource({ dbPath: data.path });
    expect(text(source, "collection('docs') ! name(*)")).toBe('a|b|c|d');
    expect(text(source, "e:collection('docs/dir') ! name(*)")).toBe('b|c|d');
    expect(text(source, "e:collection('/docs/dir/sub') ! name(*)")).toBe('d');
    expect(text(source, "collection('docs/a.xml') ! name(*)")).toBe('a');
    expect(text(source, "count(collection('docs/none')), count(collection('empty'))")).toBe('0|0');
    expect(text(source, "collection('docs')[1] is e:doc('docs/a.xml')")).toBe('true');
    expect(queryFailure(source, "collection('nodb')")).toEqual({ code: 'FODC0002', message: "Resource 'nodb' not found." });
    expect(queryFailure(source, 'collection()').code).toBe('FODC0002');
  });

  it('answers uri-collection from the catalog, without parsing', () => {
    const source = new StoreSource({ dbPath: data.path });
    expect(text(source, "e:uri-collection('docs/dir')")).toBe('/docs/dir/b.xml|/docs/dir/c.xml|/docs/dir/sub/d.xml');
    expect(text(source, "every $u in e:uri-collection('docs') satisfies $u instance of xs:anyURI")).toBe('true');
    expect(source.parses).toBe(0);
    expect(text(source, "e:uri-collection('docs') ! e:doc(.) ! name(*)")).toBe('a|b|c|d');
  });

  it('resolves a database context: all documents, one document, a directory', () => {
    const source = new StoreSource({ dbPath: data.path });
    const names = (path: string) => text(source, `${CONTEXT} ! name(*)`, source.getDatabaseContext('docs', path));
    expect(names('')).toBe('a|b|c|d');
    expect(names('a.xml')).toBe('a');
    expect(names('dir')).toBe('b|c|d');
    expect(names('dir/')).toBe('b|c|d');
    expect(names('nothing')).toBe('');
    expect(source.getDatabaseContext('empty', '')).toEqual([]);
    expect(() => source.getDatabaseContext('nodb', '')).toThrow("Database 'nodb' was not found.");
  });

  it('makes the context database the default collection of a run view', () => {
    const source = new StoreSource({ dbPath: data.path });
    const view = source.forRun({ db: 'docs', path: 'dir' });
    expect(text(view, "collection() ! name(*), count(e:collection(()))")).toBe('a|b|c|d|4');
    expect(text(view, 'e:uri-collection()')).toContain('/docs/a.xml');
    expect(run(view, "e:doc('docs/a.xml')")[0]).toBe(run(source, "e:doc('docs/a.xml')")[0]);
  });
});

describe('StoreSource: host files', () => {
  it('refuses file: and http: URIs unless file access is allowed', () => {
    const closed = new StoreSource({ dbPath: data.path });
    expect(queryFailure(closed, "e:doc('file:///etc/hostname')")).toEqual({ code: 'FODC0002', message: "Access to 'file:///etc/hostname' is denied." });
    expect(queryFailure(closed, "e:doc('http://example.com/a.xml')").code).toBe('FODC0002');
    expect(queryFailure(closed, "e:collection('file:///etc/')").code).toBe('FODC0002');
  });

  it('reads host XML files when allowed, once per version', async () => {
    const fs = await import('node:fs/promises');
    const path = await import('node:path');
    const file = path.join(data.path, '..', `host-${process.pid}-${Date.now()}.xml`);
    await fs.writeFile(file, '<host>yes</host>');
    try {
      const open = new StoreSource({ dbPath: data.path });
      const uri = `file://${file}`;
      const read = withFileAccess(true, () => text(open, `e:doc('${uri}')/host/string(), e:doc('${uri}') is e:doc('${uri}'), document-uri(e:doc('${uri}'))`));
      expect(read).toBe(`yes|true|${uri}`);
      expect(open.parses).toBe(1);
      expect(withFileAccess(true, () => queryFailure(open, "e:doc('http://example.com/a.xml')")).message).toContain('Only file: URIs');
      expect(queryFailure(open, `e:doc('${uri}')`)).toEqual({ code: 'FODC0002', message: `Access to '${uri}' is denied.` });
    } finally {
      await fs.rm(file, { force: true });
    }
  });
});
