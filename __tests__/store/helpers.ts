/** Test helpers: a fresh temporary data folder per test. */
import fs from 'node:fs/promises';
import path from 'node:path';
import { CommitLog } from '../../lib/store/file/commit-log';
import { STORE_DIR } from '../../lib/store/file/journal';
import { SPARES_DIR } from '../../lib/store/file/temp-pool';
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

/**
 * For a file whose tests simulate crashes by leaving file stores unclosed, as a crash does: the
 * system closes a crashed process's files, but here the process goes on, so the commit log files
 * its stores opened are closed after each test rather than by the garbage collector (which Node
 * deprecates).
 */
export function closeLogsOfCrashedStores(): void {
  const opened = new Set<fs.FileHandle>();
  const logs = CommitLog.prototype as unknown as { openLog(): Promise<fs.FileHandle> };
  const openLog = logs.openLog;
  beforeAll(() => {
    logs.openLog = async function (this: CommitLog) {
      const handle = await openLog.call(this);
      opened.add(handle);
      return handle;
    };
  });
  afterAll(() => {
    logs.openLog = openLog;
  });
  afterEach(async () => {
    for (const handle of opened) await handle.close().catch(() => undefined);
    opened.clear();
  });
}

/** All files below `dir`, relative, with `/`, sorted; not the spare files of a file store. */
export async function listFiles(dir: string): Promise<string[]> {
  const entries = await fs.readdir(dir, { recursive: true, withFileTypes: true });
  // the empty files a file store makes ahead for its writes (temp-pool.ts) come and go by themselves
  const spares = path.join(dir, STORE_DIR, SPARES_DIR);
  return entries
    .filter((e) => e.isFile() && e.parentPath !== spares)
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
