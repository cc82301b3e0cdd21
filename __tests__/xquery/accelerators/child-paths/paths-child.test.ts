/**
 * Runs of child steps by name (accelerators/child-paths/paths-child.ts, accelerators/child-paths/child-paths.ts): each query
 * answers what its form with a predicate on every step (`[true()]`, which keeps the steps as
 * written) answers, over a stored document (read from its compact tree) and over constructed
 * nodes (walked), in the same order, with the same errors.
 */
import { parseToCompactTree } from '../../../../lib/tree/build-tree';
import { TreeView } from '../../../../lib/tree/tree-dom';
import { parentsCoverName, pathCoversName } from '../../../../lib/xquery/accelerators/child-paths/child-paths';
import { queryBody, serverOfFile } from '../../../helpers/rest';
import { translate } from '../../../helpers/translation';

const server = serverOfFile();
const XML =
  '<r xmlns:p="urn:p"><a id="1"><b n="1">x<c>c1</c></b><a id="3"><b n="2"><c>c2</c><b n="3"><c>c3</c></b></b></a></a>' +
  '<a id="2"><b n="4">y<c>c4</c><c>c5</c></b><p:b n="5"><c>c6</c></p:b></a><!--b--><?b b?></r>';
const CALL = 'Q{urn:xmldb-rest:engine}child-path';

const T = '[true()]';

beforeAll(async () => {
  await server().put('/rest/cp').expect(201);
  await server().put('/rest/cp/d.xml', XML, 'application/xml').expect(201);
});

describe('translate: runs of child steps by name', () => {
  it.each([
    // [query, the same with every step kept, expected]
    ['/r/a/b/c/string()', `/r${T}/a${T}/b${T}/c${T}/string()`, '"c1"\n"c4"\n"c5"'],
    ['/r/a/a/b/b/@n/string()', `/r${T}/a${T}/a${T}/b${T}/b${T}/@n/string()`, '"3"'],
    ['count(/r/a/b), count(/r/a/b/c), count(/r/none/b)', `count(/r${T}/a${T}/b${T}), count(/r${T}/a${T}/b${T}/c${T}), count(/r${T}/none${T}/b${T})`, '2\n3\n0'],
    ['//a/a/b/c/string()', `//a/a${T}/b${T}/c${T}/string()`, '"c2"'],
    ['(//a)[1]/a/b/c/string()', `(//a)[1]/a${T}/b${T}/c${T}/string()`, '"c2"'],
    ['for $a in /r/a return count($a/b/c)', `for $a in /r${T}/a${T} return count($a/b${T}/c${T})`, '1\n2'],
    ['declare namespace q = "urn:p"; /r/a/q:b/c/string(), count(/r/a/Q{urn:p}b/c)', `declare namespace q = "urn:p"; /r${T}/a${T}/q:b${T}/c${T}/string(), count(/r${T}/a${T}/Q{urn:p}b${T}/c${T})`, '"c6"\n1'],
    ['reverse(/r/a/b/c) ! string()', `reverse(/r${T}/a${T}/b${T}/c${T}) ! string()`, '"c5"\n"c4"\n"c1"'],
    ['(/r/a/b/c)[1] is (//c)[1], (/r/a/b/c)[2] is (//c)[4]', `(/r${T}/a${T}/b${T}/c${T})[1] is (//c)[1], (/r${T}/a${T}/b${T}/c${T})[2] is (//c)[4]`, 'true()\ntrue()'],
    ['let $x := <x><a><b><c>1</c></b></a><a><b><c>2</c></b></a></x> return $x/a/b/c/string()', `let $x := <x><a><b><c>1</c></b></a><a><b><c>2</c></b></a></x> return $x/a${T}/b${T}/c${T}/string()`, '"1"\n"2"'],
    ['let $x := (<y><b><c>2</c></b></y>, <y><b><c>1</c></b></y>) return $x/b/c/string()', `let $x := (<y><b><c>2</c></b></y>, <y><b><c>1</c></b></y>) return $x/b${T}/c${T}/string()`, '"1"\n"2"'],
    // the head's nodes to the call itself: several, nested, repeated, none, in any order
    ['(/r/a, /r/a/a)/b/c/string()', `(/r${T}/a${T}, /r${T}/a${T}/a${T})/b${T}/c${T}/string()`, '"c1"\n"c2"\n"c4"\n"c5"'],
    ['(/r/a/a, /r/a, /r/a)/b/c/string()', `(/r${T}/a${T}/a${T}, /r${T}/a${T}, /r${T}/a${T})/b${T}/c${T}/string()`, '"c1"\n"c2"\n"c4"\n"c5"'],
    ['count((/r[true()]/none)/a/b), count(()/a/b)', `count((/r${T}/none${T})/a${T}/b${T}), count(()/a${T}/b${T})`, '0\n0'],
    ['let $r := /r return ($r/a/b/@n/string(), count($r/a/b/c))', `let $r := /r${T} return ($r/a${T}/b${T}/@n/string(), count($r/a${T}/b${T}/c${T}))`, '"1"\n"4"\n3'],
  ])('%s', async (query, kept, expected) => {
    expect(translate(query, 'single').xslt).toContain(CALL);
    expect(translate(kept, 'single').xslt).not.toContain(CALL);
    const [got, want] = await Promise.all([queryBody(server(), query, '/cp', '&method=adaptive'), queryBody(server(), kept, '/cp', '&method=adaptive')]);
    expect(got).toBe(want);
    expect(got).toBe(expected);
  });

  it.each([
    ['/r[1]/a/b[1]/c/string()', false],
    ['/r[1]/a/*/c/string()', false],
    ['/r/a/b/text()', true],
  ])('%s: only plain name steps make a run (rewritten: %s)', async (query, rewritten) => {
    expect(translate(query, 'single').xslt.includes(CALL)).toBe(rewritten);
  });

  test('a step from an atomic value is still XPTY0019', async () => {
    for (const query of ['(1, /r)/a/b', '(/r, 1)/a/b', 'let $x := (/r, "a") return $x/a/b', 'let $m := map { } return $m/a/b']) {
      const r = await server().get(`/rest/cp?query=${encodeURIComponent(query)}`);
      expect([query, r.status, r.text]).toEqual([query, 500, expect.stringContaining('[XPTY0019]')]);
    }
  });

  test('a run right after a head expression takes the head itself, not one context node at a time', () => {
    const xslt = translate('for $a in /r/a return $a/b/c', 'single').xslt;
    expect(xslt).toMatch(/child-path\(\(\$Q\{urn:xmldb-rest:var\}a\.\d+\), \(&quot;Q\{\}b&quot;, &quot;Q\{\}c&quot;\)\)/);
    expect(xslt).not.toContain(`/${CALL}(., (&quot;Q{}b&quot;`);
  });
});

describe('a child path whose last step has predicates, as `//name[P]` where the data allows', () => {
  const COVERS = 'Q{urn:xmldb-rest:engine}child-path-covers';
  // `b` elements lie below `r/a` and `r/a/a`: `/r/a/b` does not reach all of them; every `c` under a `b` is below one
  const COVERED_XML =
    '<r><s><p id="1" v="10"><n>x</n></p><p id="2" v="3"><n>y</n></p></s><s><p id="3" v="30"><n>z</n></p><p id="4"/></s><t><q><p id="5" v="99"/></q></t></r>';

  beforeAll(async () => {
    await server().put('/rest/cpc').expect(201);
    await server().put('/rest/cpc/d.xml', COVERED_XML, 'application/xml').expect(201);
  });

  it.each([
    // [database, query, the same with the last step kept as written (an always true predicate that reads the position after it), expected]
    ['/cp', '/r/a/b[@n > 1]/@n/string()', '/r/a/b[@n > 1][position() ge 1]/@n/string()', '"4"'],
    ['/cp', 'count(/r/a/b[c]), count(/r/a/a/b[c = "c2"])', 'count(/r/a/b[c][position() ge 1]), count(/r/a/a/b[c = "c2"][position() ge 1])', '2\n1'],
    ['/cpc', '/r/s/p[@v > 5]/n/string()', '/r/s/p[@v > 5][position() ge 1]/n/string()', '"x"\n"z"'],
    ['/cpc', 'count(/r/s/p[@v >= 3]), count(/r/s/p[n]), (/r/s/p[@v > 20])[1] is (//p)[3]', 'count(/r/s/p[@v >= 3][position() ge 1]), count(/r/s/p[n][position() ge 1]), (/r/s/p[@v > 20][position() ge 1])[1] is (//p)[3]', '3\n3\ntrue()'],
    ['/cpc', 'let $d := . return $d/r/t/q/p[@v = "99"]/@id/string()', 'let $d := . return $d/r/t/q/p[@v = "99"][position() ge 1]/@id/string()', '"5"'],
    // every `n` lies on /r/s/p/n: answered as //n[P]
    ['/cpc', '/r/s/p/n[. = "y"]/../@id/string(), count(/r/s/p/n[. != "x"]), (/r/s/p/n[. > "x"])[2] is (//n)[3]', '/r/s/p/n[. = "y"][position() ge 1]/../@id/string(), count(/r/s/p/n[. != "x"][position() ge 1]), (/r/s/p/n[. > "x"][position() ge 1])[2] is (//n)[3]', '"2"\n2\ntrue()'],
    ['/cpc', './r/s/p[@id = ("2", "4")]/@id/string()', './r/s/p[@id = ("2", "4")][position() ge 1]/@id/string()', '"2"\n"4"'],
    ['/cpc', 'let $d := doc("cpc/d.xml") return count($d/r/s/p[@v > 5]), let $e := (/) return count($e/r/s/p/n[. = "z"])', 'let $d := doc("cpc/d.xml") return count($d/r/s/p[@v > 5][position() ge 1]), let $e := (/) return count($e/r/s/p/n[. = "z"][position() ge 1])', '2\n1'],
  ])('%s %s', async (db, query, kept, expected) => {
    expect(translate(query, 'single').xslt).toContain(COVERS);
    expect(translate(kept, 'single').xslt).not.toContain(COVERS);
    const [got, want] = await Promise.all([queryBody(server(), query, db, '&method=adaptive'), queryBody(server(), kept, db, '&method=adaptive')]);
    expect(got).toBe(want);
    expect(got).toBe(expected);
  });

  it.each([
    ['/r/s/p[1]', 'a positional predicate'],
    ['/r/s/p[last()]', 'last()'],
    ['/r[@x]/s/p[@v > 1]', 'a predicate on the first step'],
    ['/r/*/p[@v > 1]', 'a wildcard step'],
    ['$x/p[@v > 1]', 'one step'],
    ['for $e in /r return $e/s/p[@v > 1]', 'a head bound by a for clause: an element, most often'],
    ['r/s/p[@v > 1]', 'a relative path from the context item, an element inside predicates and loops'],
  ])('%s: not taken (%s)', (query, _why) => {
    expect(translate(`declare variable $x external := (); ${query}`, 'single').xslt).not.toContain(COVERS);
  });

  describe('`//a/…/name[P]` from the root, as `//name[P]` where every `name` element has those parents', () => {
    const PARENT_COVERS = 'Q{urn:xmldb-rest:engine}parent-path-covers';

    it.each([
      // [database, query, the same with the last step kept as written, expected]
      // every `n` has a parent `p`, and that one a parent `s`: answered as //n[P]
      ['/cpc', '//p/n[. = "y"]/../@id/string(), count(//s/p/n[. != "x"]), (//p/n[. > "x"])[2] is (//n)[3]', '//p/n[. = "y"][position() ge 1]/../@id/string(), count(//s/p/n[. != "x"][position() ge 1]), (//p/n[. > "x"][position() ge 1])[2] is (//n)[3]', '"2"\n2\ntrue()'],
      // `p` elements below `q` too: `//s/p` does not reach them, the path runs as written
      ['/cpc', '//s/p[@v > 5]/n/string(), //q/p[@v = "99"]/@id/string(), count(//s/p[n])', '//s/p[@v > 5][position() ge 1]/n/string(), //q/p[@v = "99"][position() ge 1]/@id/string(), count(//s/p[n][position() ge 1])', '"x"\n"z"\n"5"\n3'],
      // c3's parent `b` has a parent `b`, c6's parent is `p:b`: neither path reaches every `c`
      ['/cp', '//a/b/c[. != "c1"]/string(), //b/c[. != "c1"]/string()', '//a/b/c[. != "c1"][position() ge 1]/string(), //b/c[. != "c1"][position() ge 1]/string()', '"c2"\n"c4"\n"c5"\n"c2"\n"c3"\n"c4"\n"c5"'],
      // from a head that may be a document: a variable bound to it, doc()
      ['/cpc', 'let $d := . return ($d//p/n[. = "y"]/../@id/string(), count($d//s/p[@v > 5]))', 'let $d := . return ($d//p/n[. = "y"][position() ge 1]/../@id/string(), count($d//s/p[@v > 5][position() ge 1]))', '"2"\n2'],
      ['/cpc', 'doc("cpc/d.xml")//s/p/n[. != "x"] ! string()', 'doc("cpc/d.xml")//s/p/n[. != "x"][position() ge 1] ! string()', '"y"\n"z"'],
      ['/cp', 'declare namespace q = "urn:p"; //a/q:b/c[. = "c6"]/string(), count(//a/b[@n > 1])', 'declare namespace q = "urn:p"; //a/q:b/c[. = "c6"][position() ge 1]/string(), count(//a/b[@n > 1][position() ge 1])', '"c6"\n2'],
    ])('%s %s', async (db, query, kept, expected) => {
      expect(translate(query, 'single').xslt).toContain(PARENT_COVERS);
      expect(translate(kept, 'single').xslt).not.toContain(PARENT_COVERS);
      const [got, want] = await Promise.all([queryBody(server(), query, db, '&method=adaptive'), queryBody(server(), kept, db, '&method=adaptive')]);
      expect(got).toBe(want);
      expect(got).toBe(expected);
    });

    it('over a context document and constructed nodes: the path as written', async () => {
      const query = 'let $x := document { <r><s><p><n>1</n></p></s><p><n>2</n></p></r> } return ($x//s/p/n[. > 0]/string(), $x//p/n[. > 0]/string())';
      expect(await queryBody(server(), query, '', '&method=adaptive')).toBe('"1"\n"1"\n"2"');
      expect(await queryBody(server(), 'count(//p/n[. = "x"])', '', `&method=adaptive&context=${encodeURIComponent(COVERED_XML)}`)).toBe('1');
    });

    it.each([
      ['//s[@x]/p[@v > 1]', 'a predicate on the first step'],
      ['//s/p[1]', 'a positional predicate'],
      ['//s/*/n[. = "x"]', 'a wildcard step'],
      ['//s/p', 'no predicate'],
      ['for $r in /r return $r//p/n[. = "y"]', 'a head bound by a for clause'],
    ])('%s: not taken (%s)', (query, _why) => {
      expect(translate(query, 'single').xslt).not.toContain(PARENT_COVERS);
    });

    test('decides per document, from the parents of every element of the name', () => {
      const doc = new TreeView(parseToCompactTree(COVERED_XML)).document;
      expect(parentsCoverName([doc], ['Q{}p', 'Q{}n'])).toBe(true);
      expect(parentsCoverName([doc], ['Q{}r', 'Q{}s', 'Q{}p', 'Q{}n'])).toBe(true);
      expect(parentsCoverName([doc], ['Q{}s', 'Q{}p'])).toBe(false);
      expect(parentsCoverName([doc], ['Q{}q', 'Q{}p'])).toBe(false);
      // the document node is no parent named `r`'s parent
      expect(parentsCoverName([doc], ['Q{}x', 'Q{}r'])).toBe(false);
      expect(parentsCoverName([doc], ['Q{}s', 'Q{}none'])).toBe(true);
      const element = (doc as unknown as { firstChild: unknown }).firstChild;
      expect(parentsCoverName([element as never], ['Q{}p', 'Q{}n'])).toBe(false);
      expect(parentsCoverName([doc, doc], ['Q{}p', 'Q{}n'])).toBe(false);
    });
  });

  test('decides per document, from the rows the path reaches against those of the name', () => {
    const doc = new TreeView(parseToCompactTree(COVERED_XML)).document;
    expect(pathCoversName([doc], ['Q{}r', 'Q{}s', 'Q{}p'])).toBe(false);
    expect(pathCoversName([doc], ['Q{}r', 'Q{}s', 'Q{}p', 'Q{}n'])).toBe(true);
    expect(pathCoversName([doc], ['Q{}r', 'Q{}t', 'Q{}q', 'Q{}p'])).toBe(false);
    expect(pathCoversName([doc], ['Q{}r', 'Q{}none'])).toBe(true);
    // not one document node of a compact tree
    const element = (doc as unknown as { firstChild: unknown }).firstChild;
    expect(pathCoversName([element as never], ['Q{}s', 'Q{}p'])).toBe(false);
    expect(pathCoversName([doc, doc], ['Q{}r', 'Q{}s', 'Q{}p', 'Q{}n'])).toBe(false);
  });
});
