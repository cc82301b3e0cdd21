/**
 * The postings a store that keeps the full-text index writes for a document (store/types.ts
 * `FullTextTokenizer`): each text node with tokens, numbered as fulltext-stored.ts reads them,
 * with its tokens folded by the database's options, by the index's own rules (folded-tokens.ts),
 * from the stored bytes parsed as query workers parse them.
 *
 * A large document is parsed and tokenized on an offload thread (threads/offload.ts), as a large
 * upload is converted, so that storing or indexing it does not stall the server's other requests;
 * this module therefore loads only the parser and folded-tokens.ts, not the engine. The tokens of
 * a node cross as one string, which the store splits (store/postgres/fulltext.ts): far fewer
 * values to copy between threads than one per token.
 */
import type { DatabaseOptions, FullTextPostings, FullTextTokenizer } from '../../../store/types';
import { offload } from '../../../threads/offload';
import { parseToCompactTree } from '../../../tree/build-tree';
import { foldOf, textRows, textTokens } from './folded-tokens';

/** The postings of `xml` under `options`, on the calling thread (the offload thread's entry). */
export function storePostings(xml: Buffer | string, options: Readonly<DatabaseOptions>): FullTextPostings {
  const tree = parseToCompactTree(typeof xml === 'string' ? xml : xml.toString('utf8'));
  const fold = foldOf(options);
  const rows = textRows(tree);
  const nodes: number[] = [];
  const tokens: string[] = [];
  for (let node = 0; node < rows.length; node++) {
    const found = textTokens(tree.strings.at(tree.ref[rows[node]]), fold);
    if (found.length === 0) continue;
    nodes.push(node);
    tokens.push(found.join(' '));
  }
  return { nodes, tokens };
}

export const fullTextPostings: FullTextTokenizer = (xml, options) =>
  offload(xml.length, __filename, 'storePostings', [xml, options], () => storePostings(xml, options));
