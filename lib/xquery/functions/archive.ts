/**
 * BaseX's Archive Module (docs.basex.org, "Archive Functions"), ZIP archives only, as saxon-js
 * extension functions in namespace `http://basex.org/modules/archive` (prefix `archive`):
 *
 *   archive:create($entries as item()*, $contents as item()*, $options as map(*)? := ()) as xs:base64Binary
 *   archive:entries($archive) as element(archive:entry)*
 *   archive:options($archive) as map(*)
 *   archive:extract-text($archive, $entries as item()* := (), $encoding as xs:string? := ()) as xs:string*
 *   archive:extract-binary($archive, $entries as item()* := ()) as xs:base64Binary*
 *   archive:update($archive, $entries as item()*, $contents as item()*) as xs:base64Binary
 *   archive:delete($archive, $entries as item()*) as xs:base64Binary
 *
 * `$archive` is an xs:base64Binary or xs:hexBinary value; BaseX also takes a file path or URI,
 * which would read the host's files: refused here (XPTY0004). Entries are strings or
 * `archive:entry` elements (the name as text, optional attributes `last-modified`,
 * `compression-level` 0-9 and `encoding` of a string content); an empty `$entries` selects all.
 * Contents are strings (written UTF-8, or in the entry's encoding) or binary items. Options of
 * archive:create: `format` (`zip` only: other formats are `archive:format`), `algorithm`
 * (`deflate` default, `stored`). archive:entries gives BaseX's descriptor
 * `<archive:entry size=".." last-modified=".." compressed-size="..">name</archive:entry>`.
 *
 * Reading is bounded (functions/support/zip.ts): at most 10,000 entries and 256 MiB uncompressed in
 * all, and no entry above 1 MiB that expands more than 1,000 times; an archive beyond a bound
 * is refused as a whole with `[archive:error] Operation failed: …` before anything is inflated.
 * Errors, with BaseX's codes and messages: archive:number (entries and contents differ in
 * number), archive:descriptor (empty name, bad level or timestamp), archive:encode (unknown
 * encoding, text that does not decode), archive:format (format or algorithm not supported),
 * archive:error (an archive that cannot be read).
 */
import { escapeAttribute, escapeText } from '../../xml/escape';
import { castString, isNode, registerFunctions, stringValue, xpathError, saxon, type XdmAtomic, type XdmItem, type XdmNode, type XdmValue } from '../../saxon';
import { moduleError, readOptions } from './support/option-maps';
import { MODULE_NAMESPACES } from '../module-namespaces';
import { elementFromXml } from './support/elements';
import { base64Item, binaryBytes, encode } from './convert';
import { entryBytes, readZipEntries, writeZip, ZipError, type DosDateTime, type NewEntry, type ZipEntry, type ZipLimits } from './support/zip';

const ARCHIVE_NS = MODULE_NAMESPACES.archive;

/** The bounds of every archive read (see the file comment). */
export const ARCHIVE_LIMITS: ZipLimits = { maxEntries: 10_000, maxTotalBytes: 256 * 1024 * 1024, maxRatio: 1000 };

const CREATE_OPTIONS = { format: 'string', algorithm: 'string' } as const;
const DEFAULT_LEVEL = 8;

const error = (name: string, message: string): Error => moduleError('archive', name, message);

/** Runs a read of the archive; what the ZIP reader refuses is `archive:error`. */
function reading<T>(fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    if (e instanceof ZipError) throw error('error', `Operation failed: ${e.message}.`);
    throw e;
  }
}

function archiveBytes(value: XdmValue, fn: string): Buffer {
  return binaryBytes(value[0], `archive:${fn}`);
}

function entriesOf(bytes: Buffer): ZipEntry[] {
  return reading(() => readZipEntries(bytes, ARCHIVE_LIMITS)).filter((e) => !e.directory);
}

// ------------------------------------------------------------------------------ descriptors

const isEntryElement = (item: XdmItem): item is XdmNode =>
  isNode(item) && item.nodeType === 1 && (item as { localName?: string }).localName === 'entry' && (item as { namespaceURI?: string }).namespaceURI === ARCHIVE_NS;

/** An entry descriptor's name: a string or an `archive:entry` element (XPTY0004 otherwise). */
function descriptorName(item: XdmItem): string {
  if (isEntryElement(item)) return (item as unknown as { textContent: string }).textContent;
  const atomic = item as XdmAtomic;
  if (!isNode(item) && (atomic.code === 'AS' || atomic.code?.startsWith('AS'))) return String(atomic);
  throw xpathError(`archive:entry element or xs:string expected, found ${isNode(item) ? 'a node' : String(atomic)}.`, 'XPTY0004');
}

/** The names an `$entries` argument selects; undefined: all (absent or empty). */
function selection(arg: XdmValue | undefined): Set<string> | undefined {
  return arg && arg.length > 0 ? new Set(arg.map(descriptorName)) : undefined;
}

const attribute = (node: XdmNode, name: string): string | undefined => {
  const value = (node as unknown as { getAttribute(n: string): string | null }).getAttribute(name);
  return value === null || value === '' ? undefined : value;
};

/** The entry to write for a descriptor and its content. */
function newEntry(descriptor: XdmItem, content: XdmItem, defaultLevel: number): NewEntry {
  const name = descriptorName(descriptor);
  if (name === '') throw error('descriptor', 'Name of ZIP entry must not be empty.');
  let level = defaultLevel;
  let modified = new Date();
  let encoding: string | undefined;
  if (isEntryElement(descriptor)) {
    const lvl = attribute(descriptor, 'compression-level');
    if (lvl !== undefined) {
      if (!/^[0-9]$/.test(lvl.trim())) throw error('descriptor', `Invalid compression level: '${lvl}'.`);
      level = Number(lvl.trim());
    }
    const mod = attribute(descriptor, 'last-modified');
    if (mod !== undefined) modified = localDate(mod);
    encoding = attribute(descriptor, 'encoding');
  }
  return { name, data: contentBytes(content, encoding), level, modified };
}

/** A timestamp as the local time its fields name (ZIP keeps local time without a zone). */
function localDate(text: string): Date {
  let lexical: string;
  try {
    lexical = castString(text, 'dateTime').toString();
  } catch {
    throw error('descriptor', `xs:dateTime value is invalid : '${text}'.`);
  }
  const [, y, mo, d, h, mi, s] = /^(-?\d+)-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)/.exec(lexical) ?? [];
  return new Date(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s));
}

function contentBytes(content: XdmItem, encoding: string | undefined): Uint8Array {
  const atomic = content as XdmAtomic;
  if (!isNode(content) && (atomic.code === 'A2' || atomic.code === 'AX')) return binaryBytes(content, 'archive:create');
  if (!isNode(content) && atomic.code?.startsWith('AS')) {
    try {
      return encode(String(atomic), encoding);
    } catch (e) {
      if (encoding !== undefined && (e as { code?: string }).code === `Q{${MODULE_NAMESPACES.convert}}encoding`) throw error('encode', `Unknown encoding '${encoding}'.`);
      if (encoding !== undefined) throw error('encode', `String conversion: ${(e as Error).message}`);
      throw e;
    }
  }
  throw xpathError(`archive:create: xs:string or binary item expected, found ${isNode(content) ? 'a node' : String(atomic)}.`, 'XPTY0004');
}

/** Descriptors and contents paired (archive:number when they differ in number). */
function pairs(descriptors: XdmValue, contents: XdmValue): [XdmItem, XdmItem][] {
  if (descriptors.length !== contents.length) {
    throw error('number', `Number of entries and contents differs: ${descriptors.length} vs. ${contents.length}.`);
  }
  return descriptors.map((d, i) => [d, contents[i]]);
}

// ------------------------------------------------------------------------------ functions

function create([descriptors, contents, options]: XdmValue[]): XdmValue {
  const opts = readOptions(options, CREATE_OPTIONS);
  const format = String(opts.format ?? 'zip').toLowerCase();
  if (format !== 'zip') throw error('format', `format not supported: '${opts.format}'.`);
  const algorithm = String(opts.algorithm ?? 'deflate').toLowerCase();
  if (algorithm !== 'deflate' && algorithm !== 'stored') throw error('format', `algorithm not supported: '${opts.algorithm}'.`);
  const level = algorithm === 'stored' ? 0 : DEFAULT_LEVEL;
  return [base64Item(writeZip(pairs(descriptors, contents).map(([d, c]) => newEntry(d, c, level))))];
}

const dateTime = (t: DosDateTime): string => {
  const two = (n: number) => String(n).padStart(2, '0');
  return `${t.year}-${two(t.month)}-${two(t.day)}T${two(t.hour)}:${two(t.minute)}:${two(t.second)}`;
};

function entries([archive]: XdmValue[]): XdmValue {
  return entriesOf(archiveBytes(archive, 'entries')).map((e) => {
    const xml =
      `<archive:entry xmlns:archive="${ARCHIVE_NS}" size="${e.size}" last-modified="${escapeAttribute(dateTime(e.modified))}" ` +
      `compressed-size="${e.compressedSize}">${escapeText(e.name)}</archive:entry>`;
    return elementFromXml(xml);
  });
}

function options([archive]: XdmValue[]): XdmValue {
  const list = entriesOf(archiveBytes(archive, 'options'));
  const map = new (saxon().XdmMap)();
  map.inSituPut(stringValue('format'), [stringValue('zip')]);
  map.inSituPut(stringValue('algorithm'), [stringValue(list.some((e) => e.method === 8) || list.length === 0 ? 'deflate' : 'stored')]);
  return [map as XdmItem];
}

/** The bytes of the selected entries, in archive order. */
function extract(archive: XdmValue, names: XdmValue | undefined, fn: string): Buffer[] {
  const bytes = archiveBytes(archive, fn);
  const wanted = selection(names);
  return entriesOf(bytes)
    .filter((e) => wanted === undefined || wanted.has(e.name))
    .map((e) => reading(() => entryBytes(bytes, e)));
}

function extractText([archive, names, encoding]: XdmValue[]): XdmValue {
  const name = encoding && encoding.length > 0 ? String(encoding[0]) : 'UTF-8';
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(name, { fatal: true });
  } catch {
    throw error('encode', `Unknown encoding '${name}'.`);
  }
  return extract(archive, names, 'extract-text').map((b) => {
    try {
      return stringValue(decoder.decode(b));
    } catch {
      throw error('encode', `String conversion: the input is not valid ${name} text.`);
    }
  });
}

function extractBinary([archive, names]: XdmValue[]): XdmValue {
  return extract(archive, names, 'extract-binary').map(base64Item);
}

/** The archive's entries as new entries (their data, method and time), minus `dropped`. */
function kept(bytes: Buffer, dropped: ReadonlySet<string>): NewEntry[] {
  return entriesOf(bytes)
    .filter((e) => !dropped.has(e.name))
    .map((e) => {
      const t = e.modified;
      const data = reading(() => entryBytes(bytes, e));
      return { name: e.name, data, level: e.method === 0 ? 0 : DEFAULT_LEVEL, modified: new Date(t.year, t.month - 1, t.day, t.hour, t.minute, t.second) };
    });
}

function update([archive, descriptors, contents]: XdmValue[]): XdmValue {
  const bytes = archiveBytes(archive, 'update');
  const added = pairs(descriptors, contents).map(([d, c]) => newEntry(d, c, DEFAULT_LEVEL));
  const replaced = new Set(added.map((e) => e.name));
  return [base64Item(writeZip([...kept(bytes, replaced), ...added]))];
}

function del([archive, names]: XdmValue[]): XdmValue {
  const bytes = archiveBytes(archive, 'delete');
  return [base64Item(writeZip(kept(bytes, selection(names) ?? new Set())))];
}

/** Registers the archive: functions with saxon-js (the list in extension-functions.ts, in query workers). */
export function registerArchiveFunctions(): void {
  registerFunctions(ARCHIVE_NS, {
    create: { sig: '1F r[1A2] a[*,*,?FM]', arity: [2, 3], impl: create },
    entries: { sig: '1F r[*N] a[1A]', impl: entries },
    options: { sig: '1F r[1FM] a[1A]', impl: options },
    'extract-text': { sig: '1F r[*AS] a[1A,*,?AS]', arity: [1, 2, 3], impl: extractText },
    'extract-binary': { sig: '1F r[*A2] a[1A,*]', arity: [1, 2], impl: extractBinary },
    update: { sig: '1F r[1A2] a[1A,*,*]', impl: update },
    delete: { sig: '1F r[1A2] a[1A,*]', impl: del },
  });
}
