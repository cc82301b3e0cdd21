import { existsSync, readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { storeSourceSpec } from '../../../lib/xquery/worker/documents/store-source';
import { QueryPool, type ContextSpec } from '../../../lib/xquery/host/pool';
import { MemoryView } from '../../helpers/memory-view';
import { dataFolder, query, CONTEXT } from '../../helpers/worker-queries';
import { tempDir } from '../../helpers/temp-dir';

const data = dataFolder();

describe('query workers over the store', () => {
  let pool: QueryPool | undefined;
  afterEach(async () => {
    await pool?.close();
    pool = undefined;
  });

  const run = async (expr: string, context?: ContextSpec) =>
    (await pool!.run({ xslt: query(expr), initialTemplate: 'main', context, serialization: { method: 'basex', 'item-separator': '|' } })).body;

  it('reads documents, collections and db: functions through storeSourceSpec()', async () => {
    pool = new QueryPool({ size: 1, dbPath: data.path, documentSource: storeSourceSpec({ cacheBytes: 1 << 20 }) });
    expect(await run("e:doc('docs/a.xml') is e:doc('docs/a.xml'), e:doc('docs/a.xml')/a/x[1]/string()")).toBe('true|1');
    expect(await run("collection('docs/dir') ! name(*), e:collection('docs')[1] is e:doc('docs/a.xml')")).toBe('b|c|d|true');
    expect(await run('Q{http://basex.org/modules/db}list()')).toBe('docs|empty');
    expect(await run("db:get('docs', 'dir')[1] is e:doc('docs/dir/b.xml'), db:path(db:get('docs')[2]), db:type('docs', 'notes.txt')")).toBe('true|dir/b.xml|binary');
    await expect(run("db:get('nodb')")).rejects.toMatchObject({ code: 'db:open', message: "Database 'nodb' was not found." });
    await expect(run("e:doc('docs/none.xml')")).rejects.toMatchObject({ code: 'FODC0002' });
  });

  it('reads and parses a document once per worker while its etag is unchanged, and again after a write', async () => {
    // the worker reads the store through the channel, so the view counts the documents it reads
    const view = new MemoryView();
    view.put('docs', 'a.xml', '<a><x>1</x><x>2</x></a>');
    pool = new QueryPool({ size: 1, documentSource: storeSourceSpec({ reader: { kind: 'channel' } }) });
    const runIn = async (expr: string) =>
      (await pool!.run({ xslt: query(expr), initialTemplate: 'main', view, serialization: { method: 'basex', 'item-separator': '|' } })).body;
    expect(await runIn("e:doc('docs/a.xml')/a/x[2]/string()")).toBe('2');
    expect(view.calls.readBytes).toBe(1);
    expect(await runIn("count(e:doc('docs/a.xml')//x), db:get('docs', 'a.xml') is e:doc('docs/a.xml')")).toBe('2|true');
    expect(view.calls.readBytes).toBe(1);
    view.put('docs', 'a.xml', '<a><x>new</x></a>');
    expect(await runIn("e:doc('docs/a.xml')/a/x/string()")).toBe('new');
    expect(view.calls.readBytes).toBe(2);
    expect(await runIn("e:doc('docs/a.xml')/a/x/string()")).toBe('new');
    expect(view.calls.readBytes).toBe(2);
  });

  it('evaluates against a database context: all documents, one document, a directory', async () => {
    pool = new QueryPool({ size: 1, dbPath: data.path, documentSource: storeSourceSpec() });
    const names = `${CONTEXT} ! name(*)`;
    expect(await run(names, { kind: 'database', db: 'docs' })).toBe('a|b|c|d');
    expect(await run(names, { kind: 'database', db: 'docs', path: '' })).toBe('a|b|c|d');
    expect(await run(names, { kind: 'database', db: 'docs', path: 'a.xml' })).toBe('a');
    expect(await run(names, { kind: 'database', db: 'docs', path: 'dir' })).toBe('b|c|d');
    expect(await run(`count(${CONTEXT})`, { kind: 'database', db: 'empty' })).toBe('0');
    // the context database is the default collection; the documents are the stored nodes
    expect(await run(`count(collection()), ${CONTEXT}[1] is e:doc('docs/dir/b.xml')`, { kind: 'database', db: 'docs', path: 'dir' })).toBe('4|true');
    await expect(run('collection()')).rejects.toMatchObject({ code: 'FODC0002' });
    await expect(run(names, { kind: 'database', db: 'nodb' })).rejects.toMatchObject({ message: "Database 'nodb' was not found." });
    // explicit documents still work
    expect(await run(names, { documents: ['docs/dir/b.xml', 'docs/a.xml'] })).toBe('b|a');
  });
});

describe('file access (RunTask.fileAccess)', () => {
  let pool: QueryPool | undefined;
  let dir = '';
  beforeEach(async () => {
    dir = tempDir('xmldb-host-');
    await fs.writeFile(path.join(dir, 'host.xml'), '<host>secret</host>');
    await fs.writeFile(path.join(dir, 'host.txt'), 'secret text');
    await fs.writeFile(path.join(dir, 'host.json'), '{"secret": 1}');
    await fs.writeFile(
      path.join(dir, 'style.xsl'),
      '<xsl:stylesheet version="3.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform"><xsl:template name="xsl:initial-template"><out/></xsl:template></xsl:stylesheet>',
    );
  });
  afterEach(async () => {
    await pool?.close();
    pool = undefined;
    await fs.rm(dir, { recursive: true, force: true });
  });

  const fileUri = (name: string) => `file://${path.join(dir, name)}`;
  const run = async (expr: string, fileAccess = false) =>
    (await pool!.run({ xslt: query(expr), initialTemplate: 'main', serialization: { method: 'basex', 'item-separator': '|' }, fileAccess })).body;

  it('is off by default: host files cannot be read by any function', async () => {
    pool = new QueryPool({ size: 1, dbPath: data.path, documentSource: storeSourceSpec() });
    if (existsSync('/etc/hostname')) {
      await expect(run("unparsed-text('file:///etc/hostname')")).rejects.toMatchObject({ code: 'FOUT1170' });
      await expect(run("doc('file:///etc/hostname')")).rejects.toMatchObject({ code: 'FODC0002' });
    }
    await expect(run(`unparsed-text('${fileUri('host.txt')}')`)).rejects.toMatchObject({ code: 'FOUT1170', message: expect.stringContaining('denied') });
    await expect(run(`unparsed-text-lines('${fileUri('host.txt')}')`)).rejects.toMatchObject({ code: 'FOUT1170' });
    await expect(run(`doc('${fileUri('host.xml')}')`)).rejects.toMatchObject({ code: 'FODC0002', message: expect.stringContaining('denied') });
    await expect(run(`e:doc('${fileUri('host.xml')}')`)).rejects.toMatchObject({ code: 'FODC0002', message: expect.stringContaining('denied') });
    await expect(run(`json-doc('${fileUri('host.json')}')`)).rejects.toMatchObject({ code: 'FOUT1170' });
    // fn:transform, which would compile a stylesheet from a host file, is not there at all (saxon/patches/host-bindings.ts)
    await expect(run(`transform(map { 'stylesheet-location': '${fileUri('style.xsl')}' })?output`)).rejects.toMatchObject({ code: 'XPST0017' });
    expect(await run(`doc-available('${fileUri('host.xml')}'), e:doc-available('${fileUri('host.xml')}'), unparsed-text-available('${fileUri('host.txt')}')`)).toBe('false|false|false');
    await expect(run("unparsed-text('http://127.0.0.1:9/x')")).rejects.toMatchObject({ code: 'FOUT1170' });
    // stored resources stay readable through saxon's own functions (relative URIs resolve below the base URI)
    expect(await run("doc('docs/a.xml')/a/x[1]/string(), unparsed-text('docs/notes.txt')")).toBe('1|hello notes');
  });

  it('a run allowed to read host files reads them; the next run is refused again', async () => {
    pool = new QueryPool({ size: 1, dbPath: data.path, documentSource: storeSourceSpec() });
    if (existsSync('/etc/hostname')) {
      expect(await run("unparsed-text('file:///etc/hostname')", true)).toBe(readFileSync('/etc/hostname', 'utf8'));
    }
    expect(await run(`unparsed-text('${fileUri('host.txt')}'), doc('${fileUri('host.xml')}')/host/string(), e:doc('${fileUri('host.xml')}')/host/string()`, true)).toBe(
      'secret text|secret|secret',
    );
    expect(await run(`json-doc('${fileUri('host.json')}')?secret`, true)).toBe('1');
    await expect(run(`transform(map { 'stylesheet-location': '${fileUri('style.xsl')}' })?output ! name(*)`, true)).rejects.toMatchObject({ code: 'XPST0017' });
    expect(await run(`e:doc('${fileUri('host.xml')}') is e:doc('${fileUri('host.xml')}')`, true)).toBe('true');
    expect(await run(`e:doc-available('${fileUri('host.xml')}'), unparsed-text-available('${fileUri('host.txt')}')`)).toBe('false|false');
  });
});
