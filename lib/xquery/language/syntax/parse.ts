/**
 * XQuery 3.1 + Update Facility 3.0 parser: query text → typed AST (see ast.ts).
 *
 *   parseQuery(text)   a main module; throws XQuerySyntaxError (code, line, column, offset)
 *   parseModule(text)  a main or library module
 */
import type { MainModule, Module } from './ast';
import { NESTED_TOO_DEEPLY, tooDeep } from './nesting';
import { Parser } from './parser';
import { parseModule as parseModuleRule } from './prolog';

/** Parses a main or library module. */
export function parseModule(text: string): Module {
  const p = new Parser(text);
  return checked(p, parseModuleRule(p));
}

/** The module, unless its tree is deeper than the walks over it can go (nesting.ts). */
function checked<M extends Module>(p: Parser, m: M): M {
  const deep = tooDeep(m);
  return deep ? p.error(NESTED_TOO_DEEPLY, deep.start) : m;
}

/** Parses a main module (a query); a library module is a syntax error. */
export function parseQuery(text: string): MainModule {
  const p = new Parser(text);
  if (p.isWord('module') && p.isWord('namespace', 1)) p.error('Expected a main module, found a library module', p.nextStart());
  const m = parseModuleRule(p);
  if (m.kind !== 'MainModule') return p.error('Expected a main module, found a library module', m.moduleDecl.start);
  return checked(p, m);
}
