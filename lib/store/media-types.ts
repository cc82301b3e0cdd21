/** Media types of stored resources (spec §4 and §4.1). */
import type { ResourceType } from './types';

/** Suffix (lower case, without the dot) → media type, spec §4.1. */
const BY_SUFFIX: ReadonlyMap<string, string> = new Map([
  ['xml', 'application/xml'],
  ['txt', 'text/plain'],
  ['json', 'application/json'],
  ['csv', 'text/csv'],
  ['html', 'text/html'],
  ['htm', 'text/html'],
  ['xhtml', 'application/xhtml+xml'],
  ['png', 'image/png'],
  ['jpg', 'image/jpeg'],
  ['gif', 'image/gif'],
  ['svg', 'image/svg+xml'],
  ['pdf', 'application/pdf'],
  ['zip', 'application/zip'],
  ['css', 'text/css'],
  ['js', 'text/ecmascript'],
  ['xq', 'application/xquery'],
  ['xqm', 'application/xquery'],
  ['xquery', 'application/xquery'],
  ['xsl', 'text/xml'],
  ['xslt', 'application/xslt+xml'],
  ['bin', 'application/x-binary'],
]);

/** Suffixes whose media type an XML document keeps; every other document is application/xml. */
const XML_DOCUMENT_SUFFIXES: ReadonlySet<string> = new Set(['xsl', 'svg', 'xhtml']);

/** The media type for raw data without a known suffix. */
export const OCTET_STREAM = 'application/octet-stream';

/** The suffix of the last path segment, lower case, without the dot; '' if there is none. */
export function suffixOf(path: string): string {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  return dot <= 0 ? '' : name.slice(dot + 1).toLowerCase();
}

/** Media type of a name by its suffix (case-insensitive); application/octet-stream if unknown. */
export function mediaTypeOf(path: string): string {
  return BY_SUFFIX.get(suffixOf(path)) ?? OCTET_STREAM;
}

/** Content type of a stored XML document: application/xml unless the suffix names an XML type. */
export function xmlContentTypeOf(path: string): string {
  const suffix = suffixOf(path);
  return XML_DOCUMENT_SUFFIXES.has(suffix) ? (BY_SUFFIX.get(suffix) as string) : 'application/xml';
}

/** Content type listed for a resource of the given type at `path` (spec §4). */
export function contentTypeOf(type: ResourceType, path: string): string {
  return type === 'xml' ? xmlContentTypeOf(path) : mediaTypeOf(path);
}
