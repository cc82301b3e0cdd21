/**
 * The elements, text nodes or attributes below a context node that a `//` step selects, with its
 * position-free predicates (translate/paths/paths.ts decides where a path has such a step): the
 * element-name index or the document's element or text list, filtered first by what the indexes
 * and leaf columns answer (value indexes, full-text index, leaf comparisons, name predicates),
 * the predicates as written for the rest.
 */
import type { Expr } from '../../syntax';
import { translateExpr } from '../expressions';
import { descendantElementsCall, descendantTextsCall, descendantsCall } from '../../../accelerators/name-index/paths-index';
import { comparingPredicates, leadingComparisons, leafFilterCall, predicateComparisons, type PredicateComparisons } from '../../../accelerators/leaf-filter/paths-leaf-predicates';
import { ANY_ELEMENT, TEXT_NODES } from '../../../../tree/name-rows';
import { translateLeafTuplePredicates } from '../flwor/leaf-tuples';
import { descendantsMatchingCall, valuePredicate, type ValuePredicate } from '../../../accelerators/value-index/paths-value-index';
import { descendantsFullTextCall } from '../../../accelerators/fulltext-index/paths-fulltext-index';
import { leadingNamePredicates, namePredicatesCall } from '../../../accelerators/name-predicates/paths-name-predicates';
import type { Scope } from '../scope';
import type { TranslationUnit } from '../unit';

/** The index call for `//name[p]…` (the child step `step`): the predicates filter its result (paths-index.ts). */
export function indexed(context: string, name: string, step: Expr, native: Scope, unit: TranslationUnit): string {
  if (step.kind !== 'AxisStep') return descendantsCall(context, name);
  const preds = step.predicates.map((p) => `[${translateExpr(p, native, unit)}]`);
  // `//name[leaf op $v]…`: the leading leaf comparisons from per-document columns (paths-leaf-predicates.ts)
  const comparisons = predicateComparisons(step.predicates, native);
  const leaves = leadingComparisons(comparisons);
  const candidates = descendantsCall(context, name);
  // `//name[text() contains text …]…`: the first predicate from the full-text index (paths-fulltext-index.ts)
  const fullText = preds.length > 0 ? descendantsFullTextCall(context, name, step.predicates[0], `${candidates}${preds[0]}`, native, unit) : undefined;
  if (fullText) return `${fullText}${preds.slice(1).join('')}`;
  // `//name[text() = $v]…` and the like: the first predicate from the value indexes (paths-value-index.ts)
  const match = preds.length > 0 ? valuePredicate(step.predicates[0], native, true) : undefined;
  // other leading predicates over leaves (`or`, string functions, arithmetic: translate/flwor/leaf-tuples.ts)
  const tuples = leaves.count === 0 && !match ? translateLeafTuplePredicates(candidates, step.predicates, preds, native, unit, true) : undefined;
  // `//name[not(x)][price > 5]…`: leaf comparisons after other predicates, first (`laterLeafComparisons`)
  const later = leaves.count === 0 && !match && !tuples ? laterLeafComparisons(context, name, candidates, comparisons, preds, native, unit) : undefined;
  if (later) return later;
  const filtered =
    leaves.count > 0
      ? leafFilterCall(context, name, candidates, leaves.tests, preds.slice(0, leaves.count).join(''), native, unit)
      : (tuples?.expr ?? `${candidates}${preds[0] ?? ''}`);
  if (match && leaves.count <= 1) return `${matching(context, name, match, filtered, native, unit)}${preds.slice(1).join('')}`;
  return `${filtered}${preds.slice(Math.max(leaves.count, tuples?.count ?? 0, 1)).join('')}`;
}

/**
 * `//*[p]…` from the node `context`: its descendant elements, filtered by the (position-free)
 * predicates; leading leaf comparisons from the leaf columns of every element, as for `//name[p]`
 * (`indexed`), but for comparisons of an element's own string value (`.`), whose column would
 * hold the text of every ancestor of every text once per ancestor.
 */
export function anyElements(context: string, preds: readonly Expr[], native: Scope, unit: TranslationUnit): string {
  const filters = preds.map((p) => `[${translateExpr(p, native, unit)}]`);
  const candidates = descendantElementsCall(context);
  const match = preds.length > 0 ? valuePredicate(preds[0], native, false) : undefined;
  const fullText = preds.length > 0 ? descendantsFullTextCall(context, ANY_ELEMENT, preds[0], `${candidates}${filters[0]}`, native, unit) : undefined;
  if (fullText) return `${fullText}${filters.slice(1).join('')}`;
  const comparisons = predicateComparisons(preds, native, 'self');
  const leaves = leadingComparisons(comparisons);
  const filtered = leaves.count > 0 ? leafFilterCall(context, ANY_ELEMENT, candidates, leaves.tests, filters.slice(0, leaves.count).join(''), native, unit) : `${candidates}${filters[0] ?? ''}`;
  if (match && leaves.count <= 1) return `${matching(context, ANY_ELEMENT, match, filtered, native, unit)}${filters.slice(1).join('')}`;
  if (leaves.count > 0) return `${filtered}${filters.slice(leaves.count).join('')}`;
  // `//*[local-name() = $n]…`: the leading predicates on the element's name once per name (paths-name-predicates.ts)
  const named = leadingNamePredicates(preds, native);
  if (named > 0) return `${namePredicatesCall(context, filters.slice(0, named))}${filters.slice(named).join('')}`;
  return laterLeafComparisons(context, ANY_ELEMENT, candidates, comparisons, filters, native, unit) ?? `${candidates}${filters.join('')}`;
}

/**
 * `//text()[p]…` from the node `context`: its descendant text nodes (a compact tree's text rows,
 * without making the nodes of its elements), filtered by the (position-free) predicates. Only from
 * the root or the context item (`//text()`, `descendant::text()` as a first step): after another
 * step (`//item//text()`) the axis step is kept, since below each of many small elements a call
 * costs more than the walk it saves (`//description//text()[contains(., "x")]` over 50,000
 * descriptions: 58 ms against the step's 30). Leading
 * comparisons of a text node's value (`.`) with a value that does not depend on it from the column
 * of the text nodes' values, as the leaves of `//name[. = $v]` are compared (`indexed`); other
 * predicates over that value (`contains(., $s)`, `string-length(.) > $n`) by engine:leaf-tuples.
 */
export function textNodes(context: string, preds: readonly Expr[], native: Scope, unit: TranslationUnit): string {
  const filters = preds.map((p) => `[${translateExpr(p, native, unit)}]`);
  const candidates = descendantTextsCall(context);
  const leaves = leadingComparisons(predicateComparisons(preds, native));
  if (leaves.count > 0) return `${leafFilterCall(context, TEXT_NODES, candidates, leaves.tests, filters.slice(0, leaves.count).join(''), native, unit)}${filters.slice(leaves.count).join('')}`;
  // other leading predicates over the value (string functions, `or`: translate/flwor/leaf-tuples.ts)
  const tuples = translateLeafTuplePredicates(candidates, preds, filters, native, unit, true);
  return tuples ? `${tuples.expr}${filters.slice(tuples.count).join('')}` : `${candidates}${filters.join('')}`;
}

/**
 * `//name[p][leaf op $v]…` (or `//*`) whose first predicate is no leaf comparison but later ones
 * are: those from the leaf columns first, then the others over what they keep; every predicate as
 * written where the columns cannot answer (paths-leaf-predicates.ts `comparingPredicates`).
 * The predicates are position-free, so the same elements pass; a predicate that would raise an
 * error for an element the comparisons reject is not evaluated for it, as XQuery 3.1 §2.3.4
 * (errors and optimization) permits. Undefined when no predicate compares leaves.
 */
function laterLeafComparisons(context: string, name: string, candidates: string, comparisons: PredicateComparisons, filters: readonly string[], native: Scope, unit: TranslationUnit): string | undefined {
  const { positions, tests } = comparingPredicates(comparisons);
  if (positions.length === 0) return undefined;
  const others = filters.filter((_, i) => !positions.includes(i)).join('');
  return leafFilterCall(context, name, candidates, tests, filters.join(''), native, unit, others);
}

/** The value-index call for a first predicate `match` of `//name` (or `//*`), with `fallback` the step as written. */
function matching(context: string, name: string, match: ValuePredicate, fallback: string, native: Scope, unit: TranslationUnit): string {
  return descendantsMatchingCall(context, name, match, translateExpr(match.values, native, unit), fallback);
}
