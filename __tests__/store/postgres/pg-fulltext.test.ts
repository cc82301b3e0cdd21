/**
 * The full-text index in PostgreSQL's tables (store/postgres/fulltext.ts): its rows follow every
 * write in the write's transaction, ft:search and `contains text` take their candidates from them,
 * and a second server sees a write at once. (That the answers are the file store's is the file
 * store's suite run on PostgreSQL: pg-parity/fulltext-index.test.ts.)
 */
import { Client, type QueryResultRow } from 'pg';
import { fullTextPostings } from '../../../lib/xquery/accelerators/fulltext-index/fulltext-store-rows';
import { createPostgresStore } from '../../../lib/store/postgres/pg-store';
import { OFFLOAD_BYTES } from '../../../lib/threads/offload';
import { describeWithPostgres } from '../../helpers/postgres';
import { twoServersOnFreshDatabase } from '../../helpers/pg-two-servers';
import { queryBody, type TestServer } from '../../helpers/rest';

describeWithPostgres('the full-text index in PostgreSQL', () => {
  const servers = twoServersOnFreshDatabase();

  /** A statement on a connection of its own (the test's database is dropped after each test, with its connections). */
  const sql = async <R extends QueryResultRow>(text: string, params: unknown[] = []): Promise<R[]> => {
    const client = new Client({ connectionString: servers.db.url });
    await client.connect();
    try {
      return (await client.query<R>(text, params)).rows;
    } finally {
      await client.end();
    }
  };
  /** The rows of database `name`: `path node: tokens`. */
  const rows = async (name: string): Promise<string[]> =>
    (await sql<{ path: string; node: number; tokens: string[] }>('SELECT path, node, tokens FROM xmldb_fulltext WHERE db = $1 ORDER BY path, node', [name])).map(
      (r) => `${r.path} ${r.node}: ${r.tokens.join(' ')}`,
    );
  const kept = async (name: string): Promise<boolean | undefined> =>
    (await sql<{ fulltext: boolean }>('SELECT fulltext FROM xmldb_databases WHERE name = $1', [name]))[0]?.fulltext;
  const command = (s: TestServer, c: string) => s.get(`/rest?command=${encodeURIComponent(c)}`).expect(200);
  const query = (s: TestServer, q: string) => queryBody(s, q);

  test('rows follow PUT, DELETE, updating queries, db:put, renames, DROP/CREATE INDEX, ALTER, COPY and DROP DB', async () => {
    await servers.one.put('/rest/ft?ftindex=true', undefined).expect(201);
    expect(await kept('ft')).toBe(true);
    // text nodes are numbered in document order, whitespace-only ones included; tokens folded, in order
    await servers.one.put('/rest/ft/a.xml', '<a><p>Usability Testing</p> <p>café, usability!</p><q/></a>', 'application/xml').expect(201);
    expect(await rows('ft')).toEqual(['a.xml 0: usability testing', 'a.xml 2: cafe usability']);
    await servers.one.put('/rest/ft/a.xml', '<a><p>Web sites</p></a>', 'application/xml').expect(201);
    expect(await rows('ft')).toEqual(['a.xml 0: web sites']);
    await query(servers.one, 'insert node <p>New WORDS</p> into doc("ft/a.xml")/a');
    expect(await rows('ft')).toEqual(['a.xml 0: web sites', 'a.xml 1: new words']);
    await query(servers.one, 'db:put("ft", <b>beta</b>, "dir/b.xml")');
    expect(await rows('ft')).toEqual(['a.xml 0: web sites', 'a.xml 1: new words', 'dir/b.xml 0: beta']);
    await query(servers.one, 'db:rename("ft", "dir", "moved")');
    expect(await rows('ft')).toEqual(['a.xml 0: web sites', 'a.xml 1: new words', 'moved/b.xml 0: beta']);
    // a binary replacing a document drops its rows
    await servers.one.put('/rest/ft/moved/b.xml', 'raw', 'application/octet-stream').expect(201);
    expect(await rows('ft')).toEqual(['a.xml 0: web sites', 'a.xml 1: new words']);
    await servers.one.del('/rest/ft/a.xml').expect(200);
    expect(await rows('ft')).toEqual([]);

    await servers.one.put('/rest/ft/c.xml', '<c>Gamma delta</c>', 'application/xml').expect(201);
    await command(servers.one, 'OPEN ft');
    await servers.one.post('/rest', '<commands><open name="ft"/><drop-index type="fulltext"/></commands>').expect(200);
    expect([await rows('ft'), await kept('ft')]).toEqual([[], false]);
    await servers.one.post('/rest', '<commands><open name="ft"/><set option="casesens">true</set><create-index type="fulltext"/></commands>').expect(200);
    expect([await rows('ft'), await kept('ft')]).toEqual([['c.xml 0: Gamma delta'], true]);
    await command(servers.one, 'ALTER DB ft ft2');
    expect([await rows('ft'), await rows('ft2')]).toEqual([[], ['c.xml 0: Gamma delta']]);
    await command(servers.one, 'COPY ft2 ft3');
    expect([await rows('ft3'), await kept('ft3')]).toEqual([['c.xml 0: Gamma delta'], true]);
    // a backup keeps no rows: RESTORE builds them from the restored documents
    await command(servers.one, 'CREATE BACKUP ft3');
    await servers.one.put('/rest/ft3/c.xml', '<c>Epsilon</c>', 'application/xml').expect(201);
    expect(await rows('ft3')).toEqual(['c.xml 0: Epsilon']);
    await command(servers.one, 'RESTORE ft3');
    expect([await rows('ft3'), await kept('ft3')]).toEqual([['c.xml 0: Gamma delta'], true]);
    await command(servers.one, 'DROP DB ft2');
    await command(servers.one, 'DROP DB ft3');
    expect(await sql('SELECT count(*)::int AS n FROM xmldb_fulltext')).toEqual([{ n: 0 }]);
  });

  test('ft:search and contains text take their candidates from the rows, on the other server at once', async () => {
    await servers.one.put('/rest/s?ftindex=true', undefined).expect(201);
    await servers.one.put('/rest/s/a.xml', '<a><p>Usability testing</p><p>running usability</p></a>', 'application/xml').expect(201);
    const search = 'ft:search("s", "usability") ! string()';
    const path = '//p[text() contains text "usability"] ! string()';
    expect(await query(servers.two, search)).toBe('Usability testing\nrunning usability');
    await servers.one.put('/rest/s/a.xml', '<a><p>no match</p><p>usability again</p></a>', 'application/xml').expect(201);
    expect(await query(servers.two, search)).toBe('usability again');
    expect(await query(servers.two, `doc("s/a.xml")${path}`)).toBe('usability again');
    // the rows decide which nodes the matcher sees: a row removed behind the store's back hides its node
    await sql("DELETE FROM xmldb_fulltext WHERE db = 's' AND node = 1");
    expect(await query(servers.two, search)).toBe('');
    expect(await query(servers.two, `doc("s/a.xml")${path}`)).toBe('');
    // stemming and wildcards select tokens from the database's vocabulary
    await servers.one.put('/rest/s/a.xml', '<a><p>runs</p><p>running</p><p>walked</p></a>', 'application/xml').expect(201);
    expect(await query(servers.two, 'doc("s/a.xml")//p[text() contains text "run" using stemming] ! string()')).toBe('runs\nrunning');
    expect(await query(servers.two, 'ft:search("s", "w.*", map { "wildcards": true() }) ! string()')).toBe('walked');
    await sql("DELETE FROM xmldb_fulltext WHERE db = 's' AND node = 1");
    expect(await query(servers.two, 'doc("s/a.xml")//p[text() contains text "run" using stemming] ! string()')).toBe('runs');
    // a word written since is in the vocabulary the next query selects from
    await servers.one.put('/rest/s/b.xml', '<b>wonder</b>', 'application/xml').expect(201);
    expect(await query(servers.two, 'ft:search("s", "w.*", map { "wildcards": true() }) ! string()')).toBe('walked\nwonder');
    // the vocabulary follows replaced and deleted documents too (read per document version)
    await servers.one.put('/rest/s/b.xml', '<b>whale</b>', 'application/xml').expect(201);
    expect(await query(servers.two, 'ft:search("s", "w.*", map { "wildcards": true() }) ! string()')).toBe('walked\nwhale');
    expect(await query(servers.two, 'doc("s/b.xml")//b[text() contains text "wonders" using stemming] ! string()')).toBe('');
    await servers.one.del('/rest/s/a.xml').expect(200);
    expect(await query(servers.two, 'ft:search("s", "w.*", map { "wildcards": true() }) ! string()')).toBe('whale');
    expect(await query(servers.one, 'ft:search("s", "w.*", map { "wildcards": true() }) ! string()')).toBe('whale');
  });

  test('a document large enough to be tokenized on an offload thread gets its rows, by PUT and by CREATE INDEX', async () => {
    const paragraphs = Array.from({ length: 3000 }, (_, i) => `<p>Word${i} shared TEXT</p>`);
    const xml = `<doc>${paragraphs.join('\n')}</doc>`;
    expect(xml.length).toBeGreaterThanOrEqual(OFFLOAD_BYTES);
    const expected = paragraphs.map((_, i) => `big.xml ${2 * i}: word${i} shared text`);
    await servers.one.put('/rest/big?ftindex=true', undefined).expect(201);
    await servers.one.put('/rest/big/big.xml', xml, 'application/xml').expect(201);
    expect(await rows('big')).toEqual(expected);
    expect(await query(servers.two, 'ft:search("big", "word2999") ! string()')).toBe('Word2999 shared TEXT');
    await servers.one.post('/rest', '<commands><open name="big"/><drop-index type="fulltext"/><create-index type="fulltext"/></commands>').expect(200);
    expect([await kept('big'), await rows('big')]).toEqual([true, expected]);
  });

  test('a write that fails midway changes neither documents nor rows', async () => {
    await servers.one.put('/rest/f?ftindex=true', undefined).expect(201);
    await servers.one.put('/rest/f/a.xml', '<a>alpha</a>', 'application/xml').expect(201);
    const before = await rows('f');
    // an updating query whose second update fails when the store applies it (a document cannot lie below another)
    const failed = await servers.one.get(`/rest?query=${encodeURIComponent('db:put("f", <n>new words</n>, "b.xml"), db:put("f", <n>more</n>, "b.xml/c.xml")')}`);
    expect(failed.status).not.toBe(200);
    expect(await rows('f')).toEqual(before);
    // and at the store's seam: a write that throws after its put
    const store = await createPostgresStore(servers.db.url, { fullText: fullTextPostings });
    try {
      await expect(
        store.write(['f'], async (w) => {
          await w.putResource('f', 'a.xml', { type: 'xml', data: '<a>omega</a>', nodes: 2 });
          expect(await w.fullText?.('f', { tokens: ['omega'] })).toEqual({ postings: [['a.xml', [0]]] });
          throw new Error('midway');
        }),
      ).rejects.toThrow('midway');
    } finally {
      await store.close();
    }
    expect(await rows('f')).toEqual(before);
    expect(await query(servers.two, 'ft:search("f", "alpha") ! string()')).toBe('alpha');
  });
});
