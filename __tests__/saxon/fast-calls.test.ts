/**
 * Faster calls in XPath plans (lib/saxon/fast-calls.ts): a plan's string-length() calls are set
 * up before its first run and answer what saxon-js's own string-length() answers, for every kind
 * of string and argument, and errors stay saxon-js's.
 */
import { parseToSaxonDocument, saxon } from '../../lib/saxon';
import { codePointLength, withFastCalls } from '../../lib/saxon/fast-calls';
import { compileXPath, registerXPathPlanFunctions, runXPathPlan } from '../../lib/saxon/xpath-plan';

registerXPathPlanFunctions();

interface TreeNode {
  N?: string;
  name?: string;
  C?: TreeNode[];
  ELAB?: unknown;
}

function calls(tree: TreeNode, name: string): TreeNode[] {
  const found = tree.N === 'fn' && tree.name === name ? [tree] : [];
  return found.concat(...(tree.C ?? []).map((c) => calls(c, name)));
}

/** The answer's items as strings (JSON), or `error CODE: message`. */
function outcome(run: () => unknown): string {
  try {
    const value = run();
    return JSON.stringify(Array.isArray(value) ? value.map(String) : String(value));
  } catch (e) {
    const error = e as { code?: string; message?: string };
    return `error ${error.code}: ${error.message}`;
  }
}

const doc = parseToSaxonDocument('<r a="h\u{1F600}llo"><e>\u00e9t\u00e9</e><e/><f>\u{10000}\u{10FFFF}x</f></r>');

function planned(expression: string, value: unknown[] = [doc]): string {
  return outcome(() => runXPathPlan(compileXPath(expression, { d: [] }, {}), { params: { d: value }, resultForm: 'array' }));
}

function direct(expression: string, value: unknown[] = [doc]): string {
  return outcome(() => saxon().XPath.evaluate(expression, null, { params: { d: value }, resultForm: 'array' }));
}

describe('codePointLength', () => {
  test.each([
    ['empty', ''],
    ['ASCII', 'hello'],
    ['BMP', '\u00e9t\u00e9\u4e2d'],
    ['a surrogate pair', 'a\u{1F600}b'],
    ['pairs only', '\u{10000}\u{10FFFF}'],
    ['a lone high surrogate at the end', 'ab\ud800'],
    ['a lone high surrogate before a letter', '\ud800a'],
    ['a lone low surrogate', 'a\udc00'],
    ['a low surrogate before a high one', '\udc00\ud800'],
    ['two high surrogates then a low one', '\ud800\ud800\udc00'],
  ])('%s: as Array.from counts', (_name, s) => {
    expect(codePointLength(s)).toBe(Array.from(s).length);
  });
});

describe('string-length() in a plan', () => {
  test('is set up on the compiled tree before any run', () => {
    const tree = compileXPath('string-length($d) + string-length(string($d))', { d: [] }, {}) as unknown as TreeNode;
    const found = calls(tree, 'string-length');
    expect(found).toHaveLength(2);
    for (const call of found) expect(typeof call.ELAB).toBe('function');
    // other calls are left to saxon-js
    expect(calls(tree, 'string')[0]!.ELAB).toBeUndefined();
  });

  test('a tree that ran already is left as it is', () => {
    const tree = { N: 'fn', name: 'string-length', C: [{ N: 'dot' }], ELAB: 'kept' };
    expect(withFastCalls(tree).ELAB).toBe('kept');
  });

  test.each([
    ['of element names', '$d//*!string-length(local-name())'],
    ['of the context item', '$d//*!string-length()'],
    ['with astral characters', '$d//f!string-length(.), string-length($d/r/@a)'],
    ['of an empty sequence', 'string-length(()), string-length($d/r/nothing)'],
    ['of an untyped value', 'string-length(xs:untypedAtomic("ab\u{1F600}"))'],
    ['of a URI', 'string-length(xs:anyURI("urn:\u{1F600}"))'],
    ['in a predicate', 'count($d//*[string-length(local-name()) > 1]), $d//*[string-length() = 3]!name()'],
    ['nested', 'string-length(string(string-length("abc")))'],
  ])('%s: the same answer as saxon-js, twice', (_name, expression) => {
    const expected = direct(expression);
    expect(expected).not.toMatch(/^error/);
    expect(planned(expression)).toBe(expected);
    expect(planned(expression)).toBe(expected);
  });

  test('fixed answers', () => {
    expect(planned('$d//*!string-length()')).toBe(JSON.stringify(['6', '3', '0', '3']));
    expect(planned('string-length($d/r/@a), string-length(())')).toBe(JSON.stringify(['5', '0']));
  });

  test.each([
    ['two items', '$d//e!string(.)', 'string-length($d)'],
    ['no context item', '', 'string-length()'],
    ['a function item', '', 'string-length(string-length#1)'],
  ])('errors as saxon-js raises them: %s', (_name, value, expression) => {
    const bound = value ? (saxon().XPath.evaluate(value, null, { params: { d: [doc] }, resultForm: 'array' }) as unknown[]) : [];
    const expected = direct(expression, bound);
    expect(expected).toMatch(/^error/);
    expect(planned(expression, bound)).toBe(expected);
  });
});
