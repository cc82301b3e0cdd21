// `npm run bench:upload`: how long other requests wait while large bodies arrive. Starts the
// standalone server (dist/); a second process sends a 20 MB XML PUT and a 20 MB POST from a user
// without permissions while this one sends a small query every 20 ms and prints the worst and
// median latency of those small queries. (The uploads run in their own process so that sending
// them does not hold up the measuring one.)
'use strict';
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { fork } = require('node:child_process');
const { PASSWORD, startServer } = require('./processes');

const auth = (user, pw) => `Basic ${Buffer.from(`${user}:${pw}`).toString('base64')}`;
const ADMIN = auth('admin', PASSWORD);

function bigXml(bytes) {
  const item = '<item id="1"><name>some name</name><value>12345</value></item>';
  return `<root>${item.repeat(Math.ceil(bytes / item.length))}</root>`;
}

/** The uploading process: both uploads at once, then their statuses to the parent. */
async function upload(url) {
  const body = Buffer.from(bigXml(20 * 1024 * 1024));
  const postBody = Buffer.from(`<query><text>1</text><!--${body}--></query>`);
  process.send({ ready: true });
  await new Promise((resolve) => process.once('message', resolve));
  const t0 = performance.now();
  const [put, post] = await Promise.all([
    fetch(`${url}/db/big.xml`, { method: 'PUT', body, headers: { Authorization: ADMIN, 'Content-Type': 'application/xml' } }),
    fetch(`${url}/db`, { method: 'POST', body: postBody, headers: { Authorization: auth('nobody', 'pw'), 'Content-Type': 'application/xml' } }).catch((e) => ({ status: String(e.cause?.code ?? e) })),
  ]);
  process.send({ put: put.status, post: post.status, ms: performance.now() - t0 });
}

async function main() {
  const dbPath = fs.mkdtempSync(path.join(os.tmpdir(), 'xmldb-bench-'));
  const { child, url } = await startServer(dbPath);
  try {
    const call = (p, init = {}) => fetch(`${url}${p}`, { ...init, headers: { Authorization: ADMIN, ...init.headers } });
    await call('/db', { method: 'PUT' });
    await call('?command=' + encodeURIComponent('CREATE USER nobody pw'));
    await (await call('?query=1')).text(); // a worker is ready
    const uploader = fork(__filename, ['upload', url]);
    await new Promise((resolve) => uploader.once('message', resolve));
    const done = new Promise((resolve) => uploader.once('message', resolve));
    const latencies = [];
    let uploading = true;
    const probe = (async () => {
      while (uploading) {
        const t0 = performance.now();
        await (await call('?query=1')).text();
        latencies.push(performance.now() - t0);
        await new Promise((r) => setTimeout(r, 20));
      }
    })();
    uploader.send('go');
    const result = await done;
    uploading = false;
    await probe;
    uploader.kill();
    latencies.sort((a, b) => a - b);
    console.log(`PUT ${result.put}, POST ${result.post}, both answered in ${result.ms.toFixed(0)} ms`);
    console.log(`small queries meanwhile: ${latencies.length}, median ${latencies[latencies.length >> 1].toFixed(1)} ms, worst ${latencies[latencies.length - 1].toFixed(1)} ms`);
  } finally {
    child.kill();
    fs.rmSync(dbPath, { recursive: true, force: true });
  }
}

(process.argv[2] === 'upload' ? upload(process.argv[3]) : main()).catch((e) => {
  console.error(e);
  process.exit(1);
});
