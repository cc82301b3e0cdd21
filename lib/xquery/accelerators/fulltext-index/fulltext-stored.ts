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
 * (stemming, wildcards, fuzzy) select them from the database's vocabulary, kept across runs and
 * brought up to date by reading the tokens of the documents written since (stored-vocabulary.ts). The answers are those of the request's view,
 * so they are never staler than its documents.
 */
import type { XdmNode } from '../../../saxon';
import type { FullTextFound, FullTextLookup } from '../../../store/types';
import { treeNode } from '../../../tree/tree-dom';
import { activeDatabases, type DatabaseAccess } from '../../worker/documents/database-access';
import type { TokenSelector } from './fulltext-index';
import { StoredVocabulary } from './stored-vocabulary';
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
  vocabulary?: StoredVocabulary;
}

/** Per run (its database access), per database: the stored index, or null when the store keeps none. */
const perRun = new WeakMap<DatabaseAccess, Map<string, DatabaseIndex | null>>();
/**
 * The vocabularies of the databases read last, kept across runs: the next run's reads only the
 * tokens of the documents written since (stored-vocabulary.ts).
 */
const vocabularies = new Map<string, StoredVocabulary>();
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

function vocabulary(access: DatabaseAccess, db: string, index: DatabaseIndex): StoredVocabulary {
  if (index.vocabulary) return index.vocabulary;
  const options = JSON.stringify(access.databaseInfo(db).options);
  let kept = vocabularies.get(db);
  if (kept?.options !== options) kept = StoredVocabulary.empty(options);
  const versions = new Map(access.resources(db).filter((r) => r.type === 'xml').map((r) => [r.path, r.etag]));
  kept = kept.updated(versions, (paths) => {
    const found = ask(access, db, { vocabularyOf: paths });
    return found && 'vocabularies' in found ? found.vocabularies : [];
  });
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
  return vocabulary(access, db, index).byStem(selector.language ?? '', stem).get(selector.stem) ?? [];
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
    value: (node) => tree.v.tree.strings.at(tree.v.tree.ref[rowsOfDoc()[node]]),
  };
  function rowsOfDoc(): Int32Array {
    let rows = rowsOf.get(doc);
    if (!rows) rowsOf.set(doc, (rows = textRows(tree!.v.tree)));
    return rows;
  }
}
