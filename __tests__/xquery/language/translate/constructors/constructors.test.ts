import { doc, engineFixture } from '../helpers';

const e = engineFixture();

describe('translate: direct element constructors', () => {
  it.each([
    ['<a/>', '<a/>'],
    ['<a></a>', '<a/>'],
    ['<a x="1" y="{1 + 1}z">t{1, 2}{3}<b>{"x"}</b></a>', '<a x="1" y="2z">t1 23<b>x</b></a>'],
    ['<a>{1}{2}</a>', '<a>12</a>'],
    ['<a>{1, 2}</a>', '<a>1 2</a>'],
    ['<a>{1} {2}</a>', '<a>12</a>'],
    ['<a>{<b/>, 1, 2, <c/>, "x", "y"}</a>', '<a><b/>1 2<c/>x y</a>'],
    ['<a>x{()}y</a>', '<a>xy</a>'],
    ['<a>{()}</a>', '<a/>'],
    ['<a>{document {<b/>, <c/>}}</a>', '<a><b/><c/></a>'],
    ['<a>{[1, [2, 3]]}</a>', '<a>1 2 3</a>'],
    ['<a>{"", attribute x {1}}</a>', '<a x="1"/>'],
    ['<a>{attribute x {1}, 1}</a>', '<a x="1">1</a>'],
    ['<a>&lt;&#65;{{}}</a>', '<a>&lt;A{}</a>'],
    ['<a><![CDATA[ <x> ]]></a>', '<a> &lt;x&gt; </a>'],
    ['<a> <b/> </a>', '<a><b/></a>'],
    ['<a> &#32; </a>', '<a>   </a>'],
    ['declare boundary-space preserve; <a> <b/> </a>', '<a> <b/> </a>'],
    ['declare boundary-space preserve; <a>{1} {2}</a>', '<a>1 2</a>'],
    ['<a b="x{1, 2}y{3}"/>', '<a b="x1 2y3"/>'],
    ['<a b="{{}}"/>', '<a b="{}"/>'],
    ['<a b="&#x9;&amp;"/>', '<a b="&#9;&amp;"/>'],
    ['<a xml:id=" x  y "/>', '<a xml:id="x y"/>'],
    ['<!--c-->', '<!--c-->'],
    ['<?pi x?>', '<?pi x?>'],
    ['<a><!--c--><?pi x?></a>', '<a><!--c--><?pi x?></a>'],
    ['for $i in 1 to 2 return <a n="{$i}">{$i * 2}</a>', '<a n="1">2</a>\n<a n="2">4</a>'],
    ['let $x := <a><b>1</b><b>2</b></a> return <r>{$x/b}</r>', '<r><b>1</b><b>2</b></r>'],
    ['let $x := <a><b>1</b><b>2</b></a> return $x/b ! <c>{.}</c>', '<c><b>1</b></c>\n<c><b>2</b></c>'],
    ['declare function local:f($n) { <x>{$n}</x> }; local:f(1), local:f(2)', '<x>1</x>\n<x>2</x>'],
    ['<a/> is <a/>', 'false()'],
    ['let $x := 10 return <r>{for $i in 1 to 5 let $j := $i * $x where $i mod 2 = 1 return <x a="{$i}">{$j}</x>}</r>', '<r><x a="1">10</x><x a="3">30</x><x a="5">50</x></r>'],
    ['<r>{for $i in (1, 2), $j in ("a", "b") return <x>{$i, $j}</x>}</r>', '<r><x>1 a</x><x>1 b</x><x>2 a</x><x>2 b</x></r>'],
    ['<r>{for $i in 1 to 2 return (<x/>, 1)}</r>', '<r><x/>1<x/>1</r>'],
    ['count(for $i in 1 to 3 return <e/>)', '3'],
    ['<a>{1 to 3}</a>/string()', '"1 2 3"'],
  ])('%s', async (query, expected) => {
    expect(await e.adaptive(query)).toBe(expected);
  });

  it.each([
    ['<r>{count(//b)}</r>', '<r>2</r>'],
    ['//b ! <c>{name()}</c>', '<c>b</c>\n<c>b</c>'],
    ['(1 to 3) ! <a p="{position()}">{last()}</a>', '<a p="1">3</a>\n<a p="2">3</a>\n<a p="3">3</a>'],
    ['<a>{for $x in //b return <c n="{$x/@n}">{$x/@n/string()}</c>}</a>', '<a><c n="1">1</c><c n="2">2</c></a>'],
    ['<a>{//b[1]/@n}</a>', '<a n="1"/>'],
    ['//b/<c>{@n/string()}</c>', '<c>1</c>\n<c>2</c>'],
    ['/root ! <r>{for $b in b return <c n="{name(.)}">{$b/@n/string()}</c>}</r>', '<r><c n="root">1</c><c n="root">2</c></r>'],
    ['/root ! <r>{for $b in b let $n := $b/@n where $n > 1 return element c {position(), $n/string()}}</r>', '<r><c>1 2</c></r>'],
  ])('with a context: %s', async (query, expected) => {
    expect(await e.adaptive(query, { context: doc('<root><b n="1"/><b n="2"/></root>') })).toBe(expected);
  });

  it('serializes with the default method too', async () => {
    expect((await e.run('<a x="1">{1, 2}<b/></a>')).body).toBe('<a x="1">1 2<b/></a>');
  });

  it.each([
    ['<a xmlns:p="u"/>', '<a xmlns:p="u"/>'],
    ['<p:a xmlns:p="u" p:x="1"><b xmlns="v"/></p:a>', '<p:a xmlns:p="u" p:x="1"><b xmlns="v"/></p:a>'],
    ['<p:a xmlns:p="u"/>/namespace-uri()', '"u"'],
    ['<a xmlns="u"><b/></a>/*/namespace-uri()', '"u"'],
    ['<a xmlns="u">{<b/>}</a>/*/namespace-uri()', '"u"'],
    ['<a xmlns:p="u"><b/></a>/b/in-scope-prefixes(.) => sort()', '"p"\n"xml"'],
    ['declare default element namespace "u"; <a/>', '<a xmlns="u"/>'],
    ['declare namespace p = "u"; <p:a/>', '<p:a xmlns:p="u"/>'],
    ['<a xmlns:p="u">{element p:b {attribute p:c {1}}}</a>', '<a xmlns:p="u"><p:b p:c="1"/></a>'],
    ['<a xmlns:p="u">{element {"p:b"} {}}</a>', '<a xmlns:p="u"><p:b/></a>'],
    ['let $x := <x xmlns:q="w"><y/></x> return <a>{$x/y}</a>', '<a><y xmlns:q="w"/></a>'],
    ['declare copy-namespaces no-preserve, inherit; let $x := <x xmlns:q="w"><y/></x> return <a>{$x/y}</a>', '<a><y/></a>'],
    ['<e xmlns="u"> <a xmlns=""> <b/> </a> </e>', '<e xmlns="u"><a xmlns=""><b/></a></e>'],
    ['document { <e xmlns="u"><a xmlns=""/></e> }', '<e xmlns="u"><a xmlns=""/></e>'],
  ])('namespaces: %s', async (query, expected) => {
    expect(await e.adaptive(query)).toBe(expected);
  });

  it.each([
    ['<a x="1" x="2"/>', 'XQST0040', 1, 10],
    ['<a xmlns:p="u" xmlns:p="v"/>', 'XQST0071', 1, 16],
    ['<a xmlns:xml="u"/>', 'XQST0070', 1, 4],
    ['<a xmlns:p="http://www.w3.org/XML/1998/namespace"/>', 'XQST0070', 1, 4],
    ['<p:a/>', 'XPST0081', 1, 1],
  ])('static error: %s', async (query, code, line, column) => {
    expect(await e.error(query)).toMatchObject({ code, line, column });
  });

  it.each([
    ['<a>{1, attribute x {1}}</a>', 'XQTY0024'],
    ['<a>x{attribute x {1}}</a>', 'XQTY0024'],
    ['<a>{1, namespace p {"u"}}</a>', 'XQTY0024'],
    ['<a>{attribute x {1}, attribute x {2}}</a>', 'XQDY0025'],
    ['<a x="1">{attribute x {2}}</a>', 'XQDY0025'],
    ['<a>{map {}}</a>', 'XQTY0105'],
  ])('dynamic error: %s', async (query, code) => {
    expect((await e.error(query)).code).toBe(code);
  });
});

describe('translate: computed constructors', () => {
  it.each([
    ['element a {}', '<a/>'],
    ['element a {attribute b {1, 2}, "t", 1}', '<a b="1 2">t 1</a>'],
    ['element {"a"} {}', '<a/>'],
    ['element {QName("u", "p:a")} {}', '<p:a xmlns:p="u"/>'],
    ['element {"Q{u}a"} {}', '<a xmlns="u"/>'],
    ['declare namespace q = "w"; element {"q:b"} {}', '<q:b xmlns:q="w"/>'],
    ['declare default element namespace "u"; element {"a"} {}', '<a xmlns="u"/>'],
    ['element a {element b {}, <c/>}', '<a><b/><c/></a>'],
    ['attribute a {"x", 1}', 'a="x 1"'],
    ['string(attribute xml:id {" ab c d "})', '"ab c d"'],
    ['prefix-from-QName(node-name(attribute {QName("http://www.w3.org/XML/1998/namespace", "a")} {}))', '"xml"'],
    ['<e>{attribute {QName("http://www.w3.org/XML/1998/namespace", "space")} {"default"}}</e>', '<e xml:space="default"/>'],
    ['text {1, 2}', '1 2'],
    ['text {1} instance of text()', 'true()'],
    ['count(text {()})', '0'],
    ['comment {"a", "b"}', '<!--a b-->'],
    ['processing-instruction x {"  y"}', '<?x y?>'],
    ['processing-instruction {" x "} {1}', '<?x 1?>'],
    ['document {<a/>, 1}/node() ! name()', '"a"\n""'],
    ['document {()} instance of document-node()', 'true()'],
    ['namespace p {"u"}', 'xmlns:p="u"'],
    ['<a>{namespace p {"u"}}</a>', '<a xmlns:p="u"/>'],
    ['<a>{processing-instruction {"pi"} {"x"}, comment {"c"}, text {"t"}}</a>', '<a><?pi x?><!--c-->t</a>'],
  ])('%s', async (query, expected) => {
    expect(await e.adaptive(query)).toBe(expected);
  });

  it.each([
    ['element {()} {}', 'XPTY0004'],
    ['element {1} {}', 'XPTY0004'],
    ['element {"p:a"} {}', 'XQDY0074'],
    ['element {"a b"} {}', 'XQDY0074'],
    ['element {QName("http://www.w3.org/2000/xmlns/", "a")} {}', 'XQDY0096'],
    ['element {QName("http://www.w3.org/XML/1998/namespace", "p:a")} {}', 'XQDY0096'],
    ['attribute xmlns {}', 'XQDY0044'],
    ['attribute {"xmlns"} {}', 'XQDY0044'],
    ['processing-instruction {"xml"} {}', 'XQDY0064'],
    ['processing-instruction XmL {}', 'XQDY0064'],
    ['processing-instruction {"1x"} {}', 'XQDY0041'],
    ['processing-instruction {1} {}', 'XPTY0004'],
    ['processing-instruction pi {"a?>b"}', 'XQDY0026'],
    ['comment {"a--b"}', 'XQDY0072'],
    ['comment {"a-"}', 'XQDY0072'],
    ['namespace xml {"http://example.com"}', 'XQDY0101'],
    ['namespace p {""}', 'XQDY0101'],
    ['namespace {"1"} {"u"}', 'XQDY0074'],
    ['document {attribute x {1}}', 'XPTY0004'],
  ])('dynamic error: %s', async (query, code) => {
    expect((await e.error(query)).code).toBe(code);
  });

  it('catches constructor errors with try/catch', async () => {
    expect(await e.adaptive('try { <a>{1, attribute x {1}}</a> } catch err:XQTY0024 { "caught" }')).toBe('"caught"');
  });
});

describe('translate: namespace URIs that are any string (XQuery 3.1 §3.9.3.1)', () => {
  it.each([
    ['element { " Q{ _   _ }x " } {}', '<x xmlns="_ _"/>'],
    ['element { "Q{z&#x20;z}x" } {} ! namespace-uri()', '"z z"'],
    ['element Q{z&#x20;z}x {} ! namespace-uri()', '"z z"'],
    ['element {QName("a b", "p:x")} {}', '<p:x xmlns:p="a b"/>'],
    ['attribute { " Q{ _   _ }x " } {} ! (local-name(), namespace-uri())', '"x"\n"_ _"'],
    ['attribute Q{z&#x20;z}x {} ! namespace-uri()', '"z z"'],
    ['<e>{attribute {QName("a b", "p:x")} {1}}</e>', '<e xmlns:p="a b" p:x="1"/>'],
  ])('%s', async (query, expected) => {
    expect(await e.adaptive(query)).toBe(expected);
  });

  it.each([
    ['attribute Q{&#x22;&#x26;}x {} ! string-to-codepoints(namespace-uri())', '34\n38'],
    ['attribute { "Q{&#x22;&#x26;}x" } {} ! string-to-codepoints(namespace-uri())', '34\n38'],
    ['attribute Q{&#x7b;&#x7d;}x {} ! namespace-uri()', '"{}"'],
    ['attribute Q{&quot;&amp;}x {} ! string-to-codepoints(namespace-uri())', '34\n38'],
    ['attribute { " xml:x " } {} ! (name(), namespace-uri())', '"xml:x"\n"http://www.w3.org/XML/1998/namespace"'],
    ['attribute Q{http://www.w3.org/XML/1998/namespace}x {} ! name()', '"xml:x"'],
  ])('braced URI literals and reserved names: %s', async (query, expected) => {
    expect(await e.adaptive(query)).toBe(expected);
  });
});

describe('translate: base URI of constructed elements (XQuery 3.1 §3.9.1.1)', () => {
  it.each([
    ['declare base-uri "http://www.example.com"; base-uri(element elem {})', '"http://www.example.com"'],
    ['declare base-uri "http://www.example.com"; base-uri(<elem/>)', '"http://www.example.com"'],
    ['declare base-uri "http://www.example.com"; static-base-uri()', '"http://www.example.com"'],
    ['declare base-uri "http://x.org/"; declare function local:f() { <a/> }; base-uri(local:f())', '"http://x.org/"'],
    ['declare base-uri "http://x.org/"; base-uri(<a>{<b/>}</a>/b)', '"http://x.org/"'],
    ['declare base-uri "http://x.org/d/"; base-uri(<elem xml:base="c/"/>)', '"http://x.org/d/c/"'],
    ['declare base-uri "http://x.org/d/"; base-uri(element a {attribute xml:base {"c/"}})', '"http://x.org/d/c/"'],
    ['base-uri(<a xml:base="http://y.org/">{element b {}}</a>/b)', '"http://y.org/"'],
  ])('%s', async (query, expected) => {
    expect(await e.adaptive(query)).toBe(expected);
  });

  it('a parentless element without a declared base URI has the default static base URI', async () => {
    expect(await e.adaptive('base-uri(<a/>) eq static-base-uri()')).toBe('true()');
  });
});
