/**
 * Stop-word lists and thesauri named by a query (XQuery Full Text 1.0 §3.4.5, §3.4.7). A URI
 * without a scheme names a stored resource (`db/path`), read with the user's read permission
 * through the running query's source; any other URI is a host file, readable only under the file
 * rule of fn:unparsed-text (guards/resource-guard.ts: allowFileAccess, admins). A list or thesaurus
 * that cannot be read is FTST0008 / FTST0018, as in BaseX. What was read is kept for the run.
 */
import { parseToSaxonDocument, xpathError, type XdmNode } from '../../saxon';
import { activeDocumentSource } from '../worker/documents/source';
import { readResourceText } from '../worker/guards/resource-guard';

/** One thesaurus: for each term (folded to lower case), its synonyms with their relationship. */
export type Thesaurus = ReadonlyMap<string, readonly { readonly term: string; readonly relationship: string }[]>;

const perRun = new WeakMap<object, Map<string, unknown>>();

function cached<T>(key: string, load: () => T): T {
  const run = activeDocumentSource() as object;
  let cache = perRun.get(run);
  if (!cache) {
    cache = new Map();
    perRun.set(run, cache);
  }
  if (!cache.has(key)) cache.set(key, load());
  return cache.get(key) as T;
}

function read(uri: string, code: string, what: string): string {
  try {
    return readResourceText(uri);
  } catch {
    throw xpathError(`${what} "${uri}" not found.`, code);
  }
}

/** The words of the stop-word list at `uri` (whitespace-separated, as BaseX reads them). */
export function stopWordList(uri: string): readonly string[] {
  return cached(`stop:${uri}`, () => read(uri, 'FTST0008', 'Stop word file').split(/\s+/u).filter((w) => w.length > 0));
}

const THESAURUS_NS = 'http://www.w3.org/2007/xqftts/thesaurus';

/** Inverse relationships (ISO 2788 / ANSI Z39.19: BT–NT, USE–UF; RT is its own inverse). */
const INVERSE: Readonly<Record<string, string>> = {
  bt: 'nt', nt: 'bt', btg: 'ntg', ntg: 'btg', btp: 'ntp', ntp: 'btp', use: 'uf', uf: 'use', rt: 'rt',
  'broader term': 'narrower term', 'narrower term': 'broader term', 'related term': 'related term',
  'preferred term': 'non-preferred term', 'non-preferred term': 'preferred term',
};

function childElements(node: Element | Document, local: string): Element[] {
  return Array.from(node.childNodes).filter(
    (c): c is Element => c.nodeType === 1 && (c as Element).localName === local && (c as Element).namespaceURI === THESAURUS_NS,
  );
}

/**
 * A thesaurus document in the format of the W3C test suite that BaseX reads:
 * `<thesaurus><entry><term/><synonym><term/><relationship/><synonym>…</synonym></synonym></entry>`;
 * every link is also read backwards with the inverse relationship.
 */
export function thesaurusOf(root: XdmNode): Thesaurus {
  const map = new Map<string, { term: string; relationship: string }[]>();
  const add = (from: string, term: string, relationship: string): void => {
    const key = from.toLowerCase();
    const list = map.get(key) ?? [];
    list.push({ term, relationship });
    map.set(key, list);
  };
  const text = (n: Element, local: string): string => childElements(n, local)[0]?.textContent?.trim() ?? '';
  const link = (from: string, syn: Element): void => {
    const term = text(syn, 'term');
    const rel = text(syn, 'relationship').toLowerCase();
    if (!term) return;
    add(from, term, rel);
    add(term, from, INVERSE[rel] ?? rel);
    for (const inner of childElements(syn, 'synonym')) link(term, inner);
  };
  const node = root as unknown as Element | Document;
  const top = node.nodeType === 9 ? (node as Document).documentElement : (node as Element);
  if (top) for (const entry of childElements(top, 'entry')) for (const syn of childElements(entry, 'synonym')) link(text(entry, 'term'), syn);
  return map;
}

/** The thesaurus at `uri` (FTST0018 when it cannot be read or parsed). */
export function thesaurus(uri: string): Thesaurus {
  return cached(`thes:${uri}`, () => {
    let root: XdmNode;
    try {
      root = parseToSaxonDocument(read(uri, 'FTST0018', 'Thesaurus'));
    } catch (e) {
      if ((e as { code?: string }).code === 'FTST0018') throw e;
      throw xpathError(`Thesaurus "${uri}" could not be parsed.`, 'FTST0018');
    }
    return thesaurusOf(root);
  });
}

/** Abbreviations of relationship names (BaseX reads both spellings). */
const RELATIONSHIP_NAMES: Readonly<Record<string, string>> = {
  'broader term': 'bt', 'narrower term': 'nt', 'related term': 'rt', 'preferred term': 'use', 'non-preferred term': 'uf', 'top term': 'tt',
};

function sameRelationship(a: string, b: string): boolean {
  const n = (r: string): string => RELATIONSHIP_NAMES[r.toLowerCase()] ?? r.toLowerCase();
  return n(a) === n(b);
}

/** The terms `phrase` expands to in `thes` (itself excluded), following links from `min` to `max` levels deep. */
export function expand(thes: Thesaurus, phrase: string, relationship: string | undefined, min: number, max: number): string[] {
  const found: string[] = [];
  const seen = new Set([phrase.toLowerCase()]);
  let frontier = [phrase];
  for (let level = 1; level <= max && frontier.length > 0; level++) {
    const next: string[] = [];
    for (const term of frontier) {
      for (const syn of thes.get(term.toLowerCase()) ?? []) {
        if (relationship !== undefined && !sameRelationship(syn.relationship, relationship)) continue;
        const key = syn.term.toLowerCase();
        if (seen.has(key)) continue;
        seen.add(key);
        next.push(syn.term);
        if (level >= min) found.push(syn.term);
      }
    }
    frontier = next;
  }
  return found;
}
