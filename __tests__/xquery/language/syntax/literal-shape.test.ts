/**
 * Literal shapes (lib/xquery/language/syntax/literal-shape.ts): which texts share a shape, the
 * literals found in normal code and in direct constructors' enclosed expressions (as the parser
 * finds them), and the texts the scan gives up on.
 */
import { literalShape, scannedAll } from '../../../../lib/xquery/language/syntax/literal-shape';
import { parseQuery } from '../../../../lib/xquery/language/syntax';

const key = (q: string) => literalShape(q)?.key;

describe('literal shapes', () => {
  it('is one shape for texts that differ only in literals of the same kinds and lengths', () => {
    expect(key('for $i in 1 to 200 where $i mod 7 = 3 return $i')).toBe(key('for $i in 1 to 900 where $i mod 2 = 5 return $i'));
    expect(key('//item[name = "abc"]')).toBe(key('//item[name = "xyz"]'));
    expect(key("//item[name = 'a''b']")).toBe(key("//item[name = 'abcd']"));
    expect(key('1.5 + 2e3')).toBe(key('7.0 + 9e1'));
  });

  it('is another shape for another length, kind, delimiter or text', () => {
    for (const [a, b] of [
      ['1 + 2', '1 + 23'],
      ['1 + 2', '1 + 2.'],
      ['1.5 + 2', '1e5 + 2'],
      ['"a" || "b"', "'a' || 'b'"],
      ['"a" || "b"', '"a" || "bc"'],
      ['$a + 1', '$b + 1'],
      ['count(//a) + 1', 'count(//b) + 1'],
      ['(: 1 :) 2', '(: 3 :) 2'],
      // a line end in a literal moves the lines after it, which a translation may write in
      ['"a\nb", try { 1 div 0 } catch * { $err:line-number }', '"abc", try { 1 div 0 } catch * { $err:line-number }'],
    ]) {
      expect([a, b, key(a) === key(b)]).toEqual([a, b, false]);
    }
  });

  it.each([
    'for $i in 1 to 200 let $x := ($i * 7) mod 97 where $x mod 3 = 1 order by $x descending, $i return <r n="{$i}">{$x}</r>',
    'count(//*[string-length(local-name()) > 3]) + 17',
    '//item[@id = "31337"]/name/string(), xs:integer("12"), $x-1, Q{urn:a1}f(2), local:f10(.5, 1.)',
    '<a b="x{1}y{{2}}" c=\'{"s"}\'>text 12 "q" {3}<b>{4, "t"}</b><!-- 5 --><?p 6?><![CDATA[7]]></a>, 8',
    'map { "k": 1, 2: [3, "v"] }?k, (: nested (: 9 :) comment :) 10',
    'if ($a <b) then 1 else <x>{2}</x>',
    'declare function local:f($n) { $n * 2 }; local:f(21) || "x"',
  ])('finds the parser\'s literals in %s', (query) => {
    const shape = literalShape(query);
    expect(shape).toBeDefined();
    expect(scannedAll(shape!.literals, parseQuery(query))).toBe(true);
  });

  it('finds literals of the kinds and values the parser gives', () => {
    expect(literalShape('1 + 2.50 + .5e1 + "a""b" + \'c\' + "x&amp;&#65;" + "l\r\nm\rn"')!.literals.map((l) => [l.kind, l.value])).toEqual([
      ['IntegerLiteral', '1'],
      ['DecimalLiteral', '2.50'],
      ['DoubleLiteral', '.5e1'],
      ['StringLiteral', 'a"b'],
      ['StringLiteral', 'c'],
      ['StringLiteral', 'x&A'],
      ['StringLiteral', 'l\nm\nn'],
    ]);
    const query = '"x&amp;" || "l\r\nm"';
    expect(scannedAll(literalShape(query)!.literals, parseQuery(query))).toBe(true);
  });

  it('gives up where it is not sure', () => {
    for (const query of ['(# x:p #) { 1 }', '``[a `{1}`]``', '"open', '(: open', '<a>{1}', '1e', '12abc', '}', '"&bogus;"']) {
      expect([query, literalShape(query)]).toEqual([query, undefined]);
    }
  });

  it('gives up on deep nesting, which the parser refuses with its own error', () => {
    expect(literalShape(`${'<a>'.repeat(5000)}1${'</a>'.repeat(5000)}`)).toBeUndefined();
    expect(literalShape(`${'<a>{'.repeat(5000)}1${'}</a>'.repeat(5000)}`)).toBeUndefined();
    expect(literalShape(`${'<a>{'.repeat(20)}1${'}</a>'.repeat(20)}`)?.literals).toHaveLength(1);
  });

  it('is checked against the parse: a scan that took text for a literal does not match it', () => {
    // `$a<b` compares, but a scan that took `<b c="1"/>` for a constructor would miss the literal
    const query = 'let $a := 1, $b := 2 return $a<b';
    const shape = literalShape(query);
    expect(shape === undefined || scannedAll(shape.literals, parseQuery(query))).toBe(true);
    expect(scannedAll(literalShape('1 + 2')!.literals, parseQuery('1 + 3'))).toBe(false);
    expect(scannedAll(literalShape('1 + 2')!.literals, parseQuery('1 + 2 + 3'))).toBe(false);
    // strings the parser keeps in no literal node are found too, and check
    const prolog = 'xquery version "3.1"; declare namespace p = "urn:p"; 1 + 2';
    expect(literalShape(prolog)!.literals.map((l) => l.value)).toEqual(['3.1', 'urn:p', '1', '2']);
    expect(scannedAll(literalShape(prolog)!.literals, parseQuery(prolog))).toBe(true);
  });
});
