/**
 * AST: XQuery and XPath Full Text 1.0 (W3C Recommendation, 2011), §3 and appendix A: the
 * FTContainsExpr, its FTSelection, match options and positional filters. (see ast.ts)
 */
import type { EQName, Span } from './ast';
import type { Expr } from './ast-expressions';
import type { FTCase, FTStopWordStep, FTThesaurusRef, FTUnit } from '../../fulltext/selection';

/** `Expr contains text FTSelection (without content UnionExpr)?` (§3.1, §3.6). */
export interface FTContainsExpr extends Span {
  kind: 'FTContainsExpr';
  searched: Expr;
  selection: FTSelection;
  ignore: Expr | null;
}

/**
 * The score of an expression (§2.3): what `for $x score $s in E` and `let score $s := E` bind.
 * `item` is the variable of a `for` binding, the item whose score the predicates of `expr` give.
 */
export interface FTScoreExpr extends Span {
  kind: 'FTScoreExpr';
  expr: Expr;
  item: Expr | null;
}

/** §3.3 FTRange; `min`/`max` null where the range is open. */
export interface FTRangeAst {
  min: Expr | null;
  max: Expr | null;
}

/** One FTMatchOption (§3.4), as written. */
export type FTMatchOption =
  | { option: 'case'; value: FTCase }
  | { option: 'diacritics'; value: 'insensitive' | 'sensitive' }
  | { option: 'stemming'; value: boolean }
  | { option: 'language'; value: string }
  | { option: 'wildcards'; value: boolean }
  | { option: 'fuzzy'; value: boolean }
  | { option: 'stop words'; value: FTStopWordStep[] }
  | { option: 'thesaurus'; value: FTThesaurusRef[] }
  /** FTExtensionOption `option EQName StringLiteral`: no extension options are known, so it changes nothing (§3.4.9). */
  | { option: 'extension'; value: null; name: EQName; at: number };

export type FTSelection =
  | FTWords
  | { kind: 'FTOr' | 'FTAnd'; start: number; end: number; items: FTSelection[] }
  | { kind: 'FTMildNot'; start: number; end: number; left: FTSelection; right: FTSelection }
  | { kind: 'FTUnaryNot'; start: number; end: number; item: FTSelection }
  | { kind: 'FTWithOptions'; start: number; end: number; item: FTSelection; options: FTMatchOption[]; weight: Expr | null }
  | { kind: 'FTPosFilter'; start: number; end: number; item: FTSelection; filter: FTPosFilter };

/** FTWords FTTimes? (§3.2, §3.3): a string literal or `{ Expr }`, and how its tokens combine. */
export interface FTWords extends Span {
  kind: 'FTWords';
  value: Expr;
  mode: 'any' | 'all' | 'phrase' | 'any word' | 'all words';
  times: FTRangeAst | null;
}

/** §3.5 positional filters. */
export type FTPosFilter =
  | { filter: 'ordered' }
  | { filter: 'window'; size: Expr; unit: FTUnit }
  | { filter: 'distance'; range: FTRangeAst; unit: FTUnit }
  | { filter: 'scope'; same: boolean; unit: 'sentence' | 'paragraph' }
  | { filter: 'content'; at: 'start' | 'end' | 'entire' };
