/**
 * `//*[P]` with leading predicates on the element's name, evaluated once per name
 * (accelerators/name-predicates/paths-name-predicates.ts, name-predicates.ts): each query answers
 * what its form with `descendant-or-self::node()` written out answers (which keeps the axis steps
 * and evaluates P on every element), over a stored document (read from its compact tree) and over
 * a context document and constructed nodes (saxon-js's DOM), in the same order, with the same
 * node identity and errors.
 */
import { queryBody, serverOfFile, type TestServer } from '../../../helpers/rest';
import { translate } from '../../../helpers/translation';
import { doc, engineFixture, unabbreviated } from '../../language/translate/helpers';

const server = serverOfFile();
const e = engineFixture();
// p: and q: name one namespace, so name() tells p:b from q:b where local-name() and node-name() do not
const XML =
  '<r xmlns:p="urn:p" xmlns:q="urn:p"><a id="1"><b n="1">x<c>c1</c></b><a id="3"><b n="2"><b n="3"/></b></a></a>' +
  '<a id="2"><b n="4">y<c>c2</c><c>c3</c></b><p:b n="5">z</p:b><q:b n="6"/><p:c/></a><!--b--><?b b?>' +
  '<d xmlns="urn:d"><b n="7"/></d></r>';
const CALL = 'Q{urn:xmldb-rest:engine}element-name-samples(';

const rewritten = (query: string): boolean => translate(query, 'single').xslt.includes(CALL);

/** The error code of a query run over the stored document (a query error: 500, `[CODE] message` on its second line). */
async function storedError(s: TestServer, query: string): Promise<string> {
  const r = await s.get(`/rest/np?query=${encodeURIComponent(query)}`);
  expect(r.status).toBe(500);
  return /^\[([^\]]+)\]/m.exec(r.text)?.[1] ?? r.text;
}

/** `query` answers `expected`, as its form with the axis steps written out does, over the stored document and over a context document. */
async function answersAsWritten(query: string, expected: string): Promise<void> {
  const [stored, storedWritten] = await Promise.all([queryBody(server(), query, '/np', '&method=adaptive'), queryBody(server(), unabbreviated(query), '/np', '&method=adaptive')]);
  expect(stored).toBe(storedWritten);
  expect(stored).toBe(expected);
  const [context, contextWritten] = await Promise.all([e.adaptive(query, { context: doc(XML) }), e.adaptive(unabbreviated(query), { context: doc(XML) })]);
  expect(context).toBe(contextWritten);
  expect(context).toBe(expected);
}

beforeAll(async () => {
  await server().put('/rest/np').expect(201);
  await server().put('/rest/np/d.xml', XML, 'application/xml').expect(201);
});

describe('translate: //*[P] with P on the element name, once per name', () => {
  it.each([
    // [query, expected]
    ['count(//*[string-length(local-name()) > 1])', '0'],
    ['count(//*[string-length(local-name()) = 1]), count(//*[string-length(local-name()) > 0])', '16\n16'],
    ['//*[local-name() = "b"]/@n/string()', '"1"\n"2"\n"3"\n"4"\n"5"\n"6"\n"7"'],
    ['//*[name() = "p:b"]/@n/string(), //*[name(.) = "q:b"]/@n/string()', '"5"\n"6"'],
    ['//*[namespace-uri() = "urn:p"]/name(), //*[namespace-uri() = "urn:d"]/name()', '"p:b"\n"q:b"\n"p:c"\n"d"\n"b"'],
    ['//*[node-name() eq QName("urn:p", "b")]/@n/string()', '"5"\n"6"'],
    ['//*[self::a or self::c]/name()', '"a"\n"c"\n"a"\n"a"\n"c"\n"c"'],
    ['declare namespace p = "urn:p"; //*[self::p:b or self::none]/@n/string(), count(//*[exists(self::p:*)]), count(//*[boolean(self::*:c)])', '"5"\n"6"\n3\n4'],
    ['declare default element namespace "urn:d"; //*[self::b or self::Q{}d]/@n/string()', '"7"'],
    ['let $n := "c" return //*[local-name() = $n][. = ("c1", "c3")]/string()', '"c1"\n"c3"'],
    ['//*[local-name() = "b"][@n > 3][not(c)]/@n/string()', '"5"\n"6"\n"7"'],
    ['//*[starts-with(name(), "a") or ends-with(local-name(), "d")] ! name()', '"a"\n"a"\n"a"\n"d"'],
    ['//*[(if (local-name() = "a") then true() else name() = "p:c") = true()]/name()', '"a"\n"a"\n"a"\n"p:c"'],
    ['//*[(local-name() || "x") = ("bx", "dx") and namespace-uri() = ""]/@n/string()', '"1"\n"2"\n"3"\n"4"'],
    ['//*[local-name(self::*) = "d" or (if (self::c) then not(empty(self::*:c)) else false())]/name()', '"c"\n"c"\n"c"\n"d"'],
    ['//*[upper-case(local-name(.)) = "C" and name() != "p:c"]/string()', '"c1"\n"c2"\n"c3"'],
    ['count(//*[local-name() = "none"]), count(//*[false()])', '0\n0'],
    ['(//*[local-name() = "b"])[last()]/@n/string(), (//*[local-name() = "c"])[1] is (//c)[1]', '"7"\ntrue()'],
    ['count(//*[local-name() = "b"] | //b), count((//*[local-name() = "b"], //*[name() = "b"]) / .)', '7\n7'],
    // below elements: each context node's descendants, sorted and deduplicated by `/`
    ['//a//*[local-name() = "b"]/@n/string()', '"1"\n"2"\n"3"\n"4"\n"5"\n"6"'],
    ['for $a in /r/a return count($a//*[local-name() = "b"])', '3\n3'],
    ['(/r/a[2], /r/a[1])//*[local-name() = ("c", "b")]/@n/string()', '"1"\n"2"\n"3"\n"4"\n"5"\n"6"'],
  ])('%s', async (query, expected) => {
    expect(rewritten(query)).toBe(true);
    expect(rewritten(unabbreviated(query))).toBe(false);
    await answersAsWritten(query, expected);
  });

  it('answers over constructed nodes and over a sequence of documents', async () => {
    const built = 'let $x := <x><a/><b><a/><p:a xmlns:p="urn:p"/></b></x> return (count($x//*[local-name() = "a"]), ($x//*[name() = "a"])[2] is $x/b/a, count(document { $x }//*[local-name() = "b"]))';
    expect(rewritten(built)).toBe(true);
    expect(await e.adaptive(built)).toBe(await e.adaptive(unabbreviated(built)));
    expect(await e.adaptive(built)).toBe('3\ntrue()\n1');
    const ctx = { kind: 'documents' as const, xml: ['<r><b>1</b><x><b>2</b></x></r>', '<r><c>3</c><b>4</b></r>'] };
    const many = '//*[local-name() = ("b", "c")]/string()';
    expect(await e.adaptive(many, { context: ctx })).toBe(await e.adaptive(unabbreviated(many), { context: ctx }));
    expect(await e.adaptive(many, { context: ctx })).toBe('"1"\n"2"\n"3"\n"4"');
  });

  it.each([
    // the focus beyond the name: the string value, a step, an attribute, the parent, lang(), position
    ['count(//*[string-length() > 1])', '8'],
    ['count(//*[normalize-space() = "x"]), count(//*[. = "c1"])', '0\n1'],
    ['count(//*[local-name(..) = "a"]), count(//*[@n and local-name() = "b"])', '7\n7'],
    ['count(//*[local-name() = "b" and lang("en")])', '0'],
    ['count(//*[name() = "b" and exists(c)])', '2'],
    // functions reached by name may read the focus; trace writes a line per call
    ['count(//*[function-lookup(xs:QName("fn:local-name"), 0)() = "b"])', '7'],
    ['count(//*[trace(local-name(), "n") = "d"])', '1'],
    ['declare function local:b($n) { $n = "b" }; count(//*[local:b(local-name())])', '7'],
    // a function item from outside may read the focus, write or answer anew: functions that call one
    ['let $f := function-lookup(xs:QName("fn:string"), 0) return //*[apply($f, array:join(())) = "c1"] ! string()', '"c1"'],
    ['let $t := trace#2 return count(//*[exists(for-each-pair(local-name(), "T", $t))])', '16'],
    ['count(//*[local-name() = "b" and map:get(random-number-generator(), "number") < 2])', '7'],
    ['let $f := function($n) { $n = "b" } return count(//*[exists(filter(local-name(), $f)) or array:size(array:filter(array:join(()), $f)) = 1])', '7'],
    ['count(//*[local-name() = "b"][1]), count(//*[position() = 1 and local-name() = "r"])', '5\n1'],
    // a self:: step as a value is the element, not its name
    ['//*[self::* = "c1"]/string(), //*[(local-name(), self::*) = "c3"]/string()', '"c1"\n"c3"'],
    ['let $t := (//c)[2] return (//*[self::* is $t]/string(), count(//*[self::* << $t]))', '"c2"\n9'],
    ['//*[starts-with(self::c, "c2")]/string(), //*[(if (self::c = "c3") then 1 else 0) = 1]/string()', '"c2"\n"c3"'],
    ['count(//*[string-length(string(self::*)) > 1]), count(//*[(self::c treat as element()?) = "c1"])', '8\n1'],
  ])('%s: keeps the predicate per element', async (query, expected) => {
    expect(rewritten(query)).toBe(false);
    expect(await queryBody(server(), query, '/np', '&method=adaptive')).toBe(expected);
  });

  it('keeps the errors of a path', async () => {
    // one name that raises: the same error in either form
    const one = 'count(//*[boolean(if (local-name() = "c") then error(QName("urn:e", "C")) else true())])';
    expect(await storedError(server(), one)).toBe(await storedError(server(), unabbreviated(one)));
    expect(await storedError(server(), one)).toBe('Q{urn:e}C');
    // FORG0001 on the first element whose name, or value, is no integer, in either form
    for (const query of ['//*[xs:integer(local-name()) > 1]', 'count(//*[local-name() = "c"][xs:integer(.) > 1])']) {
      expect(await storedError(server(), query)).toBe(await storedError(server(), unabbreviated(query)));
      expect((await e.error(query, { context: doc(XML) })).code).toBe((await e.error(unabbreviated(query), { context: doc(XML) })).code);
    }
    expect(await storedError(server(), '//*[xs:integer(local-name()) > 1]')).toBe('FORG0001');
    expect((await e.error('(1, 2)//*[local-name() = "a"]')).code).toBe((await e.error(unabbreviated('(1, 2)//*[local-name() = "a"]'))).code);
    expect((await e.error('//*[local-name() = "a"]')).code).toBe('XPDY0002');
  });
});

describe('translate: count(//*[P]) with every P on the element name, without making the elements', () => {
  const COUNT = 'Q{urn:xmldb-rest:engine}count-named-as(';
  const counted = (query: string): boolean => translate(query, 'single').xslt.includes(COUNT);

  it.each([
    ['count(//*[local-name() = "b"])', '7'],
    ['count(//*[string-length(local-name()) > 1]) + 1, count(//*[name() = "p:b" or name() = "q:b"])', '1\n2'],
    ['declare namespace p = "urn:p"; count(//*[exists(self::p:*)][local-name() = "b"])', '2'],
    ['let $n := "c" return count(//*[local-name() = $n])', '4'],
    ['count(//*[local-name() = "none"])', '0'],
  ])('%s', async (query, expected) => {
    expect(counted(query)).toBe(true);
    expect(counted(unabbreviated(query))).toBe(false);
    await answersAsWritten(query, expected);
  });

  it('sums the counts of each document of the context', async () => {
    const ctx = { kind: 'documents' as const, xml: ['<r><b>1</b><x><b>2</b></x></r>', '<r><c>3</c><b>4</b></r>'] };
    const query = 'count(//*[local-name() = ("b", "c")])';
    expect(await e.adaptive(query, { context: ctx })).toBe(await e.adaptive(unabbreviated(query), { context: ctx }));
    expect(await e.adaptive(query, { context: ctx })).toBe('4');
  });

  it('counts the elements as the path gives them where a predicate reads more than the name', () => {
    for (const query of ['count(//*[local-name() = "b"][@n > 3])', 'count(//*[local-name() = "b"][1])', 'count(//a//*[local-name() = "b"])', 'count(//*)']) {
      expect([query, counted(query)]).toEqual([query, false]);
    }
  });

  it('keeps the errors of the path', async () => {
    const query = 'count(//*[xs:integer(local-name()) > 1])';
    expect(counted(query)).toBe(true);
    expect(await storedError(server(), query)).toBe(await storedError(server(), unabbreviated(query)));
    expect(await storedError(server(), query)).toBe('FORG0001');
    expect((await e.error('count(//*[local-name() = "a"])')).code).toBe('XPDY0002');
    expect((await e.error('(1, 2) ! count(//*[local-name() = "a"])')).code).toBe((await e.error(unabbreviated('(1, 2) ! count(//*[local-name() = "a"])'))).code);
  });
});
