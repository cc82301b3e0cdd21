/**
 * The server sends a stylesheet's text to its query host only while the host does not hold its
 * compilation (engine/query-host.ts); then a run names it by compile key, and a host that no
 * longer holds it asks for the text (host-process.ts `needsText`).
 */
import type { ChildProcess } from 'node:child_process';
import { compileKey } from '../../../lib/xquery/compile-key';
import { QueryHost } from '../../../lib/xquery/engine/query-host';
import type { ToHost } from '../../../lib/xquery/protocol/host-protocol';
import { select } from '../worker/helpers';

const MAIN = 'main';
type RunMessage = Extract<ToHost, { run: number }>;

/** The run messages sent to the host's current process from now on. */
function watchRuns(qh: QueryHost): RunMessage[] {
  const child = (qh as unknown as { host: { process: ChildProcess } | null }).host?.process;
  if (!child) throw new Error('The query host has no process.');
  const runs: RunMessage[] = [];
  const send = child.send.bind(child) as (messages: ToHost[]) => boolean;
  jest.spyOn(child, 'send').mockImplementation(((messages: ToHost[]) => {
    for (const m of messages) if ('run' in m) runs.push(m);
    return send(messages);
  }) as unknown as ChildProcess['send']);
  return runs;
}

/** Whether each run message carries the stylesheet's text or its key only. */
const carried = (runs: RunMessage[]) => runs.map((r) => (r.job.xslt === '' ? `key ${r.job.xsltKey}` : 'text'));

let qh: QueryHost;
afterEach(async () => {
  await qh?.close();
});

test('a stylesheet the host holds crosses by its compile key only', async () => {
  qh = new QueryHost({ size: 1 });
  const job = { xslt: select('"same"'), initialTemplate: MAIN };
  expect((await qh.run(job)).body).toBe('same');
  const runs = watchRuns(qh);
  expect((await qh.run(job)).body).toBe('same');
  expect((await qh.run({ ...job, params: {} })).body).toBe('same');
  expect(carried(runs)).toStrictEqual([`key ${compileKey(job.xslt)}`, `key ${compileKey(job.xslt)}`]);
  // another stylesheet still carries its text, once
  const other = { xslt: select('"other"'), initialTemplate: MAIN };
  expect((await qh.run(other)).body).toBe('other');
  expect((await qh.run(other)).body).toBe('other');
  expect(carried(runs).slice(2)).toStrictEqual(['text', `key ${compileKey(other.xslt)}`]);
});

test('a host that does not hold the compilation a key names asks for the text, and the run is answered', async () => {
  qh = new QueryHost({ size: 1 });
  // a compilation that runs out of time is not kept by the host, though its run was answered
  const xslt = select('string-join((1 to 20) ! string(. * 3), ",")');
  await expect(qh.run({ xslt, initialTemplate: MAIN, compileTimeoutMs: 1 })).rejects.toMatchObject({ code: 'BASX0003' });
  const runs = watchRuns(qh);
  const out = await qh.run({ xslt, initialTemplate: MAIN });
  expect(out.body).toBe('3,6,9,12,15,18,21,24,27,30,33,36,39,42,45,48,51,54,57,60');
  expect(carried(runs)).toStrictEqual([`key ${compileKey(xslt)}`, 'text']);
  expect(new Set(runs.map((r) => r.run)).size).toBe(1); // one job, sent again
  // held now: by key again
  expect((await qh.run({ xslt, initialTemplate: MAIN })).body).toBe(out.body);
  expect(carried(runs)[2]).toBe(`key ${compileKey(xslt)}`);
});

test('a new host process holds no compilation: the first run after a restart carries the text', async () => {
  qh = new QueryHost({ size: 1 });
  const job = { xslt: select('"again"'), initialTemplate: MAIN };
  expect((await qh.run(job)).body).toBe('again');
  const old = (qh as unknown as { host: { process: ChildProcess } }).host.process;
  const ended = new Promise((resolve) => old.once('close', resolve));
  old.kill('SIGKILL');
  await ended;
  expect(qh.restarts).toBe(1);
  const runs = watchRuns(qh); // the process started in its place
  expect((await qh.run(job)).body).toBe('again');
  expect(carried(runs)).toStrictEqual(['text']);
});
