/**
 * Expr, ExprSingle and the operator precedence chain from OrExpr down to SimpleMapExpr.
 */
import type { ArrowExpr, Expr, GeneralComp, NodeComp, ValueComp } from './ast';
import { parseIfExpr, parseSwitchExpr, parseTryCatchExpr, parseTypeswitchExpr } from './conditional';
import { parseFLWORExpr, parseQuantifiedExpr } from './flwor';
import { parseFTContains } from './fulltext';
import type { Parser } from './parser';
import { parsePathExpr } from './paths';
import { parseArgumentList, parseEnclosedExpr, parseExtensionExpr, parseInlineFunctionExpr, parseParenthesizedExpr, parseVarRef } from './primary';
import { parseSequenceType, parseSingleType } from './types';
import { parseCopyModifyExpr, parseDeleteExpr, parseInsertExpr, parseRenameExpr, parseReplaceExpr, startsUpdateExpr } from './update';

/** Expr ::= ExprSingle ("," ExprSingle)* */
export function parseExpr(p: Parser): Expr {
  const start = p.nextStart();
  const first = parseExprSingle(p);
  if (!p.isSym(',')) return first;
  const items = [first];
  while (p.eat(',')) items.push(parseExprSingle(p));
  return { kind: 'SequenceExpr', start, end: p.pos, items };
}

/** ExprSingle ::= FLWORExpr | QuantifiedExpr | SwitchExpr | TypeswitchExpr | IfExpr | TryCatchExpr | UpdateExprs | OrExpr */
export function parseExprSingle(p: Parser): Expr {
  return p.nested(p.nextStart(), () => parseExprSingleAlternatives(p));
}

function parseExprSingleAlternatives(p: Parser): Expr {
  const t = p.peek();
  if (t.type === 'name' && t.name!.prefix === undefined && t.name!.uri === undefined) {
    switch (t.name!.local) {
      case 'for':
        if (p.isSym('$', 1) || ((p.isWord('tumbling', 1) || p.isWord('sliding', 1)) && p.isWord('window', 2))) {
          return parseFLWORExpr(p);
        }
        break;
      case 'let':
        if (p.isSym('$', 1) || (p.isWord('score', 1) && p.isSym('$', 2))) return parseFLWORExpr(p);
        break;
      case 'some':
      case 'every':
        if (p.isSym('$', 1)) return parseQuantifiedExpr(p);
        break;
      case 'switch':
        if (p.isSym('(', 1)) return parseSwitchExpr(p);
        break;
      case 'typeswitch':
        if (p.isSym('(', 1)) return parseTypeswitchExpr(p);
        break;
      case 'if':
        if (p.isSym('(', 1)) return parseIfExpr(p);
        break;
      case 'try':
        if (p.isSym('{', 1)) return parseTryCatchExpr(p);
        break;
      default: {
        const update = startsUpdateExpr(p);
        if (update === 'insert') return parseInsertExpr(p);
        if (update === 'delete') return parseDeleteExpr(p);
        if (update === 'replace') return parseReplaceExpr(p);
        if (update === 'rename') return parseRenameExpr(p);
        if (update === 'copy') return parseCopyModifyExpr(p);
      }
    }
  }
  return parseOrExpr(p);
}

/** OrExpr ::= AndExpr ( "or" AndExpr )* */
export function parseOrExpr(p: Parser): Expr {
  const start = p.nextStart();
  let left = parseAndExpr(p);
  while (p.eatWord('or')) {
      const right = parseAndExpr(p);
      left = { kind: 'OrExpr', start, end: p.pos, left, right };
    }
  return left;
}

/** AndExpr ::= ComparisonExpr ( "and" ComparisonExpr )* */
function parseAndExpr(p: Parser): Expr {
  const start = p.nextStart();
  let left = parseComparisonExpr(p);
  while (p.eatWord('and')) {
      const right = parseComparisonExpr(p);
      left = { kind: 'AndExpr', start, end: p.pos, left, right };
    }
  return left;
}

const GENERAL_COMPS = new Set<string>(['=', '!=', '<', '<=', '>', '>=', '<<', '>>']);
const VALUE_COMPS = new Set<string>(['eq', 'ne', 'lt', 'le', 'gt', 'ge', 'is']);

/** ComparisonExpr ::= FTContainsExpr ( (ValueComp | GeneralComp | NodeComp) FTContainsExpr )? (XQuery Full Text 1.0 A.1) */
function parseComparisonExpr(p: Parser): Expr {
  const start = p.nextStart();
  const left = parseFTContainsExpr(p);
  const t = p.peek();
  let op: string | null = null;
  if (t.type === 'symbol' && GENERAL_COMPS.has(t.value)) op = t.value;
  else if (t.type === 'name' && t.name!.prefix === undefined && t.name!.uri === undefined && VALUE_COMPS.has(t.value)) op = t.value;
  if (op === null) return left;
  p.next();
  const right = parseFTContainsExpr(p);
  return { kind: 'ComparisonExpr', start, end: p.pos, op: op as GeneralComp | ValueComp | NodeComp, left, right };
}

/** FTContainsExpr ::= StringConcatExpr ( "contains" "text" FTSelection FTIgnoreOption? )? */
function parseFTContainsExpr(p: Parser): Expr {
  const start = p.nextStart();
  return parseFTContains(p, parseStringConcatExpr(p), start);
}

/** StringConcatExpr ::= RangeExpr ( "||" RangeExpr )* */
function parseStringConcatExpr(p: Parser): Expr {
  const start = p.nextStart();
  let left = parseRangeExpr(p);
  while (p.eat('||')) {
      const right = parseRangeExpr(p);
      left = { kind: 'StringConcatExpr', start, end: p.pos, left, right };
    }
  return left;
}

/** RangeExpr ::= AdditiveExpr ( "to" AdditiveExpr )? */
function parseRangeExpr(p: Parser): Expr {
  const start = p.nextStart();
  const left = parseAdditiveExpr(p);
  if (!p.eatWord('to')) return left;
  const right = parseAdditiveExpr(p);
  return { kind: 'RangeExpr', start, end: p.pos, left, right };
}

/** AdditiveExpr ::= MultiplicativeExpr ( ("+" | "-") MultiplicativeExpr )* */
export function parseAdditiveExpr(p: Parser): Expr {
  const start = p.nextStart();
  let left = parseMultiplicativeExpr(p);
  while (p.isSym('+') || p.isSym('-')) {
    const op = p.next().value as '+' | '-';
    {
      const right = parseMultiplicativeExpr(p);
      left = { kind: 'AdditiveExpr', start, end: p.pos, op, left, right };
    }
  }
  return left;
}

/** MultiplicativeExpr ::= UnionExpr ( ("*" | "div" | "idiv" | "mod") UnionExpr )* */
function parseMultiplicativeExpr(p: Parser): Expr {
  const start = p.nextStart();
  let left = parseUnionExpr(p);
  for (;;) {
    let op: '*' | 'div' | 'idiv' | 'mod';
    if (p.eat('*')) op = '*';
    else if (p.eatWord('div')) op = 'div';
    else if (p.eatWord('idiv')) op = 'idiv';
    else if (p.eatWord('mod')) op = 'mod';
    else break;
    {
      const right = parseUnionExpr(p);
      left = { kind: 'MultiplicativeExpr', start, end: p.pos, op, left, right };
    }
  }
  return left;
}

/** UnionExpr ::= IntersectExceptExpr ( ("union" | "|") IntersectExceptExpr )* */
export function parseUnionExpr(p: Parser): Expr {
  const start = p.nextStart();
  let left = parseIntersectExceptExpr(p);
  while (p.eatWord('union') || p.eat('|')) {
    {
      const right = parseIntersectExceptExpr(p);
      left = { kind: 'UnionExpr', start, end: p.pos, left, right };
    }
  }
  return left;
}

/** IntersectExceptExpr ::= InstanceofExpr ( ("intersect" | "except") InstanceofExpr )* */
function parseIntersectExceptExpr(p: Parser): Expr {
  const start = p.nextStart();
  let left = parseInstanceofExpr(p);
  while (p.isWord('intersect') || p.isWord('except')) {
    const op = p.next().value as 'intersect' | 'except';
    {
      const right = parseInstanceofExpr(p);
      left = { kind: 'IntersectExceptExpr', start, end: p.pos, op, left, right };
    }
  }
  return left;
}

/** InstanceofExpr ::= TreatExpr ( "instance" "of" SequenceType )? */
function parseInstanceofExpr(p: Parser): Expr {
  const start = p.nextStart();
  const expr = parseTreatExpr(p);
  if (!(p.isWord('instance') && p.isWord('of', 1))) return expr;
  p.next();
  p.next();
  const type = parseSequenceType(p);
  return { kind: 'InstanceofExpr', start, end: p.pos, expr, type };
}

/** TreatExpr ::= CastableExpr ( "treat" "as" SequenceType )? */
function parseTreatExpr(p: Parser): Expr {
  const start = p.nextStart();
  const expr = parseCastableExpr(p);
  if (!(p.isWord('treat') && p.isWord('as', 1))) return expr;
  p.next();
  p.next();
  const type = parseSequenceType(p);
  return { kind: 'TreatExpr', start, end: p.pos, expr, type };
}

/** CastableExpr ::= CastExpr ( "castable" "as" SingleType )? */
function parseCastableExpr(p: Parser): Expr {
  const start = p.nextStart();
  const expr = parseCastExpr(p);
  if (!(p.isWord('castable') && p.isWord('as', 1))) return expr;
  p.next();
  p.next();
  const type = parseSingleType(p);
  return { kind: 'CastableExpr', start, end: p.pos, expr, type };
}

/** CastExpr ::= TransformWithExpr ( "cast" "as" SingleType )? */
function parseCastExpr(p: Parser): Expr {
  const start = p.nextStart();
  const expr = parseTransformWithExpr(p);
  if (!(p.isWord('cast') && p.isWord('as', 1))) return expr;
  p.next();
  p.next();
  const type = parseSingleType(p);
  return { kind: 'CastExpr', start, end: p.pos, expr, type };
}

/** TransformWithExpr ::= ArrowExpr ( "transform" "with" "{" Expr? "}" )?  (Update Facility 3.0) */
function parseTransformWithExpr(p: Parser): Expr {
  const start = p.nextStart();
  const expr = parseArrowExpr(p);
  if (!(p.isWord('transform') && p.isWord('with', 1))) return expr;
  p.next();
  p.next();
  const modify = parseEnclosedExpr(p).expr;
  return { kind: 'TransformWithExpr', start, end: p.pos, expr, modify };
}

/**
 * ArrowExpr ::= UnaryExpr ( "=>" ArrowFunctionSpecifier ArgumentList )*
 * ArrowFunctionSpecifier ::= EQName | VarRef | ParenthesizedExpr, plus an inline function (as in XQuery 4).
 */
function parseArrowExpr(p: Parser): Expr {
  const start = p.nextStart();
  let expr = parseUnaryExpr(p);
  while (p.eat('=>')) {
    let fn: ArrowExpr['function'];
    const t = p.peek();
    if (p.isSym('%') || (p.isWord('function') && p.isSym('(', 1))) {
      fn = parseInlineFunctionExpr(p);
    } else if (t.type === 'name') {
      fn = p.next().name!;
    } else if (p.isSym('$')) {
      fn = parseVarRef(p);
    } else if (p.isSym('(')) {
      fn = parseParenthesizedExpr(p);
    } else {
      p.unexpected(t, 'a function name, variable or parenthesized expression');
    }
    if (!p.isSym('(')) p.unexpected(p.peek(), '"("');
    const args = parseArgumentList(p);
    expr = { kind: 'ArrowExpr', start, end: p.pos, expr, function: fn, args };
  }
  return expr;
}

/** UnaryExpr ::= ("-" | "+")* ValueExpr; the signs are read in a loop (a long chain nests only in the tree). */
function parseUnaryExpr(p: Parser): Expr {
  const signs: { start: number; op: '+' | '-' }[] = [];
  while (p.isSym('-') || p.isSym('+')) {
    const start = p.nextStart();
    signs.push({ start, op: p.next().value as '+' | '-' });
  }
  let expr = parseValueExpr(p);
  for (let i = signs.length - 1; i >= 0; i--) expr = { kind: 'UnaryExpr', start: signs[i].start, end: p.pos, op: signs[i].op, operand: expr };
  return expr;
}

/** ValueExpr ::= ValidateExpr | ExtensionExpr | SimpleMapExpr */
function parseValueExpr(p: Parser): Expr {
  if (p.isWord('validate')) {
    if (p.isSym('{', 1) || ((p.isWord('lax', 1) || p.isWord('strict', 1)) && p.isSym('{', 2)) || (p.isWord('type', 1) && p.isName(2))) {
      return parseValidateExpr(p);
    }
  }
  if (p.isSym('(#')) return parseExtensionExpr(p);
  return parseSimpleMapExpr(p);
}

/** ValidateExpr ::= "validate" (ValidationMode | ("type" TypeName))? "{" Expr "}" */
function parseValidateExpr(p: Parser): Expr {
  const start = p.next().start;
  let mode: 'lax' | 'strict' | null = null;
  let type = null;
  if (p.eatWord('lax')) mode = 'lax';
  else if (p.eatWord('strict')) mode = 'strict';
  else if (p.eatWord('type')) type = p.expectEQName('a type name');
  p.expect('{');
  const expr = parseExpr(p);
  p.expect('}');
  return { kind: 'ValidateExpr', start, end: p.pos, mode, type, expr };
}

/** SimpleMapExpr ::= PathExpr ("!" PathExpr)* */
function parseSimpleMapExpr(p: Parser): Expr {
  const start = p.nextStart();
  const first = parsePathExpr(p);
  if (!p.isSym('!')) return first;
  const operands = [first];
  while (p.eat('!')) operands.push(parsePathExpr(p));
  return { kind: 'SimpleMapExpr', start, end: p.pos, operands };
}
