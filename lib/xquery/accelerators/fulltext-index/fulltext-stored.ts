/**
 * The full-text index as a store keeps it (store/types.ts "The full-text index": the PostgreSQL
 * store writes it with the documents): the lookups of a query in it, and the numbering its
 * postings share with the parsed documents.
 *
 * A posting names a text node by its number among the text nodes of its document in document
 * order (`textRows`, folded-tokens.ts): the data model's order, which any parse of the stored bytes gives, however
 * the tree lays out its rows. Lookups answer these numbers; `candidateTexts`
 * (fulltext-candidates.ts) turns them into nodes of the parsed document.
 *
 * A query run asks the store once per database whether it keeps the index, and once per set of
 * tokens (all documents of the database in one answer); words that select tokens by a rule
 * (stemming, wildcards, fuzzy) select them from the database's vocabulary, kept while the
 * database's documents and options stay the same. The answers are those of the request's view,
 * so they are never staler than its documents.
 */
import type { XdmNode } from '../../../saxon';
import type { FullTextFound, FullTextLookup } from '../../../store/types';
import { treeNode } from '../../../tree/tree-dom';
import { activeDatabases, type DatabaseAccess } from '../../worker/documents/database-access';
import { groupByStem, type TokenSelector } from './fulltext-index';
import { textRows } from './folded-tokens';
import { stemmerFor } from '../../fulltext/stemmers';

/** A stored document's index in the store: its text nodes holding a selected token, and the node of a number. */
export interface StoredIndex {
  lookup(selector: TokenSelector): number[];
  text(node: number): XdmNode;
  /** The string value of the text node of a number, read from the tree's rows. */
  value(node: number): string;
}

/** What a run learned of one database's stored index. */
interface DatabaseIndex {
  /** Per set of tokens (joined by NUL): per document path, its text node numbers. */
  readonly postings: Map<string, ReadonlyMap<string, readonly number[]>>;
  vocabulary?: Vocabulary;
}

/** A database's vocabulary, and per language its tokens by stem. */
interface Vocabulary {
  /** What decides the vocabulary: the database's options and the versions of its resources. */
  readonly key: string;
  readonly tokens: readonly string[];
  readonly stems: Map<string, Map<string, string[]>>;
}

/** Per run (its database access), per database: the stored index, or null when the store keeps none. */
const perRun = new WeakMap<DatabaseAccess, Map<string, DatabaseIndex | null>>();
/**
 * The vocabularies of the databases read last, kept across runs (the store reads every row for
 * one) while their documents and options stay as they were.
 */
const vocabularies = new Map<string, Vocabulary>();
const KEPT_VOCABULARIES = 8;
/** Per parsed document: `textRows` of its tree. */
const rowsOf = new WeakMap<object, Int32Array>();

function ask(access: DatabaseAccess, db: string, lookup: FullTextLookup): FullTextFound | undefined {
  return access.storedFullText?.(db, lookup);
}

function databaseIndex(access: DatabaseAccess, db: string): DatabaseIndex | undefined {
  let byDb = perRun.get(access);
  if (!byDb) perRun.set(access, (byDb = new Map()));
  let index = byDb.get(db);
  if (index === undefined) {
    index = ask(access, db, { tokens: [] }) === undefined ? null : { postings: new Map() };
    byDb.set(db, index);
  }
  return index ?? undefined;
}

function vocabulary(access: DatabaseAccess, db: string, index: DatabaseIndex): Vocabulary {
  if (index.vocabulary) return index.vocabulary;
  // a resource's etag names its content (store/types.ts), the options the folding
  const key = JSON.stringify([access.databaseInfo(db).options, access.resources(db).map((r) => [r.path, r.etag])]);
  let kept = vocabularies.get(db);
  if (kept?.key !== key) {
    const found = ask(access, db, { vocabulary: true });
    kept = { key, tokens: found && 'vocabulary' in found ? found.vocabulary : [], stems: new Map() };
  }
  vocabularies.delete(db);
  vocabularies.set(db, kept);
  for (const name of vocabularies.keys()) if (vocabularies.size > KEPT_VOCABULARIES) vocabularies.delete(name);
  index.vocabulary = kept;
  return kept;
}

/** The tokens of the database's vocabulary a selector selects (as fulltext-index.ts selects a document's). */
function selectedTokens(access: DatabaseAccess, db: string, index: DatabaseIndex, selector: TokenSelector): readonly string[] {
  if ('exact' in selector) return [selector.exact];
  if ('test' in selector) return vocabulary(access, db, index).tokens.filter(selector.test);
  const stem = stemmerFor(selector.language);
  if (!stem) return [];
  const lang = selector.language ?? '';
  const { tokens, stems } = vocabulary(access, db, index);
  let groups = stems.get(lang);
  if (!groups) stems.set(lang, (groups = groupByStem(tokens.map((t) => [t, t] as const), stem)));
  return groups.get(selector.stem) ?? [];
}

function postings(access: DatabaseAccess, db: string, index: DatabaseIndex, tokens: readonly string[]): ReadonlyMap<string, readonly number[]> {
  const key = [...tokens].sort().join('\u0000');
  let found = index.postings.get(key);
  if (!found) {
    const answer = tokens.length === 0 ? undefined : ask(access, db, { tokens });
    found = new Map(answer && 'postings' in answer ? answer.postings : []);
    index.postings.set(key, found);
  }
  return found;
}

/**
 * The stored index of the document `doc` when its store keeps one for its database; undefined
 * when the engine derives it (fulltext-index.ts).
 */
export function storedIndexOf(doc: XdmNode): StoredIndex | undefined {
  const tree = treeNode(doc);
  if (!tree) return undefined;
  const access = activeDatabases();
  const where = access.locate(doc);
  if (!where || !access.hasDatabase(where.db)) return undefined;
  const index = databaseIndex(access, where.db);
  if (!index) return undefined;
  const { db, path } = where;
  return {
    lookup: (selector) => [...(postings(access, db, index, selectedTokens(access, db, index, selector)).get(path) ?? [])],
    text: (node) => tree.v.node(rowsOfDoc()[node]) as unknown as XdmNode,
    value: (node) => tree.v.tree.strings[tree.v.tree.value[rowsOfDoc()[node]]],
  };
  function rowsOfDoc(): Int32Array {
    let rows = rowsOf.get(doc);
    if (!rows) rowsOf.set(doc, (rows = textRows(tree!.v.tree)));
    return rows;
  }
}
