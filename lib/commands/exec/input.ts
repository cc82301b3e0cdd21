/**
 * The input of CREATE DB, ADD and PUT (spec §15.1): an XML string, or the path of a server file or
 * folder. XML always goes through the safe XML parser (normalised text, node count). Server files
 * are read only when the environment allows file access.
 *
 * A file given on its own is parsed as XML whatever its name; in a folder, files matching
 * CREATEFILTER (default `*.xml`) are parsed, the others are stored as binaries with ADDRAW or
 * skipped. Everything is read and parsed before anything is stored.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { decodeText, parseToStoredXml, parsingOptions } from '../../convert';
import { globMatches } from '../../glob';
import type { ResourceInput } from '../../store/types';
import type { RunContext } from './context';
import { execError } from './exec-errors';
import { optionValue } from './session-options';

/** One resource to store: its path in the database and its content. */
export interface InputResource {
  readonly path: string;
  readonly input: ResourceInput;
}

export interface ResolvedInput {
  /** `string`: XML text; `file`, `dir`: a server file or folder. */
  readonly kind: 'string' | 'file' | 'dir';
  readonly resources: readonly InputResource[];
  /** Absolute path of a server file or folder. */
  readonly inputPath?: string;
  /** Bytes of the input. */
  readonly inputSize: number;
}

/** Joins a target folder (may be empty) and a relative path. */
function joinTarget(dir: string, rel: string): string {
  const d = dir.replace(/\/+$/, '');
  return d === '' ? rel : `${d}/${rel}`;
}

/**
 * Where a single document goes: `target` itself, or (no target, or one ending in `/`) the folder
 * `target` plus `name`.
 */
function documentPath(target: string | undefined, name: string): string {
  if (target === undefined) return name;
  return target === '' || /[/\\]$/.test(target) ? joinTarget(target, name) : target;
}

function isXmlString(input: string): boolean {
  return input.trimStart().startsWith('<');
}

async function statOf(file: string) {
  try {
    return await fs.stat(file);
  } catch {
    return undefined;
  }
}

/** Files below a folder, as paths relative to it with `/`, sorted. */
async function filesBelow(dir: string, prefix = ''): Promise<string[]> {
  const out: string[] = [];
  for (const e of await fs.readdir(dir, { withFileTypes: true })) {
    const rel = prefix === '' ? e.name : `${prefix}/${e.name}`;
    if (e.isDirectory()) out.push(...(await filesBelow(path.join(dir, e.name), rel)));
    else if (e.isFile()) out.push(rel);
  }
  return out.sort();
}

/** Whether a file name matches CREATEFILTER (comma-separated globs, case-insensitive). */
function matchesFilter(filter: string, name: string): boolean {
  const base = name.slice(name.lastIndexOf('/') + 1).toLowerCase();
  return filter.split(',').some((g) => g.trim() !== '' && globMatches(g.trim().toLowerCase(), base));
}

function xmlResource(ctx: RunContext, p: string, text: string, name: string): InputResource {
  const r = parseToStoredXml(text, { ...parsingOptions(ctx.state.options), name });
  return { path: p, input: { type: 'xml', data: r.xml, nodes: r.nodes } };
}

/**
 * Resolves an input. `target` is the path the command names (ADD TO, PUT); `defaultName` names an
 * XML string stored without one (`db.xml`).
 */
export async function resolveInput(
  ctx: RunContext,
  input: string,
  target: string | undefined,
  defaultName: string,
): Promise<ResolvedInput> {
  if (isXmlString(input)) {
    const p = documentPath(target, defaultName);
    return { kind: 'string', resources: [xmlResource(ctx, p, input, p)], inputSize: Buffer.byteLength(input) };
  }
  if (!ctx.env.allowFileAccess) throw execError('FILE_ACCESS_X', input);
  const file = path.resolve(input);
  const stat = await statOf(file);
  if (stat?.isFile()) {
    const bytes = await fs.readFile(file);
    const p = documentPath(target, path.basename(file));
    return {
      kind: 'file',
      resources: [xmlResource(ctx, p, decodeText(bytes, undefined, true), file)],
      inputPath: file,
      inputSize: bytes.length,
    };
  }
  if (!stat?.isDirectory()) throw execError('FILE_NOT_FOUND_X', input);
  const filter = String(optionValue(ctx.state, 'CREATEFILTER'));
  const raw = optionValue(ctx.state, 'ADDRAW') === true;
  const resources: InputResource[] = [];
  let size = 0;
  for (const rel of await filesBelow(file)) {
    const xml = matchesFilter(filter, rel);
    if (!xml && !raw) continue;
    const bytes = await fs.readFile(path.join(file, ...rel.split('/')));
    size += bytes.length;
    const p = joinTarget(target ?? '', rel);
    resources.push(
      xml
        ? xmlResource(ctx, p, decodeText(bytes, undefined, true), path.join(file, rel))
        : { path: p, input: { type: 'binary', data: bytes } },
    );
  }
  return { kind: 'dir', resources, inputPath: file, inputSize: size };
}
