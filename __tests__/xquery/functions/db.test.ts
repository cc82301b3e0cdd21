import '../../../lib/xquery/functions/db';
import { StoreSource } from '../../../lib/xquery/worker/documents/store-source';
import { decodeValue, encodeValue } from '../../../lib/xquery/functions/support/stored-values';
import { NO_DOCUMENTS } from '../../../lib/xquery/worker/documents/source';
import type { XdmValue } from '../../../lib/saxon';
import { serialize } from '../../../lib/xquery/serialization/serialize';
import { dataFolder, queryFailure, run, text, value } from '../../helpers/worker-queries';

const data = dataFolder();

const DB_OPEN = 'db:open';

describe('db: functions', () => {
  let source: StoreSource;
  beforeEach(() => {
    source = new StoreSource({ dbPath: data.path });
  });

  it('compile as EQNames and with the db prefix, in every arity', () => {
    expect(text(source, 'Q{http://basex.org/modules/db}list()')).toBe('docs|empty');
    expect(text(source, "db:list('docs')")).toBe('a.xml|dir/b.xml|dir/c.xml|dir/img.png|dir/sub/d.xml|notes.txt');
    expect(text(source, "db:list('docs', 'dir/sub')")).toBe('dir/sub/d.xml');
    expect(text(source, "db:list('empty')")).toBe('');
  });

  it('db:get and db:open return the stored documents, the same nodes as fn:doc', () => {
    expect(text(source, "db:get('docs') ! name(*)")).toBe('a|b|c|d');
    expect(text(source, "db:get('docs', 'dir') ! name(*)")).toBe('b|c|d');
    expect(text(source, "db:open('docs', 'a.xml') ! name(*)")).toBe('a');
    expect(text(source, "db:get('docs', 'a.xml') is e:doc('docs/a.xml')")).toBe('true');
    expect(text(source, "count(db:get('docs', 'notes.txt')), count(db:get('docs', 'none')), count(db:get('empty'))")).toBe('0|0|0');
    expect(queryFailure(source, "db:get('nodb')")).toEqual({ code: DB_OPEN, message: "Database 'nodb' was not found." });
    expect(queryFailure(source, "db:get('docs', '../x')").code).toBe('db:path');
  });

  it('db:exists, db:type, db:content-type', () => {
    expect(text(source, "db:exists('docs'), db:exists('nodb'), db:exists('docs', 'a.xml'), db:exists('docs', 'dir'), db:exists('docs', 'x'), db:exists('nodb', 'a.xml')")).toBe(
      'true|false|true|true|false|false',
    );
    expect(text(source, "db:type('docs', 'a.xml'), db:type('docs', 'notes.txt')")).toBe('xml|binary');
    expect(text(source, "db:content-type('docs', 'a.xml'), db:content-type('docs', 'notes.txt'), db:content-type('docs', 'dir/img.png')")).toBe(
      'application/xml|text/plain|image/png',
    );
    expect(queryFailure(source, "db:type('docs', 'none')")).toEqual({ code: 'FODC0002', message: "Resource 'docs/none' not found." });
    expect(queryFailure(source, "db:type('nodb', 'a.xml')").code).toBe(DB_OPEN);
  });

  it('db:get-binary returns xs:base64Binary', () => {
    expect(text(source, "db:get-binary('docs', 'notes.txt') instance of xs:base64Binary")).toBe('true');
    expect(text(source, "string(db:get-binary('docs', 'dir/img.png'))")).toBe(Buffer.from([0, 1, 2, 255]).toString('base64'));
    expect(text(source, "string(db:get-binary('docs', 'notes.txt'))")).toBe(Buffer.from('hello notes').toString('base64'));
    expect(queryFailure(source, "db:get-binary('docs', 'a.xml')").code).toBe('FODC0002');
  });

  it('db:name and db:path locate stored nodes', () => {
    expect(text(source, "db:name(e:doc('docs/dir/b.xml')), db:path(e:doc('docs/dir/b.xml')/b/@n), db:path(db:get('docs')[last()]//d)")).toBe('docs|dir/b.xml|dir/sub/d.xml');
    expect(queryFailure(source, "db:path(parse-xml('<x/>'))")).toEqual({ code: 'db:node', message: 'No database node: document-node().' });
  });

  it('db:get-value reads a value resource in the stored value format', async () => {
    const items = run(NO_DOCUMENTS, "(1, 'two', xs:date('2024-01-02'), 2.5e0, QName('urn:q', 'p:l'), map { 'k': (1, 2), 3: [4, [5]] }, [], parse-xml('<r a=\"1\">t<c/></r>'), parse-xml('<r a=\"1\">t<c/></r>')/r, parse-xml('<r a=\"1\"/>')/r/@a, parse-xml('<r>t<!--c--><?pi d?></r>')/r/node(), xs:hexBinary('0AFF'))");
    const stored = encodeValue(items);
    await data.store.write(['docs'], (w) => w.putResource('docs', 'v', value(stored)));
    expect(text(source, "db:type('docs', 'v')")).toBe('value');
    const adaptive = (v: XdmValue) => serialize(v, { method: 'adaptive', 'item-separator': '|' });
    const back = run(source, "db:get-value('docs', 'v')");
    expect(adaptive(back)).toBe(adaptive(items));
    expect(text(source, "db:get-value('docs', 'v')[5] instance of xs:QName, prefix-from-QName(db:get-value('docs', 'v')[5]), db:get-value('docs', 'v')[3] instance of xs:date")).toBe('true|p|true');
    expect(queryFailure(source, "db:get-value('docs', 'a.xml')").code).toBe('FODC0002');
    expect(adaptive(decodeValue(encodeValue([])))).toBe('');
    expect(() => encodeValue(run(NO_DOCUMENTS, 'true#0'))).toThrow('Function items cannot be stored.');
  });

  it('without a store, no database exists', () => {
    expect(text(NO_DOCUMENTS, 'db:list(), db:exists("docs")')).toBe('false');
    expect(queryFailure(NO_DOCUMENTS, "db:get('docs')").code).toBe(DB_OPEN);
  });
});
