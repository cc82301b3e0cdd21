/**
 * Reads asked ahead over the store channel (protocol/store-channel.ts) between a worker that
 * blocks on its reads and the main thread that answers them: requests asked ahead, answered in
 * any order, each reaching its own request; an answer no longer wanted is dropped, not handed to
 * the next request.
 */
import { openStoreChannel, type ChannelView } from '../../../lib/xquery/protocol/store-channel';
import { inFreshThread } from '../../helpers/fresh-thread';

/**
 * Runs `body` in a fresh thread with `reader`, a ChannelReader for task `task` over a channel
 * whose requests `viewOf` answers; answers what `body` returns.
 */
async function withReader(viewOf: (task: number) => ChannelView, task: number, body: string): Promise<unknown> {
  const host = openStoreChannel(viewOf);
  try {
    return await inFreshThread(
      `
      const { workerData } = require('worker_threads');
      const { ChannelReader } = lib('xquery/protocol/store-channel');
      const reader = new ChannelReader(workerData.channel, () => ${task});
      ${body}
      `,
      { workerData: { channel: host.channel }, transferList: [host.channel.port] },
    );
  } finally {
    host.close();
  }
}

test('reads asked ahead are taken in any order, each with its own bytes; a dropped one is never taken', async () => {
  const asked: string[] = [];
  const tasks: number[] = [];
  const view: Partial<ChannelView> = {
    async readMany(_db, paths) {
      asked.push(...paths);
      // the first read is answered last
      if (paths[0] === 'slow.xml') await new Promise((resolve) => setTimeout(resolve, 100));
      return paths.map((p) => Buffer.from(`<${p.replace('.xml', '')}/>`));
    },
  };
  const viewOf = (task: number) => {
    tasks.push(task);
    return view as ChannelView;
  };
  const result = await withReader(
    viewOf,
    7,
    `
    const slow = reader.readAhead('db', ['slow.xml']);
    const fast = reader.readAhead('db', ['fast.xml']);
    const dropped = reader.readAhead('db', ['dropped.xml']);
    dropped.drop();
    const first = fast.take().map(String);
    const second = slow.take().map(String);
    const last = reader.read('db', ['last.xml']).map(String);
    return { first, second, last };
    `,
  );
  expect(result).toEqual({ first: ['<fast/>'], second: ['<slow/>'], last: ['<last/>'] });
  expect(asked).toStrictEqual(['slow.xml', 'fast.xml', 'dropped.xml', 'last.xml']);
  expect(tasks).toStrictEqual([7, 7, 7, 7]);
});

test('a failed read asked ahead throws the store error when it is taken', async () => {
  const view: Partial<ChannelView> = {
    async readMany(_db, paths) {
      if (paths[0] === 'gone.xml') throw new Error('no such resource');
      return paths.map((p) => Buffer.from(p));
    },
  };
  const result = await withReader(
    () => view as ChannelView,
    1,
    `
    const gone = reader.readAhead('db', ['gone.xml']);
    const kept = reader.readAhead('db', ['kept.xml']);
    let error;
    try { gone.take(); } catch (e) { error = e.status + ' ' + e.message; }
    return { error, kept: kept.take().map(String) };
    `,
  );
  expect(result).toEqual({ error: '500 no such resource', kept: ['kept.xml'] });
});
