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
 * - A process about to compile a large stylesheet claims its file first (`claimed`); another that
 *   finds the claim waits for the SEF rather than compiling the same text beside it. Query hosts
 *   start together at the beginning of a test run, each needing the runtime library: on a fresh
 *   clone two of them compiled it at the same time, about 2 s of CPU each.
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
  const baseUri = options.baseUri ?? DEFAULT_BASE_URI;
  const kept = readKept(key, file, baseUri);
  if (kept !== undefined) return kept;
  const claim = xslt.length >= CLAIMED_XSLT_LENGTH ? claimed(file) : undefined;
  if (claim === false) {
    const waited = waitForKept(key, file, baseUri);
    if (waited !== undefined) return waited;
  }
  try {
    const compiled = compileUncached(xslt, options, key);
    if (compiled.sefText.length >= KEPT_SEF_LENGTH) keepSourceCacheFile(file, compiled.sefText);
    return compiled;
  } finally {
    if (claim === true) fs.rmSync(claimFile(file), { force: true });
  }
}

/** The SEF kept in `file`, or undefined when none is (yet), or it is not readable as a SEF. */
function readKept(key: string, file: string, baseUri: string): CompiledQuery | undefined {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  try {
    return compiledFromText(key, text, baseUri);
  } catch {
    return undefined; // compiled again, and kept again
  }
}

/**
 * Stylesheets of at least this many characters are claimed before they are compiled: about the
 * size whose SEF reaches KEPT_SEF_LENGTH (a SEF runs to three or four times its stylesheet's
 * length), so that the thousands of small compilations of a test run write no claims.
 */
const CLAIMED_XSLT_LENGTH = 8 * 1024;

/**
 * A claim older than this is taken for that of a process that ended while compiling, and is
 * taken over; a wait for a claimed SEF gives up after as long and compiles.
 */
const CLAIM_TIMEOUT_MS = 30_000;

/** How often a process waiting for a claimed SEF looks for it. */
const CLAIM_POLL_MS = 25;

const sleeper = new Int32Array(new SharedArrayBuffer(4));

function claimFile(file: string): string {
  return `${file}.claim`;
}

/**
 * Claims the compilation of the SEF of `file`: true when this thread now holds the claim, false
 * when another holds it, undefined when no claim can be written here (nothing is then kept
 * either: the folder only saves time).
 */
function claimed(file: string): boolean | undefined {
  const claim = claimFile(file);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.closeSync(fs.openSync(claim, 'wx'));
      return true;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') return undefined;
    }
    try {
      if (Date.now() - fs.statSync(claim).mtimeMs < CLAIM_TIMEOUT_MS) return false;
      fs.rmSync(claim, { force: true }); // left by a process that ended while compiling
    } catch {
      // released meanwhile: claimed again
    }
  }
  return undefined;
}

/**
 * Waits (blocking this thread, which needs the SEF to go on) for the SEF of `file` that another
 * process compiles; undefined when that process released its claim without keeping a SEF, or
 * held it for CLAIM_TIMEOUT_MS.
 */
function waitForKept(key: string, file: string, baseUri: string): CompiledQuery | undefined {
  const until = Date.now() + CLAIM_TIMEOUT_MS;
  while (Date.now() < until) {
    Atomics.wait(sleeper, 0, 0, CLAIM_POLL_MS);
    const kept = readKept(key, file, baseUri);
    if (kept !== undefined) return kept;
    if (!fs.existsSync(claimFile(file))) return readKept(key, file, baseUri);
  }
  return undefined;
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
