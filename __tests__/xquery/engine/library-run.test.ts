/**
 * Queries whose stylesheet would hold nothing but runtime-library declarations (plain element
 * constructors, order by) run as one expression on the precompiled library
 * (translate/library.ts): same answers and errors as their own stylesheet, and no compilation
 * of their own. Plain constructors of text content are calls of engine:plain-element
 * (functions/plain-elements.ts), which need no library: such a query runs on the XPath evaluator,
 * with the same answers.
 */
import { QueryError } from '../../../lib/xquery/query-error';
import { EXPRESSION_PARAM, LIBRARY_MAX_LENGTH, libraryExpression, libraryStylesheet, xpathToRun, XPATH_MAX_LENGTH } from '../../../lib/xquery/language/translate';
import { QueryPool } from '../../../lib/xquery/host/pool';
import { storeSourceSpec } from '../../../lib/xquery/worker/documents/store-source';
import { storedDocuments } from '../../helpers/stored-documents';
import { translate } from '../../helpers/translation';
import { literalBindings, runExpression } from '../../../lib/xquery/engine/run-parts';

describe('which queries run on the library', () => {
  test.each([
    ['a plain element constructor with node content', '<a b="{1}">x{2}<c/>{<d/>}</a>'],
    ['order by', 'for $i in (2, 1) order by $i descending return $i'],
    ['order by and constructors', 'for $i in 1 to 3 let $x := $i mod 2 order by $x, $i descending return <r n="{$i}">{$x}</r>'],
    ['computed constructors of static names', 'element a { attribute b { 1 }, text { 2 }, <c/> }'],
    ['a comment and a processing instruction in the content', '<a><!--c--><?pi x?></a>'],
    ['computed comment, processing-instruction and document constructors', 'comment { "c" }, processing-instruction { "p" } { "v" }, document { <a/> }'],
    ['a declared function with a constructor and try/catch', 'declare function local:f($n) { try { <r>{1 div $n}</r> } catch * { <e/> } }; local:f(0)'],
    ['a namespace declaration', '<a xmlns:p="urn:p"/>'],
    ['a prefixed name', 'declare namespace p = "urn:p"; <p:a/>'],
    ['a default element namespace', 'declare default element namespace "urn:d"; <a/>'],
    ['a plain element inside one with namespaces', '<p:a xmlns:p="urn:p" p:x="1"><b>{1}</b></p:a>'],
    ['computed constructors of names in namespaces', 'declare namespace p = "urn:p"; element p:a { attribute p:b { 1 } }'],
    ['computed constructors inside one with namespaces', '<a xmlns:p="urn:p">{element b { attribute c { 1 } }}</a>'],
    ['computed constructors of computed names', 'for $n in ("a", "b") return element { $n } { attribute { $n } { 1 } }'],
    ['a tumbling window', 'for tumbling window $w in 1 to 7 start at $i when $i mod 3 eq 2 return [$w]'],
    ['a sliding window', 'for sliding window $w in 1 to 5 start $s when true() end $e when $e - $s eq 2 return sum($w)'],
  ])('%s: yes', (_name, query) => {
    expect(translate(query).xpath?.library).toBe(true);
  });

  test.each([
    ['copy-namespaces no-preserve', 'declare copy-namespaces no-preserve, inherit; <a>{1}</a>'],
    ['copy-namespaces no-inherit, with namespaces', 'declare copy-namespaces preserve, no-inherit; <a xmlns:p="urn:p"/>'],
    ['a computed namespace constructor in a constructor with namespaces', '<a xmlns:p="urn:p">{namespace q { "urn:q" }}</a>'],
    ['a computed attribute of a name it may not have', '<a xmlns:p="urn:p">{attribute xmlns { 1 }}</a>'],
    ['a computed constructor of a computed name inside one with namespaces', '<a xmlns:p="urn:p">{element { "b" } { 1 }}</a>'],
    ['four order specs', 'for $i in (2, 1) order by $i, $i, $i, $i return $i'],
    ['a declared decimal format', 'declare decimal-format local:d decimal-separator = ","; <a>{1}</a>'],
  ])('%s: no', (_name, query) => {
    expect(translate(query).xpath?.library).not.toBe(true);
  });

  test('a hash join runs on the XPath evaluator: its table and its probes are extension functions (functions/join-tables.ts)', () => {
    const t = translate('let $s := (3, 1, 2) for $p in (1, 2), $t in $s where $t = $p return $t');
    expect(t.xpath?.expression).toContain('join-probe(');
    expect(t.xpath?.library).toBe(false);
  });

  /** A FLWOR with `lets` let clauses, an order by and a constructor. */
  const lets = (n: number) => `for $i in (2, 1) ${Array.from({ length: n }, (_, k) => `let $a${k} := $i + ${k}`).join(' ')} order by $i return <r>{$i, $a0}</r>`;

  test('an expression longer than a plain XPath run may be runs on the library, up to LIBRARY_MAX_LENGTH', () => {
    const longer = translate(lets(20));
    expect(longer.xpath!.expression.length).toBeGreaterThan(XPATH_MAX_LENGTH);
    expect(longer.xpath!.expression.length).toBeLessThan(LIBRARY_MAX_LENGTH);
    expect(xpathToRun(longer, false)).toBe(longer.xpath!.expression);
    const longest = translate(lets(120));
    expect(longest.xpath!.expression.length).toBeGreaterThan(LIBRARY_MAX_LENGTH);
    expect(xpathToRun(longest, false)).toBeUndefined();
  });

  test('a query without library declarations runs on the XPath evaluator', () => {
    expect(translate('for $i in 1 to 3 return $i').xpath?.library).toBe(false);
  });

  test('a query without library declarations but too long for an XPath plan runs on the library, not on a stylesheet of its own', () => {
    const bare = (n: number) => `for $i in (2, 1) ${Array.from({ length: n }, (_, k) => `let $a${k} := $i + ${k}`).join(' ')} return ($i, $a0)`;
    const short = translate(bare(2));
    expect(short.xpath?.library).toBe(false);
    const long = translate(bare(80));
    expect(long.xpath!.expression.length).toBeGreaterThan(XPATH_MAX_LENGTH);
    expect(long.xpath!.expression).not.toContain('lib.');
    expect(long.xpath?.library).toBe(true);
    expect(runExpression(long, false)).toEqual({ expression: long.xpath!.expression });
  });

  test.each([
    ['text and atomic values', '<a b="{1}">x{2}</a>'],
    ['nested elements of text', 'for $i in 1 to 2 return <r n="{$i}"><v>{$i}</v>{$i * 2}</r>'],
    ['text nodes', 'for $x in (<x>a</x>, <x>b</x>) return <r>{$x/text()}<v>{($x//text())}</v></r>'],
  ])('plain constructors of text content need no library: %s', (_name, query) => {
    const t = translate(query);
    expect(t.xpath?.library).toBe(false);
    expect(t.xpath?.expression).toContain('Q{urn:xmldb-rest:engine}plain-element(');
    expect(t.xpath?.expression).not.toContain('lib.element');
  });
});

test.each([
  ['XQST0040', '<p:a xmlns:p="urn:p" xmlns:q="urn:p" p:b="1" q:b="2"/>'],
  ['XQST0071', '<a xmlns:p="urn:p" xmlns:p="urn:q"/>'],
  ['XQST0085', '<a xmlns:p=""/>'],
  ['XPST0081', '<a xmlns:p="urn:p"><q:b/></a>'],
])('a constructor with namespaces raises %s as its stylesheet does', (code, query) => {
  const messages = [true, false].map((plainConstructors) => {
    try {
      translate(query, 'none', { plainConstructors });
      return 'no error';
    } catch (e) {
      return `[${(e as QueryError).code}] ${(e as Error).message}`;
    }
  });
  expect(messages[0]).toMatch(new RegExp(`^\\[${code}\\] `));
  expect(messages[0]).toBe(messages[1]);
});

describe('which translations copy the elements their plain constructors nest', () => {
  test.each([
    ['an element in an element', '<a><b>{<c/>}</b></a>', true],
    ['an element deeper down', 'for $i in 1 to 2 return <r n="{$i}"><v>{$i, <w/>}</v></r>', true],
    ['elements of text in an element of text', '<a><b/>{1}<c>{2}</c></a>', false],
    ['one element', 'for $i in 1 to 2 order by $i descending return <r n="{$i}">{$i}</r>', false],
    ['an element in an element with namespaces', '<a xmlns:p="urn:p"><b/></a>', true],
    ['a constructor that runs its own stylesheet', 'declare copy-namespaces no-preserve, inherit; <a><b/></a>', false],
  ])('%s: %s', (_name, query, copies) => {
    expect(translate(query).copiesConstructedElements).toBe(copies);
  });

  test('without plain constructor calls, nested elements are built by nested instructions', () => {
    const query = 'for $i in 1 to 2 return <r n="{$i}"><v>{$i}</v></r>';
    const t = translate(query, 'none', { plainConstructors: false });
    expect(t.copiesConstructedElements).toBe(false);
    expect(t.xslt).not.toContain('lib.element');
    expect(t.xslt).toMatch(/<xsl:element name="r" namespace="">[^]*<xsl:element name="v" namespace="">/);
    expect(t.xpath).toBeUndefined();
  });
});

describe('a library run answers what the stylesheet answers', () => {
  const data = storedDocuments();
  let pool: QueryPool;
  beforeAll(() => {
    pool = new QueryPool({ size: 1, dbPath: data.path, documentSource: storeSourceSpec() });
  });
  afterAll(() => pool.close());

  const serialization = { method: 'adaptive', 'item-separator': '|' };
  const outcome = (run: Promise<{ body: string }>) =>
    run.then(
      (r) => r.body,
      (e: QueryError) => `[${e.code}]`,
    );
  const both = async (query: string) => {
    const t = translate(query);
    expect(t.xpath).toBeDefined();
    const params = Object.fromEntries(literalBindings(t));
    // a query that needs no library runs on the XPath evaluator (the engine's choice); the library runs it as well
    const run = runExpression(t, false);
    const expression = libraryExpression(xpathToRun(t, false)!, t.literals);
    const library = await outcome(
      run.inlined !== undefined
        ? pool.run({ xslt: t.xslt, xpath: run.inlined, params, serialization })
        : pool.run({ xslt: libraryStylesheet(), params: { [EXPRESSION_PARAM]: { values: [expression] } }, serialization }),
    );
    const onLibrary = await outcome(pool.run({ xslt: libraryStylesheet(), params: { [EXPRESSION_PARAM]: { values: [expression] } }, serialization }));
    expect(onLibrary).toBe(library);
    const stylesheet = await outcome(pool.run({ xslt: t.xslt, params, serialization }));
    // the stylesheet a query compiles when it runs again builds nested elements in place
    const inPlace = translate(query, 'none', { plainConstructors: false });
    expect(inPlace.xslt).not.toContain('lib.element');
    const inPlaceParams = Object.fromEntries(literalBindings(inPlace));
    const built = await outcome(pool.run({ xslt: inPlace.xslt, params: inPlaceParams, serialization }));
    return { library, stylesheet, built };
  };

  test.each([
    // order by (XQuery 3.1 §3.12.8): directions, several keys, stability
    ['ascending', 'for $x in (3, 1, 2) order by $x return $x', '1|2|3'],
    ['descending', 'for $x in (3, 1, 2) order by $x descending return $x', '3|2|1'],
    ['stable: ties keep input order', 'for $p in ([1, "b"], [2, "a"], [1, "a"], [2, "b"]) order by $p(1) return $p(2)', '"b"|"a"|"a"|"b"'],
    ['stable descending', 'for $p in ([1, "b"], [2, "a"], [1, "a"], [2, "b"]) order by $p(1) descending return $p(2)', '"a"|"b"|"b"|"a"'],
    ['two keys, mixed directions', 'for $p in ([1, "b"], [2, "a"], [1, "a"], [2, "b"]) order by $p(1) descending, $p(2) return $p(1) || $p(2)', '"2a"|"2b"|"1a"|"1b"'],
    ['three keys', 'for $i in 1 to 8 order by $i mod 2, $i mod 3 descending, $i descending return $i', '8|2|4|6|5|7|1|3'],
    // empty keys and NaN
    ['empty least', 'for $x in (2, 0, 1) order by (if ($x eq 0) then () else $x) return $x', '0|1|2'],
    ['empty greatest', 'for $x in (1, 2, 3) order by (if ($x eq 2) then () else $x) empty greatest return $x', '1|3|2'],
    ['declared default empty greatest', 'declare default order empty greatest; for $x in (1, 2, 3) order by (if ($x eq 2) then () else $x) return $x', '1|3|2'],
    ['descending, empty greatest', 'for $x in (1, 2, 3) order by (if ($x eq 2) then () else $x) descending empty greatest return $x', '2|3|1'],
    ['descending, empty least', 'for $x in (1, 2, 3) order by (if ($x eq 2) then () else $x) descending return $x', '3|1|2'],
    ['NaN next to empty', 'let $n := (1, xs:double("NaN"), -1, ()) return for $i in (1 to 4) order by $n[$i] return $i', '4|2|3|1'],
    // types: numeric promotion, untypedAtomic as string, errors
    ['mixed numeric types', 'for $x in (2.5, 1, 3e0, xs:float(0.5)) order by $x return $x', 'xs:float("0.5")|1|2.5|3.0e0'],
    ['untypedAtomic compares as a string', 'for $e in (<a>10</a>, <a>9</a>, <a>100</a>) order by $e return string($e)', '"10"|"100"|"9"'],
    ['incomparable keys', 'for $x in (1, "a") order by $x return $x', '[XPTY0004]'],
    ['a key of two items', 'for $x in (1, 2) order by ($x, $x) return $x', '[XPTY0004]'],
    ['a function item as key', 'for $x in (1, 2) order by map{} return $x', '[FOTY0013]'],
    // collations: codepoint by default, or as declared
    ['default collation', 'for $s in ("b", "B", "a", "A") order by $s return $s', '"A"|"B"|"a"|"b"'],
    [
      'a declared collation',
      'for $s in ("b", "B", "a", "A") order by $s collation "http://www.w3.org/2005/xpath-functions/collation/html-ascii-case-insensitive" return $s',
      '"a"|"A"|"b"|"B"',
    ],
    // plain constructors (XQuery 3.1 §3.9.1): attributes, content, nesting
    ['attributes and content', '<a b="x{1}y" c="{(1, 2)}">t{3, 4}{5}<d/>{"e"}</a>', '<a b="x1y" c="1 2">t3 45<d/>e</a>'],
    ['boundary whitespace and CDATA', '<a> <b/> {1}<![CDATA[ c ]]></a>', '<a><b/>1 c </a>'],
    ['nodes and arrays in content', '<a>{<b/>, [1, [2]]}</a>', '<a><b/>1 2</a>'],
    ['an attribute node in the content', '<a>{<x b="1"/>/@b}</a>', '<a b="1"/>'],
    ['an attribute after content', '<a>x{<x b="1"/>/@b}</a>', '[XQTY0024]'],
    ['a duplicate attribute from content', '<a b="1">{<x b="2"/>/@b}</a>', '[XQDY0025]'],
    ['a function item as content', '<a>{true#0}</a>', '[XQTY0105]'],
    ['new nodes each time', 'let $f := function() { <a/> } return ($f() is $f(), <a><b/></a>/b/../name())', 'false()|"a"'],
    ['copies of content nodes', 'let $b := <b/> return (<a>{$b}</a>/b is $b, exists($b/..))', 'false()|false()'],
    ['base URI', 'base-uri(<a><b/></a>/b) eq static-base-uri()', 'true()'],
    ['a long FLWOR without library declarations', `for $i in (2, 1) ${Array.from({ length: 80 }, (_, k) => `let $a${k} := $i + ${k}`).join(' ')} return ($i, $a79)`, '2|81|1|80'],
    ['a long FLWOR', `for $i in (2, 1) ${Array.from({ length: 20 }, (_, k) => `let $a${k} := $i + ${k}`).join(' ')} order by $a19 return <r>{$i, $a0}</r>`, '<r>1 1</r>|<r>2 2</r>'],
    ['nested elements', '<a x="{1}"><b><c>{2}</c>t</b><d/>{<e><f/></e>}</a>', '<a x="1"><b><c>2</c>t</b><d/><e><f/></e></a>'],
    ['nested elements: parents, identity, order', 'let $a := <a><b><c/></b><b/></a> return ($a/b[1]/c/../../name(), $a/b[1] is $a/b[2], $a/b[1] << $a/b[2], count($a//*))', '"a"|false()|true()|3'],
    ['nested elements around copied nodes', 'let $x := <x><y/></x> return <a><b>{$x/y}</b></a>/b/y is $x/y', 'false()'],
    // hash joins (language/translate/flwor/join.ts): candidates in the inner domain's order, the nested loop's errors
    ['a hash join', 'let $s := (3, 1, 2, 1) for $p in (1, 2), $t in $s where $t = $p return $p || ":" || $t', '"1:1"|"1:1"|"2:2"'],
    ['a hash join over nodes', 'let $d := <d><a k="x"/><a k="y"/><a k="x"/></d> for $v in ("y", "x"), $t in $d/a where $t/@k = $v return $v || count($t/preceding-sibling::a)', '"y1"|"x0"|"x2"'],
    ['a hash join raising an error', 'let $s := (1, "a") for $n in (1, 2), $t in $s where $t = $n return $t', '[XPTY0004]'],
    // text-only plain constructors (engine:plain-element): text pieces, spaces, empty content, identity, order
    ['adjacent enclosed expressions and text', '<a>{1}{2}x{3, 4}{()}{""}y</a>', '<a>12x3 4y</a>'],
    ['empty content and attributes', '<a b="" c="{()}">{()}{""}</a>', '<a b="" c=""/>'],
    ['escaped text and attribute values', '<a b="{"<&amp;&quot;"}">{"<&amp;>"}&lt;</a>', '<a b="&lt;&amp;&#34;">&lt;&amp;&gt;&lt;</a>'],
    ['untyped and numeric values', '<a>{xs:untypedAtomic("u"), 1.5e0, xs:double("NaN"), xs:decimal("2.50")}</a>', '<a>u 1.5 NaN 2.5</a>'],
    ['text-only nested elements: parents, identity, order', 'let $a := <a>{1}<b>{2}<c/></b><b/></a> return ($a/b[1]/c/../../name(), $a/b[1] is $a/b[2], $a/b[1] << $a/b[2], count($a//node()), string($a))', '"a"|false()|true()|5|"12"'],
    ['text-only elements in a sequence: document order', 'let $s := (<a>{1}</a>, <b/>, <c>{2}</c>) return (($s | ()) ! name(), $s[1] << $s[3])', '"a"|"b"|"c"|true()'],
    ['text-only elements: new nodes each time', 'let $f := function() { <a>{1}</a> } return ($f() is $f(), deep-equal($f(), $f()))', 'false()|true()'],
    ['a text-only element in other content is copied', 'let $b := <b>{1}</b> return (<a>{$b}</a>/b is $b, exists($b/..))', 'false()|false()'],
    ['text-only elements: base URI and names', '<a><b>{1}</b></a>/b ! (base-uri(.) eq static-base-uri(), namespace-uri(.), in-scope-prefixes(.))', 'true()|""|"xml"'],
    ['text nodes as content: concatenated without spaces, merged with the text around', 'let $d := <d><x>a</x><x>b</x><x/></d> return <r>[{$d/x/text()}]{1}{$d/x/text()}<v>{$d/x[3]/text()}</v><w>{$d/x[1]/text()}</w></r>', '<r>[ab]1ab<v/><w>a</w></r>'],
    ['text nodes as content: copies, one text node', 'let $t := <x>a</x>/text() return (<r>{$t}{$t}</r>/text() is $t, count(<r>{$t}{$t}</r>/node()), string(<r>{$t}{$t}</r>))', 'false()|1|"aa"'],
    ['order by returning constructors', 'for $i in 1 to 4 let $x := $i mod 2 order by $x descending, $i return <r n="{$i}">{$x}</r>', '<r n="1">1</r>|<r n="3">1</r>|<r n="2">0</r>|<r n="4">0</r>'],
    // constructors with namespaces (XQuery 3.1 §3.9.1.2, §3.9.4): names, declarations, inheritance
    ['prefixed names and declarations', '<p:a xmlns:p="urn:p" xmlns:q="urn:q" p:x="1" y="{2}"><p:b/><c>{3}</c></p:a>', '<p:a xmlns:p="urn:p" xmlns:q="urn:q" p:x="1" y="2"><p:b/><c>3</c></p:a>'],
    ['a default namespace and its undeclaration', '<a xmlns="urn:d"><b>{1}</b><c xmlns=""><d/></c></a>', '<a xmlns="urn:d"><b>1</b><c xmlns=""><d/></c></a>'],
    ['names in namespaces', 'let $a := <a xmlns="urn:d" xmlns:p="urn:p"><b/><p:c p:d="1"/></a> return ($a/*:b ! namespace-uri(.), $a/*:c ! (name(.), namespace-uri(.), @* ! name(.)))', '"urn:d"|"p:c"|"urn:p"|"p:d"'],
    ['in-scope namespaces of nested elements', 'let $a := <a xmlns:p="urn:p" xmlns:q="urn:q"><b xmlns:p="urn:p2"><c/></b></a> return ($a/b/c ! sort(in-scope-prefixes(.)), namespace-uri-for-prefix("p", $a/b/c), namespace-uri-for-prefix("p", $a))', '"p"|"q"|"xml"|"urn:p2"|"urn:p"'],
    ['a plain element inside: inherits the declarations', 'let $a := <p:a xmlns:p="urn:p"><b>{1}</b></p:a> return ($a/b ! sort(in-scope-prefixes(.)), $a)', '"p"|"xml"|<p:a xmlns:p="urn:p"><b>1</b></p:a>'],
    ['the prolog\'s namespaces', 'declare namespace p = "urn:p"; <p:a><p:b>{1}</p:b><c/></p:a>', '<p:a xmlns:p="urn:p"><p:b>1</p:b><c/></p:a>'],
    ['the prolog\'s default element namespace', 'declare default element namespace "urn:d"; <a x="1"><b/></a>', '<a xmlns="urn:d" x="1"><b/></a>'],
    ['xml:id normalized, xml:lang kept', '<p:a xmlns:p="urn:p" xml:id=" x  y " xml:lang=" en "/>', '<p:a xmlns:p="urn:p" xml:id="x y" xml:lang=" en "/>'],
    ['copied nodes keep their namespaces', 'let $x := <q:x xmlns:q="urn:q"><y/></q:x> return <p:a xmlns:p="urn:p">{$x}t</p:a>', '<p:a xmlns:p="urn:p"><q:x xmlns:q="urn:q"><y/></q:x>t</p:a>'],
    ['an attribute in a namespace from the content', '<p:a xmlns:p="urn:p">{<x xmlns:r="urn:r" r:b="1"/>/@*}</p:a>', '<p:a xmlns:p="urn:p" xmlns:r="urn:r" r:b="1"/>'],
    ['a duplicate attribute in a namespace from the content', '<p:a xmlns:p="urn:p" p:b="1">{<x xmlns:r="urn:p" r:b="2"/>/@*}</p:a>', '[XQDY0025]'],
    ['an attribute after content, with namespaces', '<a xmlns:p="urn:p">x{<x p:b="1"/>/@*}</a>', '[XQTY0024]'],
    ['comments, processing instructions and CDATA with namespaces', '<a xmlns="urn:d"><!--c--><?pi x?><![CDATA[<t>]]></a>', '<a xmlns="urn:d"><!--c--><?pi x?>&lt;t&gt;</a>'],
    ['computed constructors of names in namespaces', 'declare namespace p = "urn:p"; element p:a { attribute p:b { 1 }, element c { 2 }, element Q{urn:q}d { <e/> } }', '<p:a xmlns:p="urn:p" p:b="1"><c>2</c><d xmlns="urn:q"><e xmlns=""/></d></p:a>'],
    ['computed constructors inside a constructor with namespaces', '<a xmlns="urn:d" xmlns:p="urn:p">{element b { 1 }, element Q{}c {}, element p:e { attribute f {} }}</a>', '<a xmlns:p="urn:p" xmlns="urn:d"><b>1</b><c xmlns=""/><p:e f=""/></a>'],
    ['the in-scope namespaces of computed elements', 'let $a := <a xmlns="urn:d" xmlns:p="urn:p">{element b {}, element Q{urn:q}c {}}</a> return ($a/* ! string-join(sort(in-scope-prefixes(.)), ","))', '",p,xml"|",p,xml"'],
    ['computed xml:id normalized', '<a xmlns:p="urn:p">{attribute xml:id { " x  y " }, attribute xml:lang { " en " }}</a>', '<a xmlns:p="urn:p" xml:id="x y" xml:lang=" en "/>'],
    ['computed names', 'declare namespace p = "urn:p"; for $n in ("a", "p:b", "Q{urn:q}c", QName("urn:r", "r:d")) return element { $n } { attribute { $n } { 1 }, $n }', '<a a="1">a</a>|<p:b xmlns:p="urn:p" p:b="1">p:b</p:b>|<c xmlns:ns0="urn:q" xmlns="urn:q" ns0:c="1">Q{urn:q}c</c>|<r:d xmlns:r="urn:r" r:d="1">r:d</r:d>'],
    ['computed names: xml:id and the default element namespace', 'declare default element namespace "urn:d"; element { "a" } { attribute { "xml:id" } { " x  y " }, element { "b" } {} }', '<a xmlns="urn:d" xml:id="x y"><b/></a>'],
    ['computed names: errors', 'element { "p:a" } {}', '[XQDY0074]'],
    ['computed names: a reserved name', 'attribute { "xmlns" } {}', '[XQDY0044]'],
    // window clauses (XQuery 3.1 §3.12.4): the scanners of the library
    ['tumbling windows with start and end', 'for tumbling window $w in 1 to 7 start $s when true() end $e when $e mod 3 eq 0 return sum($w)', '6|15|7'],
    ['tumbling windows, only end', 'for tumbling window $w in 1 to 7 start $s when true() only end $e when $e mod 3 eq 0 return sum($w)', '6|15'],
    ['tumbling windows without an end', 'for tumbling window $w in ("a", "b", "c", "d") start $s at $i previous $p when $i mod 2 eq 1 return string-join(($p, "/", $w))', '"/ab"|"b/cd"'],
    ['sliding windows', 'for sliding window $w in 1 to 5 start $s when true() end $e when $e - $s eq 2 return [$w]', '[(1,2,3)]|[(2,3,4)]|[(3,4,5)]|[(4,5)]|[5]'],
    ['sliding windows, only end, with other clauses', 'let $n := 2 for sliding window $w in 1 to 5 start $s when $s mod $n eq 1 only end $e when $e - $s eq 1 count $c order by $c descending return $c || ":" || sum($w)', '"2:7"|"1:3"'],
    ['a window condition raising an error', 'for tumbling window $w in (1, "a") start $s when $s gt 0 return $w', '[XPTY0004]'],
    ['new nodes each time, with namespaces', 'let $f := function() { <p:a xmlns:p="urn:p"><b/></p:a> } return ($f() is $f(), $f()/b/.. ! name(.))', 'false()|"p:a"'],
  ])('%s', async (_name, query, expected) => {
    const r = await both(query);
    expect(r.library).toBe(expected);
    expect(r.stylesheet).toBe(expected);
    expect(r.built).toBe(expected);
  });

  test('a call tried first answers for the query, which then is not run; a call that declines lets it run', async () => {
    const never = 'error(QName("urn:x", "never"))';
    const answers = { expression: '[(1, 2)]', params: {} };
    const declines = { expression: '()', params: {} };
    const library = (first: typeof answers) => pool.run({ xslt: libraryStylesheet(), params: { [EXPRESSION_PARAM]: { values: [never] } }, first, serialization });
    expect(await outcome(pool.run({ xslt: '', xpath: never, first: answers, serialization }))).toBe('1|2');
    expect(await outcome(library(answers))).toBe('1|2');
    expect(await outcome(pool.run({ xslt: '', xpath: never, first: declines, serialization }))).toBe('[Q{urn:x}never]');
    expect(await outcome(library(declines))).toBe('[Q{urn:x}never]');
    // a job of the call alone: its answer, or `declined` with nothing evaluated or serialized
    expect(await outcome(pool.run({ xslt: '', first: answers, firstOnly: true, serialization }))).toBe('1|2');
    const declined = await pool.run({ xslt: '', first: declines, firstOnly: true, serialization });
    expect(declined).toEqual(expect.objectContaining({ declined: true, body: '' }));
    // the call has its own parameters, the query's context and documents
    const reads = { expression: '[$n + count($Q{urn:xmldb-rest:engine}context)]', params: { n: { values: ['1'], type: 'xs:integer' } } };
    expect(await outcome(pool.run({ xslt: '', xpath: never, first: reads, context: { xml: ['<a/>', '<b/>'] }, serialization }))).toBe('3');
  });

  test('an updating query runs on the library with the answer and the changes of its own stylesheet', async () => {
    const query = 'for $x in db:get("db")//x group by $k := string($x) order by $k descending return (insert node <g k="{$k}"/> into $x[1], update:output($k))';
    const t = translate(query);
    expect(t.xpath?.library).toBe(true);
    const settle = (run: Promise<{ body: string; changes?: unknown }>) => run.then((r) => JSON.stringify({ body: r.body, changes: r.changes }), (e: QueryError) => `[${e.code}] ${e.message}`);
    const expression = libraryExpression(xpathToRun(t, false)!, t.literals);
    const onLibrary = await settle(pool.run({ xslt: libraryStylesheet(), params: { [EXPRESSION_PARAM]: { values: [expression] } }, update: true, serialization }));
    const own = await settle(pool.run({ xslt: t.xslt, params: Object.fromEntries(literalBindings(t)), update: true, serialization }));
    expect(onLibrary).toBe(own);
    expect(onLibrary).toContain('"body":"\\"2\\"|\\"1\\""');
    expect(onLibrary).toContain('<x>1<g k=\\"1\\"/></x>');
  });

  test('new query shapes compile nothing but the library, once', async () => {
    const run = (query: string) => {
      const t = translate(query);
      const expression = libraryExpression(xpathToRun(t, false)!, t.literals);
      return pool.run({ xslt: libraryStylesheet(), params: { [EXPRESSION_PARAM]: { values: [expression] } }, serialization });
    };
    await run('<a/>');
    const before = pool.compilations;
    expect((await run('for $i in (2, 1) order by $i return <x>{$i}</x>')).body).toBe('<x>1</x>|<x>2</x>');
    expect((await run('for $s in ("b", "a") let $t := $s || "!" order by $t descending return <y s="{$s}"/>')).body).toBe('<y s="b"/>|<y s="a"/>');
    expect(pool.compilations).toBe(before);
  });
});
