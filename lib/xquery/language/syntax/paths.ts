/**
 * PathExpr, RelativePathExpr, StepExpr, AxisStep, NodeTest and PostfixExpr.
 */
import type { Axis, AxisStep, Expr, KeySpecifier, NodeTest } from './ast';
import { parseExpr } from './expressions';
import type { Parser } from './parser';
import { parseArgumentList, parseParenthesizedExpr, parsePrimaryExpr, startsPrimaryName } from './primary';
import { parseKindTest, startsKindTest } from './types';

const AXES = new Set<string>([
  'child',
  'descendant',
  'attribute',
  'self',
  'descendant-or-self',
  'following-sibling',
  'following',
  'namespace',
  'parent',
  'ancestor',
  'preceding-sibling',
  'preceding',
  'ancestor-or-self',
]);

/** PathExpr ::= ("/" RelativePathExpr?) | ("//" RelativePathExpr) | RelativePathExpr */
export function parsePathExpr(p: Parser): Expr {
  const start = p.nextStart();
  if (p.isSym('/')) {
    p.next();
    // leading-lone-slash: a "/" followed by a token that can start a RelativePathExpr starts one.
    if (!startsRelativePathExpr(p)) return { kind: 'PathExpr', start, end: p.pos, root: '/', steps: [] };
    const steps = parseRelativePathSteps(p);
    return { kind: 'PathExpr', start, end: p.pos, root: '/', steps };
  }
  if (p.isSym('//')) {
    const t = p.next();
    const steps = [descendantOrSelfStep(t.start, t.end), ...parseRelativePathSteps(p)];
    return { kind: 'PathExpr', start, end: p.pos, root: '/', steps };
  }
  const steps = parseRelativePathSteps(p);
  if (steps.length === 1) return steps[0];
  return { kind: 'PathExpr', start, end: p.pos, root: null, steps };
}

/** RelativePathExpr ::= StepExpr (("/" | "//") StepExpr)* */
function parseRelativePathSteps(p: Parser): Expr[] {
  const steps = [parseStepExpr(p)];
  while (p.isSym('/') || p.isSym('//')) {
    const t = p.next();
    if (t.value === '//') steps.push(descendantOrSelfStep(t.start, t.end));
    steps.push(parseStepExpr(p));
  }
  return steps;
}

function descendantOrSelfStep(start: number, end: number): AxisStep {
  return {
    kind: 'AxisStep',
    start,
    end,
    axis: 'descendant-or-self',
    abbreviated: true,
    test: { kind: 'AnyKindTest', start, end },
    predicates: [],
  };
}

/** Can the next token start a RelativePathExpr? (for the leading-lone-slash rule) */
function startsRelativePathExpr(p: Parser): boolean {
  const t = p.peek();
  switch (t.type) {
    case 'name':
    case 'wildcard':
    case 'integer':
    case 'decimal':
    case 'double':
    case 'string':
      return true;
    case 'symbol':
      // XQuery 3.1 A.2.1.1: "<" could start a direct constructor, so a "/" before it always
      // starts a path; `/ < 5` is a syntax error, `(/) < 5` is the comparison.
      if (t.value === '<') return true;
      return ['*', '@', '.', '..', '$', '(', '?', '%', '[', '``['].includes(t.value);
    default:
      return false;
  }
}

/** StepExpr ::= PostfixExpr | AxisStep */
function parseStepExpr(p: Parser): Expr {
  const t = p.peek();
  if (t.type === 'wildcard' || p.isSym('*') || p.isSym('@') || p.isSym('..')) return parseAxisStep(p);
  if (t.type === 'name') {
    if (p.isSym('::', 1) || startsKindTest(p) || !startsPrimaryName(p)) return parseAxisStep(p);
  }
  return parsePostfixExpr(p);
}

/** AxisStep ::= (ReverseStep | ForwardStep) PredicateList */
function parseAxisStep(p: Parser): AxisStep {
  const start = p.nextStart();
  let axis: Axis;
  let abbreviated = true;
  let test: NodeTest;
  if (p.eat('..')) {
    axis = 'parent';
    test = { kind: 'AnyKindTest', start, end: p.pos };
  } else {
    if (p.eat('@')) {
      axis = 'attribute';
    } else if (p.isName() && p.isSym('::', 1)) {
      const t = p.peek();
      if (!p.isNCName() || !AXES.has(t.value)) p.error(`Unknown axis "${t.value}"`, t.start);
      axis = p.next().value as Axis;
      p.next();
      abbreviated = false;
    } else {
      axis = 'child';
    }
    test = parseNodeTest(p);
    if (abbreviated && axis === 'child') {
      if (test.kind === 'AttributeTest' || test.kind === 'SchemaAttributeTest') axis = 'attribute';
      else if (test.kind === 'NamespaceNodeTest') axis = 'namespace';
    }
  }
  const predicates = parsePredicateList(p);
  return { kind: 'AxisStep', start, end: p.pos, axis, abbreviated, test, predicates };
}

/** NodeTest ::= KindTest | NameTest ; NameTest ::= EQName | Wildcard */
export function parseNodeTest(p: Parser): NodeTest {
  const t = p.peek();
  if (startsKindTest(p)) return parseKindTest(p);
  if (p.isSym('*')) {
    p.next();
    return { kind: 'Wildcard', start: t.start, end: t.end };
  }
  if (t.type === 'wildcard') {
    p.next();
    const n = t.name!;
    if (n.uri !== undefined) return { kind: 'Wildcard', start: t.start, end: t.end, uri: n.uri };
    if (n.prefix === '*') return { kind: 'Wildcard', start: t.start, end: t.end, local: n.local };
    return { kind: 'Wildcard', start: t.start, end: t.end, prefix: n.prefix };
  }
  if (t.type === 'name') {
    p.next();
    return { kind: 'NameTest', start: t.start, end: t.end, name: t.name! };
  }
  return p.unexpected(t, 'a node test');
}

/** PredicateList ::= Predicate* ; Predicate ::= "[" Expr "]" */
function parsePredicateList(p: Parser): Expr[] {
  const out: Expr[] = [];
  while (p.eat('[')) {
    out.push(parseExpr(p));
    p.expect(']');
  }
  return out;
}

/** PostfixExpr ::= PrimaryExpr (Predicate | ArgumentList | Lookup)* */
function parsePostfixExpr(p: Parser): Expr {
  const start = p.nextStart();
  let base = parsePrimaryExpr(p);
  for (;;) {
    if (p.eat('[')) {
      const predicate = parseExpr(p);
      p.expect(']');
      base = { kind: 'FilterExpr', start, end: p.pos, base, predicate };
    } else if (p.isSym('(')) {
      const args = parseArgumentList(p);
      base = { kind: 'DynamicFunctionCall', start, end: p.pos, base, args };
    } else if (p.isSym('?')) {
      p.next();
      const key = parseKeySpecifier(p);
      base = { kind: 'Lookup', start, end: p.pos, base, key };
    } else {
      return base;
    }
  }
}

/** KeySpecifier ::= NCName | IntegerLiteral | ParenthesizedExpr | "*" (after the "?") */
export function parseKeySpecifier(p: Parser): KeySpecifier {
  const t = p.peek();
  if (p.isNCName()) {
    p.next();
    return { type: 'name', name: t.value };
  }
  if (t.type === 'name' && t.name!.prefix !== undefined) {
    // `$m?a:b` in a map constructor: the key is the NCName `a`; rescan from the colon.
    p.reset(t.start + t.name!.prefix.length);
    return { type: 'name', name: t.name!.prefix };
  }
  if (t.type === 'integer') {
    p.next();
    return { type: 'integer', value: t.value };
  }
  if (p.isSym('(')) return { type: 'expr', expr: parseParenthesizedExpr(p) };
  if (p.eat('*')) return { type: 'wildcard' };
  return p.unexpected(t, 'a key specifier (name, integer, "(" or "*")');
}
