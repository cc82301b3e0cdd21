// `npm test -- --cpu-report[=N]` (scripts/test.js): what each test file cost, from the log the
// test environment writes (__tests__/helpers/file-cpu.ts), printed as the N files (default 20)
// that took the most CPU, their jest worker's own time beside their child processes' time, and
// the sums. With the machine's busy time over the run (/proc/stat), which also holds what no file
// accounts for: jest's own process, the PostgreSQL cluster, other programs.
'use strict';
const fs = require('node:fs');

/** The machine's busy and idle time so far, in seconds (Linux); undefined elsewhere. */
function machineTimes() {
  try {
    const fields = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    const idle = fields[3] + fields[4]; // idle, iowait
    return { busy: (fields.reduce((a, b) => a + b, 0) - idle) / 100, idle: idle / 100 };
  } catch {
    return undefined;
  }
}

/**
 * The entries of the CPU log `logFile` (__tests__/helpers/file-cpu.ts: a JSON line per test file,
 * `{ file, wall, own, descendants }`), or undefined when no file was measured (Linux only: /proc).
 */
function readCpuLog(logFile) {
  try {
    return fs.readFileSync(logFile, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
  } catch {
    return undefined;
  }
}

/** The report of `logFile` (one JSON line per file), the `top` costliest files first. */
function cpuReport(logFile, top, machineBefore, machineAfter) {
  const lines = readCpuLog(logFile);
  if (lines === undefined) return 'cpu report: no file was measured (Linux only: /proc)\n';
  const cost = (l) => l.own + l.descendants;
  lines.sort((a, b) => cost(b) - cost(a));
  const sum = (key) => lines.reduce((s, l) => s + l[key], 0);
  const s = (n) => n.toFixed(1).padStart(7);
  const out = [`cpu report: ${lines.length} test files, CPU seconds (own: the jest worker; children: the processes it started)`, `${'cpu'.padStart(7)}${'own'.padStart(7)}${'child'.padStart(7)}${'wall'.padStart(7)}  file`];
  for (const l of lines.slice(0, top)) out.push(`${s(cost(l))}${s(l.own)}${s(l.descendants)}${s(l.wall)}  ${l.file}`);
  out.push(`${s(sum('own') + sum('descendants'))}${s(sum('own'))}${s(sum('descendants'))}${s(sum('wall'))}  all ${lines.length} files`);
  if (machineBefore && machineAfter) {
    out.push(`machine: ${(machineAfter.busy - machineBefore.busy).toFixed(1)} s busy, ${(machineAfter.idle - machineBefore.idle).toFixed(1)} s idle over the run (all cores)`);
  }
  return `${out.join('\n')}\n`;
}

module.exports = { cpuReport, machineTimes, readCpuLog };
