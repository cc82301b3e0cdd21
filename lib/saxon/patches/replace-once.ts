/** The text edit of the source patches (source.ts): one exact occurrence, replaced, or an error. */

/** `source` with its one occurrence of `original` replaced by `patched`; throws `error` when there is none, or more than one. */
export function replaceOnce(source: string, original: string, patched: string, error: string): string {
  const at = source.indexOf(original);
  if (at < 0 || source.indexOf(original, at + 1) >= 0) throw new Error(error);
  return source.slice(0, at) + patched + source.slice(at + original.length);
}
