/** The statically known prefixes of a query (language/static-prefixes.ts): the predeclared ones as the prolog changes them. */
import { PREDECLARED } from '../../../lib/xquery/constants';
import { StaticPrefixes } from '../../../lib/xquery/language/static-prefixes';

describe('StaticPrefixes', () => {
  it('knows the predeclared prefixes, in their order, and no others', () => {
    const prefixes = new StaticPrefixes();
    expect(prefixes.get('xs')).toBe('http://www.w3.org/2001/XMLSchema');
    expect(prefixes.get('nope')).toBeUndefined();
    expect([...prefixes]).toStrictEqual(Object.entries(PREDECLARED));
    expect([...prefixes.keys()]).toStrictEqual(Object.keys(PREDECLARED));
  });

  it('reads a declaration over a predeclared prefix in its place, a new prefix after them, an undeclared one nowhere', () => {
    const prefixes = new StaticPrefixes();
    prefixes.set('local', 'urn:mine');
    prefixes.set('x', 'urn:x');
    prefixes.delete('math');
    expect(prefixes.get('local')).toBe('urn:mine');
    expect(prefixes.get('x')).toBe('urn:x');
    expect(prefixes.get('math')).toBeUndefined();
    const expected = Object.entries(PREDECLARED)
      .filter(([p]) => p !== 'math')
      .map(([p, u]): [string, string] => [p, p === 'local' ? 'urn:mine' : u]);
    expect([...prefixes.entries()]).toStrictEqual([...expected, ['x', 'urn:x']]);
  });

  it('keeps the predeclared prefixes of other queries as they are', () => {
    const one = new StaticPrefixes();
    one.set('fn', 'urn:other');
    one.delete('xs');
    const two = new StaticPrefixes();
    expect(two.get('fn')).toBe(PREDECLARED.fn);
    expect(two.get('xs')).toBe(PREDECLARED.xs);
  });
});
