/**
 * The value indexes (store/index-kinds.ts, accelerators/value-index/value-index.ts): the db: index functions,
 * the commands and options that switch them, and the queries the translator answers from them
 * (accelerators/value-index/paths-value-index.ts), which must answer what they answer over a database without
 * the indexes, after every kind of write.
 */
import { startTestServer, type TestServer } from '../../../helpers/rest';
import { translate } from '../../../helpers/translation';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s.close());

const get = (query: string, path = '') => s.get(`/rest${path}?query=${encodeURIComponent(query)}`);
const post = (script: string) => s.post('/rest', `<commands>${script}</commands>`);
const xml = (path: string, body: string) => s.put(`/rest/${path}`, body, 'application/xml').expect(201);

const A = '<r><x id="1" c="p q">v</x><x id="2">w</x><y k="v">v</y></r>';
const B = '<r xmlns:n="urn:n"><x n:id="1">u</x><!--c--><?p i?>t<z>w<i>v</i></z></r>';

describe('db: index functions', () => {
  beforeAll(async () => {
    await s.put('/rest/ix').expect(201);
    await xml('ix/a.xml', A);
    await xml('ix/d/b.xml', B);
  });

  test('db:text, db:text-range: text nodes of the values, documents in path order', async () => {
    const r = await get('db:text("ix", ("v", "w", "v")) ! (db:path(.) || ":" || name(..)), count(db:text("ix", ())), db:text-range("ix", "u", "v") ! string()');
    expect([r.status, r.text]).toEqual([200, 'a.xml:x\na.xml:x\na.xml:y\nd/b.xml:z\nd/b.xml:i\n0\nv\nv\nu\nv']);
  });

  test('db:attribute, db:attribute-range, db:token, with and without a name', async () => {
    const r = await get(
      'db:attribute("ix", "1") ! name(), db:attribute("ix", ("1", "v"), "id") ! name(), db:attribute("ix", "1", "n:id") ! db:path(.), ' +
        'db:attribute-range("ix", "2", "z") ! name(), db:attribute-range("ix", "0", "9", "c") ! string(), db:token("ix", ("q", "x")) ! string(), db:token("ix", " p  q ", "id")',
    );
    expect([r.status, r.text]).toEqual([200, 'id\nn:id\nid\nd/b.xml\nc\nid\nk\np q']);
  });

  test('attribute results are the nodes of the tree', async () => {
    const r = await get('db:attribute("ix", "2") is db:get("ix", "a.xml")//x[2]/@id, db:attribute("ix", "v")/..!name()');
    expect(r.text).toBe('true\ny');
  });

  test('errors: an unknown database, a database without the index', async () => {
    const unknown = await get('db:text("none", "v")');
    expect([unknown.status, unknown.text]).toEqual([500, "Stopped at ., 1/1:\n[db:open] Database 'none' was not found."]);
    await s.put('/rest/noidx').expect(201);
    await post('<open name="noidx"/><drop-index type="text"/><drop-index type="token"/>').expect(200);
    const none = await get('db:text("noidx", "v")');
    expect([none.status, none.text]).toEqual([500, "Stopped at ., 1/1:\n[db:no-index] Database 'noidx' has no text index."]);
    expect((await get('db:token("noidx", "v")')).text).toBe("Stopped at ., 1/1:\n[db:no-index] Database 'noidx' has no token index.");
    expect((await get('count(db:attribute("noidx", "v"))')).text).toBe('0');
  });
});

describe('node numbering', () => {
  test('db:node-pre and db:get-pre round trip over every node; ids are pre values', async () => {
    const all = 'db:get("ix")/descendant-or-self::node() ! (., @*)';
    const r = await get(`every $n in ${all} satisfies db:get-pre("ix", db:node-pre($n)) is $n, db:node-pre(db:get("ix", "d/b.xml")), db:node-id(db:get("ix", "a.xml")//y/@k), db:get-id("ix", 9) ! name()`);
    expect(r.text).toBe('true\n12\n10\ny');
    const nodes = await get('sum(db:list-details("ix") ! xs:integer(@size)), max(db:get("ix")/descendant-or-self::node() ! (., @*) ! db:node-pre(.))');
    expect(nodes.text).toBe('24\n23');
  });

  test('errors: a node that is not stored, a pre value no node has', async () => {
    expect((await get('db:node-pre(<a/>)')).text).toBe('Stopped at ., 1/1:\n[db:node] No database node: <a>.');
    expect((await get('db:get-pre("ix", 24)')).text).toBe('Stopped at ., 1/1:\n[db:range] Out of range: 24.');
    expect((await get('db:get-pre("ix", -1)')).text).toBe('Stopped at ., 1/1:\n[db:range] Out of range: -1.');
  });
});

describe('db:info, db:property, db:system, db:list-details', () => {
  test('db:info has the sections of INFO DB, db:property their values typed', async () => {
    const r = await get('db:info("ix")/indexes, db:info("ix")/databaseproperties/(name, nodes, documents), db:property("ix", "textindex") instance of xs:boolean, db:property("ix", "nodes") + 1, db:property("ix", "name")');
    expect(r.text).toBe(
      '<indexes><textindex>true</textindex><attrindex>true</attrindex><tokenindex>true</tokenindex><ftindex>false</ftindex><language>en</language><stemming>false</stemming><casesens>false</casesens><diacritics>false</diacritics><stopwords/><updindex>false</updindex><autooptimize>false</autooptimize><maxlen>96</maxlen><maxcats>100</maxcats></indexes>\n<name>ix</name>\n<nodes>24</nodes>\n<documents>2</documents>\ntrue\n25\nix',
    );
    const unknown = await get('db:property("ix", "nope")');
    expect([unknown.status, unknown.text]).toEqual([500, 'Stopped at ., 1/1:\n[db:property] Unknown database property: nope.']);
    expect((await get('db:info("none")')).text).toBe("Stopped at ., 1/1:\n[db:open] Database 'none' was not found.");
  });

  test('db:list-details of a database, of a path; db:system', async () => {
    const r = await get('db:list-details("ix", "d") ! (string(), @type, @content-type, @size) ! string(), db:list-details() ! string(), db:system()/options');
    expect(r.text).toBe('d/b.xml\nxml\napplication/xml\n12\nix\nnoidx\n<options><textindex>true</textindex><attrindex>true</attrindex><tokenindex>true</tokenindex></options>');
  });
});

describe('commands and options', () => {
  test('CREATE INDEX and DROP INDEX switch INFO DB and INFO INDEX', async () => {
    const indexes = async () => (await post('<open name="ix"/><info-index/>')).text;
    expect(await indexes()).toBe(' TEXTINDEX: true (kept current on every write)\n ATTRINDEX: true (kept current on every write)\n TOKENINDEX: true (kept current on every write)\n FTINDEX: false\n');
    await post('<open name="ix"/><drop-index type="attribute"/>').expect(200);
    expect((await post('<open name="ix"/><info-index type="attribute"/>')).text).toBe(' ATTRINDEX: false\n');
    expect((await post('<open name="ix"/><info-db/>')).text).toContain('\nIndexes\n TEXTINDEX: true\n ATTRINDEX: false\n TOKENINDEX: true\n FTINDEX: false\n');
    await post('<open name="ix"/><create-index type="attribute"/>').expect(200);
    expect((await post('<open name="ix"/><info-index type="attribute"/>')).text).toBe(' ATTRINDEX: true (kept current on every write)\n');
    const path = await post('<open name="ix"/><info-index type="path"/>');
    expect([path.status, path.text]).toEqual([500, 'Not supported: path index.']);
  });

  test('SET TEXTINDEX false before CREATE DB makes a database without it', async () => {
    await post('<set option="textindex">false</set><create-db name="made"/><info-index/>').expect(200);
    expect((await post('<open name="made"/><info-index/>')).text).toBe(' TEXTINDEX: false\n ATTRINDEX: true (kept current on every write)\n TOKENINDEX: true (kept current on every write)\n FTINDEX: false\n');
  });

  test('OPTIMIZE and OPTIMIZE ALL work and keep the indexes', async () => {
    await post('<open name="ix"/><optimize/><optimize-all/>').expect(200);
    expect((await get('count(db:text("ix", "v"))')).text).toBe('3');
  });

  test('db:create and db:optimize take the index options', async () => {
    await get('db:create("made2", <a>v</a>, "a.xml", map { "textindex": false(), "attrindex": "no" })').expect(200);
    expect((await get('db:property("made2", "textindex"), db:property("made2", "attrindex"), db:property("made2", "tokenindex")')).text).toBe('false\nfalse\ntrue');
    await get('db:optimize("made2", false(), map { "textindex": true() })').expect(200);
    expect((await get('db:text("made2", "v") ! name(..)')).text).toBe('a');
    const bad = await get('db:optimize("made2", false(), map { "wildcards": true() })');
    expect(bad.text).toBe("Stopped at ., 1/1:\n[XPTY0004] Unknown option 'wildcards'.");
  });
});

describe('queries answered from the indexes answer as without them, after every kind of write', () => {
  // Database `on` has the three value indexes, `off` none; every write goes to both.
  const QUERIES = [
    'let $v := "v" return //x[text() = $v] ! string(@id)',
    '//*[@id = ("1", "2", "9")] ! name()',
    '//x[. = ("v", "w")] ! string(@id)',
    '//x[contains-token(@c, "q")] ! string(@id)',
    'for $t in ("p", " q ", "") return count(//*[contains-token(@c, $t)])',
    // not answerable from the indexes: the predicate as written decides (no-rewrite paths)
    '//x[@id = <a>1</a>] ! string(@id), count(//x[. = ""]), //z[. = "wv"] ! name(), //x[text() = "v"]/following-sibling::*[1] ! name()',
    'let $n := 1 return //x[text() = $n]',
    // any attribute: namespaced ones count, namespace declarations do not
    '//*[@* = ("1", "q p", "urn:n")] ! name(), count(//x[@* = "p q"]), //*[contains-token(@*, "q")] ! string(@id)',
  ];
  const DOCS: Record<string, string> = {
    'a.xml': '<r><x id="1" c="p q">v</x><x id="2">w</x><y id="1">v</y></r>',
    'd/b.xml': '<r xmlns:n="urn:n"><x id="3" c="q">v<!--c--></x><z n:k="1">w<i>v</i></z><x id="4">v<b/>v</x></r>',
  };

  const translated = (query: string): string => translate(query, 'multi').xpath?.expression ?? '';

  async function same(): Promise<string[]> {
    const answers: string[] = [];
    for (const q of QUERIES) {
      const [on, off] = await Promise.all([get(q, '/on'), get(q, '/off')]);
      expect([q, on.status, on.text]).toEqual([q, off.status, off.text]);
      answers.push(on.text);
    }
    return answers;
  }

  const both = async (write: (db: string) => Promise<unknown>) => {
    await write('on');
    await write('off');
  };

  beforeAll(async () => {
    await both(async (db) => {
      await s.put(`/rest/${db}`).expect(201);
      for (const [path, body] of Object.entries(DOCS)) await xml(`${db}/${path}`, body);
    });
    await post('<open name="off"/><drop-index type="text"/><drop-index type="attribute"/><drop-index type="token"/>').expect(200);
  });

  test('the queries are rewritten where the indexes may answer, the others are not', () => {
    for (const q of QUERIES.slice(0, 5).concat(QUERIES[6], QUERIES[7])) expect(translated(q)).toContain('descendants-matching');
    expect(translated('declare namespace n = "urn:n"; //*[@n:* = "1"], //*[@*:k = "1"]')).not.toContain('descendants-matching');
    expect(translated('//x[text() = @y]')).not.toContain('descendants-matching');
    expect(translated('//x[contains-token(@c, ., "http://www.w3.org/2005/xpath-functions/collation/codepoint")]')).not.toContain('descendants-matching');
    expect(translated('//*[. = "v"]')).not.toContain('descendants-matching');
    expect(translated('//x[@id = "1"][2]')).not.toContain('descendants-matching');
  });

  test('as stored', async () => {
    const error = 'Stopped at ., 1/1:\n[FORG0001] Supplied value "v" is not a valid xs:double';
    expect(await same()).toEqual(['1\n3\n4', 'x\nx\ny', '1\n2\n3', '1\n3', '1\n2\n0', '1\n0\nz\nx\nz', error, 'x\ny\nz\n1\n1\n3']);
  });

  test('after PUT and DELETE', async () => {
    await both((db) => xml(`${db}/c.xml`, '<x id="9" c="q p">v</x>'));
    expect((await same())[4]).toBe('2\n3\n0');
    await both((db) => s.del(`/rest/${db}/a.xml`).expect(200));
    expect((await same())[1]).toBe('x');
  });

  test('after updating queries', async () => {
    await both((db) => get(`replace value of node doc("${db}/d/b.xml")//x[@id = "3"] with "w", insert node <x id="2" c="q">v</x> into doc("${db}/c.xml")/x`).expect(200));
    expect((await same())[0]).toBe('9\n2\n4');
    await both((db) => get(`delete node doc("${db}/c.xml")/x/x, replace value of node doc("${db}/c.xml")/x/@c with "p"`).expect(200));
    await same();
  });

  test('after db:put, db:add, db:delete, db:rename', async () => {
    await both((db) => get(`db:put("${db}", <r><x id="1" c="q">v</x></r>, "p.xml"), db:add("${db}", "<x id='2'>w</x>", "q.xml")`).expect(200));
    await same();
    await both((db) => get(`db:delete("${db}", "q.xml"), db:rename("${db}", "p.xml", "e/p.xml")`).expect(200));
    await same();
  });

  test('after REPLACE and ADD', async () => {
    await both((db) => post(`<open name="${db}"/><replace path="c.xml"><x id="5" c="q">w</x></replace><add path="f.xml"><r><x id="6" c="p">v</x></r></add>`).expect(200));
    await same();
  });
});
