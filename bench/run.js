// `npm run bench`: starts the standalone server on generated data and measures it with
// autocannon. Results go to bench/results/latest.md.
'use strict';
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const autocannon = require('autocannon');
const { generate } = require('./generate');
const { PASSWORD, startServer } = require('./server');

const AUTH = `Basic ${Buffer.from(`admin:${PASSWORD}`).toString('base64')}`;
const DURATION = Number(process.env.BENCH_DURATION ?? 10);

async function call(url, method, body, type = 'application/xml') {
  const res = await fetch(url, { method, body, headers: { Authorization: AUTH, 'Content-Type': type } });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${text}`);
  return text;
}

function cannon(opts) {
  return new Promise((resolve, reject) => {
    autocannon({ connections: 10, duration: DURATION, ...opts, headers: { Authorization: AUTH, ...(opts.headers ?? {}) } }, (err, res) =>
      err ? reject(err) : resolve(res),
    );
  });
}

function row(name, r) {
  const errors = r.non2xx + r.errors;
  return `| ${name} | ${r.requests.average.toFixed(0)} | ${r.latency.p50} | ${r.latency.p99} | ${errors} |`;
}

/** Warm-up, then the measured run. */
async function measure(name, opts) {
  await cannon({ ...opts, duration: 2 });
  const r = await cannon(opts);
  console.log(`${name}: ${r.requests.average.toFixed(0)} req/s, p50 ${r.latency.p50} ms, p99 ${r.latency.p99} ms, errors ${r.non2xx + r.errors}`);
  return row(name, r);
}

async function main() {
  const dataDir = path.join(__dirname, 'data');
  const files = generate(dataDir);
  const dbPath = fs.mkdtempSync(path.join(os.tmpdir(), 'xmldb-bench-'));
  const { child, url } = await startServer(dbPath);
  const rows = [];
  try {
    await call(`${url}/bench`, 'PUT');
    await call(`${url}/bench/doc-100kb.xml`, 'PUT', fs.readFileSync(files['doc-100kb.xml']));
    await call(`${url}/items`, 'PUT', fs.readFileSync(files['items-10mb.xml']));

    rows.push(await measure('GET 100 KB resource', { url: `${url}/bench/doc-100kb.xml` }));
    const doc10 = fs.readFileSync(files['doc-10kb.xml']);
    let n = 0;
    rows.push(
      await measure('PUT 10 KB to new paths', {
        url: `${url}/bench`,
        method: 'PUT',
        headers: { 'Content-Type': 'application/xml' },
        body: doc10,
        requests: [{ setupRequest: (req) => ({ ...req, path: `/rest/bench/new/${n++}.xml` }) }],
      }),
    );
    rows.push(await measure('GET ?query=1+1', { url: `${url}?query=1%2B1` }));
    rows.push(await measure('count(//item), 10 MB database', { url: `${url}/items?query=${encodeURIComponent('count(//item)')}` }));
    rows.push(await measure('sum(//price), 10 MB database', { url: `${url}/items?query=${encodeURIComponent('sum(//price)')}` }));
  } finally {
    await new Promise((resolve) => {
      child.once('exit', resolve);
      child.kill('SIGTERM');
    });
  }
  const inProcess = require('./engine').measureEngine(files);
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  const report = [
    `# Benchmark results`,
    '',
    `Date: ${new Date().toISOString()}; machine: ${os.cpus().length} cores (${cpu}), Node ${process.version}.`,
    `autocannon, 10 connections, ${DURATION} s per row after a 2 s warm-up; standalone server (\`node dist/bin.js\`).`,
    '',
    '| workload | req/s | p50 ms | p99 ms | errors |',
    '|---|---|---|---|---|',
    ...rows,
    '',
    'In-process (engine facade with one worker thread; `bench/engine.js`):',
    '',
    '| measure | value |',
    '|---|---|',
    ...(await inProcess).map(([name, value]) => `| ${name} | ${value} |`),
    '',
  ].join('\n');
  fs.mkdirSync(path.join(__dirname, 'results'), { recursive: true });
  fs.writeFileSync(path.join(__dirname, 'results', 'latest.md'), report);
  fs.rmSync(dbPath, { recursive: true, force: true });
  console.log(`written: bench/results/latest.md`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
