/**
 * Deep nesting is a static error at the construct that goes too deep, never a stack overflow
 * (syntax/nesting.ts): for the parser, and for the walks over the tree after it.
 */
import { parseQuery, XQuerySyntaxError } from '../../../../lib/xquery/language/syntax';
import { MAX_DEPTH, MAX_NESTING } from '../../../../lib/xquery/language/syntax/nesting';
import { ast, syntaxFailure } from './helpers';

const repeat = (s: string, n: number): string => s.repeat(n);

describe('nesting limits', () => {
  it.each([
    ['1,000 nested parentheses', `${repeat('(', 1000)}1${repeat(')', 1000)}`, `1:${MAX_NESTING + 1}`],
    ['10,000 unary minus signs', `${repeat('-', 10_000)}1`, `1:${MAX_DEPTH}`],
    ['5,000 nested element constructors', `${repeat('<a>', 5000)}${repeat('</a>', 5000)}`, '1:448'],
    ['nested enclosed expressions', `${repeat('<a>{', 1000)}1${repeat('}</a>', 1000)}`, '1:301'],
    ['nested ifs', `${repeat('if (1) then ', 1000)}1${repeat(' else 2', 1000)}`, '1:1793'],
    ['nested FLWORs', `${repeat('for $x in 1 return ', 1000)}$x`, '1:2842'],
    ['nested arrays', `${repeat('[', 1000)}${repeat(']', 1000)}`, `1:${MAX_NESTING + 1}`],
    ['nested maps', `${repeat('map{1:', 1000)}1${repeat('}', 1000)}`, `1:${6 * MAX_NESTING - 1}`],
    ['nested function calls', `${repeat('abs(', 1000)}1${repeat(')', 1000)}`, `1:${4 * MAX_NESTING + 1}`],
    ['nested predicates', `${repeat('a[', 1000)}1${repeat(']', 1000)}`, `1:${2 * MAX_NESTING + 1}`],
    ['nested inline functions', `${repeat('function() {', 1000)}1${repeat('}', 1000)}`, `1:${12 * MAX_NESTING + 1}`],
    ['nested sequence types', `1 instance of ${repeat('array(', 100_000)}*${repeat(')', 100_000)}`, '1:909'],
    ['a long chain of additions', Array(10_000).fill('1').join(' + '), '1:1'],
    ['a long chain of arrows', `1${repeat(' => abs()', 10_000)}`, '1:1'],
    ['a FLWOR expression with thousands of clauses', `${repeat('let $x := 1 ', 10_000)}return $x`, '1:4763'],
  ])('%s: XPST0003 at the construct too deep', (_what, query, position) => {
    expect(syntaxFailure(query)).toBe(`XPST0003 ${position}`);
    try {
      parseQuery(query);
    } catch (e) {
      expect((e as XQuerySyntaxError).description).toBe('Expression nested too deeply');
    }
  });

  it('lets deep but reasonable queries through', () => {
    expect(syntaxFailure(`${repeat('(', MAX_NESTING - 1)}1${repeat(')', MAX_NESTING - 1)}`)).toBe('parsed');
    expect(syntaxFailure(`${repeat('-', MAX_DEPTH - 10)}1`)).toBe('parsed');
    expect(syntaxFailure(`${repeat('<a>', MAX_NESTING - 1)}${repeat('</a>', MAX_NESTING - 1)}`)).toBe('parsed');
    expect(syntaxFailure(Array(MAX_DEPTH - 10).fill('1').join(' + '))).toBe('parsed');
    expect(syntaxFailure(`${repeat('let $x := 1 ', MAX_DEPTH - 10)}return $x`)).toBe('parsed');
  });

  it('reads a chain of signs in a loop, innermost last', () => {
    expect(ast('- + -1')).toBe('(UnaryExpr op=- (UnaryExpr op=+ (UnaryExpr op=- (IntegerLiteral "1"))))');
  });
});
