/**
 * Query-string parsing of spec §1.3: pairs split on `&`, values percent-decoded with `+` as a
 * space, pairs without `=` ignored, repeated names kept in order. Express's own `req.query`
 * (qs) would turn `a[b]=1` into objects and is not used.
 */

export type QueryPairs = ReadonlyArray<readonly [name: string, value: string]>;

function decode(text: string): string {
  if (!text.includes('%') && !text.includes('+')) return text;
  const spaced = text.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(spaced);
  } catch {
    return spaced;
  }
}

export function parseQueryString(url: string): QueryPairs {
  const q = url.indexOf('?');
  if (q < 0) return [];
  const pairs: Array<[string, string]> = [];
  for (const part of url.slice(q + 1).split('&')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    pairs.push([decode(part.slice(0, eq)), decode(part.slice(eq + 1))]);
  }
  return pairs;
}

/** Groups pairs by name, keeping first-seen name order and value order. */
export function groupPairs(pairs: QueryPairs): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const [name, value] of pairs) {
    const values = map.get(name);
    if (values) values.push(value);
    else map.set(name, [value]);
  }
  return map;
}
