/**
 * XQuery Update Facility 3.0: InsertExpr, DeleteExpr, ReplaceExpr, RenameExpr, CopyModifyExpr.
 * (TransformWithExpr sits in the operator chain, UpdatingFunctionCall among the primaries.)
 */
import type { Expr, InsertExpr, LetBinding } from './ast';
import { parseExprSingle } from './expressions';
import type { Parser } from './parser';

export type UpdateKeyword = 'insert' | 'delete' | 'replace' | 'rename' | 'copy';

/** Which updating expression, if any, starts at the cursor. */
export function startsUpdateExpr(p: Parser): UpdateKeyword | null {
  const nodeOrNodes = p.isWord('node', 1) || p.isWord('nodes', 1);
  if (p.isWord('insert') && nodeOrNodes) return 'insert';
  if (p.isWord('delete') && nodeOrNodes) return 'delete';
  if (p.isWord('replace') && (p.isWord('node', 1) || (p.isWord('value', 1) && p.isWord('of', 2)))) return 'replace';
  if (p.isWord('rename') && p.isWord('node', 1)) return 'rename';
  if (p.isWord('copy') && p.isSym('$', 1)) return 'copy';
  return null;
}

/** InsertExpr ::= "insert" ("node" | "nodes") SourceExpr InsertExprTargetChoice TargetExpr */
export function parseInsertExpr(p: Parser): Expr {
  const start = p.next().start;
  p.next();
  const source = parseExprSingle(p);
  let position: InsertExpr['position'];
  if (p.eatWord('as')) {
    position = p.expectOneOf(['first', 'last'] as const);
    p.expectWord('into');
  } else {
    position = p.expectOneOf(['into', 'before', 'after'] as const);
  }
  const target = parseExprSingle(p);
  return { kind: 'InsertExpr', start, end: p.pos, source, position, target };
}

/** DeleteExpr ::= "delete" ("node" | "nodes") TargetExpr */
export function parseDeleteExpr(p: Parser): Expr {
  const start = p.next().start;
  p.next();
  const target = parseExprSingle(p);
  return { kind: 'DeleteExpr', start, end: p.pos, target };
}

/** ReplaceExpr ::= "replace" ("value" "of")? "node" TargetExpr "with" ExprSingle */
export function parseReplaceExpr(p: Parser): Expr {
  const start = p.next().start;
  let valueOf = false;
  if (p.eatWord('value')) {
    p.expectWord('of');
    valueOf = true;
  }
  p.expectWord('node');
  const target = parseExprSingle(p);
  p.expectWord('with');
  const withExpr = parseExprSingle(p);
  return { kind: 'ReplaceExpr', start, end: p.pos, valueOf, target, with: withExpr };
}

/** RenameExpr ::= "rename" "node" TargetExpr "as" NewNameExpr */
export function parseRenameExpr(p: Parser): Expr {
  const start = p.next().start;
  p.next();
  const target = parseExprSingle(p);
  p.expectWord('as');
  const newName = parseExprSingle(p);
  return { kind: 'RenameExpr', start, end: p.pos, target, newName };
}

/** CopyModifyExpr ::= "copy" "$" VarName ":=" ExprSingle ("," "$" VarName ":=" ExprSingle)* "modify" ExprSingle "return" ExprSingle */
export function parseCopyModifyExpr(p: Parser): Expr {
  const start = p.next().start;
  const bindings: LetBinding[] = [];
  do {
    const bstart = p.nextStart();
    const name = p.expectVarName();
    p.expect(':=');
    const value = parseExprSingle(p);
    bindings.push({ kind: 'LetBinding', start: bstart, end: p.pos, name, type: null, value });
  } while (p.eat(','));
  p.expectWord('modify');
  const modify = parseExprSingle(p);
  p.expectWord('return');
  const ret = parseExprSingle(p);
  return { kind: 'CopyModifyExpr', start, end: p.pos, bindings, modify, return: ret };
}
