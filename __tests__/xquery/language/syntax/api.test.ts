/** The public API: parseQuery / parseModule, node offsets and the error object. */
import { parseModule, parseQuery, printAst, XQuerySyntaxError, type Expr } from '../../../../lib/xquery/language/syntax';
import { thrown } from '../../../helpers/failure';

const errorOf = (query: string): XQuerySyntaxError => thrown(() => parseQuery(query), XQuerySyntaxError);

describe('parseQuery', () => {
  it('returns a main module with version, prolog and body', () => {
    const m = parseQuery('xquery version "3.1";\ndeclare variable $x := 1;\n$x + 1');
    expect(m.kind).toBe('MainModule');
    expect(m.versionDecl).toMatchObject({ kind: 'VersionDecl', version: '3.1', encoding: null });
    expect(m.prolog.decls.map((d) => d.kind)).toEqual(['VarDecl']);
    expect(printAst(m.body)).toBe('(AdditiveExpr op=+ (VarRef name=x) (IntegerLiteral "1"))');
  });

  it('gives every node start/end offsets', () => {
    const q = 'for $i in (1, 2) return <a x="{$i}">{ $i * 2 }</a>';
    const body = parseQuery(q).body;
    const slice = (e: { start: number; end: number }) => q.slice(e.start, e.end);
    expect(slice(body)).toBe(q);
    if (body.kind !== 'FLWORExpr') throw new Error(body.kind);
    expect(slice(body.clauses[0])).toBe('for $i in (1, 2)');
    const ret = body.return;
    if (ret.kind !== 'DirElemConstructor') throw new Error(ret.kind);
    expect(slice(ret)).toBe('<a x="{$i}">{ $i * 2 }</a>');
    expect(slice(ret.attributes[0])).toBe('x="{$i}"');
    expect(slice(ret.content[0])).toBe('{ $i * 2 }');
    const enclosed = ret.content[0];
    if (enclosed.kind !== 'EnclosedExpr') throw new Error(enclosed.kind);
    expect(slice(enclosed.expr as Expr)).toBe('$i * 2');
  });

  it('keeps names as written', () => {
    const body = parseQuery('Q{urn:x}f(p:a, $Q{}b)').body;
    expect(body).toMatchObject({
      kind: 'FunctionCall',
      name: { uri: 'urn:x', local: 'f' },
      args: [{ kind: 'AxisStep', test: { kind: 'NameTest', name: { prefix: 'p', local: 'a' } } }, { kind: 'VarRef', name: { uri: '', local: 'b' } }],
    });
  });

  it('rejects a library module', () => {
    expect(errorOf('module namespace m = "urn:m"; 1')).toMatchObject({ code: 'XPST0003', line: 1, column: 1 });
  });
});

describe('parseModule', () => {
  it('parses a library module', () => {
    const m = parseModule('module namespace m = "urn:m";\ndeclare function m:f() { 1 };');
    expect(m).toMatchObject({ kind: 'LibraryModule', moduleDecl: { prefix: 'm', uri: 'urn:m' } });
    if (m.kind !== 'LibraryModule') throw new Error(m.kind);
    expect(m.prolog.decls.map((d) => d.kind)).toEqual(['FunctionDecl']);
  });

  it('parses a main module too', () => {
    expect(parseModule('1').kind).toBe('MainModule');
  });
});

describe('XQuerySyntaxError', () => {
  it('carries code, 1-based line and column, offset and a message', () => {
    const e = errorOf('let $x := 1\nreturn $x +');
    expect(e).toBeInstanceOf(Error);
    expect(e).toMatchObject({ code: 'XPST0003', line: 2, column: 12, offset: 23 });
    expect(e.message).toBe('Unexpected end of query, expected an expression (2:12)');
  });

  it('names the unexpected token and what was expected', () => {
    expect(errorOf('if (1) then 2 esle 3').message).toBe('Unexpected "esle", expected "else" (1:15)');
  });

  it('counts CR LF and CR as one line end', () => {
    expect(errorOf('1,\r\n2,\r3 +')).toMatchObject({ line: 3, column: 4 });
  });

  it('uses the precise code where the spec names one', () => {
    expect(errorOf('xquery version "4.2"; 1').code).toBe('XQST0031');
    expect(errorOf('<a></b>').code).toBe('XQST0118');
  });
});
