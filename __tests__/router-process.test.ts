/**
 * A router in a Node process of its own, run from the sources, with nothing else holding the
 * process open: what its main thread has loaded after the requests of a day's work, and whether
 * code awaiting `close()` runs on once it has closed.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { sourceLoader } from '../lib/threads/launch';
import { tempDir } from './helpers/temp-dir';

const run = promisify(execFile);
const ROOT = path.join(__dirname, '..');

/**
 * Runs a router on a new data folder behind an HTTP server, sends the requests, closes the
 * server, then the router; answers what the process printed: a line of JSON with the answers and
 * whether saxon-js was loaded before closing, and `closed` if the code after `close()` ran.
 */
async function runRouter(requests: readonly { url: string; init?: RequestInit }[]): Promise<string> {
  const script = `${sourceLoader()}
const express = projectRequire('express');
const { createRestRouter } = projectRequire(${JSON.stringify(path.join(ROOT, 'lib', 'index.ts'))});
(async () => {
  const rest = createRestRouter({ dbPath: ${JSON.stringify(path.join(tempDir('router-process-'), 'data'))}, adminPassword: 'pw' });
  const app = express();
  app.use('/rest', rest);
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const base = 'http://127.0.0.1:' + server.address().port + '/rest';
  const headers = { Authorization: 'Basic ' + Buffer.from('admin:pw').toString('base64') };
  const answers = [];
  for (const { url, init = {} } of ${JSON.stringify(requests)}) {
    const response = await fetch(base + url, { ...init, headers: { ...headers, ...init.headers } });
    answers.push(response.status + ' ' + (await response.text()).replace(/[0-9.]+ ms/, 'N ms'));
  }
  // loaded from the code cache (saxon/code-cache.ts), saxon-js is not in require.cache: ask its loader
  const saxon = projectRequire(${JSON.stringify(path.join(ROOT, 'lib', 'saxon', 'load.ts'))}).saxonLoaded() || Object.keys(require.cache).some((file) => file.includes('saxon-js'));
  process.stdout.write(JSON.stringify({ answers, saxon }) + '\\n');
  await new Promise((resolve) => server.close(resolve));
  await rest.close();
  process.stdout.write('closed\\n');
})();
`;
  return (await run(process.execPath, ['-e', script], { cwd: ROOT })).stdout;
}

const command = (text: string) => ({ url: `?command=${encodeURIComponent(text)}` });

test('requests to a database leave saxon-js out of the main thread, and code awaiting close() runs on', async () => {
  const printed = await runRouter([
    command('CREATE DB db'),
    { url: '/db/a.xml', init: { method: 'PUT', headers: { 'Content-Type': 'application/xml' }, body: '<a><b>1</b></a>' } },
    { url: `/db?query=${encodeURIComponent('//b/text()')}` },
    { url: '/db/a.xml' },
    command('XQUERY 1 + 1'),
  ]);
  const [report, ...rest] = printed.split('\n');
  expect(JSON.parse(report)).toStrictEqual({ answers: ['200 ', '201 Resource(s) added in N ms.', '200 1', '200 <a><b>1</b></a>', '200 2'], saxon: false });
  // the query host had started: closing ends its process, and the close settles
  expect(rest).toStrictEqual(['closed', '']);
}, 60_000);
