/**
 * From source only (threads/source-cache.ts), a slow compilation's SEF is kept on disk, so that
 * the next query host compiles it no more: the runtime library (translate/library.ts) takes about
 * 2 s of CPU to compile, and every test file that runs a query starts a host of its own.
 *
 * - A file is named by a digest of the compile key (the XSLT text and base URI: compile-key.ts)
 *   and of everything else the compiler's output depends on: saxon-js's version, and the source
 *   of the compile module and of the saxon-js patches (lib/saxon). An edited input gives a new
 *   name: a stale SEF is never read.
 * - Only large SEFs are kept (KEPT_SEF_LENGTH).
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { compiledFromText, compileKey, compileUncached, type CompileOptions, type CompiledQuery } from './compile';
import { DEFAULT_BASE_URI } from '../constants';
import { CODE_ROOT, FROM_SOURCE } from '../../threads/launch';
import { keepSourceCacheFile, sourceCacheFile } from '../../threads/source-cache';
import { shippedSef } from './shipped-library';

/**
 * SEFs of at least this many characters are kept: the runtime library's is about 50,000 (from a
 * 14,000-character stylesheet), a query's own a few thousand. A deterministic measure of the work
 * a compilation was, unlike its time on a busy machine, so that a test run keeps the few large
 * stylesheets and not the thousands of small ones.
 */
const KEPT_SEF_LENGTH = 32 * 1024;

/** The salt of every file name: what the compiler's output depends on besides the key (see above). */
let salt: string | undefined;

/**
 * Compiles `xslt` (compile.ts `compileUncached`): the runtime library of the built package from
 * the SEF shipped with it (shipped-library.ts), from source through the disk cache.
 */
export function compileKept(xslt: string, options: CompileOptions = {}): CompiledQuery {
  const key = compileKey(xslt, options);
  const shipped = shippedSef(key);
  if (shipped !== undefined) return compiledFromText(key, shipped, options.baseUri ?? DEFAULT_BASE_URI);
  if (!FROM_SOURCE) return compileUncached(xslt, options, key);
  const file = keptFile(key);
  try {
    return compiledFromText(key, fs.readFileSync(file, 'utf8'), options.baseUri ?? DEFAULT_BASE_URI);
  } catch {
    // not kept (yet), or not readable as a SEF: compiled again (and kept again)
  }
  const compiled = compileUncached(xslt, options, key);
  if (compiled.sefText.length >= KEPT_SEF_LENGTH) keepSourceCacheFile(file, compiled.sefText);
  return compiled;
}

/** The file of the SEF of compile key `key`. */
export function keptFile(key: string): string {
  return sourceCacheFile(`sef-${createHash('sha256').update(saltText()).update('\0').update(key).digest('hex')}.json`);
}

function saltText(): string {
  if (salt !== undefined) return salt;
  const hash = createHash('sha256');
  hash.update(fs.readFileSync(require.resolve('saxon-js/package.json')));
  for (const file of [path.join(CODE_ROOT, 'xquery', 'worker', 'compile.ts'), ...sourceFiles(path.join(CODE_ROOT, 'saxon'))]) {
    hash.update(`\0${path.relative(CODE_ROOT, file)}\0`).update(fs.readFileSync(file));
  }
  return (salt = hash.digest('hex'));
}

/** The `.ts` files below `folder`, in a fixed order. */
function sourceFiles(folder: string): string[] {
  const files: string[] = [];
  for (const entry of fs.readdirSync(folder, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) files.push(...sourceFiles(full));
    else if (entry.name.endsWith('.ts')) files.push(full);
  }
  return files;
}
