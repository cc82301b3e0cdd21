import { engineFixture } from '../helpers';

const e = engineFixture();

describe('translate: simple FLWOR', () => {
  it.each([
    ['for $x in (1, 2, 3) return $x * 2', '2\n4\n6'],
    ['for $x in (1, 2), $y in ("a", "b") return $x || $y', '"1a"\n"1b"\n"2a"\n"2b"'],
    ['for $x at $i in ("a", "b") return $i || $x', '"1a"\n"2b"'],
    ['let $x := 1, $y := $x + 1 return ($x, $y)', '1\n2'],
    ['for $x in 1 to 5 where $x mod 2 = 0 return $x', '2\n4'],
    ['for $x in 1 to 3 let $y := $x * $x where $y > 1 where $y < 9 return $y', '4'],
    ['for $x allowing empty in () return empty($x)', 'true()'],
    ['for $x allowing empty at $i in () return $i', '0'],
    ['for $x allowing empty at $i in ("a") return ($i, $x)', '1\n"a"'],
    ['for $x as xs:integer in (1, 2) return $x', '1\n2'],
    ['let $x as xs:integer+ := (1, 2) return count($x)', '2'],
    ['let $x := 1 return let $x := $x + 1 return $x', '2'],
    ['for $x in (1, 2) return for $x in ($x * 10) return $x', '10\n20'],
  ])('%s', async (query, expected) => {
    expect(await e.adaptive(query)).toBe(expected);
  });

  it('checks typed bindings with SequenceType matching (no conversion)', async () => {
    expect((await e.error('let $x as xs:string := 1 return $x')).code).toBe('XPTY0004');
    expect((await e.error('for $x as xs:integer in (1, "a") return $x')).code).toBe('XPTY0004');
    expect((await e.error('for $x as xs:integer allowing empty in () return $x')).code).toBe('XPTY0004');
  });

  it('rejects a positional variable with the name of its range variable', async () => {
    expect(await e.error('for $x at $x in (1) return $x')).toMatchObject({ code: 'XQST0089', line: 1, column: 5 });
  });
});
