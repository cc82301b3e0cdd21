/** The generic walks over the AST (syntax/walk.ts). */
import { childNodes, eachChild, parseQuery, type Node } from '../../../../lib/xquery/language/syntax';

/** Every node of `root`'s tree, parent before children, by `eachChild`. */
function walked(root: Node): Node[] {
  const out: Node[] = [];
  const visit = (n: Node): void => {
    out.push(n);
    eachChild(n, visit);
  };
  visit(root);
  return out;
}

describe('eachChild', () => {
  // each query numbers its integer literals 1, 2, 3… in the order they are written
  it.each([
    ['a FLWOR with every clause', 'for $i at $p in (1, 2) let $j := $i * 3 where $j > 4 group by $k := $j mod 5 order by $k descending count $c return <r k="{$k + 6}">{$c, 7}</r>', 7],
    ['a prolog with functions and variables', 'declare namespace x = "urn:x"; declare variable $v := 1; declare function local:f($a as xs:integer) { $a + $v + 2 }; local:f(3)', 3],
    ['paths, predicates, lookups and maps', '//item[@id = 1][price > 2]/name ! string(.), map { "a": [3, 4] }?a?*, ["x"]?(5), [6]?*', 6],
    ['constructors, switch, typeswitch, try', 'element e { attribute a { 1 }, text { 2 } }, switch (3) case 4 return 5 default return 6, typeswitch (7) case xs:string return 8 default return 9, try { 10 div 11 } catch * { 12 }', 12],
    ['updates and full text', 'insert node <a n="{1}"/> into /r[2], //p[. contains text "w" using stemming][3]', 3],
  ])('reaches every node once, the literals in the order written, each node within its parent: %s', (_name, query, integers) => {
    const tree = parseQuery(query);
    const visited = walked(tree);
    expect(new Set(visited).size).toBe(visited.length);
    const literals = visited.filter((n) => n.kind === 'IntegerLiteral').map((n) => (n as Extract<Node, { kind: 'IntegerLiteral' }>).value);
    expect(literals).toStrictEqual(Array.from({ length: integers }, (_, i) => String(i + 1)));
    for (const n of visited) eachChild(n, (child) => expect([child.start >= n.start, child.end <= n.end]).toStrictEqual([true, true]));
  });

  it('visits what childNodes lists, in its order', () => {
    const tree = parseQuery('for $x in (1, 2)[. > 1] return <a>{$x}</a>');
    for (const n of walked(tree)) {
      const seen: Node[] = [];
      eachChild(n, (child) => seen.push(child));
      expect(seen).toStrictEqual(childNodes(n));
    }
  });
});
