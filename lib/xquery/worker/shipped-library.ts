/**
 * The runtime library's SEF (translate/library.ts), compiled when the package is built
 * (scripts/build-library.js) and shipped beside this module as `runtime-library.sef.json`, so
 * that a query host of the built package never compiles it: the first query that ran on the
 * library after each start of a host waited about a second for that compilation.
 *
 * The file holds the SEF with the compile key it was made for (the stylesheet's text and base
 * URI: compile-key.ts) and the version of saxon-js that made it. It answers for that key and that
 * version only; any other stylesheet, or a file that cannot be read or parsed, is compiled as
 * before. From source there is no such file: the disk cache of large SEFs keeps the library
 * there (sef-disk-cache.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { CompiledQuery } from './compile';

/** The file's name, beside this module in the built package. */
export const SHIPPED_LIBRARY_FILE = 'runtime-library.sef.json';

interface ShippedLibrary {
  /** The version of saxon-js that compiled it. */
  readonly saxonJs: string;
  /** The compile key of the stylesheet it is the SEF of. */
  readonly key: string;
  /** The SEF as text (compile.ts `CompiledQuery.sefText`). */
  readonly sef: string;
}

/** The version of the saxon-js this package loads. */
function saxonJsVersion(): string {
  return (JSON.parse(fs.readFileSync(require.resolve('saxon-js/package.json'), 'utf8')) as { version: string }).version;
}

/** The file's text for `library`, the runtime library compiled by this saxon-js. */
export function shippedLibraryText(library: CompiledQuery): string {
  return JSON.stringify({ saxonJs: saxonJsVersion(), key: library.key, sef: library.sefText } satisfies ShippedLibrary);
}

/** What was read of each file: its content, or null when it has none to use. */
const read = new Map<string, ShippedLibrary | null>();

/** The shipped SEF of compile key `key`, when `file` (default: beside this module) holds it, made by this saxon-js. */
export function shippedSef(key: string, file = path.join(__dirname, SHIPPED_LIBRARY_FILE)): string | undefined {
  let shipped = read.get(file);
  if (shipped === undefined) {
    shipped = readShipped(file);
    read.set(file, shipped);
  }
  return shipped !== null && shipped.key === key ? shipped.sef : undefined;
}

function readShipped(file: string): ShippedLibrary | null {
  try {
    const value = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<ShippedLibrary>;
    if (typeof value.key !== 'string' || typeof value.sef !== 'string' || value.saxonJs !== saxonJsVersion()) return null;
    return { saxonJs: value.saxonJs, key: value.key, sef: value.sef };
  } catch {
    return null;
  }
}
