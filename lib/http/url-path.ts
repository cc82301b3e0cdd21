/** Spec §1.1: the URL path below the mount point → database name and database path. */
import { raise } from '../xmldb-error';
import { checkPathLimits } from '../store/resource-names';
import { HTTP_ERRORS } from './status';

export interface Target {
  /** Database name; undefined for `/rest` itself. */
  readonly db?: string;
  /** Path inside the database, segments joined with `/` (may be empty). */
  readonly path: string;
}

/**
 * `rawPath` is the still percent-encoded path below the mount point, without the query. A path
 * beyond the limits every store holds is refused here, before a body is read or a lock taken.
 */
export function parseTarget(rawPath: string): Target {
  const segments: string[] = [];
  for (const raw of rawPath.split('/')) {
    if (raw === '') continue;
    try {
      segments.push(decodeURIComponent(raw));
    } catch {
      throw raise(HTTP_ERRORS, 'INVALID_URL_X', rawPath);
    }
  }
  if (segments.length === 0) return { path: '' };
  const path = segments.slice(1).join('/');
  checkPathLimits(path);
  return { db: segments[0], path };
}
