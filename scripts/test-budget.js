// `node scripts/test-budget.js SECONDS [RUNS]`: prints the time budget of `npm test` for this machine
// (.ci/run holds the suite to it): SECONDS on a machine as fast as the one the budget was set on,
// more on a slower one. The speed is that of a fixed single-threaded workload of the kinds of work
// the suite does most (building objects, JSON, sorting strings, regular expressions), its best of
// RUNS runs (default five) against REFERENCE_MS; a faster machine keeps SECONDS, so that drift is
// caught there too.
'use strict';

/**
 * The workload's best time on the machine the budget was set on (an idle 2-core VM, Node 20,
 * 2026-12-06: 185-187 ms in three runs), where a fresh clone's `npm test` took 134 s.
 */
const REFERENCE_MS = 186;

function workload() {
  let sum = 0;
  for (let round = 0; round < 40; round++) {
    const rows = [];
    for (let i = 0; i < 5000; i++) rows.push({ id: i, name: `item-${(i * 7919) % 10007}`, price: ((i * 37) % 1000) / 10, tags: ['a', 'b', String(i % 13)] });
    const text = JSON.stringify(rows);
    const back = JSON.parse(text);
    back.sort((x, y) => (x.name < y.name ? -1 : x.name > y.name ? 1 : 0));
    for (const r of back) if (/-1\d*7$/.test(r.name)) sum += r.price;
    sum += text.length;
  }
  return sum;
}

/** The workload's best time of `runs`, in milliseconds. */
function bestTime(runs = 5) {
  let best = Infinity;
  for (let k = 0; k < runs; k++) {
    const started = performance.now();
    workload();
    best = Math.min(best, performance.now() - started);
  }
  return best;
}

/** `seconds` scaled by how much slower than the reference this machine ran the workload (never less). */
function budget(seconds, measuredMs = bestTime()) {
  return Math.ceil(seconds * Math.max(1, measuredMs / REFERENCE_MS));
}

if (require.main === module) {
  const seconds = Number(process.argv[2]);
  const runs = process.argv[3] === undefined ? 5 : Number(process.argv[3]);
  if (!(seconds > 0) || !Number.isInteger(runs) || runs < 1) {
    process.stderr.write('usage: node scripts/test-budget.js SECONDS [RUNS]\n');
    process.exit(2);
  }
  const measured = bestTime(runs);
  process.stderr.write(`test budget: workload ${measured.toFixed(0)} ms against ${REFERENCE_MS} ms on the reference machine\n`);
  process.stdout.write(`${budget(seconds, measured)}\n`);
}

module.exports = { budget, REFERENCE_MS };
