/**
 * `E//name[P]` and `E//*[P]` through the full-text index (functions/ft-index.ts
 * `descendants-ft`, which answers false() when it cannot answer exactly; the step as written is
 * then evaluated instead), where P, the first predicate of the step, is
 *
 *   text() contains text S    an element with a text child that satisfies S
 *   . contains text S         an element whose text satisfies S (named steps only)
 *
 * with no `without content` and a selection that computes nothing (translate/fulltext.ts
 * `fixedDescription`: literal words, counts and weights), so that it can be evaluated outside the
 * predicate. The index narrows the text nodes to match and the matcher decides on each, so the
 * answer is that of the predicate, whatever the match options.
 */
import type { Expr } from '../../language/syntax';
import { NS, xpathString } from '../../language/translate/names';
import type { Scope } from '../../language/translate/scope';
import { braced } from '../../language/translate/emit';
import type { TranslationUnit } from '../../language/translate/unit';
import { fixedDescription } from '../../language/translate/fulltext';
import { ANY_ELEMENT } from '../../../tree/name-rows';

const DESCENDANTS_FT = `${braced(NS.engine)}descendants-ft`;

/** The unpredicated `text()` step alone, or `.`: what a full-text predicate searches. */
function searchedKind(expr: Expr, named: boolean): 'text' | 'self' | undefined {
  const step = expr.kind === 'PathExpr' && expr.root === null && expr.steps.length === 1 ? expr.steps[0] : expr;
  if (step.kind === 'ContextItemExpr') return named ? 'self' : undefined;
  if (step.kind === 'AxisStep' && step.axis === 'child' && step.predicates.length === 0 && step.test.kind === 'TextTest') return 'text';
  return undefined;
}

/**
 * The descendants named `name` (or ANY_ELEMENT) of `context` that satisfy the first predicate `predicate`
 * from the full-text index when it can answer, else `fallback` (the step with the predicate);
 * undefined when the predicate is not one the index can answer (see the file comment).
 */
export function descendantsFullTextCall(context: string, name: string, predicate: Expr, fallback: string, native: Scope, unit: TranslationUnit): string | undefined {
  if (predicate.kind !== 'FTContainsExpr' || predicate.ignore !== null) return undefined;
  const kind = searchedKind(predicate.searched, name !== ANY_ELEMENT);
  const description = kind && fixedDescription(predicate, native, unit);
  if (!kind || description === undefined) return undefined;
  const r = `$${braced(NS.gen)}matching`;
  const call = `${DESCENDANTS_FT}(${context}, ${xpathString(name)}, ${xpathString(kind)}, ${xpathString(description)})`;
  return `(let ${r} := ${call} return if (${r} instance of ${braced(NS.xs)}boolean) then ${fallback} else ${r})`;
}
