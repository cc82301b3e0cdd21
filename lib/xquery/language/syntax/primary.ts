/**
 * PrimaryExpr: literals, variable references, parenthesized and context item expressions,
 * function calls and function items, map and array constructors, ordered/unordered, string
 * constructors, unary lookups, extension expressions; constructors are in constructors.ts.
 */
import type {
  Argument,
  EnclosedExpr,
  Expr,
  InlineFunctionExpr,
  MapConstructorEntry,
  Param,
  ParenthesizedExpr,
  Pragma,
  StringConstructor,
  VarRef,
} from './ast';
import { parseComputedConstructor, parseDirectConstructor, startsComputedConstructor } from './constructors';
import { parseExpr, parseExprSingle } from './expressions';
import { isLexError, isWhitespace, scanToken } from './lexer';
import { RESERVED_FUNCTION_NAMES, type Parser } from './parser';
import { parseKeySpecifier } from './paths';
import { parseAnnotations, parseLiteral, parseTypeDeclaration } from './types';

/** Does the name token at the cursor start a PrimaryExpr (rather than a name test)? */
export function startsPrimaryName(p: Parser): boolean {
  if (p.isSym('(', 1)) return true;
  if (p.isSym('#', 1) && p.peek(2).type === 'integer') return true;
  if (!p.isNCName()) return false;
  switch (p.peek().value) {
    case 'ordered':
    case 'unordered':
    case 'map':
    case 'array':
      return p.isSym('{', 1);
    case 'invoke':
      return p.isWord('updating', 1);
    default:
      return startsComputedConstructor(p);
  }
}

/** PrimaryExpr */
export function parsePrimaryExpr(p: Parser): Expr {
  const t = p.peek();
  switch (t.type) {
    case 'integer':
    case 'decimal':
    case 'double':
    case 'string':
      return parseLiteral(p);
    case 'name':
      return parsePrimaryName(p);
    case 'symbol':
      switch (t.value) {
        case '$':
          return parseVarRef(p);
        case '(':
          return parseParenthesizedExpr(p);
        case '.':
          p.next();
          return { kind: 'ContextItemExpr', start: t.start, end: t.end };
        case '?': {
          p.next();
          const key = parseKeySpecifier(p);
          return { kind: 'UnaryLookup', start: t.start, end: p.pos, key };
        }
        case '[':
          return parseSquareArrayConstructor(p);
        case '%':
          return parseInlineFunctionExpr(p);
        case '<':
          return parseDirectConstructor(p);
        case '``[':
          return parseStringConstructor(p);
      }
  }
  return p.unexpected(t, 'an expression');
}

function parsePrimaryName(p: Parser): Expr {
  const t = p.peek();
  const name = t.name!;
  const unprefixed = name.prefix === undefined && name.uri === undefined;
  if (p.isSym('(', 1)) {
    if (unprefixed && name.local === 'function') return parseInlineFunctionExpr(p);
    if (unprefixed && RESERVED_FUNCTION_NAMES.has(name.local)) {
      p.error(`"${name.local}" is a reserved function name`, t.start);
    }
    p.next();
    const args = parseArgumentList(p);
    return { kind: 'FunctionCall', start: t.start, end: p.pos, name, args };
  }
  if (p.isSym('#', 1)) {
    if (unprefixed && RESERVED_FUNCTION_NAMES.has(name.local)) {
      p.error(`"${name.local}" is a reserved function name`, t.start);
    }
    p.next();
    p.next();
    if (p.peek().type !== 'integer') p.unexpected(p.peek(), 'an arity');
    const arity = p.next();
    return { kind: 'NamedFunctionRef', start: t.start, end: p.pos, name, arity: Number(arity.value) };
  }
  switch (unprefixed ? name.local : '') {
    case 'ordered':
    case 'unordered': {
      p.next();
      const expr = parseEnclosedExpr(p).expr;
      return { kind: name.local === 'ordered' ? 'OrderedExpr' : 'UnorderedExpr', start: t.start, end: p.pos, expr };
    }
    case 'map':
      return parseMapConstructor(p);
    case 'array': {
      p.next();
      const expr = parseEnclosedExpr(p).expr;
      return { kind: 'CurlyArrayConstructor', start: t.start, end: p.pos, expr };
    }
    case 'invoke': {
      p.next();
      p.expectWord('updating');
      const fn = parsePrimaryExpr(p);
      if (!p.isSym('(')) p.unexpected(p.peek(), '"("');
      const args = parseArgumentList(p).map((a) =>
        a.kind === 'ArgumentPlaceholder' ? p.error('Unexpected "?" in updating function call', a.start) : a,
      );
      return { kind: 'UpdatingFunctionCall', start: t.start, end: p.pos, function: fn, args };
    }
  }
  if (startsComputedConstructor(p)) return parseComputedConstructor(p);
  return p.unexpected(t, 'an expression');
}

/** VarRef ::= "$" VarName */
export function parseVarRef(p: Parser): VarRef {
  const start = p.nextStart();
  const name = p.expectVarName();
  return { kind: 'VarRef', start, end: p.pos, name };
}

/** ParenthesizedExpr ::= "(" Expr? ")" */
export function parseParenthesizedExpr(p: Parser): ParenthesizedExpr {
  const start = p.expect('(').start;
  const expr = p.isSym(')') ? null : parseExpr(p);
  p.expect(')');
  return { kind: 'ParenthesizedExpr', start, end: p.pos, expr };
}

/** EnclosedExpr ::= "{" Expr? "}" */
export function parseEnclosedExpr(p: Parser): EnclosedExpr {
  const start = p.expect('{').start;
  const expr = p.isSym('}') ? null : parseExpr(p);
  p.expect('}');
  return { kind: 'EnclosedExpr', start, end: p.pos, expr };
}

/** ArgumentList ::= "(" (Argument ("," Argument)*)? ")" ; Argument ::= ExprSingle | "?" */
export function parseArgumentList(p: Parser): Argument[] {
  p.expect('(');
  const args: Argument[] = [];
  if (p.eat(')')) return args;
  do {
    if (p.isSym('?') && (p.isSym(',', 1) || p.isSym(')', 1))) {
      const t = p.next();
      args.push({ kind: 'ArgumentPlaceholder', start: t.start, end: t.end });
    } else {
      args.push(parseExprSingle(p));
    }
  } while (p.eat(','));
  p.expect(')');
  return args;
}

/** ParamList ::= Param ("," Param)* inside "(" ")" ; Param ::= "$" EQName TypeDeclaration? */
export function parseParamList(p: Parser): Param[] {
  p.expect('(');
  const params: Param[] = [];
  if (!p.isSym(')')) {
    do {
      const start = p.nextStart();
      const name = p.expectVarName();
      const type = parseTypeDeclaration(p);
      params.push({ kind: 'Param', start, end: p.pos, name, type });
    } while (p.eat(','));
  }
  p.expect(')');
  return params;
}

/** InlineFunctionExpr ::= Annotation* "function" "(" ParamList? ")" ("as" SequenceType)? FunctionBody */
export function parseInlineFunctionExpr(p: Parser): InlineFunctionExpr {
  const start = p.nextStart();
  const annotations = parseAnnotations(p);
  p.expectWord('function');
  const params = parseParamList(p);
  const returnType = parseTypeDeclaration(p);
  const body = parseEnclosedExpr(p);
  return { kind: 'InlineFunctionExpr', start, end: p.pos, annotations, params, returnType, body };
}

/** MapConstructor ::= "map" "{" (MapConstructorEntry ("," MapConstructorEntry)*)? "}" */
function parseMapConstructor(p: Parser): Expr {
  const start = p.next().start;
  p.expect('{');
  const entries: MapConstructorEntry[] = [];
  if (!p.isSym('}')) {
    do {
      const entryStart = p.nextStart();
      const key = parseExprSingle(p);
      p.expect(':');
      const value = parseExprSingle(p);
      entries.push({ kind: 'MapConstructorEntry', start: entryStart, end: p.pos, key, value });
    } while (p.eat(','));
  }
  p.expect('}');
  return { kind: 'MapConstructor', start, end: p.pos, entries };
}

/** SquareArrayConstructor ::= "[" (ExprSingle ("," ExprSingle)*)? "]" */
function parseSquareArrayConstructor(p: Parser): Expr {
  const start = p.expect('[').start;
  const members: Expr[] = [];
  if (!p.isSym(']')) {
    do members.push(parseExprSingle(p));
    while (p.eat(','));
  }
  p.expect(']');
  return { kind: 'SquareArrayConstructor', start, end: p.pos, members };
}

/** StringConstructor ::= "``[" StringConstructorContent "]``" (scanned raw) */
function parseStringConstructor(p: Parser): StringConstructor {
  const start = p.expect('``[').start;
  const src = p.src;
  const parts: StringConstructor['parts'] = [];
  let i = p.pos;
  let run = i;
  const flush = (end: number) => {
    if (end > run) parts.push({ kind: 'StringConstructorChars', start: run, end, value: src.slice(run, end).replace(/\r\n?/g, '\n') });
  };
  for (;;) {
    if (i >= src.length) p.error('Unterminated string constructor', start);
    if (src.startsWith(']``', i)) {
      flush(i);
      p.reset(i + 3);
      return { kind: 'StringConstructor', start, end: p.pos, parts };
    }
    if (src.startsWith('`{', i)) {
      flush(i);
      const istart = i;
      p.reset(i + 2);
      const expr = p.isSym('}') ? null : parseExpr(p);
      p.expect('}');
      if (src[p.pos] !== '`') p.error('Expected "`" to close the interpolation', p.pos);
      i = run = p.pos + 1;
      parts.push({ kind: 'StringConstructorInterpolation', start: istart, end: i, expr });
      continue;
    }
    i++;
  }
}

/** ExtensionExpr ::= Pragma+ "{" Expr? "}" ; Pragma ::= "(#" S? EQName (S PragmaContents)? "#)" */
export function parseExtensionExpr(p: Parser): Expr {
  const start = p.nextStart();
  const pragmas = parsePragmas(p);
  const expr = parseEnclosedExpr(p).expr;
  return { kind: 'ExtensionExpr', start, end: p.pos, pragmas, expr };
}

/** Pragma+ (`(# name contents #)`), scanned raw: the contents are any characters up to `#)`. */
export function parsePragmas(p: Parser): Pragma[] {
  const pragmas: Pragma[] = [];
  const src = p.src;
  while (p.isSym('(#')) {
    const pstart = p.next().start;
    let i = p.pos;
    while (isWhitespace(src.charCodeAt(i))) i++;
    const t = scanToken(src, i);
    if (t.type !== 'name') {
      if (t.type === 'invalid' && isLexError(t.error)) p.error(t.error.message, t.error.offset, t.error.code);
      p.error('Expected a pragma name', i);
    }
    i = t.end;
    let contents = '';
    if (!src.startsWith('#)', i)) {
      if (!isWhitespace(src.charCodeAt(i))) p.error('Expected whitespace after the pragma name', i);
      const close = src.indexOf('#)', i);
      if (close < 0) p.error('Unterminated pragma', pstart);
      contents = src.slice(i, close).replace(/^[ \t\r\n]+/, '');
      i = close;
    }
    p.reset(i + 2);
    pragmas.push({ kind: 'Pragma', start: pstart, end: p.pos, name: t.name!, contents });
  }
  return pragmas;
}
