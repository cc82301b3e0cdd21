/**
 * IfExpr, SwitchExpr, TypeswitchExpr and TryCatchExpr.
 */
import type { CatchClause, EQName, Expr, NameTest, SequenceType, SwitchCaseClause, TypeswitchCaseClause, Wildcard } from './ast';
import { parseExpr, parseExprSingle } from './expressions';
import type { Parser } from './parser';
import { parseNodeTest } from './paths';
import { parseEnclosedExpr } from './primary';
import { parseSequenceType } from './types';

/** "(" Expr ")" */
function parseParenthesizedOperand(p: Parser): Expr {
  p.expect('(');
  const expr = parseExpr(p);
  p.expect(')');
  return expr;
}

/** IfExpr ::= "if" "(" Expr ")" "then" ExprSingle "else" ExprSingle */
export function parseIfExpr(p: Parser): Expr {
  const start = p.next().start;
  const test = parseParenthesizedOperand(p);
  p.expectWord('then');
  const then = parseExprSingle(p);
  p.expectWord('else');
  const elseExpr = parseExprSingle(p);
  return { kind: 'IfExpr', start, end: p.pos, test, then, else: elseExpr };
}

/** SwitchExpr ::= "switch" "(" Expr ")" SwitchCaseClause+ "default" "return" ExprSingle */
export function parseSwitchExpr(p: Parser): Expr {
  const start = p.next().start;
  const operand = parseParenthesizedOperand(p);
  const cases: SwitchCaseClause[] = [];
  if (!p.isWord('case')) p.unexpected(p.peek(), '"case"');
  while (p.isWord('case')) {
    const cstart = p.nextStart();
    const operands: Expr[] = [];
    while (p.eatWord('case')) operands.push(parseExprSingle(p));
    p.expectWord('return');
    const result = parseExprSingle(p);
    cases.push({ kind: 'SwitchCaseClause', start: cstart, end: p.pos, operands, result });
  }
  p.expectWord('default');
  p.expectWord('return');
  const def = parseExprSingle(p);
  return { kind: 'SwitchExpr', start, end: p.pos, operand, cases, default: def };
}

/** TypeswitchExpr ::= "typeswitch" "(" Expr ")" CaseClause+ "default" ("$" VarName)? "return" ExprSingle */
export function parseTypeswitchExpr(p: Parser): Expr {
  const start = p.next().start;
  const operand = parseParenthesizedOperand(p);
  const cases: TypeswitchCaseClause[] = [];
  if (!p.isWord('case')) p.unexpected(p.peek(), '"case"');
  while (p.isWord('case')) {
    const cstart = p.next().start;
    let variable: EQName | null = null;
    if (p.isSym('$')) {
      variable = p.expectVarName();
      p.expectWord('as');
    }
    const types: SequenceType[] = [parseSequenceType(p)];
    while (p.eat('|')) types.push(parseSequenceType(p));
    p.expectWord('return');
    const result = parseExprSingle(p);
    cases.push({ kind: 'TypeswitchCaseClause', start: cstart, end: p.pos, variable, types, result });
  }
  p.expectWord('default');
  const defaultVar = p.isSym('$') ? p.expectVarName() : null;
  p.expectWord('return');
  const def = parseExprSingle(p);
  return { kind: 'TypeswitchExpr', start, end: p.pos, operand, cases, defaultVar, default: def };
}

/** TryCatchExpr ::= "try" EnclosedExpr CatchClause+ ; CatchClause ::= "catch" CatchErrorList EnclosedExpr */
export function parseTryCatchExpr(p: Parser): Expr {
  const start = p.next().start;
  const body = parseEnclosedExpr(p);
  const catches: CatchClause[] = [];
  if (!p.isWord('catch')) p.unexpected(p.peek(), '"catch"');
  while (p.isWord('catch')) {
    const cstart = p.next().start;
    const tests: (NameTest | Wildcard)[] = [];
    do {
      const t = p.peek();
      if (!(t.type === 'name' || t.type === 'wildcard' || p.isSym('*'))) p.unexpected(t, 'a name test');
      tests.push(parseNodeTest(p) as NameTest | Wildcard);
    } while (p.eat('|'));
    const cbody = parseEnclosedExpr(p);
    catches.push({ kind: 'CatchClause', start: cstart, end: p.pos, tests, body: cbody });
  }
  return { kind: 'TryCatchExpr', start, end: p.pos, body, catches };
}
