import { doc, engineFixture } from '../helpers';

const e = engineFixture();
const XML = '<r xmlns:p="urn:p"><a id="1"><b>x</b></a><a id="2"><b>y</b><p:b>z</p:b></a></r>';

describe('translate: paths', () => {
  it.each([
    ['/r/a/@id/string()', '"1"\n"2"'],
    ['count(//b), count(//*:b)', '2\n3'],
    ['//a[2]/b/text()', 'y'],
    ['//b[. = "y"]/../@id/string()', '"2"'],
    ['r/a[@id = "1"]/b ! string()', '"x"'],
    ['(//a)[last()]/@id/string(), //a[position() = 1]/@id/string()', '"2"\n"1"'],
    ['//a/b[1]/string()', '"x"\n"y"'],
    ['declare namespace q = "urn:p"; //q:b/string(), count(//Q{urn:p}*)', '"z"\n1'],
    ['. instance of document-node(), name(/*), /r/a/ancestor-or-self::* ! name()', 'true()\n"r"\n"r"\n"a"\n"a"'],
    ['//a/(b, @id)[1] ! string()', '"x"\n"y"'],
  ])('%s', async (query, expected) => {
    expect(await e.adaptive(query, { context: doc(XML) })).toBe(expected);
  });

  it('applies the default element namespace to name tests', async () => {
    expect(await e.adaptive('declare default element namespace "urn:d"; count(//x), count(//Q{}x)', { context: doc('<r xmlns="urn:d"><x/></r>') })).toBe('1\n0');
  });

  it('raises a type error for a leading / when the context item is not a node', async () => {
    expect((await e.error('1 ! (/)')).code).toMatch(/^XPTY00(20|04)$/);
  });

  it('raises XPDY0002 for a path without context, XPST0081 for an unknown prefix', async () => {
    expect((await e.error('a/b')).code).toBe('XPDY0002');
    expect(await e.error('//p:a', { context: doc('<a/>') })).toMatchObject({ code: 'XPST0081', line: 1, column: 3 });
  });

  it('evaluates a multi-document context as a sequence', async () => {
    const ctx = { kind: 'documents' as const, xml: ['<a>1</a>', '<a>2</a>'] };
    expect(await e.adaptive('count(.), count(/), a/string(), sum(//a)', { context: ctx })).toBe('2\n2\n"1"\n"2"\n3.0e0');
  });
});
