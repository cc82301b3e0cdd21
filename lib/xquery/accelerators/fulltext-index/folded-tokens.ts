/**
 * How the full-text index folds the words of a text node: tokenized by the one rule of `contains
 * text` (fulltext/tokens.ts) and folded by the options the index was created with (CASESENS,
 * DIACRITICS), and how its text nodes are numbered. The engine's own index (fulltext-index.ts)
 * and the one a store keeps (fulltext-store-rows.ts, read by fulltext-stored.ts) share these
 * rules. This module and what it loads stay small: a store's tokenizer runs on offload threads
 * (threads/offload.ts), which load only it, the tokenizer and the parser.
 */
import type { DatabaseOptions } from '../../../store/types';
import { NodeKind as Row, type CompactTree } from '../../../tree/compact-tree';
import { normalizeToken, words } from '../../fulltext/tokens';

/** How tokens are folded: the index's CASESENS and DIACRITICS. */
export interface FoldOptions {
  readonly caseSensitive: boolean;
  readonly diacriticsSensitive: boolean;
}

/** The folding of a database's full-text index, from its options. */
export function foldOf(o: Readonly<DatabaseOptions>): FoldOptions {
  return { caseSensitive: o.casesens === true, diacriticsSensitive: o.diacritics === true };
}

/** A token folded as the index stores it. */
export function foldToken(word: string, o: FoldOptions): string {
  return normalizeToken(word, { case: o.caseSensitive ? 'sensitive' : 'insensitive', diacritics: o.diacriticsSensitive ? 'sensitive' : 'insensitive' });
}

/** The tokens of a text node's value, in order, folded as the index stores them. */
export function textTokens(value: string, o: FoldOptions): string[] {
  return words(value).map((w) => foldToken(w, o));
}

/**
 * The rows of the text nodes of a compact tree, by their number: a store's postings name a text
 * node by its number among the text nodes of its document in document order, the data model's
 * order, which any parse of the stored bytes gives, however the tree lays out its rows.
 */
export function textRows(tree: CompactTree): Int32Array {
  const rows: number[] = [];
  for (let pre = 1; pre < tree.size; pre++) if (tree.kind[pre] === Row.text) rows.push(pre);
  return Int32Array.from(rows);
}
