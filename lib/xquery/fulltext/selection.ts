/**
 * The data description of a full-text selection (XQuery and XPath Full Text 1.0 §3): what the
 * translator writes for a `contains text` expression (translate/fulltext.ts) and what the matcher
 * (matcher.ts) evaluates in the query worker. It travels as JSON in a string literal of the
 * generated code, so it holds only data; values the query computes (`{ expr }` words, counts of
 * `occurs`, `window`, `distance` and `weight`) are referenced by their index in the array of
 * dynamic values passed beside it.
 */

/** A value: fixed in the query, or the index of a computed one. */
export type FTValue<T> = { readonly fixed: T } | { readonly dyn: number };

/** §3.4.3 FTCaseOption, with `case insensitive` as the default. */
export type FTCase = 'insensitive' | 'sensitive' | 'lowercase' | 'uppercase';

/** One step of §3.4.7 FTStopWordOption: a list (`at URI`, inline, `default`) and how it joins the ones before. */
export interface FTStopWordStep {
  readonly op: 'base' | 'union' | 'except';
  readonly at?: string;
  readonly words?: readonly string[];
  readonly isDefault?: boolean;
}

/** §3.4.5 FTThesaurusID (or `default`). */
export interface FTThesaurusRef {
  readonly at?: string;
  readonly relationship?: string;
  readonly levels?: { readonly min: number; readonly max: number };
}

/** The match options in force for one FTWords (§3.4), outer options already applied. */
export interface FTMatchOptions {
  readonly case: FTCase;
  readonly diacritics: 'insensitive' | 'sensitive';
  readonly stemming: boolean;
  readonly language?: string;
  readonly wildcards: boolean;
  /** BaseX's `using fuzzy`. */
  readonly fuzzy: boolean;
  readonly stopWords: readonly FTStopWordStep[];
  readonly thesauri: readonly FTThesaurusRef[];
}

/** §3.3 FTRange (`exactly`, `at least`, `at most`, `from … to`). */
export interface FTRange {
  readonly min: FTValue<number> | null;
  readonly max: FTValue<number> | null;
}

export type FTUnit = 'words' | 'sentences' | 'paragraphs';

export type FTNode =
  | {
      readonly t: 'words';
      /** The search strings: literal strings or one computed sequence. */
      readonly value: FTValue<readonly string[]>;
      readonly mode: 'any' | 'all' | 'phrase' | 'any word' | 'all words';
      readonly options: FTMatchOptions;
      readonly times?: FTRange;
    }
  | { readonly t: 'or' | 'and'; readonly items: readonly FTNode[] }
  | { readonly t: 'mildnot'; readonly left: FTNode; readonly right: FTNode }
  | { readonly t: 'not'; readonly item: FTNode }
  | { readonly t: 'weight'; readonly item: FTNode; readonly weight: FTValue<number> }
  | { readonly t: 'ordered'; readonly item: FTNode }
  | { readonly t: 'window'; readonly item: FTNode; readonly size: FTValue<number>; readonly unit: FTUnit }
  | { readonly t: 'distance'; readonly item: FTNode; readonly range: FTRange; readonly unit: FTUnit }
  | { readonly t: 'scope'; readonly item: FTNode; readonly same: boolean; readonly unit: 'sentence' | 'paragraph' }
  | { readonly t: 'content'; readonly item: FTNode; readonly at: 'start' | 'end' | 'entire' };

/** The default match options (§3.4: case and diacritics insensitive, no stemming, stop words, thesaurus or wildcards). */
export const DEFAULT_MATCH_OPTIONS: FTMatchOptions = {
  case: 'insensitive',
  diacritics: 'insensitive',
  stemming: false,
  wildcards: false,
  fuzzy: false,
  stopWords: [],
  thesauri: [],
};
