/**
 * Module, VersionDecl, ModuleDecl and Prolog with all its declarations.
 */
import type { Annotation, EQName, Module, Prolog, PrologDecl, VersionDecl } from './ast';
import type { SyntaxErrorCode } from './syntax-errors';
import { parseExpr, parseExprSingle } from './expressions';
import type { Parser } from './parser';
import { parseMatchOptions } from './fulltext';
import { RESERVED_FUNCTION_NAMES } from './parser';
import { parseEnclosedExpr, parseParamList } from './primary';
import { parseAnnotations, parseItemType, parseTypeDeclaration } from './types';

/** Module ::= VersionDecl? (LibraryModule | MainModule) */
export function parseModule(p: Parser): Module {
  const versionDecl = p.isWord('xquery') && (p.isWord('version', 1) || p.isWord('encoding', 1)) ? parseVersionDecl(p) : null;
  if (p.isWord('module') && p.isWord('namespace', 1)) {
    const mstart = p.next().start;
    p.next();
    const prefix = p.expectNCName('a namespace prefix');
    p.expect('=');
    const uri = p.expectURILiteral();
    p.expect(';');
    const moduleDecl = { kind: 'ModuleDecl' as const, start: mstart, end: p.pos, prefix, uri };
    const prolog = parseProlog(p);
    expectEnd(p);
    return { kind: 'LibraryModule', start: 0, end: p.src.length, versionDecl, moduleDecl, prolog };
  }
  const prolog = parseProlog(p);
  if (p.peek().type === 'eof') p.unexpected(p.peek(), 'a query body');
  const body = parseExpr(p);
  expectEnd(p);
  return { kind: 'MainModule', start: 0, end: p.src.length, versionDecl, prolog, body };
}

function expectEnd(p: Parser): void {
  const t = p.peek();
  if (t.type !== 'eof') p.unexpected(t, 'end of query');
}

/** VersionDecl ::= "xquery" (("encoding" StringLiteral) | ("version" StringLiteral ("encoding" StringLiteral)?)) Separator */
function parseVersionDecl(p: Parser): VersionDecl {
  const start = p.next().start;
  let version: string | null = null;
  let encoding: string | null = null;
  if (p.eatWord('version')) {
    const t = p.peek();
    version = p.expectString('a version string');
    if (!['1.0', '3.0', '3.1'].includes(version)) p.error(`Unsupported XQuery version "${version}"`, t.start, 'XQST0031');
  }
  if (version === null || p.isWord('encoding')) {
    p.expectWord('encoding');
    const t = p.peek();
    encoding = p.expectString('an encoding name');
    if (!/^[A-Za-z]([A-Za-z0-9._]|-)*$/.test(encoding)) p.error(`Invalid encoding name "${encoding}"`, t.start, 'XQST0087');
  }
  p.expect(';');
  return { kind: 'VersionDecl', start, end: p.pos, version, encoding };
}

const DECLARE_KEYWORDS = new Set([
  'default',
  'boundary-space',
  'base-uri',
  'construction',
  'ordering',
  'copy-namespaces',
  'decimal-format',
  'namespace',
  'revalidation',
  'context',
  'variable',
  'function',
  'updating',
  'option',
  'ft-option',
]);

const DF_PROPERTIES = new Set([
  'decimal-separator',
  'grouping-separator',
  'infinity',
  'minus-sign',
  'NaN',
  'percent',
  'per-mille',
  'zero-digit',
  'digit',
  'pattern-separator',
  'exponent-separator',
]);

/**
 * Prolog ::= ((DefaultNamespaceDecl | Setter | NamespaceDecl | Import) Separator)*
 *            ((ContextItemDecl | AnnotatedDecl | OptionDecl) Separator)*
 */
export function parseProlog(p: Parser): Prolog {
  const start = p.nextStart();
  const decls: PrologDecl[] = [];
  const seen = new Set<string>();
  let secondPart = false;
  const once = (key: string, code: SyntaxErrorCode, at: number, what: string) => {
    if (seen.has(key)) p.error(`${what} is declared more than once`, at, code);
    seen.add(key);
  };
  for (;;) {
    const at = p.nextStart();
    let decl: PrologDecl;
    if (p.isWord('import') && (p.isWord('schema', 1) || p.isWord('module', 1))) {
      if (secondPart) p.error('An import must come before variable, function, context item and option declarations', at);
      decl = parseImport(p);
    } else if (p.isWord('declare') && (p.isSym('%', 1) || (p.isNCName(1) && DECLARE_KEYWORDS.has(p.peek(1).value)))) {
      p.next();
      const kw = p.peek().value;
      const late = p.isSym('%') || ['context', 'variable', 'function', 'updating', 'option'].includes(kw);
      if (!late && secondPart) p.error('A setter or namespace declaration must come before variable, function, context item and option declarations', at);
      if (late) secondPart = true;
      decl = parseDeclaration(p, at, once);
    } else {
      break;
    }
    decls.push(decl);
    p.expect(';');
  }
  return { kind: 'Prolog', start, end: decls.length ? p.pos : start, decls };
}

type Once = (key: string, code: SyntaxErrorCode, at: number, what: string) => void;

/** Everything after "declare". */
function parseDeclaration(p: Parser, start: number, once: Once): PrologDecl {
  const kwTok = p.peek();
  const kw = kwTok.value;
  if (p.isSym('%') || kw === 'updating' || kw === 'variable' || kw === 'function') return parseAnnotatedDecl(p, start);
  p.next();
  switch (kw) {
    case 'default': {
      if (p.isWord('element') || p.isWord('function')) {
        const target = p.next().value as 'element' | 'function';
        p.expectWord('namespace');
        once(`default-${target}-ns`, 'XQST0066', start, `The default ${target} namespace`);
        const uri = p.expectURILiteral();
        return { kind: 'DefaultNamespaceDecl', start, end: p.pos, target, uri };
      }
      if (p.eatWord('collation')) {
        once('collation', 'XQST0038', start, 'The default collation');
        const uri = p.expectURILiteral();
        return { kind: 'DefaultCollationDecl', start, end: p.pos, uri };
      }
      if (p.eatWord('order')) {
        p.expectWord('empty');
        once('empty-order', 'XQST0069', start, 'The empty order');
        const order = p.expectOneOf(['greatest', 'least'] as const);
        return { kind: 'EmptyOrderDecl', start, end: p.pos, order };
      }
      if (p.eatWord('decimal-format')) return parseDecimalFormatBody(p, start, null, once);
      return p.unexpected(p.peek(), '"element", "function", "collation", "order" or "decimal-format"');
    }
    case 'boundary-space': {
      once(kw, 'XQST0068', start, 'Boundary-space');
      const mode = p.expectOneOf(['preserve', 'strip'] as const);
      return { kind: 'BoundarySpaceDecl', start, end: p.pos, mode };
    }
    case 'base-uri': {
      once(kw, 'XQST0032', start, 'The base URI');
      const uri = p.expectURILiteral();
      return { kind: 'BaseURIDecl', start, end: p.pos, uri };
    }
    case 'construction': {
      once(kw, 'XQST0067', start, 'Construction mode');
      const mode = p.expectOneOf(['strip', 'preserve'] as const);
      return { kind: 'ConstructionDecl', start, end: p.pos, mode };
    }
    case 'ordering': {
      once(kw, 'XQST0065', start, 'Ordering mode');
      const mode = p.expectOneOf(['ordered', 'unordered'] as const);
      return { kind: 'OrderingModeDecl', start, end: p.pos, mode };
    }
    case 'copy-namespaces': {
      once(kw, 'XQST0055', start, 'Copy-namespaces mode');
      const preserve = p.expectOneOf(['preserve', 'no-preserve'] as const) === 'preserve';
      p.expect(',');
      const inherit = p.expectOneOf(['inherit', 'no-inherit'] as const) === 'inherit';
      return { kind: 'CopyNamespacesDecl', start, end: p.pos, preserve, inherit };
    }
    case 'decimal-format':
      return parseDecimalFormatBody(p, start, p.expectEQName('a decimal format name'), once);
    case 'namespace': {
      const prefix = p.expectNCName('a namespace prefix');
      p.expect('=');
      const uri = p.expectURILiteral();
      return { kind: 'NamespaceDecl', start, end: p.pos, prefix, uri };
    }
    case 'revalidation': {
      once(kw, 'XUST0003', start, 'Revalidation mode');
      const mode = p.expectOneOf(['strict', 'lax', 'skip'] as const);
      return { kind: 'RevalidationDecl', start, end: p.pos, mode };
    }
    case 'context': {
      p.expectWord('item');
      once(kw, 'XQST0099', start, 'The context item');
      const type = p.eatWord('as') ? parseItemType(p) : null;
      const { external, value } = parseVarValue(p);
      return { kind: 'ContextItemDecl', start, end: p.pos, type, external, value };
    }
    case 'ft-option': {
      // XQuery Full Text 1.0 §2.4: FTOptionDecl ::= "declare" "ft-option" FTMatchOptions (a setter).
      return { kind: 'FTOptionDecl', start, end: p.pos, options: parseMatchOptions(p) };
    }
    case 'option': {
      const name = p.expectEQName('an option name');
      const value = p.expectString('a string literal');
      return { kind: 'OptionDecl', start, end: p.pos, name, value };
    }
  }
  return p.unexpected(kwTok, 'a declaration');
}

/** (":=" VarValue) | ("external" (":=" VarDefaultValue)?) */
function parseVarValue(p: Parser): { external: boolean; value: ReturnType<typeof parseExprSingle> | null } {
  if (p.eatWord('external')) {
    return { external: true, value: p.eat(':=') ? parseExprSingle(p) : null };
  }
  p.expect(':=');
  return { external: false, value: parseExprSingle(p) };
}

/** DecimalFormatDecl properties: (DFPropertyName "=" StringLiteral)* */
function parseDecimalFormatBody(p: Parser, start: number, name: EQName | null, once: Once): PrologDecl {
  const key = name ? `df:${name.uri ?? ''}{${name.prefix ?? ''}}${name.local}` : 'df:';
  once(key, 'XQST0111', start, 'This decimal format');
  const properties: { name: string; value: string }[] = [];
  while (p.isNCName() && DF_PROPERTIES.has(p.peek().value) && p.isSym('=', 1)) {
    const t = p.next();
    if (properties.some((prop) => prop.name === t.value)) p.error(`Property "${t.value}" is given more than once`, t.start, 'XQST0114');
    p.next();
    properties.push({ name: t.value, value: p.expectString('a string literal') });
  }
  return { kind: 'DecimalFormatDecl', start, end: p.pos, name, properties };
}

/** AnnotatedDecl ::= "declare" Annotation* (VarDecl | FunctionDecl) */
function parseAnnotatedDecl(p: Parser, start: number): PrologDecl {
  const annotations: Annotation[] = [];
  for (;;) {
    if (p.isSym('%')) annotations.push(...parseAnnotations(p));
    else if (p.isWord('updating')) {
      // Update Facility CompatibilityAnnotation
      const t = p.next();
      annotations.push({ kind: 'Annotation', start: t.start, end: t.end, name: { local: 'updating' }, values: [] });
    } else break;
  }
  if (p.eatWord('variable')) {
    const name = p.expectVarName();
    const type = parseTypeDeclaration(p);
    const { external, value } = parseVarValue(p);
    return { kind: 'VarDecl', start, end: p.pos, annotations, name, type, external, value };
  }
  p.expectWord('function');
  const nameTok = p.peek();
  const name = p.expectEQName('a function name');
  if (name.prefix === undefined && name.uri === undefined && RESERVED_FUNCTION_NAMES.has(name.local)) {
    p.error(`"${name.local}" is a reserved function name`, nameTok.start);
  }
  const params = parseParamList(p);
  const returnType = parseTypeDeclaration(p);
  const body = p.eatWord('external') ? null : parseEnclosedExpr(p);
  return { kind: 'FunctionDecl', start, end: p.pos, annotations, name, params, returnType, body };
}

/**
 * SchemaImport ::= "import" "schema" SchemaPrefix? URILiteral ("at" URILiteral ("," URILiteral)*)?
 * ModuleImport ::= "import" "module" ("namespace" NCName "=")? URILiteral ("at" URILiteral ("," URILiteral)*)?
 */
function parseImport(p: Parser): PrologDecl {
  const start = p.next().start;
  const which = p.next().value;
  let prefix: string | null = null;
  let defaultElementNamespace = false;
  if (p.eatWord('namespace')) {
    prefix = p.expectNCName('a namespace prefix');
    p.expect('=');
  } else if (which === 'schema' && p.eatWord('default')) {
    p.expectWord('element');
    p.expectWord('namespace');
    defaultElementNamespace = true;
  }
  const uri = p.expectURILiteral();
  const locations: string[] = [];
  if (p.eatWord('at')) {
    do locations.push(p.expectURILiteral());
    while (p.eat(','));
  }
  if (which === 'schema') return { kind: 'SchemaImport', start, end: p.pos, prefix, defaultElementNamespace, uri, locations };
  return { kind: 'ModuleImport', start, end: p.pos, prefix, uri, locations };
}
