/** Tests of AST nodes and operators that the analyses, the translator and the accelerators share. */
import type { GeneralComp, Literal, Node } from './ast';

/** Whether `node` is a literal: a string or a number as written. */
export function isLiteral(node: Node): node is Literal {
  return node.kind === 'IntegerLiteral' || node.kind === 'DecimalLiteral' || node.kind === 'DoubleLiteral' || node.kind === 'StringLiteral';
}

const GENERAL_COMPARISONS: ReadonlySet<string> = new Set<GeneralComp>(['=', '!=', '<', '<=', '>', '>=']);

/**
 * Whether a ComparisonExpr's operator is a general comparison (XQuery 3.1 §3.7.2), existential
 * over the items of its operands; not a value or node comparison.
 */
export function isGeneralComparison(op: string): op is GeneralComp {
  return GENERAL_COMPARISONS.has(op);
}
