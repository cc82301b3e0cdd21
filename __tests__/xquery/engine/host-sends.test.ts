/**
 * When the server writes jobs to its query host (engine/query-host.ts): a job sent while no other
 * is in flight goes at once; jobs sent while one is in flight wait for the end of the turn of the
 * event loop and share one write.
 */
import type { ChildProcess } from 'node:child_process';
import { QueryHost } from '../../../lib/xquery/engine/query-host';
import type { ToHost } from '../../../lib/xquery/protocol/host-protocol';

/** Workers load saxon-js on a loaded machine: slow. */
const SLOW = 120_000;
/** Sleeps $ms milliseconds, then answers $label. */
const SLEEP = 'Q{http://basex.org/modules/prof}sleep(xs:integer($ms)), string($label)';

/** The run numbers of each write to the host's current process from now on, one array per write. */
function watchWrites(qh: QueryHost): number[][] {
  const child = (qh as unknown as { host: { process: ChildProcess } | null }).host?.process;
  if (!child) throw new Error('The query host has no process.');
  const writes: number[][] = [];
  const send = child.send.bind(child) as (messages: ToHost[]) => boolean;
  jest.spyOn(child, 'send').mockImplementation(((messages: ToHost[]) => {
    writes.push(messages.flatMap((m) => ('run' in m ? [m.run] : [])));
    return send(messages);
  }) as unknown as ChildProcess['send']);
  return writes;
}

const sleep = (qh: QueryHost, ms: number, label: string) =>
  qh.run({ xslt: '', xpath: SLEEP, params: { ms: { values: [String(ms)] }, label: { values: [label] } } }).then((out) => out.body);

const endOfTurn = () => new Promise((resolve) => setImmediate(resolve));

let qh: QueryHost;
afterEach(async () => {
  await qh?.close();
});

/** A query host of `size` workers that has answered a query, and the writes to it from now on. */
async function answeringHost(size: number): Promise<number[][]> {
  qh = new QueryHost({ size });
  expect(await sleep(qh, 0, 'ready')).toBe('ready');
  return watchWrites(qh);
}

test('a job sent while no other is in flight is written to the host at once', async () => {
  const writes = await answeringHost(1);
  const answer = sleep(qh, 0, 'alone');
  // before any await: the write has happened
  expect(writes).toHaveLength(1);
  expect(writes[0]).toHaveLength(1);
  expect(await answer).toBe('alone');
}, SLOW);

test('jobs sent while another is in flight wait for the end of the turn and share one write', async () => {
  const writes = await answeringHost(2);
  const long = sleep(qh, 300, 'long');
  expect(writes).toHaveLength(1);
  const more = [sleep(qh, 0, 'b'), sleep(qh, 0, 'c')];
  expect(writes).toHaveLength(1);
  await endOfTurn();
  expect(writes).toHaveLength(2);
  expect(writes[1]).toHaveLength(2);
  expect(await Promise.all([long, ...more])).toStrictEqual(['long', 'b', 'c']);
}, SLOW);
