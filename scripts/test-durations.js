// The recorded durations of the test files, scripts/test-durations.json: each file's wall time in
// milliseconds in a whole `npm test` run, by its path from the root. jest's order
// (scripts/jest-sequencer.js) takes them for files its own cache has no time for, as on a fresh
// clone; `npm test -- --record-durations` (scripts/test.js) records them again.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { readCpuLog } = require('./test-cpu-report');

const DURATIONS_FILE = path.join(__dirname, 'test-durations.json');

/** The recorded durations (ms) by test file path from the root; empty when there is no table. */
function recordedDurations(file = DURATIONS_FILE) {
  try {
    return new Map(Object.entries(JSON.parse(fs.readFileSync(file, 'utf8'))));
  } catch {
    return new Map();
  }
}

/**
 * Merges the wall times of the CPU log `logFile` (test-cpu-report.js `readCpuLog`, paths from
 * `root`) into the table `file`, drops the files that no longer exist, and
 * writes it sorted by path; answers what it did, as a line for the run's output.
 */
function recordDurations(logFile, root, file = DURATIONS_FILE) {
  const runs = readCpuLog(logFile);
  if (runs === undefined) return 'test durations: no file was measured (Linux only: /proc)\n';
  const table = recordedDurations(file);
  for (const { file: test, wall } of runs) table.set(test, Math.round(wall * 1000));
  const kept = [...table].filter(([test]) => fs.existsSync(path.join(root, test))).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const temp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temp, `${JSON.stringify(Object.fromEntries(kept), null, 1)}\n`);
  fs.renameSync(temp, file);
  return `test durations: ${runs.length} recorded in ${path.relative(root, file)} (${kept.length} files)\n`;
}

module.exports = { recordedDurations, recordDurations };
