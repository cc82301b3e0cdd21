/**
 * The engine over a store without files: workers read through the store channel, answered by the
 * request's view (an in-memory one here), and key their caches by the versions and etags the view
 * reports, so a change made elsewhere (another server) is seen by the next request.
 */
import { createEngine, type Engine, type QueryContext } from '../../../lib/xquery/engine/engine';
import { LocatedQueryError } from '../../../lib/xquery/static-errors';
import { storeSourceSpec } from '../../../lib/xquery/worker/documents/store-source';
import { BatchingMemoryView, MemoryView } from '../../helpers/memory-view';
import { BATCHED_FILE_BYTES } from '../../../lib/xquery/protocol/store-channel';
import { PART_BYTES } from '../../../lib/xquery/protocol/bytes-in-parts';
import { summaryRecord } from '../../../lib/xquery/accelerators/leaf-summaries/summary-record';

let engine: Engine;
let view: MemoryView;
beforeAll(() => {
  engine = createEngine({ workers: 1, documentSource: storeSourceSpec({ reader: { kind: 'channel' } }) });
});
afterAll(() => engine.close());
beforeEach(() => {
  view = new MemoryView();
  view.put('shop', 'a.xml', '<a><x>1</x><x>2</x></a>');
  view.put('shop', 'dir/b.xml', '<b n="1"/>');
  view.put('shop', 'dir/logo.png', Buffer.from([0, 1, 255]), 'binary');
  view.put('other', 'c.xml', '<c/>');
});

async function run(query: string, options: { context?: QueryContext; readable?: string[]; withView?: boolean } = {}): Promise<string> {
  const response = await engine.evaluate({
    query,
    context: options.context ?? { kind: 'none' },
    variables: new Map(),
    serialization: {},
    ...(options.readable ? { readable: options.readable } : {}),
    ...(options.withView === false ? {} : { view }),
  });
  return String(response.body);
}

describe('queries over the store channel', () => {
  test('fn:doc, fn:collection, the database context and db: functions read through the view', async () => {
    expect(await run('doc("shop/a.xml")')).toBe('<a><x>1</x><x>2</x></a>');
    expect(await run('collection("shop/dir") ! name(*)')).toBe('b');
    expect(await run('count(//x)', { context: { kind: 'database', db: 'shop', path: '' } })).toBe('2');
    expect(await run('string-join(db:list(), ",")')).toBe('other,shop');
    expect(await run('string-join(db:list("shop", "dir"), ",")')).toBe('dir/b.xml,dir/logo.png');
    expect(await run('string(xs:hexBinary(db:get-binary("shop", "dir/logo.png")))')).toBe('0001FF');
    expect(await run('doc-available("shop/missing.xml"), doc-available("nodb/a.xml")')).toBe('false\nfalse');
  });

  test('a query sees only the databases it may read', async () => {
    expect(await run('string-join(db:list(), ",")', { readable: ['other'] })).toBe('other');
    expect(await run('doc-available("shop/a.xml")', { readable: ['other'] })).toBe('false');
  });

  test('one version check per request; catalogs and documents are cached per version and etag', async () => {
    const query = 'sum(collection("shop")//x ! xs:integer(.))';
    expect(await run(query)).toBe('3');
    view.count();
    expect(await run(query)).toBe('3');
    expect(view.calls).toEqual({ versions: 1, listResources: 0, readBytes: 0, readRequests: 0 });
  });

  test('a change made elsewhere, without any notification, is seen by the next request', async () => {
    const query = 'sum(collection("shop")//x ! xs:integer(.))';
    expect(await run(query)).toBe('3');
    view.put('shop', 'a.xml', '<a><x>10</x></a>');
    view.count();
    expect(await run(query)).toBe('10');
    // the request's versions, the new catalog (with its version) once, and only the changed document
    expect(view.calls).toEqual({ versions: 2, listResources: 1, readBytes: 1, readRequests: 1 });
    view.drop('shop');
    expect(await run('doc-available("shop/a.xml")')).toBe('false');
  });

  test('the documents of a collection are read in batches, not one request each', async () => {
    for (let i = 0; i < 600; i++) view.put('many', `d${String(i).padStart(3, '0')}.xml`, `<d><p>${i}</p></d>`);
    view.count();
    expect(await run('count(collection("many")//p[. > 299])')).toBe('300');
    expect(view.calls.readBytes).toBe(600);
    expect(view.calls.readRequests).toBe(3);
  });

  test('a store that reads many documents at once answers each batch in one call; a document above BATCHED_FILE_BYTES is read alone', async () => {
    const batching = new BatchingMemoryView();
    for (let i = 0; i < 600; i++) batching.put('many', `d${String(i).padStart(3, '0')}.xml`, `<d><p>${i}</p></d>`);
    batching.put('many', 'large.xml', `<d>${'<q/>'.repeat(BATCHED_FILE_BYTES / 4)}<p>-1</p></d>`);
    batching.count();
    view = batching;
    expect(await run('count(collection("many")//p[. > 299]), count(collection("many")//q)')).toBe(`300\n${BATCHED_FILE_BYTES / 4}`);
    expect(batching.readMany_).toEqual({ calls: 3, documents: 600 });
    expect(batching.calls.readBytes).toBe(1);
  });

  test('a document of at least PART_BYTES crosses from the server to the query host in parts, streamed from the view', async () => {
    const items = Array.from({ length: 120_000 }, (_, i) => `<x>${i}</x>`).join('');
    view.put('big', 'big.xml', `<a>${items}</a>`);
    expect(Buffer.byteLength(items)).toBeGreaterThan(PART_BYTES);
    view.count();
    expect(await run('count(doc("big/big.xml")//x), string(doc("big/big.xml")/a/x[last()]), doc("shop/a.xml")/a/x[2]/string()')).toBe('120000\n119999\n2');
    // the large document through its stream, the small one whole
    expect(view.streams).toBe(1);
    expect(view.calls.readBytes).toBe(1);
  });

  test('a stream that fails part way fails the query with its error, and the next read of the document succeeds', async () => {
    view.put('big', 'big.xml', `<a>${'<x>1</x>'.repeat(200_000)}</a>`);
    const whole = view.openStream.bind(view);
    let failing = true;
    view.openStream = (db: string, path: string) => {
      const stream = whole(db, path);
      if (!failing) return stream;
      failing = false;
      let chunks = 0;
      return stream.map((chunk: Buffer) => {
        if (++chunks === 20) throw new Error('The disk went away.');
        return chunk;
      }) as ReturnType<typeof whole>;
    };
    await expect(run('count(doc("big/big.xml")//x)')).rejects.toThrow('The disk went away.');
    expect(await run('count(doc("big/big.xml")//x)')).toBe('200000');
  });

  test('a count over a database reads the summaries the view keeps for its documents, not the documents', async () => {
    const many: QueryContext = { kind: 'database', db: 'many', path: '' };
    for (let d = 0; d < 3; d++) view.put('many', `d${d}.xml`, `<items><item><price>${d * 300}</price></item><item><price>900</price></item></items>`);
    const kept = new Map<string, Uint8Array>();
    for (const info of await view.listResources('many')) kept.set(info.etag, summaryRecord(await view.readBytes('many', info.path))!);
    const asked: string[] = [];
    Object.assign(view, {
      summaries: async (db: string, etags: readonly string[]) => {
        asked.push(`${db}:${etags.length}`);
        return etags.map((etag) => kept.get(etag) ?? null);
      },
    });
    view.count();
    expect(await run('count(//item[price > 500])', { context: many })).toBe('4');
    expect([asked, view.calls.readBytes]).toEqual([['many:3'], 0]);
    // a version the view keeps no summary of is read as text; those summarised already are not asked again
    view.put('many', 'd3.xml', '<items><item><price>700</price></item></items>');
    view.count();
    asked.length = 0;
    expect(await run('count(//item[price > 500])', { context: many })).toBe('5');
    expect([asked, view.calls.readBytes]).toEqual([['many:1'], 1]);
  });

  test('without a view, a query that reads stored data fails with the store error', async () => {
    expect(await run('1 + 1', { withView: false })).toBe('2');
    const error = await run('doc("shop/a.xml")', { withView: false }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LocatedQueryError);
    expect((error as LocatedQueryError).message).toBe('Internal error in saxon-js: Stored data cannot be read here: the query runs outside a store read or write.');
  });
});
