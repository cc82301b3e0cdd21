/**
 * The postings a store that keeps the full-text index writes for a document (store/types.ts
 * `FullTextTokenizer`): each text node with tokens, numbered as fulltext-stored.ts reads them,
 * with its tokens folded by the database's options, by the index's own tokenizer
 * (fulltext-index.ts `textTokens`), from the stored bytes parsed as query workers parse them.
 */
import type { FullTextPosting, FullTextTokenizer } from '../../../store/types';
import { parseToCompactTree } from '../../../tree/build-tree';
import { indexOptions } from './fulltext-candidates';
import { textTokens } from './fulltext-index';
import { textRows } from './fulltext-stored';

export const fullTextPostings: FullTextTokenizer = (xml, options) => {
  const tree = parseToCompactTree(xml);
  const { fold } = indexOptions(options);
  const rows = textRows(tree);
  const out: FullTextPosting[] = [];
  for (let node = 0; node < rows.length; node++) {
    const tokens = textTokens(tree.strings[tree.value[rows[node]]], fold);
    if (tokens.length > 0) out.push({ node, tokens });
  }
  return out;
};
