// Runs the workloads (workloads.js) against several servers, alternating as the kit does: for each
// workload and round, a warm-up and a measured run on each server in turn, so all see the same
// machine state. Answers the metrics with every round's figures per server.
'use strict';
const fs = require('node:fs');
const { setup, sizes, workloads, loadData } = require('./workloads');

const log = (...a) => console.error(`[${new Date().toISOString().slice(11, 19)}]`, ...a);

/** The pids of each pid's process tree (a server and its query-host children), read from /proc. */
function processTrees(pids) {
  const children = new Map();
  for (const d of fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const stat = fs.readFileSync(`/proc/${d}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(parent, [...(children.get(parent) ?? []), Number(d)]);
    } catch {
      // the process ended meanwhile
    }
  }
  const all = [];
  const todo = [...pids];
  while (todo.length) {
    const pid = todo.pop();
    all.push(pid);
    todo.push(...(children.get(pid) ?? []));
  }
  return all;
}

/**
 * Resident memory of each pid's process tree in MB: VmRSS summed over the tree (a server and its
 * query-host children together), the summed VmHWM (each process's own peak, so an upper bound of
 * the tree's peak), and the VmRSS of the largest process (what the kit's compare.mjs reports).
 */
function memory(pids) {
  let rss = 0;
  let peak = 0;
  let largest = 0;
  let seen = false;
  for (const pid of processTrees(pids)) {
    try {
      const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
      const kb = (name) => Number((new RegExp(`${name}:\\s+(\\d+)`).exec(status) ?? [0, 0])[1]);
      rss += kb('VmRSS');
      peak += kb('VmHWM');
      largest = Math.max(largest, kb('VmRSS'));
      seen = true;
    } catch {
      // the process ended meanwhile
    }
  }
  return seen
    ? { rss: { value: rss / 1024, errors: 0 }, 'rss.peak': { value: peak / 1024, errors: 0 }, 'rss.largest': { value: largest / 1024, errors: 0 } }
    : undefined;
}

/** CPU time (user + system) of the process trees of `pids` so far, in ms. */
function cpuMs(pids) {
  let ticks = 0;
  for (const pid of processTrees(pids)) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(f[11]) + Number(f[12]);
    } catch {
      // the process ended meanwhile
    }
  }
  return ticks * 10; // USER_HZ is 100 on Linux
}

/**
 * Waits until the process trees of `pids` are quiet (under 10 ms of CPU in a 250 ms window), at
 * most `maxMs`: after a heavy query a server's query host may still be collecting its garbage,
 * and a short request measured meanwhile would time that work, not its own. Answers the ms waited.
 */
async function settle(pids, maxMs = 15_000) {
  const start = Date.now();
  if (pids.length === 0 || !fs.existsSync('/proc/self/stat')) return 0;
  let before = cpuMs(pids);
  while (Date.now() - start < maxMs) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    const now = cpuMs(pids);
    if (now - before < 10) break;
    before = now;
  }
  return Date.now() - start;
}

/**
 * targets: from client.js `target()`; files: generate.js output; options: { rounds, quick, only }.
 * Answers [{ id, title, unit, better, rounds: { [target name]: [figures] } }] in the kit's order.
 */
async function measure(targets, files, { rounds, quick, only }) {
  const P = sizes(quick);
  const metrics = new Map();
  const record = (defs, name, out) => {
    for (const [id, figures] of Object.entries(out)) {
      if (!metrics.has(id)) metrics.set(id, { id, ...defs[id], rounds: Object.fromEntries(targets.map((t) => [t.name, []])) });
      metrics.get(id).rounds[name].push(figures);
      if (figures.errors) log(`  ${id} on ${name}: ${figures.errors} failed request(s): ${figures.firstError}`);
    }
  };
  const defs = (table) => Object.fromEntries(Object.entries(table).map(([id, [title, unit, better]]) => [id, { title, unit, better }]));
  const setupDefs = defs({ setup: ['setup: PUT items.xml (10 MB) into a new db', 's', 'lower'] });
  for (const t of targets) {
    log(`setup ${t.name} (${t.url})`);
    record(setupDefs, t.name, await setup(t, files));
  }
  const data = loadData(files);
  for (const w of workloads(P, data)) {
    if (only && !only.test(w.id)) continue;
    for (let round = 1; round <= rounds; round++) {
      for (const t of targets) {
        log(`${w.id} round ${round}/${rounds} on ${t.name}`);
        record(defs(w.metrics), t.name, await w.run(t, round));
      }
    }
  }
  const memoryDefs = defs({ rss: ['RSS of the server and its child processes after all workloads', 'MB', 'lower'], 'rss.peak': ['peak RSS of the server and its child processes (summed VmHWM)', 'MB', 'lower'], 'rss.largest': ['RSS of the largest process after all workloads (as the kit counts)', 'MB', 'lower'] });
  for (const t of targets) {
    const m = t.pids.length ? memory(t.pids) : undefined;
    if (m) record(memoryDefs, t.name, m);
  }
  return [...metrics.values()];
}

module.exports = { measure, memory, settle, log };
