import { databasesOf } from '../../../../lib/xquery/language/analysis/databases';
import { parseQuery } from '../../../../lib/xquery/language/syntax';

const of = (query: string) => databasesOf(parseQuery(query));

describe('the databases a query names', () => {
  test.each([
    ['no database', '1 + 1', []],
    ['doc with a path', 'doc("a/x.xml")', ['a']],
    ['doc of a database, absolute, with backslashes', 'doc("/a"), doc("b\\\\y.xml")', ['a', 'b']],
    ['below the default base URI', 'doc("file:///xmldb-rest/c/d.xml")', ['c']],
    ['collection, uri-collection, doc-available', 'collection("a/dir"), uri-collection("b"), doc-available("c/x.xml")', ['a', 'b', 'c']],
    ['unparsed-text and json-doc', 'unparsed-text("t/n.txt"), unparsed-text-lines("u/n.txt"), json-doc("j/x.json")', ['j', 't', 'u']],
    ['collection() is the context', 'collection()', []],
    ['db functions, sorted and once each', 'db:get("z", "p"), db:open("a"), db:exists("z"), db:get-value("m", "k")', ['a', 'm', 'z']],
    ['db:copy and db:alter name two', 'db:copy("a", "b"), db:alter("c", "d")', ['a', 'b', 'c', 'd']],
    ['db:name and db:path take nodes', 'db:name(doc("a/x.xml")), db:path(<x/>)', ['a']],
    ['db:node-pre and db:node-id take nodes, db:system reads none', 'db:node-pre(doc("a/x.xml")), db:node-id(<x/>), db:system()', ['a']],
    ['the index and numbering functions name their database', 'db:text("t", "v"), db:token("k", "v"), db:get-pre("p", 1), db:info("i"), db:list-details("l")', ['i', 'k', 'l', 'p', 't']],
    ['updating functions', 'db:add("a", <x/>, "x.xml"), db:create("n"), db:drop("o")', ['a', 'n', 'o']],
    ['XQuery Update on a document', 'insert node <y/> into doc("a/x.xml")/x', ['a']],
    ['fn:put writes the resource of its second argument', 'put(<x/>, "p/x.xml"), fn:put(doc("a/x.xml"), "q/y.xml")', ['a', 'p', 'q']],
    ['a host file names no database', 'doc("file:///etc/passwd"), doc("http://example.com/x")', []],
    ['a name no database can have', 'doc("a b/x.xml")', []],
    ['a prefix bound in the prolog', 'declare namespace d = "http://basex.org/modules/db"; d:get("q")', ['q']],
    ['prolog variables and functions', 'declare variable $v := doc("v/x.xml"); declare function local:f() { db:get("w") }; local:f()', ['v', 'w']],
    ['a declared function shadows nothing', 'declare function local:doc($x) { $x }; local:doc("k") ! string(.)', []],
    ['math, map, array and xs functions', 'math:pi(), map:size(map{}), array:size([]), xs:integer("1")', []],
    ['an arrow call names its left operand', '"a/x.xml" => doc(), "b" => db:get("p"), "file:///etc/passwd" => doc()', ['a', 'b']],
    ['json:doc and csv:doc name a stored resource', 'json:doc("j/x.json"), csv:doc("/c/x.csv", map{})', ['c', 'j']],
    ['full-text stop words and thesauri at stored resources, ft:search and ft:tokens', 'declare ft-option using stop words at "s/w.txt"; "a" contains text "a" using thesaurus at "t/t.xml" using stop words ("x") union at "u/w.txt", ft:search("f", "a"), ft:tokens("g")', ['f', 'g', 's', 't', 'u']],
    ['the other ft: functions read none', 'ft:contains("a", "a"), ft:tokenize("a"), ft:normalize("a")', []],
    ['the other json:, csv:, convert:, random: and hash: functions read none', 'json:parse("1"), csv:serialize(()), convert:integer-to-base(1, 2), random:uuid(), hash:md5("")', []],
  ])('%s', (_name, query, expected) => {
    expect(of(query)).toStrictEqual(expected);
  });

  test.each([
    ['a computed argument', 'doc("a/" || "x.xml")'],
    ['a variable', 'declare variable $db external; db:get($db)'],
    ['db:list() without a name', 'db:list()'],
    ['a function reference', 'doc#1("a/x.xml")'],
    ['a reference to json:doc', 'json:doc#1("a/x.json")'],
    ['a partial application', 'db:get(?)("a")'],
    ['function-lookup', 'function-lookup(xs:QName("fn:doc"), 1)("a/x.xml")'],
    ['transform and load-xquery-module', 'load-xquery-module("urn:x")'],
    ['a declared base URI', 'declare base-uri "file:///xmldb-rest/other/"; doc("x.xml")'],
    ['a percent-encoded URI', 'doc("a%20b/x.xml")'],
    ['an engine function called by name', 'Q{urn:xmldb-rest:engine}collection("a")'],
    ['an unknown namespace', 'declare namespace x = "urn:x"; x:f()'],
    ['in a lookup key', 'map{}?(doc(string(1)))'],
  ])('%s leaves it open', (_name, query) => {
    expect(of(query)).toBe('*');
  });
});
