/** Test helpers: a fresh temporary data folder per test. */
import fs from 'node:fs/promises';
import path from 'node:path';
import { XmldbError } from '../../lib/xmldb-error';
import { tempDir } from '../helpers/temp-dir';

/** Creates a fresh temporary folder before each test and removes it after; read `.path` inside tests. */
export function tempFolder(): { readonly path: string } {
  const holder = { path: '' };
  beforeEach(async () => {
    holder.path = tempDir('xmldb-store-');
  });
  afterEach(async () => {
    await fs.rm(holder.path, { recursive: true, force: true });
  });
  return holder;
}

/** All files below `dir`, relative, with `/`, sorted. */
export async function listFiles(dir: string): Promise<string[]> {
  const entries = await fs.readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)).split(path.sep).join('/'))
    .sort();
}

/** The catalog code of an error thrown by `fn`, or undefined if it did not throw. */
export async function codeOf(fn: () => unknown): Promise<string | undefined> {
  try {
    await fn();
    return undefined;
  } catch (error) {
    if (error instanceof XmldbError) return error.code;
    throw error;
  }
}

export const xml = (data: string, nodes = 2) => ({ type: 'xml' as const, data, nodes });
export const bin = (data: string | Buffer) => ({ type: 'binary' as const, data });
