/** The parser's interface: query text to typed AST (parse.ts), the AST's types and the walks over it. */
export type * from './ast';
export { XQuerySyntaxError, lineColumn, type SyntaxErrorCode } from './syntax-errors';
export { printAst } from './print';
export { childNodes, eachChild, everyMember, someNode } from './walk';
export { isGeneralComparison, isLiteral } from './kinds';
export { NESTED_TOO_DEEPLY } from './nesting';
export { parseModule, parseQuery } from './parse';
