/**
 * Reads of several documents at once (ReadView `readMany`, which query workers' first look at a
 * database uses) and of the summaries kept with them (ReadView `summaries`) are judged like every
 * other read of the guarded store: a database the user may not read does not exist for them.
 */
import { createFileStore } from '../../lib/store/file/file-store';
import { runtimeOfUser } from '../../lib/operations/guarded-store';
import type { Runtime } from '../../lib/operations/composition-root';
import type { Store } from '../../lib/store/types';
import { codeOf, tempFolder, xml } from '../store/helpers';

const dir = tempFolder();
let store: Store;
const etags: Record<string, string> = {};
beforeEach(async () => {
  store = await createFileStore(dir.path, { summarize: (data) => Buffer.from(`summary of ${data.toString('utf8')}`) });
  await store.write(['open', 'closed'], async (w) => {
    for (const db of ['open', 'closed']) {
      await w.createDatabase(db);
      etags[db] = (await w.putResource(db, 'a.xml', xml(`<${db}/>`)))!.etag;
    }
  });
});
afterEach(() => store.close());

const seenBy = (grants: { pattern: string; perm: 'none' | 'read' | 'write' }[]): Store =>
  runtimeOfUser({ store } as unknown as Runtime, { perm: 'read', grants }).store;

test('readMany reads a database the user may read, and finds none they may not', async () => {
  const guarded = seenBy([{ pattern: 'closed', perm: 'none' }]);
  expect((await guarded.read(['open'], (r) => r.readMany!('open', ['a.xml'], 1024))).map(String)).toEqual(['<open/>']);
  expect(await codeOf(() => guarded.read(['closed'], (r) => r.readMany!('closed', ['a.xml'], 1024)))).toBe('DB_NOT_FOUND_X');
  expect(await codeOf(() => guarded.write(['closed'], (w) => w.readMany!('closed', ['a.xml'], 1024)))).toBe('DB_NOT_FOUND_X');
});

test('summaries of a database the user may read, none of one they may not', async () => {
  const guarded = seenBy([{ pattern: 'closed', perm: 'none' }]);
  expect((await guarded.read(['open'], (r) => r.summaries!('open', [etags.open]))).map(String)).toEqual(['summary of <open/>']);
  expect(await codeOf(() => guarded.read(['closed'], (r) => r.summaries!('closed', [etags.closed])))).toBe('DB_NOT_FOUND_X');
  expect(await codeOf(() => guarded.write(['closed'], (w) => w.summaries!('closed', [etags.closed])))).toBe('DB_NOT_FOUND_X');
});
