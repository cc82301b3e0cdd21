/**
 * The files of REST `run` (spec §6.4) and of the RUN command (spec §10): found below the REST
 * path, read, and told apart: `.bxs` files are command scripts, anything else a query.
 *
 * A query file's static base URI is the file (spec §10), named below a virtual folder,
 * `file:///restpath/<path below restPath>` (our decision), so `static-base-uri()`, base URIs of
 * constructed nodes and error messages tell a client nothing about the host's folders.
 */
import fs from 'node:fs/promises';
import path from 'node:path';

/** A file of the REST path, read. */
export interface RunFile {
  /** The absolute file. */
  readonly file: string;
  /** `script`: a command script (`.bxs`); `query`: an XQuery. */
  readonly kind: 'script' | 'query';
  readonly text: string;
  readonly baseUri: string;
}

const QUERY_SUFFIX = /\.(?:bxs|xq|xqm|xqy|xql|xqu|xquery|xpath)$/i;
const SCRIPT_SUFFIX = /\.bxs$/i;

/** The folder of the REST path as queries see it: never the host's path. */
const REST_PATH_BASE = 'file:///restpath/';

async function isFileInside(root: string, file: string): Promise<boolean> {
  try {
    const [realRoot, real] = await Promise.all([fs.realpath(root), fs.realpath(file)]);
    const rel = path.relative(realRoot, real);
    if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) return false;
    return (await fs.stat(real)).isFile();
  } catch {
    return false;
  }
}

/**
 * Resolves NAME against the REST path: NAME, else NAME.xq, else NAME.bxs (only for names without
 * a query or script suffix). Absolute names, names leaving the folder, folders and missing files
 * are not found (undefined).
 */
async function findRunFile(restPath: string, name: string): Promise<string | undefined> {
  if (path.isAbsolute(name)) return undefined;
  const root = path.resolve(restPath);
  const candidates = QUERY_SUFFIX.test(name) ? [name] : [name, `${name}.xq`, `${name}.bxs`];
  for (const c of candidates) {
    const file = path.resolve(root, c);
    try {
      await fs.stat(file);
    } catch {
      continue;
    }
    return (await isFileInside(root, file)) ? file : undefined;
  }
  return undefined;
}

/** The static base URI of a query file of the REST path, already resolved (`findRunFile`). */
export function runFileBaseUri(restPath: string, file: string): string {
  const segments = path.relative(path.resolve(restPath), file).split(path.sep);
  return REST_PATH_BASE + segments.map(encodeURIComponent).join('/');
}

/** The file NAME of the REST path, read; undefined if it is not found. */
export async function readRunFile(restPath: string, name: string): Promise<RunFile | undefined> {
  const file = await findRunFile(restPath, name);
  if (file === undefined) return undefined;
  const kind = SCRIPT_SUFFIX.test(file) ? 'script' : 'query';
  return { file, kind, text: await fs.readFile(file, 'utf8'), baseUri: runFileBaseUri(restPath, file) };
}
