/**
 * Queries run in this thread as a query worker runs them (compile, evaluate, serialize) over a
 * real data folder written through the store's async API: for the tests of the query modules,
 * the worker's document source, the accelerators and the query host.
 */
import fs from 'node:fs/promises';
import { parseToStoredXml } from '../../lib/convert/xml';
import { createFileStore, type FileStore } from '../../lib/store/file/file-store';
import type { ResourceInput } from '../../lib/store/types';
import { QueryCompiler } from '../../lib/xquery/worker/compile';
import { evaluate } from '../../lib/xquery/worker/evaluate';
import type { DocumentSource } from '../../lib/xquery/worker/documents/source';
import type { XdmNode, XdmValue } from '../../lib/saxon';
import { serialize } from '../../lib/xquery/serialization/serialize';
import { registerExtensionFunctions } from '../../lib/xquery/functions/extension-functions';
import { tempDir } from './temp-dir';

registerExtensionFunctions();

const compiler = new QueryCompiler({ max: 256 });

export const xml = (text: string): ResourceInput => {
  const written = parseToStoredXml(text);
  return { type: 'xml', data: written.xml, nodes: written.nodes };
};
export const bin = (data: string | Buffer): ResourceInput => ({ type: 'binary', data });
export const value = (data: string): ResourceInput => ({ type: 'value', data });

/**
 * The standard data folder:
 *   docs/a.xml, docs/dir/b.xml, docs/dir/c.xml, docs/dir/sub/d.xml (XML),
 *   docs/notes.txt (binary), docs/dir/img.png (binary)
 *   empty (no resources)
 */
export async function writeStandardData(store: FileStore): Promise<void> {
  await store.write(['docs', 'empty'], async (w) => {
    await w.createDatabase('docs');
    await w.createDatabase('empty');
    await w.putResource('docs', 'a.xml', xml('<a><x>1</x><x>2</x></a>'));
    await w.putResource('docs', 'dir/c.xml', xml('<c/>'));
    await w.putResource('docs', 'dir/b.xml', xml('<b n="1"/>'));
    await w.putResource('docs', 'dir/sub/d.xml', xml('<d/>'));
    await w.putResource('docs', 'notes.txt', bin('hello notes'));
    await w.putResource('docs', 'dir/img.png', bin(Buffer.from([0, 1, 2, 255])));
  });
}

/** A fresh data folder (and store) per test; removed afterwards. */
export function dataFolder(): { readonly path: string; readonly store: FileStore } {
  const holder = { path: '', store: undefined as unknown as FileStore };
  beforeEach(async () => {
    holder.path = tempDir('xmldb-modules-');
    holder.store = await createFileStore(holder.path);
    await writeStandardData(holder.store);
  });
  afterEach(async () => {
    await holder.store.close();
    await fs.rm(holder.path, { recursive: true, force: true });
  });
  return holder;
}

/** An XSLT 3.0 stylesheet whose template `main` returns the XPath expression `expr`. */
export function query(expr: string, prolog = ''): string {
  const escaped = expr.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');
  return (
    '<xsl:stylesheet version="3.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform" ' +
    'xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:map="http://www.w3.org/2005/xpath-functions/map" ' +
    'xmlns:array="http://www.w3.org/2005/xpath-functions/array" xmlns:e="urn:xmldb-rest:engine" ' +
    'xmlns:db="http://basex.org/modules/db" exclude-result-prefixes="#all">\n' +
    `<xsl:param name="Q{urn:xmldb-rest:engine}context" as="document-node()*" select="()"/>\n${prolog}\n` +
    `<xsl:template name="main">\n<xsl:sequence select="${escaped}"/>\n</xsl:template>\n</xsl:stylesheet>`
  );
}

/** The context parameter as an XPath variable reference. */
export const CONTEXT = '$Q{urn:xmldb-rest:engine}context';

/** Runs an XPath expression (through `query`) against a document source, optionally with a context. */
export function run(source: DocumentSource, expr: string, context?: XdmNode[]): XdmValue {
  return evaluate(compiler.compile(query(expr)), { initialTemplate: 'main', source, context });
}

/** The result as text, items separated by `|`. */
export function text(source: DocumentSource, expr: string, context?: XdmNode[]): string {
  return serialize(run(source, expr, context), { method: 'basex', 'item-separator': '|' });
}

/** The error an expression raises: its code and message. */
export function queryFailure(source: DocumentSource, expr: string): { code: string; message: string } {
  try {
    run(source, expr);
  } catch (e) {
    const err = e as { code: string; message: string };
    return { code: err.code, message: err.message };
  }
  throw new Error(`no error from ${expr}`);
}
