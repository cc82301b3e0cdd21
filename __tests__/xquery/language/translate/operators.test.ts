import { engineFixture } from './helpers';

const e = engineFixture();

describe('translate: operators', () => {
  it.each([
    ['1 + 2 * 3, 7 idiv 2, 7 mod 2, 1 div 4', '7\n3\n1\n0.25'],
    ['-(1), +2, - -3', '-1\n2\n3'],
    ['1 = (1, 2), 1 eq 1, 2 > 1, "a" lt "b", (1, 2) != 1', 'true()\ntrue()\ntrue()\ntrue()\ntrue()'],
    ['1 < 2 and 2 < 1 or true()', 'true()'],
    ['"a" || 1 || ()', '"a1"'],
    ['1 to 3, 3 to 1', '1\n2\n3'],
    ['(1, 2) ! (. * 10)', '10\n20'],
    ['1 instance of xs:integer, "a" instance of xs:integer?, () instance of empty-sequence()', 'true()\nfalse()\ntrue()'],
    ['"5" cast as xs:integer, "x" castable as xs:integer, () cast as xs:integer?', '5\nfalse()'],
    ['(1, "a") treat as item()+', '1\n"a"'],
  ])('%s', async (query, expected) => {
    expect(await e.adaptive(query)).toBe(expected);
  });

  it('evaluates node set operators on a context document', async () => {
    const ctx = { kind: 'documents' as const, xml: ['<r><a/><b/><c/></r>'] };
    expect(await e.adaptive('(//a | //b) ! name(), (//* except //a) ! name(), (//* intersect //c) ! name()', { context: ctx })).toBe(
      '"a"\n"b"\n"r"\n"b"\n"c"\n"c"',
    );
  });

  it('raises static errors at the XQuery position', async () => {
    expect(await e.error('1 cast as xs:anyAtomicType')).toMatchObject({ code: 'XPST0080', line: 1, column: 11 });
    expect(await e.error('\n 1 instance of xs:nope')).toMatchObject({ code: 'XPST0051', line: 2, column: 16 });
  });

  it('reports dynamic errors with code and position', async () => {
    const err = await e.error('1,\n  2 idiv 0');
    expect(err.code).toBe('FOAR0001');
    expect(err.body).toMatch(/^Stopped at \., 1\/1:\n\[FOAR0001\] /);
  });
});
