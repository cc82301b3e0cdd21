/**
 * `E//a/../b…` as `E//b[../a]…` (translate/paths/parent-steps.ts): each query answers what its
 * form with the `..` kept as written (`..[true()]`, which the rewrite leaves alone) answers, over
 * a stored document and over a context document, with the same positions and errors.
 */
import { queryBody, serverOfFile } from '../../../../helpers/rest';
import { translate } from '../../../../helpers/translation';
import { doc, engineFixture } from '../helpers';

const server = serverOfFile();
const e = engineFixture();
// `a` below g (parent g) and below r (parent r); `b` children of g, r and a; h has a `b` but no `a`
const XML = '<r><g><a/><b n="1">5</b><b n="2">15</b></g><g><b n="3">25</b></g><a><b n="4">35</b></a><b n="5">45</b><h><b n="6">x</b></h></r>';
const FOLDED = '[(parent::node()/child::';

beforeAll(async () => {
  await server().put('/rest/ps').expect(201);
  await server().put('/rest/ps/d.xml', XML, 'application/xml').expect(201);
});

const kept = (query: string): string => query.replace(/\/\.\.\//g, '/..[true()]/');

describe('`//a/../b` as `//b[../a]`', () => {
  it.each([
    ['//a/../b/@n/string()', '"1"\n"2"\n"5"'],
    ['count(//a/../b[. > 10]), count(//a/../b[. > 10][. < 20])', '2\n1'],
    // positions among the `b` children of one parent, as written
    ['//a/../b[1]/@n/string(), //a/../b[last()]/@n/string()', '"1"\n"5"\n"2"\n"5"'],
    ['count(//a/../*), count(//*/../b)', '8\n6'],
    // h's `b` is not one of them: its value is never cast
    ['//a/../b[xs:integer(.) > 10]/@n/string()', '"2"\n"5"'],
    ['for $g in //g return count($g//a/../b)', '2\n0'],
    ['count(//g//a/../b), (//a/../b)[2] is (//b)[2]', '2\ntrue()'],
  ])('%s', async (query, expected) => {
    expect(translate(query, 'single').xslt).toContain(FOLDED);
    expect(translate(kept(query), 'single').xslt).not.toContain(FOLDED);
    const [stored, written] = await Promise.all([queryBody(server(), query, '/ps', '&method=adaptive'), queryBody(server(), kept(query), '/ps', '&method=adaptive')]);
    expect(stored).toBe(written);
    expect(stored).toBe(expected);
    expect(await e.adaptive(query, { context: doc(XML) })).toBe(expected);
  });

  it('the parent of the document element is the document node, which has no `b` child', async () => {
    expect(await e.adaptive('count(//a/../b), count(//a/..)', { context: doc('<a><a/><b/></a>') })).toBe('1\n2');
    expect(await e.adaptive('count(//a/../b)', { context: doc('<a><b/></a>') })).toBe('0');
  });

  it('a predicate on `a` keeps the path as written: it is evaluated on every `a`, and its errors are raised', async () => {
    const xml = '<r><x><a>abc</a></x><y><a>1</a><b/></y></r>';
    expect(translate('//a[. > 0]/../b', 'single').xslt).not.toContain(FOLDED);
    expect((await e.error('//a[. > 0]/../b', { context: doc(xml) })).code).toBe('FORG0001');
    expect(await e.adaptive('//a[b]/../b/@n/string(), count(//a[empty(b)]/../b)', { context: doc(XML) })).toBe('"5"\n2');
  });

  it.each([
    ['//a[b]/../b', 'a predicate on `a`'],
    ['//a/..[1]/b', 'a predicate on `..`'],
    ['//a/../@n', 'an attribute step after it'],
    ['//@n/../b', 'an attribute before it'],
    ['/r/a/../b', 'no `//` before it'],
  ])('%s: not rewritten (%s)', (query) => {
    expect(translate(query, 'single').xslt).not.toContain(FOLDED);
  });
});
