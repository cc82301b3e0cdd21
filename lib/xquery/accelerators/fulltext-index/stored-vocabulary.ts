/**
 * The vocabulary of a database whose full-text index a store keeps (fulltext-stored.ts): every
 * folded token of its documents, from which words that select tokens by a rule (stemming,
 * wildcards, fuzzy) select theirs. It is kept per document version: the tokens of each document
 * (named by its path and etag, which names its content, store/types.ts) and, per token, how many
 * of the documents hold it. A write changes the versions of the documents it wrote, so the next
 * vocabulary asks the store for those documents only and drops the tokens of the versions gone:
 * its reads follow the documents written, not the database (a whole-database read of the tokens
 * of XMark's 108 MB document took seconds).
 *
 * A vocabulary is never changed once made (a run may still use it): `updated` answers a new one.
 */
import { groupByStem } from './fulltext-index';

/** A document's version and its distinct folded tokens. */
interface DocumentTokens {
  readonly etag: string;
  readonly tokens: readonly string[];
}

export class StoredVocabulary {
  private list: readonly string[] | undefined;
  /** Per language, the tokens by stem (fulltext-index.ts `groupByStem`), made on first use. */
  private readonly stems = new Map<string, Map<string, string[]>>();

  private constructor(
    /** The database's options, which decide the folding: other options, another vocabulary. */
    readonly options: string,
    private readonly docs: ReadonlyMap<string, DocumentTokens>,
    private readonly counts: ReadonlyMap<string, number>,
  ) {}

  static empty(options: string): StoredVocabulary {
    return new StoredVocabulary(options, new Map(), new Map());
  }

  /**
   * The vocabulary of the documents `versions` (path to etag): this one when they are the
   * documents it holds, else one with the tokens of the versions gone removed and those of the
   * new ones added, read by `read` (the distinct tokens of each path asked; a path it does not
   * answer has none).
   */
  updated(versions: ReadonlyMap<string, string>, read: (paths: readonly string[]) => Iterable<readonly [string, readonly string[]]>): StoredVocabulary {
    const gone = [...this.docs.keys()].filter((path) => versions.get(path) !== this.docs.get(path)!.etag);
    const added = [...versions.keys()].filter((path) => this.docs.get(path)?.etag !== versions.get(path));
    if (gone.length === 0 && added.length === 0) return this;
    const docs = new Map(this.docs);
    const counts = new Map(this.counts);
    for (const path of gone) {
      for (const token of docs.get(path)!.tokens) {
        const n = counts.get(token)! - 1;
        if (n === 0) counts.delete(token);
        else counts.set(token, n);
      }
      docs.delete(path);
    }
    const found = added.length === 0 ? new Map<string, readonly string[]>() : new Map(read(added));
    for (const path of added) {
      const tokens = found.get(path) ?? [];
      docs.set(path, { etag: versions.get(path)!, tokens });
      for (const token of tokens) counts.set(token, (counts.get(token) ?? 0) + 1);
    }
    return new StoredVocabulary(this.options, docs, counts);
  }

  /** Every token, once. */
  get tokens(): readonly string[] {
    return (this.list ??= [...this.counts.keys()]);
  }

  /** The tokens whose stem by `stem` (the stemmer of `language`) is each stem. */
  byStem(language: string, stem: (w: string) => string): Map<string, string[]> {
    let groups = this.stems.get(language);
    if (!groups) this.stems.set(language, (groups = groupByStem(this.tokens.map((t) => [t, t] as const), stem)));
    return groups;
  }
}
