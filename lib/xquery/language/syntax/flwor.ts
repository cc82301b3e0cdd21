/**
 * FLWORExpr and its clauses; QuantifiedExpr.
 */
import type {
  EQName,
  Expr,
  FLWORClause,
  ForBinding,
  GroupingSpec,
  LetBinding,
  OrderSpec,
  QuantifiedBinding,
  WindowClause,
  WindowCondition,
} from './ast';
import { parseExprSingle } from './expressions';
import type { Parser } from './parser';
import { parseTypeDeclaration } from './types';

/** FLWORExpr ::= InitialClause IntermediateClause* ReturnClause */
export function parseFLWORExpr(p: Parser): Expr {
  const start = p.nextStart();
  const clauses: FLWORClause[] = parseInitialClause(p);
  for (;;) {
    if (p.isWord('for') || p.isWord('let')) clauses.push(...parseInitialClause(p));
    else if (p.isWord('where')) clauses.push(parseWhereClause(p));
    else if (p.isWord('group')) clauses.push(parseGroupByClause(p));
    else if (p.isWord('order') || p.isWord('stable')) clauses.push(parseOrderByClause(p));
    else if (p.isWord('count')) clauses.push(parseCountClause(p));
    else break;
  }
  if (!p.isWord('return')) {
    p.unexpected(p.peek(), '"return", "for", "let", "where", "group by", "order by" or "count"');
  }
  p.next();
  const ret = parseExprSingle(p);
  return { kind: 'FLWORExpr', start, end: p.pos, clauses, return: ret };
}

/**
 * InitialClause ::= ForClause | LetClause | WindowClause. A score variable (XQuery Full Text 1.0
 * §2.3: `for $x score $s in E`, `let score $s := E`) becomes a let binding of an FTScoreExpr
 * right after its binding, so the clauses that follow see it as any other variable.
 */
function parseInitialClause(p: Parser): FLWORClause[] {
  const start = p.nextStart();
  if (p.eatWord('let')) {
    const bindings: LetBinding[] = [];
    do bindings.push(p.isWord('score') ? parseLetScoreBinding(p) : parseLetBinding(p));
    while (p.eat(','));
    return [{ kind: 'LetClause', start, end: p.pos, bindings }];
  }
  p.expectWord('for');
  if (p.isWord('tumbling') || p.isWord('sliding')) return [parseWindowClause(p, start)];
  const clauses: FLWORClause[] = [];
  let bindings: ForBinding[] = [];
  do {
    const { binding, score } = parseForBinding(p);
    bindings.push(binding);
    if (score) {
      clauses.push({ kind: 'ForClause', start, end: p.pos, bindings }, { kind: 'LetClause', start: score.start, end: score.end, bindings: [score] });
      bindings = [];
    }
  } while (p.eat(','));
  if (bindings.length > 0) clauses.push({ kind: 'ForClause', start, end: p.pos, bindings });
  return clauses;
}

function sameName(a: EQName, b: EQName): boolean {
  return a.local === b.local && a.prefix === b.prefix && a.uri === b.uri;
}

/** `let score $s := ExprSingle` (XQuery Full Text 1.0 §2.3). */
function parseLetScoreBinding(p: Parser): LetBinding {
  const start = p.next().start;
  const name = p.expectVarName();
  p.expect(':=');
  const expr = parseExprSingle(p);
  return { kind: 'LetBinding', start, end: p.pos, name, type: null, value: { kind: 'FTScoreExpr', start, end: p.pos, expr, item: null } };
}

/** ForBinding ::= "$" VarName TypeDeclaration? AllowingEmpty? PositionalVar? FTScoreVar? "in" ExprSingle */
function parseForBinding(p: Parser): { binding: ForBinding; score: LetBinding | null } {
  const start = p.nextStart();
  const nameStart = p.nextStart();
  const name = p.expectVarName();
  const nameEnd = p.pos;
  const type = parseTypeDeclaration(p);
  let allowingEmpty = false;
  if (p.eatWord('allowing')) {
    p.expectWord('empty');
    allowingEmpty = true;
  }
  const positionalVar = parsePositionalVar(p);
  const scoreStart = p.nextStart();
  const scoreVar = p.eatWord('score') ? p.expectVarName() : null;
  if (scoreVar && sameName(scoreVar, name)) p.error('The score variable has the name of its for variable.', scoreStart, 'XQST0089');
  if (scoreVar && positionalVar && sameName(scoreVar, positionalVar)) p.error('The score variable has the name of the positional variable.', scoreStart, 'XQST0089');
  p.expectWord('in');
  const inExpr = parseExprSingle(p);
  const binding: ForBinding = { kind: 'ForBinding', start, end: p.pos, name, type, allowingEmpty, positionalVar, in: inExpr };
  if (!scoreVar) return { binding, score: null };
  const item: Expr = { kind: 'VarRef', start: nameStart, end: nameEnd, name };
  const value: Expr = { kind: 'FTScoreExpr', start: scoreStart, end: p.pos, expr: inExpr, item };
  return { binding, score: { kind: 'LetBinding', start: scoreStart, end: p.pos, name: scoreVar, type: null, value } };
}

/** PositionalVar ::= "at" "$" VarName */
function parsePositionalVar(p: Parser): EQName | null {
  if (!p.eatWord('at')) return null;
  return p.expectVarName();
}

/** LetBinding ::= "$" VarName TypeDeclaration? ":=" ExprSingle */
export function parseLetBinding(p: Parser): LetBinding {
  const start = p.nextStart();
  const name = p.expectVarName();
  const type = parseTypeDeclaration(p);
  p.expect(':=');
  const value = parseExprSingle(p);
  return { kind: 'LetBinding', start, end: p.pos, name, type, value };
}

/** WindowClause ::= "for" (TumblingWindowClause | SlidingWindowClause) */
function parseWindowClause(p: Parser, start: number): WindowClause {
  const window = p.next().value as 'tumbling' | 'sliding';
  p.expectWord('window');
  const name = p.expectVarName();
  const type = parseTypeDeclaration(p);
  p.expectWord('in');
  const inExpr = parseExprSingle(p);
  if (!p.isWord('start')) p.unexpected(p.peek(), '"start"');
  const startCond = parseWindowCondition(p);
  let endCond: WindowCondition | null = null;
  if (p.isWord('end') || (p.isWord('only') && p.isWord('end', 1))) endCond = parseWindowCondition(p);
  else if (window === 'sliding') p.unexpected(p.peek(), '"end" or "only end"');
  return { kind: 'WindowClause', start, end: p.pos, window, name, type, in: inExpr, startCondition: startCond, endCondition: endCond };
}

/**
 * WindowStartCondition ::= "start" WindowVars "when" ExprSingle
 * WindowEndCondition ::= "only"? "end" WindowVars "when" ExprSingle
 * WindowVars ::= ("$" CurrentItem)? PositionalVar? ("previous" "$" PreviousItem)? ("next" "$" NextItem)?
 */
function parseWindowCondition(p: Parser): WindowCondition {
  const start = p.nextStart();
  const only = p.eatWord('only');
  if (!p.eatWord('start')) p.expectWord('end');
  const current = p.isSym('$') ? p.expectVarName() : null;
  const positional = parsePositionalVar(p);
  const previous = p.eatWord('previous') ? p.expectVarName() : null;
  const next = p.eatWord('next') ? p.expectVarName() : null;
  p.expectWord('when');
  const when = parseExprSingle(p);
  return { kind: 'WindowCondition', start, end: p.pos, only, current, positional, previous, next, when };
}

/** WhereClause ::= "where" ExprSingle */
function parseWhereClause(p: Parser): FLWORClause {
  const start = p.next().start;
  const test = parseExprSingle(p);
  return { kind: 'WhereClause', start, end: p.pos, test };
}

/** GroupByClause ::= "group" "by" GroupingSpecList */
function parseGroupByClause(p: Parser): FLWORClause {
  const start = p.next().start;
  p.expectWord('by');
  const specs: GroupingSpec[] = [];
  do {
    const specStart = p.nextStart();
    const name = p.expectVarName();
    let type = null;
    let value = null;
    if (p.isWord('as') || p.isSym(':=')) {
      type = parseTypeDeclaration(p);
      p.expect(':=');
      value = parseExprSingle(p);
    }
    const collation = p.eatWord('collation') ? p.expectURILiteral('a collation URI') : null;
    specs.push({ kind: 'GroupingSpec', start: specStart, end: p.pos, name, type, value, collation });
  } while (p.eat(','));
  return { kind: 'GroupByClause', start, end: p.pos, specs };
}

/** OrderByClause ::= (("order" "by") | ("stable" "order" "by")) OrderSpecList */
function parseOrderByClause(p: Parser): FLWORClause {
  const start = p.nextStart();
  const stable = p.eatWord('stable');
  p.expectWord('order');
  p.expectWord('by');
  const specs: OrderSpec[] = [];
  do {
    const specStart = p.nextStart();
    const expr = parseExprSingle(p);
    let descending = false;
    if (p.eatWord('descending')) descending = true;
    else p.eatWord('ascending');
    let emptyOrder: 'greatest' | 'least' | null = null;
    if (p.eatWord('empty')) emptyOrder = p.expectOneOf(['greatest', 'least'] as const);
    const collation = p.eatWord('collation') ? p.expectURILiteral('a collation URI') : null;
    specs.push({ kind: 'OrderSpec', start: specStart, end: p.pos, expr, descending, emptyOrder, collation });
  } while (p.eat(','));
  return { kind: 'OrderByClause', start, end: p.pos, stable, specs };
}

/** CountClause ::= "count" "$" VarName */
function parseCountClause(p: Parser): FLWORClause {
  const start = p.next().start;
  const name = p.expectVarName();
  return { kind: 'CountClause', start, end: p.pos, name };
}

/** QuantifiedExpr ::= ("some" | "every") "$" VarName TypeDeclaration? "in" ExprSingle ("," …)* "satisfies" ExprSingle */
export function parseQuantifiedExpr(p: Parser): Expr {
  const start = p.nextStart();
  const quantifier = p.next().value as 'some' | 'every';
  const bindings: QuantifiedBinding[] = [];
  do {
    const bstart = p.nextStart();
    const name = p.expectVarName();
    const type = parseTypeDeclaration(p);
    p.expectWord('in');
    const inExpr = parseExprSingle(p);
    bindings.push({ kind: 'QuantifiedBinding', start: bstart, end: p.pos, name, type, in: inExpr });
  } while (p.eat(','));
  p.expectWord('satisfies');
  const satisfies = parseExprSingle(p);
  return { kind: 'QuantifiedExpr', start, end: p.pos, quantifier, bindings, satisfies };
}
