/**
 * The order of the suite's test files (scripts/jest-sequencer.js) and the durations it is made
 * from where jest's own cache has none (scripts/test-durations.js): the long files first, also on
 * a fresh clone.
 */
import fs from 'node:fs';
import path from 'node:path';
import { tempDir } from './helpers/temp-dir';

interface Durations {
  recordedDurations(file?: string): Map<string, number>;
  recordDurations(logFile: string, root: string, file?: string): string;
}
interface TestEntry {
  path: string;
  duration?: number;
  context: { config: { rootDir: string; cacheDirectory: string; id: string } };
}
interface Sequencer {
  durations: Map<string, number>;
  sort(tests: TestEntry[]): TestEntry[];
}

const { recordedDurations, recordDurations } = require('../scripts/test-durations') as Durations;
const SuiteSequencer = require('../scripts/jest-sequencer') as new () => Sequencer;

/** A root folder holding `files` (path from the root, and text), with a jest cache folder that holds no timings. */
function project(files: Record<string, string>): { root: string; tests: TestEntry[] } {
  const root = tempDir('xmldb-order-');
  const config = { rootDir: root, cacheDirectory: path.join(root, 'jest-cache'), id: 'order' };
  const tests = Object.entries(files).map(([file, text]) => {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), text);
    return { path: path.join(root, file), context: { config } };
  });
  return { root, tests };
}

const names = (root: string, tests: TestEntry[]) => tests.map((t) => path.relative(root, t.path));

test('without timings of its own, the recorded durations order the files, the longest first; files not recorded go first, the larger first', () => {
  const { root, tests } = project({
    '__tests__/short.test.ts': 'x'.repeat(900),
    '__tests__/long.test.ts': 'x',
    '__tests__/middle.test.ts': 'x',
    '__tests__/new-small.test.ts': 'x'.repeat(10),
    '__tests__/new-large.test.ts': 'x'.repeat(100),
  });
  const sequencer = new SuiteSequencer();
  sequencer.durations = new Map([
    ['__tests__/short.test.ts', 200],
    ['__tests__/long.test.ts', 9000],
    ['__tests__/middle.test.ts', 3000],
  ]);
  const sorted = sequencer.sort(tests);
  expect(names(root, sorted)).toEqual([
    '__tests__/new-large.test.ts',
    '__tests__/new-small.test.ts',
    '__tests__/long.test.ts',
    '__tests__/middle.test.ts',
    '__tests__/short.test.ts',
  ]);
  expect(sorted.map((t) => t.duration)).toEqual([undefined, undefined, 9000, 3000, 200]);
});

test('a run records its wall times into the table, keeps the files it did not run and drops the files that are gone', () => {
  const { root } = project({ '__tests__/a.test.ts': '', '__tests__/b.test.ts': '' });
  const table = path.join(root, 'durations.json');
  fs.writeFileSync(table, JSON.stringify({ '__tests__/a.test.ts': 100, '__tests__/b.test.ts': 200, '__tests__/gone.test.ts': 300 }));
  const log = path.join(root, 'files.jsonl');
  fs.writeFileSync(log, `${JSON.stringify({ file: '__tests__/a.test.ts', wall: 1.234, own: 1, descendants: 0 })}\n`);
  expect(recordDurations(log, root, table)).toBe('test durations: 1 recorded in durations.json (2 files)\n');
  expect(JSON.parse(fs.readFileSync(table, 'utf8'))).toStrictEqual({ '__tests__/a.test.ts': 1234, '__tests__/b.test.ts': 200 });
  expect([...recordedDurations(table)]).toEqual([
    ['__tests__/a.test.ts', 1234],
    ['__tests__/b.test.ts', 200],
  ]);
});
