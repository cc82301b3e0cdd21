/**
 * The largest resource path every store holds: at most MAX_PATH_BYTES bytes (UTF-8, segments
 * joined with `/`), MAX_PATH_SEGMENTS segments, and MAX_NAME_BYTES bytes in one segment.
 *
 * - A segment is a file or folder name in the file store: NAME_MAX is 255 bytes on ext4, XFS,
 *   btrfs, APFS and NTFS (255 UTF-16 units there).
 * - The whole file name handed to the system must fit PATH_MAX, 4096 bytes with its NUL on Linux.
 *   The longest one the file store builds for a resource is its copy in a backup,
 *   `{dbPath}/.backups./{backup name}/{path}`, or a temp file `.{12 characters}.tmp.` beside it;
 *   with a name of 255 bytes and a path of MAX_PATH_BYTES, the data folder may take
 *   MAX_DATA_FOLDER_BYTES.
 * - PostgreSQL keeps `(db, path)` as the primary key of its resources: a B-tree entry holds at most
 *   2704 bytes (a third of an 8 KiB page), which a name of 255 bytes and a path of 1 KiB fit.
 * - Segments are nested folders on disk, each created, listed and removed on its own: 128 levels
 *   are far more than real trees use, and keep those walks short.
 */

/** Longest name of a file or folder on common file systems, in bytes; also the longest database name. */
export const MAX_NAME_BYTES = 255;

/** Longest resource path, in UTF-8 bytes. */
export const MAX_PATH_BYTES = 1024;

/** Most segments (names between `/`) of a resource path. */
export const MAX_PATH_SEGMENTS = 128;

/** PATH_MAX of Linux, with the terminating NUL. */
export const PATH_MAX = 4096;

/**
 * Longest absolute data folder, in bytes: PATH_MAX less the longest file name below it, rounded
 * down. That is `/.backups./` (11), a backup name (255), `/` and the resource path (1025), a temp
 * file name `/.{12 characters}.tmp.` at most (19), and the NUL: 1311 bytes, leaving 2785.
 */
export const MAX_DATA_FOLDER_BYTES = 2560;

/** The measures of a path that the limits bound. */
export interface PathSize {
  readonly bytes: number;
  readonly segments: number;
  /** Bytes of the longest segment. */
  readonly longest: number;
}

/** Measures a path given as its segments. */
export function pathSize(segments: readonly string[]): PathSize {
  let bytes = Math.max(0, segments.length - 1);
  let longest = 0;
  for (const segment of segments) {
    const n = Buffer.byteLength(segment, 'utf8');
    bytes += n;
    if (n > longest) longest = n;
  }
  return { bytes, segments: segments.length, longest };
}

/** Whether a path of this size is one every store holds. */
export function withinPathLimits(size: PathSize): boolean {
  return size.bytes <= MAX_PATH_BYTES && size.segments <= MAX_PATH_SEGMENTS && size.longest <= MAX_NAME_BYTES;
}
