/**
 * XQuery and XPath Full Text 1.0: `contains text` and scores, translated to calls of the engine's
 * full-text functions (functions/ft.ts, evaluated in the query worker). The FTSelection becomes a
 * data description (fulltext/selection.ts), written as ONE string literal by the emitter; every
 * value the query computes (`{ expr }` words, `occurs`, `window`, `distance`, `weight`) is an
 * operand of its own, in an array beside it. Nothing the query wrote becomes code.
 *
 *   engine:ft-contains($searched, $description as xs:string, $values as array(*), $ignored as node()*) as xs:boolean
 *   engine:ft-score(…the same…) as xs:double
 */
import type { Expr, FTContainsExpr, FTMatchOption, FTRangeAst, FTScoreExpr, FTSelection } from '../syntax';
import { type FTMatchOptions, type FTNode, type FTRange, type FTValue } from '../../fulltext/selection';
import { braced, xpathString } from './emit';
import { NS } from './names';
import type { Scope } from './scope';
import type { TranslationUnit } from './unit';
import { translateExpr } from './expressions';

const ENGINE = braced(NS.engine);

/** Collects the computed values of one selection while its description is built. */
class Description {
  readonly values: string[] = [];
  constructor(
    private readonly scope: Scope,
    private readonly unit: TranslationUnit,
  ) {}

  value<T>(expr: Expr, fixed: (e: Expr) => T | undefined): FTValue<T> {
    const f = fixed(expr);
    if (f !== undefined) return { fixed: f };
    this.values.push(translateExpr(expr, this.scope, this.unit));
    return { dyn: this.values.length - 1 };
  }

  number(expr: Expr): FTValue<number> {
    return this.value(expr, (e) => (e.kind === 'IntegerLiteral' ? Number(e.value) : undefined));
  }

  range(r: FTRangeAst): FTRange {
    return { min: r.min ? this.number(r.min) : null, max: r.max ? this.number(r.max) : null };
  }

  node(sel: FTSelection, options: FTMatchOptions): FTNode {
    switch (sel.kind) {
      case 'FTWords': {
        const value = this.value(sel.value, (e) => (e.kind === 'StringLiteral' ? [e.value] : undefined));
        return { t: 'words', value, mode: sel.mode, options, ...(sel.times ? { times: this.range(sel.times) } : {}) };
      }
      case 'FTOr':
      case 'FTAnd':
        return { t: sel.kind === 'FTOr' ? 'or' : 'and', items: sel.items.map((i) => this.node(i, options)) };
      case 'FTMildNot':
        return { t: 'mildnot', left: this.node(sel.left, options), right: this.node(sel.right, options) };
      case 'FTUnaryNot':
        return { t: 'not', item: this.node(sel.item, options) };
      case 'FTWithOptions': {
        // An extension option's prefix must be declared (XPST0081), though no option is known.
        for (const o of sel.options) if (o.option === 'extension' && o.name.prefix !== undefined) this.scope.resolvePrefix(o.name.prefix, o.at);
        const item = this.node(sel.item, applyOptions(options, sel.options));
        return sel.weight ? { t: 'weight', item, weight: this.value(sel.weight, literalNumber) } : item;
      }
      case 'FTPosFilter': {
        const item = this.node(sel.item, options);
        const f = sel.filter;
        switch (f.filter) {
          case 'ordered':
            return { t: 'ordered', item };
          case 'window':
            return { t: 'window', item, size: this.number(f.size), unit: f.unit };
          case 'distance':
            return { t: 'distance', item, range: this.range(f.range), unit: f.unit };
          case 'scope':
            return { t: 'scope', item, same: f.same, unit: f.unit };
          case 'content':
            return { t: 'content', item, at: f.at };
        }
      }
    }
  }
}

function literalNumber(e: Expr): number | undefined {
  return e.kind === 'IntegerLiteral' || e.kind === 'DecimalLiteral' || e.kind === 'DoubleLiteral' ? Number(e.value) : undefined;
}

/** The options of an FTMatchOptions applied over the ones in force (§3.4: inner options win). */
export function applyOptions(outer: FTMatchOptions, options: readonly FTMatchOption[]): FTMatchOptions {
  let o: FTMatchOptions = outer;
  for (const opt of options) {
    switch (opt.option) {
      case 'stop words':
        o = { ...o, stopWords: opt.value };
        break;
      case 'thesaurus':
        o = { ...o, thesauri: opt.value };
        break;
      case 'extension':
        break;
      default:
        o = { ...o, [opt.option]: opt.value };
    }
  }
  return o;
}

/**
 * The description of a selection that computes no value (every word, count and weight a literal),
 * for the full-text index (paths-fulltext-index.ts); undefined when it computes one.
 */
export function fixedDescription(expr: FTContainsExpr, scope: Scope, unit: TranslationUnit): string | undefined {
  const d = new Description(scope, unit);
  const node = d.node(expr.selection, unit.ftOptions);
  return d.values.length === 0 ? JSON.stringify(node) : undefined;
}

/** The arguments of the engine's full-text functions for one `contains text`. */
function arguments_(expr: FTContainsExpr, scope: Scope, unit: TranslationUnit): string {
  const d = new Description(scope, unit);
  const node = d.node(expr.selection, unit.ftOptions);
  const searched = translateExpr(expr.searched, scope, unit);
  const ignored = expr.ignore ? translateExpr(expr.ignore, scope, unit) : '()';
  return `(${searched}), ${xpathString(JSON.stringify(node))}, [${d.values.map((v) => `(${v})`).join(', ')}], (${ignored})`;
}

export function translateFTContains(expr: FTContainsExpr, scope: Scope, unit: TranslationUnit): string {
  return `${ENGINE}ft-contains(${arguments_(expr, scope, unit)})`;
}

/** The score of a boolean expression (§2.3; BaseX: `and` the lower, `or` the higher score, other expressions 1 or 0). */
export function scoreOf(expr: Expr, scope: Scope, unit: TranslationUnit): string {
  switch (expr.kind) {
    case 'FTContainsExpr':
      return `${ENGINE}ft-score(${arguments_(expr, scope, unit)})`;
    case 'ParenthesizedExpr':
      return expr.expr ? scoreOf(expr.expr, scope, unit) : '0e0';
    case 'AndExpr':
      return `min((${scoreOf(expr.left, scope, unit)}, ${scoreOf(expr.right, scope, unit)}))`;
    case 'OrExpr':
      return `max((${scoreOf(expr.left, scope, unit)}, ${scoreOf(expr.right, scope, unit)}))`;
    default:
      return `(if (${translateExpr(expr, scope, unit)}) then 1e0 else 0e0)`;
  }
}

/** The predicates that decide which items of `expr` are selected, if it ends in a filter. */
export function finalPredicates(expr: Expr): Expr[] {
  if (expr.kind === 'FilterExpr') return [expr.predicate];
  if (expr.kind === 'AxisStep') return expr.predicates;
  if (expr.kind === 'PathExpr' && expr.steps.length > 0) return finalPredicates(expr.steps[expr.steps.length - 1]);
  if (expr.kind === 'ParenthesizedExpr' && expr.expr) return finalPredicates(expr.expr);
  return [];
}

export function isScored(expr: Expr): boolean {
  return expr.kind === 'FTContainsExpr' || expr.kind === 'AndExpr' || expr.kind === 'OrExpr' || (expr.kind === 'ParenthesizedExpr' && !!expr.expr && isScored(expr.expr));
}

/**
 * FTScoreExpr: for `let score`, the score of the expression; for `for … score`, the score of the
 * bound item: the score its final predicates give it (BaseX's scoring of filtered paths), or the
 * score of a full-text expression bound itself, 0 otherwise.
 */
export function translateFTScore(expr: FTScoreExpr, scope: Scope, unit: TranslationUnit): string {
  if (!expr.item || isScored(expr.expr)) return scoreOf(expr.expr, scope, unit);
  const predicates = finalPredicates(expr.expr);
  if (predicates.length === 0) return '0e0';
  // `$item ! score(predicate)`, built as a simple map so the predicate gets the item as its focus.
  const scores = predicates.map((p): Expr => ({ kind: 'FTScoreExpr', start: p.start, end: p.end, expr: p, item: null }));
  const { start, end } = expr;
  const operand: Expr = scores.length === 1 ? scores[0] : { kind: 'FunctionCall', start, end, name: { uri: NS.fn, local: 'min' }, args: [{ kind: 'ParenthesizedExpr', start, end, expr: { kind: 'SequenceExpr', start, end, items: scores } }] };
  return translateExpr({ kind: 'SimpleMapExpr', start, end, operands: [expr.item, operand] }, scope, unit);
}
