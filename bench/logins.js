// `npm run build && node bench/logins.js`: 300 wrong-password requests at once against the
// standalone server, while an admin (logged in before) reads a resource in a loop; prints the
// answers to the guesses and the slowest admin read. Failed logins are throttled per client and
// name, scrypt runs one at a time and a proven login costs no scrypt, so reads stay fast.
'use strict';
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { startServer } = require('../dist/server');

const PASSWORD = 'bench-admin';
const basic = (user, password) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'xmldb-bench-logins-'));
  const settings = { port: 0, host: '127.0.0.1', dbPath: path.join(dir, 'data'), restPath: path.join(dir, 'rp'), adminPassword: PASSWORD };
  const server = await startServer(settings, () => undefined);
  const admin = { Authorization: basic('admin', PASSWORD) };
  try {
    await fetch(`${server.url}/db`, { method: 'PUT', headers: { ...admin, 'Content-Type': 'application/xml' }, body: '<a>x</a>' });
    await fetch(`${server.url}/db/db.xml`, { headers: admin });

    let attacking = true;
    const latencies = [];
    const reader = (async () => {
      while (attacking) {
        const start = performance.now();
        const res = await fetch(`${server.url}/db/db.xml`, { headers: admin });
        await res.text();
        if (res.status !== 200) throw new Error(`admin read: ${res.status}`);
        latencies.push(performance.now() - start);
      }
    })();
    const started = performance.now();
    const statuses = await Promise.all(
      Array.from({ length: 300 }, (_, i) =>
        fetch(`${server.url}/db/db.xml`, { headers: { Authorization: basic(i % 2 ? 'admin' : `user${i}`, `guess${i}`) } }).then(async (r) => {
          await r.text();
          return r.status;
        }),
      ),
    );
    const attack = performance.now() - started;
    attacking = false;
    await reader;
    const counts = statuses.reduce((m, s) => ({ ...m, [s]: (m[s] ?? 0) + 1 }), {});
    latencies.sort((a, b) => a - b);
    console.log(`300 wrong-password requests answered in ${attack.toFixed(0)} ms: ${JSON.stringify(counts)}`);
    console.log(
      `admin reads meanwhile: ${latencies.length}, p50 ${latencies[Math.floor(latencies.length / 2)].toFixed(1)} ms, max ${latencies[latencies.length - 1].toFixed(1)} ms`,
    );
  } finally {
    await server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
