/**
 * `s` as a string of its own. A name or value a parser reports is a slice of the document's text,
 * and V8 keeps the whole text alive for as long as any slice of it lives (a slice of 13
 * characters or more is a view of its parent, not a copy): what outlives the parse (a tree's
 * names, the keys of a document's summary) must not be slices of its source. Concatenation
 * makes a rope, which slicing flattens into a new string.
 */
export function ownCopy(s: string): string {
  return (' ' + s).slice(1);
}
