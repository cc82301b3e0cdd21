/**
 * The server's main thread runs no query and parses no stored XML itself, so it never loads
 * saxon-js (about 30 MiB of resident memory, lib/saxon/xdm.ts): checked in a process of its own,
 * from the sources, after the requests of a day's work.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { sourceLoader } from '../lib/threads/launch';
import { tempDir } from './helpers/temp-dir';

const run = promisify(execFile);
const ROOT = path.join(__dirname, '..');

const SCRIPT = (dbPath: string) => `${sourceLoader()}
const express = projectRequire('express');
const { createRestRouter } = projectRequire(${JSON.stringify(path.join(ROOT, 'lib', 'index.ts'))});
(async () => {
  const rest = createRestRouter({ dbPath: ${JSON.stringify(dbPath)}, adminPassword: 'pw' });
  const app = express();
  app.use('/rest', rest);
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const base = 'http://127.0.0.1:' + server.address().port + '/rest';
  const headers = { Authorization: 'Basic ' + Buffer.from('admin:pw').toString('base64') };
  const answers = [];
  const ask = async (url, init = {}) => {
    const response = await fetch(base + url, { ...init, headers: { ...headers, ...init.headers } });
    answers.push(response.status + ' ' + (await response.text()).replace(/[0-9.]+ ms/, 'N ms'));
  };
  await ask('?command=' + encodeURIComponent('CREATE DB db'));
  await ask('/db/a.xml', { method: 'PUT', headers: { 'Content-Type': 'application/xml' }, body: '<a><b>1</b></a>' });
  await ask('/db?query=' + encodeURIComponent('//b/text()'));
  await ask('/db/a.xml');
  await ask('?command=' + encodeURIComponent('XQUERY 1 + 1'));
  const saxon = Object.keys(require.cache).some((file) => file.includes('saxon-js'));
  // written before closing: close() keeps nothing alive, and the process may end before it settles
  process.stdout.write(JSON.stringify({ answers, saxon }));
  server.close();
  await rest.close();
})();
`;

test('requests to a database leave saxon-js out of the main thread', async () => {
  const { stdout } = await run(process.execPath, ['-e', SCRIPT(path.join(tempDir('main-thread-'), 'data'))], { cwd: ROOT });
  expect(JSON.parse(stdout)).toStrictEqual({
    answers: ['200 ', '201 Resource(s) added in N ms.', '200 1', '200 <a><b>1</b></a>', '200 2'],
    saxon: false,
  });
}, 60_000);
