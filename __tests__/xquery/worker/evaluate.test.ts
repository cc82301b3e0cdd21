import { QueryCompiler } from '../../../lib/xquery/worker/compile';
import { evaluate, evaluateSerialized, type DocumentSource } from '../../../lib/xquery/worker/evaluate';
import { CONTEXT_PARAM } from '../../../lib/xquery/constants';
import { QueryError } from '../../../lib/xquery/query-error';
import { parseToSaxonDocument } from '../../../lib/saxon';
import { select, xslt } from './helpers';
import { registerExtensionFunctions } from '../../../lib/xquery/functions/extension-functions';
import { thrown } from '../../helpers/failure';

registerExtensionFunctions();

const MAIN = { initialTemplate: 'main' };
const compiler = new QueryCompiler({ max: 256 });

function run(expr: string, prolog = '', options: Parameters<typeof evaluate>[1] = {}): string {
  return evaluateSerialized(compiler.compile(select(expr, prolog)), { ...MAIN, ...options });
}

const failure = (fn: () => unknown): QueryError => thrown(fn, QueryError);

describe('evaluate', () => {
  it('runs the initial template and returns raw XDM', () => {
    const value = evaluate(compiler.compile(select('(1 to 3, "x")')), MAIN);
    expect(value.map(String)).toEqual(['1', '2', '3', 'x']);
  });

  it('uses xsl:initial-template when no template is named', () => {
    const text = xslt('').replace('name="main"', 'name="xsl:initial-template"').replace('\n\n</xsl:template>', '<xsl:sequence select="42"/></xsl:template>');
    expect(evaluateSerialized(compiler.compile(text), {})).toBe('42');
  });

  it('returns an empty sequence as an empty array', () => {
    expect(evaluate(compiler.compile(select('()')), MAIN)).toEqual([]);
  });

  it('keeps node identity of documents it is given', () => {
    const doc = parseToSaxonDocument('<a><b/></a>');
    const value = evaluate(compiler.compile(select('$d', '<xsl:param name="d"/>')), { ...MAIN, params: { d: [doc] } });
    expect(value[0]).toBe(doc);
  });

  it('dynamic errors carry code, message and XSLT line', () => {
    const e = failure(() => run("error(QName('http://www.w3.org/2005/xqt-errors', 'err:FOER0000'), 'boom')"));
    expect(e.code).toBe('FOER0000');
    expect(e.message).toBe('boom');
    expect(e.line).toBe(4);
    expect(e.phase).toBe('evaluate');
    expect(String(e)).toBe('[FOER0000] boom');
    expect(failure(() => run('1 div (count(current-date()) - 1)')).code).toBe('FOAR0001');
    expect(failure(() => run("xs:integer(string-join(('a', 'b')))")).code).toBe('FORG0001');
  });

  it('error codes outside the standard namespace keep their EQName', () => {
    expect(failure(() => run("error(QName('urn:x', 'my:E1'), 'mine')")).code).toBe('Q{urn:x}E1');
  });

  it('runaway recursion becomes XPDY0130', () => {
    const e = failure(() => run('let $f := function($f, $n) { $f($f, $n + 1) + 1 } return $f($f, 1)'));
    expect(e.code).toBe('XPDY0130');
  });
});

describe('external variables', () => {
  const typed = '<xsl:param name="x" as="xs:integer*"/>';

  it('casts to the declared type', () => {
    expect(run('$x + 1', '<xsl:param name="x" as="xs:integer"/>', { params: { x: { values: ['41'], type: 'xs:integer' } } })).toBe('42');
    expect(run('$d instance of xs:date', '<xsl:param name="d"/>', { params: { d: { values: ['2020-01-01'], type: 'xs:date' } } })).toBe('true');
  });

  it('FORG0001 for a value that does not cast', () => {
    const e = failure(() => run('$x', typed, { params: { x: { values: ['abc'], type: 'xs:integer' } } }));
    expect(e.code).toBe('FORG0001');
  });

  it('repeated values form a sequence', () => {
    expect(run('sum($x)', typed, { params: { x: { values: ['1', '2', '3'], type: 'xs:integer*' } } })).toBe('6');
  });

  it('too many values for a single type: XPTY0004', () => {
    const e = failure(() => run('$x', typed, { params: { x: { values: ['1', '2'], type: 'xs:integer' } } }));
    expect(e.code).toBe('XPTY0004');
  });

  it('without a type, values are xs:string', () => {
    expect(run('$s instance of xs:string', '<xsl:param name="s"/>', { params: { s: { values: ['1'] } } })).toBe('true');
  });

  it('a type seen before is applied as the first time: casts, cardinality, no cast for xs:string', () => {
    // the parsed type is kept after its first use (external-variables.ts)
    for (let i = 0; i < 2; i++) {
      expect(run('sum($x)', typed, { params: { x: { values: ['1', '2'], type: 'xs:integer*' } } })).toBe('3');
      expect(failure(() => run('$x', typed, { params: { x: { values: ['1', '2'], type: 'xs:integer' } } })).code).toBe('XPTY0004');
      expect(failure(() => run('$x', typed, { params: { x: { values: ['1'], type: 'empty-sequence()' } } })).code).toBe('XPTY0004');
      expect(failure(() => run('$x', typed, { params: { x: { values: ['1.5'], type: 'xs:integer' } } })).code).toBe('FORG0001');
      expect(run('$s instance of xs:untypedAtomic', '<xsl:param name="s"/>', { params: { s: { values: ['1'], type: 'xs:untypedAtomic' } } })).toBe('true');
      expect(run('$s instance of xs:string', '<xsl:param name="s"/>', { params: { s: { values: ['1'], type: 'xs:string?' } } })).toBe('true');
    }
  });

  it('many different types: each still applied as declared', () => {
    // more type texts than are kept (the kept ones are dropped and parsed again)
    const types = Array.from({ length: 100 }, (_, i) => `${' '.repeat(i)}xs:integer${i % 2 ? '+' : ''}`);
    for (const type of [...types, ...types]) {
      expect(run('sum($x)', typed, { params: { x: { values: ['2', '3'].slice(0, type.endsWith('+') ? 2 : 1), type } } })).toBe(type.endsWith('+') ? '5' : '2');
    }
    expect(failure(() => run('$x', typed, { params: { x: { values: ['1', '2'], type: types[0] } } })).code).toBe('XPTY0004');
  });

  it('a required parameter without value: XPDY0002', () => {
    const e = failure(() => run('$x', '<xsl:param name="x" required="yes"/>'));
    expect(e.code).toBe('XPDY0002');
    expect(e.message).toBe('No value assigned to $x.');
  });
});

describe('context and documents', () => {
  const prolog = `<xsl:param name="${CONTEXT_PARAM}" as="document-node()*" select="()"/>`;

  it('passes the context as a parameter', () => {
    const docs = [parseToSaxonDocument('<a>1</a>'), parseToSaxonDocument('<b>2</b>')];
    expect(run(`$Q{urn:xmldb-rest:engine}context ! (. instance of document-node(), string(.))`, prolog, { context: docs })).toBe('true\n1\ntrue\n2');
  });

  const stored = parseToSaxonDocument('<r><x>1</x><x>2</x></r>');
  const source: DocumentSource = {
    getDocument: (uri) => (uri === 'db/a.xml' ? stored : null),
    getCollection: (uri) => (uri === 'db' ? [stored, stored] : null),
  };

  it('answers doc() and collection() from the DocumentSource, keeping identity', () => {
    expect(run("e:doc('db/a.xml') is e:doc('db/a.xml')", '', { source })).toBe('true');
    expect(run("count(e:doc('db/a.xml')//x)", '', { source })).toBe('2');
    expect(run("e:doc-available('db/a.xml'), e:doc-available('db/b.xml')", '', { source })).toBe('true\nfalse');
    expect(run("count(e:collection('db'))", '', { source })).toBe('2');
    expect(run("count(collection('db'))", '', { source })).toBe('2');
    const value = evaluate(compiler.compile(select("e:doc('db/a.xml')")), { ...MAIN, source });
    expect(value[0]).toBe(stored);
  });

  it('a missing document is FODC0002', () => {
    const e = failure(() => run("e:doc('db/missing.xml')", '', { source }));
    expect(e.code).toBe('FODC0002');
    expect(e.message).toBe('Resource "db/missing.xml" does not exist.');
    expect(failure(() => run("e:doc('db/a.xml')")).code).toBe('FODC0002');
    expect(failure(() => run("collection('nope')", '', { source })).code).toBe('FODC0002');
  });
});
