/**
 * XQuery 3.1 + Update Facility 3.0 parser: query text → typed AST (see ast.ts).
 *
 *   parseQuery(text)   a main module; throws XQuerySyntaxError (code, line, column, offset)
 *   parseModule(text)  a main or library module
 */
import type { MainModule, Module } from './ast';
import { Parser } from './parser';
import { parseModule as parseModuleRule } from './prolog';

export type * from './ast';
export { XQuerySyntaxError, lineColumn, type SyntaxErrorCode } from './errors';
export { printAst } from './print';
export { childNodes } from './walk';

/** Parses a main or library module. */
export function parseModule(text: string): Module {
  return parseModuleRule(new Parser(text));
}

/** Parses a main module (a query); a library module is a syntax error. */
export function parseQuery(text: string): MainModule {
  const p = new Parser(text);
  if (p.isWord('module') && p.isWord('namespace', 1)) p.error('Expected a main module, found a library module', p.nextStart());
  const m = parseModuleRule(p);
  if (m.kind !== 'MainModule') return p.error('Expected a main module, found a library module', m.moduleDecl.start);
  return m;
}
