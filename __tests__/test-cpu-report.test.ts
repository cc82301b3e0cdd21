/**
 * `npm test -- --cpu-report`: the per-file CPU log of the test environment (helpers/file-cpu.ts)
 * and its report (scripts/test-cpu-report.js).
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { cpuTimes, FileCpuMeter } from './helpers/file-cpu';
import { tempDir } from './helpers/temp-dir';

const { cpuReport } = require('../scripts/test-cpu-report') as { cpuReport: (log: string, top: number) => string };

const onLinux = fs.existsSync('/proc/self/stat');

(onLinux ? test : test.skip)('a file is charged the CPU of the processes it started, ended ones included', () => {
  const dir = tempDir();
  try {
    const log = path.join(dir, 'files.jsonl');
    const meter = new FileCpuMeter(log, '__tests__/x.test.ts');
    meter.start();
    // a child that keeps a core busy for 300 ms of its own CPU time, then ends
    const burn = 'const u = () => { const c = process.cpuUsage(); return (c.user + c.system) / 1000; }; while (u() < 300);';
    expect(spawnSync(process.execPath, ['-e', burn]).status).toBe(0);
    meter.end();
    const [line, ...rest] = fs.readFileSync(log, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
    expect(rest).toEqual([]);
    expect(line.file).toBe('__tests__/x.test.ts');
    expect(line.descendants).toBeGreaterThanOrEqual(0.25);
    expect(line.wall).toBeGreaterThanOrEqual(0.25);
    expect(line.own).toBeGreaterThanOrEqual(0);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

(onLinux ? test : test.skip)("the running processes' time counts too", () => {
  const before = cpuTimes()!;
  const burn = 'const u = () => { const c = process.cpuUsage(); return (c.user + c.system) / 1000; }; while (u() < 200); setInterval(() => {}, 1000);';
  const child = spawn(process.execPath, ['-e', burn]);
  try {
    for (const end = Date.now() + 10_000; cpuTimes()!.descendants - before.descendants < 0.15; ) {
      expect(Date.now()).toBeLessThan(end);
      spawnSync('sleep', ['0.05']);
    }
  } finally {
    child.kill();
  }
});

test('the report lists the costliest files first, then the sums', () => {
  const dir = tempDir();
  try {
    const log = path.join(dir, 'files.jsonl');
    const lines = [
      { file: 'a.test.ts', wall: 2, own: 1, descendants: 0.5 },
      { file: 'b.test.ts', wall: 9, own: 3, descendants: 4 },
      { file: 'c.test.ts', wall: 1, own: 0.2, descendants: 0 },
    ];
    fs.writeFileSync(log, lines.map((l) => `${JSON.stringify(l)}\n`).join(''));
    expect(cpuReport(log, 2)).toBe(
      [
        'cpu report: 3 test files, CPU seconds (own: the jest worker; children: the processes it started)',
        '    cpu    own  child   wall  file',
        '    7.0    3.0    4.0    9.0  b.test.ts',
        '    1.5    1.0    0.5    2.0  a.test.ts',
        '    8.7    4.2    4.5   12.0  all 3 files',
        '',
      ].join('\n'),
    );
    expect(cpuReport(path.join(dir, 'none.jsonl'), 2)).toBe('cpu report: no file was measured (Linux only: /proc)\n');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
