/**
 * CI's time budget of `npm test` (scripts/test-budget.js, .ci/run): the given seconds on a machine
 * as fast as the reference one or faster, scaled up by how much slower a machine ran the workload.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const { budget, REFERENCE_MS } = require('../scripts/test-budget') as { budget: (seconds: number, measuredMs: number) => number; REFERENCE_MS: number };
const SCRIPT = path.join(__dirname, '..', 'scripts', 'test-budget.js');

test('keeps the budget on a machine as fast as the reference or faster, and scales it on a slower one', () => {
  expect(budget(150, REFERENCE_MS)).toBe(150);
  expect(budget(150, REFERENCE_MS / 2)).toBe(150);
  expect(budget(150, REFERENCE_MS * 2)).toBe(300);
  expect(budget(150, REFERENCE_MS * 3.5)).toBe(525);
  expect(budget(150, REFERENCE_MS * 1.001)).toBe(151); // rounded up, never below the work's share
});

test('the command prints a whole number of seconds, at least the one given, and refuses a missing one or a bad count of runs', () => {
  // one run of the workload (CI takes the best of five): this checks the command, not the machine
  const run = spawnSync(process.execPath, [SCRIPT, '150', '1'], { encoding: 'utf8' });
  expect(run.status).toBe(0);
  expect(run.stdout).toMatch(/^\d+\n$/);
  expect(Number(run.stdout)).toBeGreaterThanOrEqual(150);
  expect(run.stderr).toMatch(/^test budget: workload \d+ ms against \d+ ms on the reference machine\n$/);
  for (const args of [[], ['150', '0'], ['150', 'x']]) {
    const refused = spawnSync(process.execPath, [SCRIPT, ...args], { encoding: 'utf8' });
    expect([refused.status, refused.stdout, refused.stderr]).toEqual([2, '', 'usage: node scripts/test-budget.js SECONDS [RUNS]\n']);
  }
});
