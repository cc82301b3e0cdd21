/**
 * Functions that return functions of no arguments: saxon-js wrote their inferred type in a form
 * its own reader rejected (lib/saxon/patches/function-type-codes.ts), through both paths of the
 * engine (both-ways.ts).
 */
import { alphaCode } from '../../lib/saxon/patches/function-type-codes';
import { engineFixture } from '../xquery/language/translate/helpers';
import { answersBothWays } from './both-ways';

const e = engineFixture();

const CASES: ReadonlyArray<readonly [string, string]> = [
  ['for-each((1, 2), function($n) { function() { $n } }) ! .()', '1\n2'],
  ['let $f := function($n) { function() { $n * 2 } } return $f(21)()', '42'],
  ['let $k := function() { function() { function() { "deep" } } } return $k()()()', '"deep"'],
  ['(function($n) { function() { $n } })(1) instance of function() as item()*', 'true()'],
  ['let $f := function() as function() as xs:integer { function() { 3 } } return $f()()', '3'],
  ['map { "make": function($n) { function() { $n } } }?make(5)()', '5'],
];

describe('functions returning functions of no arguments', () => {
  answersBothWays(e, CASES);
});

describe('alphaCode', () => {
  it('writes empty argument lists with both brackets, nested types in saxon-js order', () => {
    expect(alphaCode({ p: 'F', a: [], r: { o: '*', p: '' } })).toBe('1F r[*] a[]');
    expect(alphaCode({ o: '?', p: 'F', a: [{ p: 'AS' }, { o: '*', p: 'N' }], r: { p: 'F', a: [], r: { o: '*', p: '' } } })).toBe('?F r[1F r[*] a[]] a[1AS,*N]');
    expect(alphaCode({ p: 'FM', k: { p: 'AS' }, v: { o: '*', p: 'AO' } })).toBe('1FM k[1AS] v[*AO]');
    expect(alphaCode({ p: 'NE', n: 'Q{}x' })).toBe('1NE nQ{}x');
    expect(alphaCode({ p: 'A', m: [{ p: 'AO' }, { p: 'AD' }] })).toBe('1A m[1AO,1AD]');
  });
});
