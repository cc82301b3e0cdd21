/**
 * Inline functions keep the values their free variables had when the function item was created
 * (XQuery 3.1 §3.1.7), also when a loop goes on to bind the same variables to other values
 * (lib/saxon/patches/closure-variables.ts), through both paths of the engine (both-ways.ts).
 */
import { engineFixture } from '../xquery/language/translate/helpers';
import { answersBothWays } from './both-ways';

const e = engineFixture();

const CASES: ReadonlyArray<readonly [string, string]> = [
  ['(for $n in (1, 2, 3) return function() { $n }) ! .()', '1\n2\n3'],
  ['let $fs := for $n in (1, 2) return function() { $n } return $fs ! .()', '1\n2'],
  ['(for $n in (1, 2) return let $x := $n * 10 return function() { $x }) ! .()', '10\n20'],
  ['(for $n in (1, 2) return function($y) { $n + $y }) ! .(100)', '101\n102'],
  ['(for $s in ("a", "b") return concat($s, ?)) ! .("!")', '"a!"\n"b!"'],
  ['(for $n in (1, 2) return map { "f": function() { $n } }) ! .("f")()', '1\n2'],
  ['for $x in (2, 1) count $c let $f := function() { $x } order by $x return $f()', '1\n2'],
  ['for $x in (2, 1) let $f := function() { $x } order by $x return $f()', '1\n2'],
  ['(for $n in (1, 2) count $c return function() { $n * 10 + $c }) ! .()', '11\n22'],
  ['(for $n in (1, 2, 3) let $m := $n mod 2 group by $m order by $m return function() { sum($n) }) ! .()', '2\n4'],
  ['(for $n in (3, 1) order by $n return function() { $n }) ! .()', '1\n3'],
  ['(for sliding window $w in (1, 2, 3) start at $s when true() end at $e when $e - $s eq 1 return function() { sum($w) }) ! .()', '3\n5\n3'],
  ['fold-left((1, 2, 3), (), function($fs, $n) { ($fs, function() { $n * $n }) }) ! .()', '1\n4\n9'],
  ['let $a := 5, $f := function($y) { $a + $y } return $f(1)', '6'],
];

describe('closures made in a loop', () => {
  answersBothWays(e, CASES);
});
