/** Updating queries against stored databases: store changes, db: write functions, their errors. */
import fs from 'node:fs/promises';
import path from 'node:path';
import { createFileStore, type FileStore } from '../../../lib/store/file/file-store';
import type { ReadView } from '../../../lib/store/types';
import { createEngine, type Engine, type QueryRequest } from '../../../lib/xquery/engine/engine';
import { LocatedQueryError } from '../../../lib/xquery/static-errors';
import { storeSourceSpec } from '../../../lib/xquery/worker/documents/store-source';
import { applyStoreChanges, type StoreChange } from '../../../lib/xquery/update/store-changes';
import { writeStandardData } from '../../helpers/worker-queries';
import { rejection } from '../../helpers/failure';
import { tempDir } from '../../helpers/temp-dir';

// One data folder and engine for the file (a worker takes seconds to start from source); the
// folder's content is written afresh for every test.
const data = { path: '', store: undefined as unknown as FileStore };
let engine: Engine;
beforeAll(async () => {
  data.path = tempDir('xmldb-update-');
  engine = createEngine({ workers: 1, documentSource: storeSourceSpec() });
});
beforeEach(async () => {
  for (const entry of await fs.readdir(data.path)) await fs.rm(path.join(data.path, entry), { recursive: true, force: true });
  data.store = await createFileStore(data.path);
  await writeStandardData(data.store);
});
afterEach(() => data.store.close());
afterAll(async () => {
  await engine.close();
  await fs.rm(data.path, { recursive: true, force: true });
});

/** A query reading the store through `view` (the query host reads stored data through the request's view only). */
const request = (query: string, view: ReadView): QueryRequest => ({ query, context: { kind: 'none' }, variables: new Map(), serialization: {}, view });

/** Runs an updating query and applies its changes to the store. */
async function update(query: string): Promise<{ body: string; changes: readonly StoreChange[] }> {
  return data.store.write('*', async (view) => {
    const r = await engine.evaluate(request(query, view));
    await applyStoreChanges(view, r.changes ?? []);
    return { body: String(r.body), changes: r.changes ?? [] };
  });
}

const read = (query: string): Promise<string> => data.store.read('*', async (view) => String((await engine.evaluate(request(query, view))).body));

const code = async (query: string): Promise<string> =>
  (await rejection(() => data.store.read('*', (view) => engine.evaluate(request(query, view))), LocatedQueryError)).code;

describe('node updates of stored documents', () => {
  test('an attribute goes into a stored element that had none; copies leave the stored one without', async () => {
    const copy = await read('copy $c := doc("docs/a.xml")/a modify insert node attribute n {"1"} into $c/x[1] return ($c, doc("docs/a.xml"))');
    expect(copy).toBe('<a><x n="1">1</x><x>2</x></a>\n<a><x>1</x><x>2</x></a>');
    const { changes } = await update('insert node attribute n {"1"} into doc("docs/a.xml")/a/x[2]');
    expect(changes).toEqual([expect.objectContaining({ op: 'put', db: 'docs', path: 'a.xml', data: '<a><x>1</x><x n="1">2</x></a>' })]);
    expect(await read('doc("docs/a.xml")//x!count(@*)')).toBe('0\n1');
  });

  test('a changed document becomes one put with its normalised text and node count', async () => {
    const { changes } = await update('insert node <x>3</x> into doc("docs/a.xml")/a');
    expect(changes).toEqual([expect.objectContaining({ op: 'put', db: 'docs', path: 'a.xml', type: 'xml', data: '<a><x>1</x><x>2</x><x>3</x></a>', nodes: 8 })]);
    expect(changes[0]).toHaveProperty('ifMatch');
    expect(await read('doc("docs/a.xml")')).toBe('<a><x>1</x><x>2</x><x>3</x></a>');
  });

  test('snapshot semantics: all expressions see the state before the updates', async () => {
    await update('let $a := doc("docs/a.xml")/a return (delete node $a/x, insert node <n>{count($a/x)}</n> into $a)');
    expect(await read('doc("docs/a.xml")')).toBe('<a><n>2</n></a>');
  });

  test('several documents in one query', async () => {
    const { changes } = await update('for $d in collection("docs/dir") return rename node $d/* as "renamed"');
    expect(changes.map((c) => c.op === 'put' && c.path).sort()).toEqual(['dir/b.xml', 'dir/c.xml', 'dir/sub/d.xml']);
    expect(await read('collection("docs/dir")/* ! name()')).toBe('renamed\nrenamed\nrenamed');
  });

  test('updates of constructed nodes change nothing stored', async () => {
    expect((await update('insert node <x/> into <a/>')).changes).toEqual([]);
  });

  test('the worker cache never serves the old version', async () => {
    expect(await read('count(doc("docs/a.xml")//x)')).toBe('2');
    await update('delete node doc("docs/a.xml")//x[1]');
    expect(await read('count(doc("docs/a.xml")//x)')).toBe('1');
  });

  test('a document that stops being well-formed is refused', async () => {
    expect(await code('insert node <b/> after doc("docs/a.xml")/a')).toBe('XMLR0002');
  });
});

describe('db: write functions', () => {
  test('db:add and db:put store documents; strings of XML too', async () => {
    await update('(db:add("docs", <n>1</n>, "n.xml"), db:put("docs", "<m/>", "m.xml"), db:put("docs", document { <k/> }, "k/k.xml"))');
    expect(await read('db:list("docs")[ends-with(., ".xml")] => string-join(",")')).toBe('a.xml,dir/b.xml,dir/c.xml,dir/sub/d.xml,k/k.xml,m.xml,n.xml');
    expect(await read('doc("docs/k/k.xml")')).toBe('<k/>');
  });

  test('db:put-value and db:put-binary', async () => {
    await update('(db:put-value("docs", (1, "two", map { "k": <v/> }), "val"), db:put-binary("docs", xs:base64Binary("AAEC"), "bin"), db:put-binary("docs", "text", "t.txt"))');
    expect(await read('db:get-value("docs", "val")[1] + 1, db:get-value("docs", "val")[2], db:get-value("docs", "val")[3]?k')).toBe('2\ntwo\n<v/>');
    expect(await read('string(db:get-binary("docs", "bin")), db:type("docs", "bin"), string(db:get-binary("docs", "t.txt"))')).toBe('AAEC\nbinary\ndGV4dA==');
  });

  test('db:put-value keeps the namespaces of a tree a function built', async () => {
    await update('db:put-value("docs", analyze-string("abc", "b"), "ns")');
    expect(await read('namespace-uri(db:get-value("docs", "ns")), db:get-value("docs", "ns")/*:match/string()')).toBe('http://www.w3.org/2005/xpath-functions\nb');
  });

  test('db:delete and db:rename', async () => {
    await update('(db:delete("docs", "dir/sub"), db:rename("docs", "a.xml", "moved/a.xml"))');
    expect(await read('db:list("docs")[ends-with(., ".xml")] => string-join(",")')).toBe('dir/b.xml,dir/c.xml,moved/a.xml');
  });

  test('db:create, db:copy, db:alter, db:drop', async () => {
    await update('db:create("fresh", (<a/>, "<b/>"), ("a.xml", "b.xml"))');
    expect(await read('db:list("fresh") => string-join(",")')).toBe('a.xml,b.xml');
    await update('db:copy("fresh", "copied")');
    await update('db:alter("copied", "altered")');
    expect(await read('db:exists("copied"), db:list("altered") => string-join(",")')).toBe('false\na.xml,b.xml');
    await update('(db:drop("fresh"), db:drop("altered"))');
    expect(await read('db:list() => string-join(",")')).toBe('docs,empty');
  });

  test('node updates and db: functions together', async () => {
    await update('(insert node <y/> into doc("docs/a.xml")/a, db:copy("docs", "snap"))');
    expect(await read('doc("snap/a.xml")')).toBe('<a><x>1</x><x>2</x><y/></a>');
  });

  test.each([
    ['db:open', 'db:put("nope", <a/>, "a.xml")'],
    ['db:name', 'db:create("bad name")'],
    ['db:path', 'db:put("docs", <a/>, "")'],
    ['db:path', 'db:delete("docs", "../x")'],
    ['FOUP0001', 'db:put("docs", attribute a {"1"}, "a.xml")'],
    ['FODC0006', 'db:put("docs", "<a>", "a.xml")'],
    ['db:conflict', '(db:put("docs", <a/>, "n.xml"), db:put("docs", <b/>, "n.xml"))'],
    ['db:conflict', '(insert node <b/> into doc("docs/a.xml")/a, db:delete("docs", "a.xml"))'],
    ['db:conflict', '(db:create("x"), db:create("x"))'],
  ])('%s: %s', async (expected, query) => {
    expect(await code(query)).toBe(expected);
  });

  test('the analysis: updating, the permission it needs, the databases it names', () => {
    expect(engine.prepare('1').analysis()).toEqual({ updating: false, permission: 'none', databases: [] });
    expect(engine.prepare('db:put("docs", <a/>, "a.xml")').analysis()).toEqual({ updating: true, permission: 'write', databases: ['docs'] });
    expect(engine.prepare('(db:drop("x"), delete node doc("docs/a.xml")//x)').analysis()).toEqual({ updating: true, permission: 'create', databases: ['docs', 'x'] });
    expect(engine.prepare('copy $c := <a/> modify delete node $c return $c').analysis()).toEqual({ updating: false, permission: 'none', databases: [] });
    expect(engine.prepare('db:put($db, <a/>, "a.xml")').analysis()).toEqual({ updating: true, permission: 'write', databases: '*' });
  });
});
