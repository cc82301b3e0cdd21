/**
 * The full-text index in PostgreSQL (store/types.ts "The full-text index"): one row per text node
 * with tokens of each XML document of a database with FTINDEX (`xmldb_fulltext`: database, path,
 * the node's number, its folded tokens in order, so a token's position in its node is its place in
 * the array), written by the write view in the write's own transaction, so that documents and
 * postings commit together or not at all, and every server sees both at once.
 *
 * `xmldb_databases.fulltext` says that a database's rows are its complete index: set when the
 * index is built (CREATE INDEX FULLTEXT, db:optimize, options, a new database) and kept by every
 * write with the engine's tokenizer. A write by a store given no tokenizer, or a database indexed
 * before this table existed, clears it: the engine then derives the index from the documents
 * (answers are the same, only slower) until the index is built again.
 *
 * Lookups use a GIN index over the token arrays: `tokens && $words` finds the nodes holding any of
 * the words, exactly, as the engine's own index does. PostgreSQL's text search (`tsvector`) was not
 * used: its parser splits words differently from the one rule of `contains text`
 * (fulltext/tokens.ts) and its configurations fold case and stem by their own dictionaries, while
 * the index must hold exactly the engine's tokens, folded by CASESENS and DIACRITICS (a tsvector
 * of our own tokens, `array_to_tsvector`, would fit, but keeps no order and gains nothing for
 * "nodes holding one of these tokens" over a GIN index of the arrays).
 */
import { hasFullTextIndex } from '../index-kinds';
import type { DatabaseOptions, FullTextFound, FullTextLookup, FullTextTokenizer } from '../types';
import type { Session } from './session';

/** The rows of the postings of `path` in `db`. */
export async function insertPostings(session: Session, tokenize: FullTextTokenizer, db: string, path: string, xml: Buffer, options: DatabaseOptions): Promise<void> {
  const postings = await tokenize(xml, options);
  if (postings.nodes.length === 0) return;
  // A node's tokens cross as one string split at spaces (store/types.ts `FullTextPostings`):
  // several times cheaper than JSON at XMark's 100,000 nodes.
  await session.query(
    `INSERT INTO xmldb_fulltext (db, path, node, tokens)
     SELECT $1, $2, n, string_to_array(t, ' ') FROM unnest($3::int[], $4::text[]) AS p(n, t)`,
    [db, path, postings.nodes, postings.tokens],
  );
}

/**
 * Makes the rows of `db` its index under `options` (the tokenizer given) or removes them (no
 * index, or no tokenizer: then the engine derives it), reading every XML document of the database
 * inside the write's transaction.
 */
export async function rebuildIndex(session: Session, tokenize: FullTextTokenizer | undefined, db: string): Promise<void> {
  await session.query('DELETE FROM xmldb_fulltext WHERE db = $1', [db]);
  const [{ options }] = await session.query<{ options: DatabaseOptions }>('SELECT options FROM xmldb_databases WHERE name = $1', [db]);
  const indexed = tokenize !== undefined && hasFullTextIndex(options);
  await session.query('UPDATE xmldb_databases SET fulltext = $2 WHERE name = $1', [db, indexed]);
  if (!indexed) return;
  const docs = await session.query<{ path: string; blob: string }>("SELECT path, blob FROM xmldb_resources WHERE db = $1 AND type = 'xml'", [db]);
  for (const doc of docs) {
    const chunks = await session.query<{ data: Buffer }>('SELECT data FROM xmldb_chunks WHERE blob = $1 ORDER BY seq', [doc.blob]);
    await insertPostings(session, tokenize, db, doc.path, Buffer.concat(chunks.map((c) => c.data)), options);
  }
}

/** What `ReadView.fullText` answers for `db`: undefined unless its rows are its complete index. */
export async function readFullText(session: Session, db: string, lookup: FullTextLookup): Promise<FullTextFound | undefined> {
  const [row] = await session.query<{ options: DatabaseOptions; fulltext: boolean }>('SELECT options, fulltext FROM xmldb_databases WHERE name = $1', [db]);
  if (!row?.fulltext || !hasFullTextIndex(row.options)) return undefined;
  if ('vocabularyOf' in lookup) {
    if (lookup.vocabularyOf.length === 0) return { vocabularies: [] };
    const rows = await session.query<{ path: string; tokens: string[] }>(
      'SELECT path, array_agg(DISTINCT t) AS tokens FROM xmldb_fulltext f, unnest(f.tokens) t WHERE f.db = $1 AND f.path = ANY($2::text[]) GROUP BY path',
      [db, lookup.vocabularyOf],
    );
    return { vocabularies: rows.map((r) => [r.path, r.tokens] as const) };
  }
  if (lookup.tokens.length === 0) return { postings: [] };
  const rows = await session.query<{ path: string; nodes: number[] }>(
    'SELECT path, array_agg(node ORDER BY node) AS nodes FROM xmldb_fulltext WHERE db = $1 AND tokens && $2::text[] GROUP BY path',
    [db, lookup.tokens],
  );
  return { postings: rows.map((r) => [r.path, r.nodes] as const) };
}

/** The copy `to` of the database `from` gets its index too (the same documents and options). */
export async function copyIndex(session: Session, from: string, to: string): Promise<void> {
  await session.query('DELETE FROM xmldb_fulltext WHERE db = $1', [to]);
  await session.query('INSERT INTO xmldb_fulltext (db, path, node, tokens) SELECT $2, path, node, tokens FROM xmldb_fulltext WHERE db = $1', [from, to]);
  await session.query('UPDATE xmldb_databases SET fulltext = (SELECT fulltext FROM xmldb_databases WHERE name = $1) WHERE name = $2', [from, to]);
}

/**
 * Drops the postings of the documents of `db` that `pathSql` selects: a condition on `path` (or `r.path`) in
 * which `$2`, `$3`, … are `params` (the store's own path conditions, never a client's text).
 */
export async function dropPostings(session: Session, db: string, pathSql: string, params: readonly unknown[]): Promise<void> {
  await session.query(`DELETE FROM xmldb_fulltext r WHERE r.db = $1 AND ${pathSql}`, [db, ...params]);
}

/** Moves the postings of renamed documents with them. */
export async function movePostings(session: Session, db: string, moves: readonly { readonly from: string; readonly to: string }[]): Promise<void> {
  // xmldb_fulltext has no unique key, so that its rows move in one statement whatever the order
  await session.query('UPDATE xmldb_fulltext f SET path = m.dst FROM unnest($2::text[], $3::text[]) AS m(src, dst) WHERE f.db = $1 AND f.path = m.src', [db, moves.map((m) => m.from), moves.map((m) => m.to)]);
}

/** Whether the tables hold the full-text index of `db`. */
export async function indexKept(session: Session, db: string): Promise<boolean> {
  const rows = await session.query<{ fulltext: boolean }>('SELECT fulltext FROM xmldb_databases WHERE name = $1', [db]);
  return rows[0]?.fulltext === true;
}

/**
 * Writes the postings of the document just stored at `path`, if the tables hold the index of
 * `db`; a write without the tokenizer drops them instead (the engine then derives the index).
 */
export async function indexDocument(session: Session, tokenize: FullTextTokenizer | undefined, db: string, path: string, data: Buffer): Promise<void> {
  const [row] = await session.query<{ options: DatabaseOptions; fulltext: boolean }>('SELECT options, fulltext FROM xmldb_databases WHERE name = $1', [db]);
  if (!row.fulltext) return;
  if (tokenize) await insertPostings(session, tokenize, db, path, data, row.options);
  else await rebuildIndex(session, undefined, db);
}
