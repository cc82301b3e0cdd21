/**
 * A data folder for engine and pool tests that read stored documents through the store source:
 * database `db` holding `a.xml`, `<r db="stored"><x>1</x><x>2</x></r>`. Created before the
 * suite's tests, removed after them.
 */
import fs from 'node:fs/promises';
import { parseToStoredXml } from '../../lib/convert/xml';
import { createFileStore } from '../../lib/store/file/file-store';
import { tempDir } from './temp-dir';

export const STORED_A = '<r db="stored"><x>1</x><x>2</x></r>';

/** The folder's path is set by the time the suite's tests (and later `beforeAll`s) run. */
export function storedDocuments(): { readonly path: string } {
  const holder = { path: '' };
  beforeAll(async () => {
    holder.path = tempDir('xmldb-stored-');
    const store = await createFileStore(holder.path);
    const written = parseToStoredXml(STORED_A);
    await store.write(['db'], async (w) => {
      await w.createDatabase('db');
      await w.putResource('db', 'a.xml', { type: 'xml', data: written.xml, nodes: written.nodes });
    });
    await store.close();
  });
  afterAll(async () => {
    await fs.rm(holder.path, { recursive: true, force: true });
  });
  return holder;
}
