import { QueryCompiler, compileKey, compileUncached } from '../../../lib/xquery/worker/compile';
import { evaluate } from '../../../lib/xquery/worker/evaluate';
import { QueryError } from '../../../lib/xquery/query-error';
import { select, xslt } from './helpers';
import { registerExtensionFunctions } from '../../../lib/xquery/functions/extension-functions';

registerExtensionFunctions();

function compileError(text: string): QueryError {
  try {
    compileUncached(text);
  } catch (e) {
    expect(e).toBeInstanceOf(QueryError);
    return e as QueryError;
  }
  throw new Error('compiled without error');
}

describe('QueryCompiler', () => {
  it('compiles XSLT text in-process into a runnable stylesheet', () => {
    const q = new QueryCompiler({ max: 10 }).compile(xslt('<xsl:sequence select="1 to 3"/>'));
    expect(evaluate(q, { initialTemplate: 'main' }).map(String)).toEqual(['1', '2', '3']);
    expect(q.sefText.startsWith('{"N":"package"')).toBe(true);
  });

  it('compiles a repeated query once (cache hit)', () => {
    const compiler = new QueryCompiler({ max: 10 });
    const text = select('"cached"');
    const a = compiler.compile(text);
    const b = compiler.compile(text);
    expect(b).toBe(a);
    expect(compiler.compilations).toBe(1);
    compiler.compile(text, { baseUri: 'file:///other/q.xq' });
    expect(compiler.compilations).toBe(2);
  });

  it('keys on all static input', () => {
    expect(compileKey('x')).toBe(compileKey('x', {}));
    expect(compileKey('x')).not.toBe(compileKey('y'));
    expect(compileKey('x')).not.toBe(compileKey('x', { baseUri: 'file:///a.xq' }));
  });

  it('stays bounded by max', () => {
    const compiler = new QueryCompiler({ max: 2 });
    for (const n of [1, 2, 3]) compiler.compile(select(String(n)));
    expect(compiler.size).toBe(2);
  });

  it('caches compile errors too', () => {
    const compiler = new QueryCompiler({ max: 10 });
    const bad = select('1 +');
    expect(() => compiler.compile(bad)).toThrow(QueryError);
    expect(() => compiler.compile(bad)).toThrow(expect.objectContaining({ code: 'XPST0003' }));
    expect(compiler.compilations).toBe(1);
  });
});

describe('compile errors', () => {
  it('XPath syntax error: code without namespace, message, XSLT line, expression', () => {
    const e = compileError(xslt('\n\n<xsl:sequence select="1 +"/>'));
    expect(e.code).toBe('XPST0003');
    expect(e.message).toBe('Unexpected token <eof> at start of expression');
    expect(e.line).toBe(6);
    expect(e.expression).toBe('1 +');
    expect(e.phase).toBe('compile');
    expect(e.status).toBe(500);
  });

  it('undeclared variable and unknown function', () => {
    expect(compileError(select('$x')).code).toBe('XPST0008');
    const unknown = compileError(select('foo()'));
    expect(unknown.code).toBe('XPST0017');
    expect(unknown.line).toBe(4);
  });

  it('static type error', () => {
    expect(compileError(select("'a' + 1")).code).toBe('XPTY0004');
  });

  it('XSLT-level error carries its line', () => {
    const e = compileError(xslt('\n<xsl:foo/>'));
    expect(e.code).toBe('XTSE0010');
    expect(e.line).toBe(5);
  });

  it('malformed stylesheet text reports line and column', () => {
    const e = compileError('<xsl:stylesheet version="3.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform"><a></b></xsl:stylesheet>');
    expect(e.code).toBe('FODC0002');
    expect(e.line).toBe(1);
    expect(e.column).toBe(86); // saxon reports the offset just past "</b>"
  });
});
