/**
 * The full-text index (store/index-kinds.ts, accelerators/fulltext-index/fulltext-index.ts, functions/ft-index.ts):
 * the commands and options that switch it, what INFO shows, ft:search and ft:tokens, which must
 * answer what `contains text` answers without the index, after every kind of write.
 */
import request from 'supertest';
import { queryBody, startTestServer, type TestServer } from '../../../helpers/rest';
import { translate } from '../../../helpers/translation';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s.close());

const get = (query: string, path = '') => s.get(`/rest${path}?query=${encodeURIComponent(query)}`);
const post = (script: string) => s.post('/rest', `<commands>${script}</commands>`);
const xml = (path: string, body: string) => s.put(`/rest/${path}`, body, 'application/xml').expect(201);
const text = (query: string): Promise<string> => queryBody(s, query);

const A =
  '<doc><p>Usability testing of web sites.</p><p>The tests were run by <b>Ninja</b> coders, testing usability.</p>' +
  '<p>Café au lait. Cafe noir!\nA new paragraph about usability.</p><q>Running runners ran</q></doc>';
const B = '<doc><p>Web usability</p><p>nothing here</p></doc>';
/** Phrases: repeated words, a phrase split by an element, stop words at either end. */
const C =
  '<doc><p>gold gold gold silver</p><p>so so much</p><p>limited edition, limited <i>edition</i> and limited</p>' +
  '<p>Éditions LIMITÉES. Limited Editions</p><q>sites</q></doc>';

/** Each text node ft:search answers, as `path:position of its parent element`. */
const where = (nodes: string) => `${nodes} ! (db:path(.) || ":" || name(..) || "[" || string-join(ancestor::*[1]/preceding-sibling::*!'x') || "]" )`;

describe('switching the full-text index on and off', () => {
  beforeAll(async () => {
    await s.put('/rest/ft').expect(201);
    await xml('ft/a.xml', A);
    await xml('ft/b.xml', B);
  });

  test('CREATE INDEX FULLTEXT, INFO INDEX, INFO DB, DROP INDEX FULLTEXT', async () => {
    const none = await get('ft:search("ft", "usability")');
    expect([none.status, none.text]).toEqual([500, "Stopped at ., 1/1:\n[db:no-index] Database 'ft' has no full-text index."]);
    expect((await post('<open name="ft"/><info-index type="fulltext"/>')).text).toBe(' FTINDEX: false\n');
    await post('<open name="ft"/><create-index type="fulltext"/>').expect(200);
    expect((await post('<open name="ft"/><info-index type="FULLTEXT"/>')).text).toBe(' FTINDEX: true (kept current on every write)\n');
    expect((await post('<open name="ft"/><info-db/>')).text).toContain(
      '\nIndexes\n TEXTINDEX: true\n ATTRINDEX: true\n TOKENINDEX: true\n FTINDEX: true\n LANGUAGE: en\n STEMMING: false\n CASESENS: false\n DIACRITICS: false\n STOPWORDS: \n UPDINDEX: false\n',
    );
    expect(await text('db:property("ft", "ftindex"), db:info("ft")/indexes/(ftindex, stemming, language) ! string()')).toBe('true\ntrue\nen\nfalse');
    expect(await text('count(ft:search("ft", "usability"))')).toBe('4');
    await post('<open name="ft"/><drop-index type="fulltext"/>').expect(200);
    expect((await post('<open name="ft"/><info-index type="fulltext"/>')).text).toBe(' FTINDEX: false\n');
    expect((await get('ft:tokens("ft")')).status).toBe(500);
    await post('<open name="ft"/><create-index type="fulltext"/>').expect(200);
  });

  test('SET FTINDEX and the full-text options before CREATE DB build it with them', async () => {
    await post('<set option="ftindex">true</set><set option="stemming">true</set><set option="casesens">true</set><create-db name="ftstem">' + '&lt;d>&lt;p>Running&lt;/p>&lt;p>running&lt;/p>&lt;p>RUNS&lt;/p>&lt;/d></create-db>').expect(200);
    const info = (await post('<open name="ftstem"/><info-db/>')).text;
    expect(info).toContain('\n FTINDEX: true\n LANGUAGE: en\n STEMMING: true\n CASESENS: true\n DIACRITICS: false\n');
    expect(await text('ft:search("ftstem", "run") ! string(), "-", ft:search("ftstem", "Runs") ! string(), "-", ft:tokens("ftstem") ! (@count || " " || .)')).toBe(
      'running\n-\nRunning\n-\n3 run',
    );
    await post('<set option="ftindex">false</set><set option="stemming">false</set><set option="casesens">false</set>').expect(200);
  });

  test('the options of a PUT of a database are applied before it is created, as SET before CREATE DB (spec §2.4)', async () => {
    await s.put('/rest/ftput?ftindex=true&stemming=true&textindex=false', '<d><p>Running</p></d>', 'application/xml').expect(201);
    expect((await post('<open name="ftput"/><info-index/>')).text).toBe(
      ' TEXTINDEX: false\n ATTRINDEX: true (kept current on every write)\n TOKENINDEX: true (kept current on every write)\n FTINDEX: true (kept current on every write)\n',
    );
    expect(await text('ft:search("ftput", "run") ! string()')).toBe('Running');
    const bad = await s.put('/rest/ftbad?ftindex=true&stemming=true&language=xx', '<d/>', 'application/xml');
    expect([bad.status, bad.text]).toEqual([500, "Not supported: STEMMING for LANGUAGE 'xx'."]);
    expect(await text('db:exists("ftbad")')).toBe('false');
  });

  test('options that cannot be honoured are refused, naming them', async () => {
    const cmd = await post('<set option="ftindex">true</set><set option="stemming">true</set><set option="language">xx</set><create-db name="ftbad"/>');
    expect([cmd.status, cmd.text]).toEqual([500, "Not supported: STEMMING for LANGUAGE 'xx'."]);
    await post('<set option="ftindex">false</set><set option="stemming">false</set><set option="language">en</set>').expect(200);
    const bad = await post('<open name="ft"/><set option="language">e n</set><create-index type="fulltext"/>');
    expect([bad.status, bad.text]).toEqual([500, "Not supported: LANGUAGE 'e n'."]);
    await post('<set option="language">en</set>').expect(200);
    const include = await post('<set option="ftinclude">p</set>');
    expect([include.status, include.text]).toEqual([500, 'Not supported: FTINCLUDE (the full-text index holds every text node).']);
    const q = await get('db:create("ftbad", (), (), map { "ftindex": true(), "stemming": true(), "language": "xx" })');
    expect([q.status, q.text]).toEqual([500, "Stopped at ., 1/1:\n[XMLR0001] Not supported yet: STEMMING for LANGUAGE 'xx'."]);
  });

  test('db:create and db:optimize take ftindex and the full-text options', async () => {
    await get('db:create("ftq", "<d><p>Die Häuser</p><p>das Haus</p></d>", "d.xml", map { "ftindex": true(), "stemming": true(), "language": "de", "diacritics": true() })').expect(200);
    expect(await text('ft:search("ftq", "haus") ! string(), db:property("ftq", "language"), db:property("ftq", "diacritics")')).toBe('Die Häuser\ndas Haus\nde\ntrue');
    await get('db:create("ftq2", "<d><p>Die Häuser</p></d>", "d.xml")').expect(200);
    expect((await get('ft:search("ftq2", "x")')).text).toBe("Stopped at ., 1/1:\n[db:no-index] Database 'ftq2' has no full-text index.");
    await get('db:optimize("ftq2", false(), map { "ftindex": true() })').expect(200);
    expect(await text('ft:search("ftq2", "hauser") ! string()')).toBe('Die Häuser');
    await get('db:optimize("ftq2", false(), map { "ftindex": false() })').expect(200);
    expect((await get('ft:search("ftq2", "x")')).status).toBe(500);
  });
});

describe('ft:search answers what contains text answers', () => {
  const cases: [string, string][] = [
    ['"usability"', 'map {}'],
    ['("usability", "ninja")', 'map { "mode": "all" }'],
    ['("usability", "ninja")', 'map { "mode": "any" }'],
    ['"web sites"', 'map { "mode": "phrase" }'],
    ['"testing usability"', 'map { "mode": "all words" }'],
    ['"testing nothing"', 'map { "mode": "any word" }'],
    ['"cafe"', 'map {}'],
    ['"usabilty"', 'map { "fuzzy": true() }'],
    ['"test.*"', 'map { "wildcards": true() }'],
    ['("coders", "tests")', 'map { "mode": "all", "ordered": true() }'],
    ['("tests", "usability")', 'map { "mode": "all", "distance": map { "max": 3, "unit": "words" } }'],
    ['("tests", "usability")', 'map { "mode": "all", "window": map { "size": 4 } }'],
    ['("cafe", "usability")', 'map { "mode": "all", "scope": map { "same": false(), "unit": "sentence" } }'],
    ['"usability"', 'map { "content": "at start" }'],
    ['()', 'map {}'],
    ['"!!"', 'map {}'],
  ];

  test.each(cases)('ft:search("ft", %s, %s)', async (terms, options) => {
    const indexed = await text(where(`ft:search("ft", ${terms}, ${options})`));
    const scanned = await text(where(`for $d in db:get("ft") return $d//text()[ft:contains(., ${terms}, ${options})]`));
    expect(indexed).toBe(scanned);
    if (terms === '"usability"' && options === 'map {}') expect(indexed).toBe('a.xml:p[]\na.xml:p[x]\na.xml:p[xx]\nb.xml:p[]');
  });

  test.each(cases)('count(ft:search("ft", %s, %s)) counts what ft:search answers', async (terms, options) => {
    // count(ft:search(…)) is the engine's count (translate/ft-calls.ts); `(…)[true()]` keeps the plain count
    const counted = await text(`count(ft:search("ft", ${terms}, ${options})), count(ft:search("ft", ${terms}))`);
    const plain = await text(`count(ft:search("ft", ${terms}, ${options})[true()]), count(ft:search("ft", ${terms})[true()])`);
    expect(counted).toBe(plain);
  });

  test('results are the stored text nodes, in document order', async () => {
    expect(await text('let $t := ft:search("ft", ("ninja", "usability")) return ($t[1] is db:get("ft", "a.xml")//p[1]/text(), $t ! name(..))')).toBe('true\np\nb\np\np\np');
  });

  test('ft:tokens: tokens with their occurrences, a prefix folded as the index folds', async () => {
    expect(await text('ft:tokens("ft", "USAB") ! serialize(.)')).toBe('<entry count="4">usability</entry>');
    expect(await text('ft:tokens("ft", "caf") ! string()')).toBe('cafe');
    expect(await text('count(ft:tokens("ft")), ft:tokens("ft", "zzz")')).toBe('25');
  });

  test('errors: options the index decides, fuzzy with wildcards, an unknown database', async () => {
    expect((await get('ft:search("ft", "x", map { "stemming": true() })')).text).toBe("Stopped at ., 1/1:\n[ft:options] Option 'stemming' is decided by the full-text index.");
    expect((await get('ft:search("ft", "x", map { "fuzzy": true(), "wildcards": true() })')).text).toBe('Stopped at ., 1/1:\n[ft:options] Either wildcards or fuzzy can be selected.');
    expect((await get('ft:search("none", "x")')).text).toBe("Stopped at ., 1/1:\n[db:open] Database 'none' was not found.");
    for (const call of ['ft:search("ft", "x", map { "stemming": true() })', 'ft:search("none", "x")', 'ft:search("ft", "x", map { "fuzzy": true(), "wildcards": true() })']) {
      expect((await get(`count(${call})`)).text).toBe((await get(call)).text);
    }
  });
});

describe('contains text over a database with the index answers as without it', () => {
  beforeAll(async () => {
    await s.put('/rest/ftn').expect(201);
    await xml('ftn/a.xml', A);
    await xml('ftn/b.xml', B);
    await post('<set option="casesens">true</set><set option="diacritics">true</set><create-db name="ftcs"/><create-index type="fulltext"/><set option="casesens">false</set><set option="diacritics">false</set>').expect(200);
    await xml('ftcs/a.xml', A);
    await xml('ftcs/b.xml', B);
    for (const db of ['ft', 'ftcs', 'ftn']) await xml(`${db}/c.xml`, C);
  });
  const selections = [
    '"usability"',
    '"USABILITY" using case sensitive',
    '"Usability" using case sensitive',
    '"cafe" using diacritics sensitive',
    '"café"',
    '"test" using stemming',
    '"run" using stemming using language "en"',
    '"runners ran" using stemming',
    '("usability" ftand "web") ordered window 3 words',
    '"usability" ftand ftnot "web"',
    '"usability" occurs at most 1 times',
    '"usability" occurs at least 1 times',
    '"usability" ftor "ninja"',
    '"usability" not in "web usability"',
    '"tests of usability" using stop words ("of")',
    '"us.*" using wildcards',
    '"Us.*" using wildcards using case sensitive',
    '"Usabilty" using fuzzy using case sensitive',
    '"Tests" using stemming using case sensitive',
    '"café" using stemming using diacritics sensitive',
    '"usabilty" using fuzzy',
    '"car" using thesaurus at "ftres/none.xml"',
    '{ "web", "sites" } all words',
    '"a new paragraph" same paragraph',
    // phrases, answered from the positions in the index
    '"usability testing"',
    '"testing of web sites"',
    '"Usability Testing" using case sensitive',
    '"cafe au lait"',
    '"cafe au lait" using diacritics sensitive',
    '"café au lait" using diacritics sensitive',
    '"tests were running" using stemming',
    '"limited edition" using stemming',
    '"Limited Editions" using stemming using case sensitive',
    '"editions limitees"',
    '"éditions limitées" using diacritics sensitive using case insensitive',
    '"gold gold"',
    '"gold gold gold gold"',
    '"gold silver"',
    '"silver gold"',
    '"so much"',
    '"limited edition"',
    '"edition and limited"',
    '"by ninja coders"',
    '{ "limited", "edition" } phrase',
    '{ "gold silver", "so much" } all',
    '{ "gold silver", "so much" } any',
    '"limited edition" occurs at least 2 times',
    '"limited edition" ftand "so much"',
    '"limited edition" ftor "silver gold"',
    '("limited" ftand "edition") ordered distance at most 0 words',
    '"limited edition" window 2 words',
    '"testing of web" using stop words ("of")',
    '"of web" using stop words ("of")',
    '"limited and" using stop words ("and")',
    '"and limited" using stop words ("and")',
    '"web sites" using stop words ("web", "sites")',
    '"lim.* edition" using wildcards',
    '"limted edition" using fuzzy',
  ];
  test.each(selections)('//*[text() contains text %s], //p[. contains text …], //text()[…]', async (sel) => {
    const q = (db: string) =>
      `for $d in db:get("${db}") return (($d//*[text() contains text ${sel}], $d//p[. contains text ${sel}], $d//q[. contains text ${sel}], $d//text()[. contains text ${sel}]) ! path(.)), ` +
      `for $d in db:get("${db}") return sum($d//p ! (for $x score $s in . where $x contains text ${sel} return $s))`;
    const [indexed, sensitive, plain] = await Promise.all([get(q('ft')), get(q('ftcs')), get(q('ftn'))]);
    expect([indexed.status, indexed.text]).toEqual([plain.status, plain.text]);
    expect([sensitive.status, sensitive.text]).toEqual([plain.status, plain.text]);
  });
});

describe('ft:search of phrases answers as contains text without the index', () => {
  // databases of the previous block: ft (default index), ftcs (case and diacritics sensitive), ftn (none)
  test.each([
    ['"usability testing"', ''],
    ['"limited edition"', ''],
    ['("limited", "edition")', ''],
    ['"gold gold"', ''],
    ['"edition and"', ''],
    ['"LIMITED editions"', ''],
    ['"lim.* editions?"', ', "wildcards": true()'],
    ['"Limited Editions"', ''],
    ['"Éditions LIMITÉES"', ''],
  ])('%s%s', async (terms, more) => {
    const search = (db: string) => get(`ft:search("${db}", ${terms}, map { "mode": "phrase"${more} }) ! path(.)`);
    const using = more === '' ? '' : ' using wildcards';
    const scan = (o: string) => get(`db:get("ftn")//text()[. contains text { ${terms} } phrase${using}${o}] ! path(.)`);
    const [indexed, sensitive, plain, plainSensitive] = await Promise.all([search('ft'), search('ftcs'), scan(''), scan(' using case sensitive using diacritics sensitive')]);
    expect([indexed.status, indexed.text]).toEqual([plain.status, plain.text]);
    expect([sensitive.status, sensitive.text]).toEqual([plainSensitive.status, plainSensitive.text]);
  });
});

describe('ft:mark, ft:extract and ft:count see the matches the index finds', () => {
  // the index answers exact candidates without the matcher; inside these functions' arguments
  // the matcher must run, so the matched tokens are marked (fulltext/hits.ts)
  beforeAll(async () => {
    await post('<create-db name="ftm"/><create-index type="fulltext"/>').expect(200);
    await s.put('/rest/ftmn').expect(201);
    for (const db of ['ftm', 'ftmn']) {
      await xml(`${db}/a.xml`, A);
      await xml(`${db}/b.xml`, B);
    }
  });

  test.each([
    'ft:mark(db:get("DB")//p[text() contains text "usability"])',
    'ft:mark(db:get("DB")//p[. contains text "usability" ftand "web"], "hit")',
    'ft:count(db:get("DB")//p[text() contains text "usability"])',
    'ft:extract(db:get("DB")//*[text() contains text "paragraph"], "m", 20)',
  ])('%s', async (q) => {
    const [indexed, plain] = await Promise.all([get(q.replace(/DB/g, 'ftm')), get(q.replace(/DB/g, 'ftmn'))]);
    expect(indexed.status).toBe(200);
    expect(indexed.text).toBe(plain.text);
    expect(indexed.text).toMatch(/<mark>|<hit>|<m>|^[1-9]/);
  });

  test('ft:mark(ft:search(…)) marks the tokens found', async () => {
    expect(await text('ft:mark(ft:search("ftm", "web"))')).toBe('Usability testing of \n<mark>web</mark>\n sites.\n<mark>Web</mark>\n usability');
    expect(await text('ft:count(ft:search("ftm", "usability"))')).toBe('4');
  });
});

describe('the translator asks the index for a first predicate `text() contains text` or `. contains text` of `//name` and `//*`', () => {
  const translated = (query: string): string => translate(query, 'multi').xpath?.expression ?? '';
  test.each(['//p[text() contains text "x"]', '//p[. contains text "x" using stemming][@a = "1"]', '//*[text() contains text "x" ftand "y"]', 'db:get("ft")//p[text() contains text "x"]'])('%s', (q) => {
    expect(translated(q)).toContain('descendants-ft');
  });
  test.each(['//p[text() contains text { string(@a) }]', '//*[. contains text "x"]', '//p[. contains text "x" without content b]', '//p[b contains text "x"]', '//p[1][. contains text "x"]', '//p[. contains text "x"][2]'])('not %s', (q) => {
    expect(translated(q)).not.toContain('descendants-ft');
  });
});

describe('stop words', () => {
  test('STOPWORDS names a stored list: its words are no tokens of ft:tokens and match any word in ft:search', async () => {
    await s.put('/rest/ftstop').expect(201);
    await s.put('/rest/ftstop/stop.txt', 'the\nof\n', 'text/plain').expect(201);
    await xml('ftstop/a.xml', '<d><p>The tests of usability</p><p>tests and usability</p></d>');
    await post('<set option="stopwords">ftstop/stop.txt</set><open name="ftstop"/><create-index type="fulltext"/><set option="stopwords"></set>').expect(200);
    expect(await text('ft:tokens("ftstop") ! string()')).toBe('and\ntests\nusability');
    const indexed = await text('ft:search("ftstop", "tests of usability", map { "mode": "phrase" }) ! string()');
    const scanned = await text('db:get("ftstop")//text()[. contains text "tests of usability" using stop words at "ftstop/stop.txt"] ! string()');
    expect([indexed, scanned]).toEqual(['The tests of usability\ntests and usability', 'The tests of usability\ntests and usability']);
    await s.del('/rest/ftstop/stop.txt').expect(200);
    const gone = await get('ft:tokens("ftstop")');
    expect([gone.status, gone.text]).toEqual([500, 'Stopped at ., 1/1:\n[FTST0008] Stop word file "ftstop/stop.txt" not found.']);
  });
});

describe('every write keeps the index current', () => {
  beforeAll(async () => {
    await s.put('/rest/ftw').expect(201);
    await post('<open name="ftw"/><create-index type="fulltext"/>').expect(200);
  });
  const found = () => text('ft:search("ftw", ("alpha", "beta")) ! (db:path(.) || " " || .)');

  test('PUT, updating queries, db:put, db:add, RENAME, REPLACE, db:rename, DELETE, db:delete', async () => {
    await xml('ftw/a.xml', '<d><p>alpha one</p></d>');
    expect(await found()).toBe('a.xml alpha one');
    await get('replace value of node db:get("ftw", "a.xml")//p with "beta two"').expect(200);
    expect(await found()).toBe('a.xml beta two');
    await get('db:put("ftw", <d><p>alpha three</p></d>, "b.xml"), db:add("ftw", <d>beta four</d>, "c.xml")').expect(200);
    expect(await found()).toBe('a.xml beta two\nb.xml alpha three\nc.xml beta four');
    await post('<open name="ftw"/><rename path="b.xml" newpath="z.xml"/><replace path="a.xml">&lt;d>gamma&lt;/d></replace>').expect(200);
    expect(await found()).toBe('c.xml beta four\nz.xml alpha three');
    await get('db:rename("ftw", "c.xml", "y.xml")').expect(200);
    expect(await found()).toBe('y.xml beta four\nz.xml alpha three');
    await s.del('/rest/ftw/z.xml').expect(200);
    await get('db:delete("ftw", "y.xml")').expect(200);
    expect(await found()).toBe('');
    expect(await text('ft:tokens("ftw") ! string()')).toBe('gamma');
  });

  test('phrases follow PUT, updating queries and DELETE', async () => {
    const phrase = (p: string) => text(`ft:search("ftw", "${p}", map { "mode": "phrase" }) ! (db:path(.) || " " || .)`);
    await xml('ftw/p.xml', '<d><p>alpha beta</p></d>');
    expect([await phrase('alpha beta'), await phrase('beta alpha')]).toEqual(['p.xml alpha beta', '']);
    await get('replace value of node db:get("ftw", "p.xml")//p with "beta alpha"').expect(200);
    expect([await phrase('alpha beta'), await phrase('beta alpha')]).toEqual(['', 'p.xml beta alpha']);
    await get('insert node <b>alpha</b> into db:get("ftw", "p.xml")//p').expect(200);
    expect([await phrase('beta alpha alpha'), await phrase('beta alpha')]).toEqual(['', 'p.xml beta alpha']);
    await s.del('/rest/ftw/p.xml').expect(200);
    expect(await phrase('beta alpha')).toBe('');
  });
});

describe('restart', () => {
  test('the index option is kept with the database: a server started again on the data answers from it', async () => {
    const first = await startTestServer();
    await first.put('/rest/ftr').expect(201);
    await first.put('/rest/ftr/a.xml', '<d><p>kept over a restart</p></d>', 'application/xml').expect(201);
    await first.post('/rest', '<commands><open name="ftr"/><create-index type="fulltext"/></commands>').expect(200);
    await first.router.close();
    const again = await startTestServer({ dbPath: first.dbPath, restPath: first.restPath });
    try {
      const r = await again.get(`/rest?query=${encodeURIComponent('ft:search("ftr", "restart") ! string(), db:property("ftr", "ftindex")')}`);
      expect([r.status, r.text]).toEqual([200, 'kept over a restart\ntrue']);
    } finally {
      await again.close();
    }
  });
});

describe('permissions', () => {
  test('a user without read permission on the database gets the standard error', async () => {
    await post('<create-user name="ftu">pw</create-user>').expect(200);
    const r = await request(s.app).get(`/rest?query=${encodeURIComponent('ft:search("ft", "usability")')}`).auth('ftu', 'pw');
    const d = await request(s.app).get(`/rest?query=${encodeURIComponent('db:text("ft", "x")')}`).auth('ftu', 'pw');
    expect([r.status, r.text]).toEqual([d.status, d.text]);
    // The database is invisible to the user, as to every db: function.
    expect([r.status, r.text]).toEqual([500, "Stopped at ., 1/1:\n[db:open] Database 'ft' was not found."]);
  });
});
