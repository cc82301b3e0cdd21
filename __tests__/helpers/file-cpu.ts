/**
 * What each test file costs, for `npm test -- --cpu-report` (scripts/test.js): the test
 * environment (query-host-environment.ts) reads this process's CPU time and that of its
 * descendants (query hosts, servers, builds, the browser) when a file starts and when it ends,
 * and appends one JSON line per file to the log named by CPU_LOG_ENV.
 *
 * On a 2-core machine the suite is bound by CPU, not by waiting, so a file's wall time says
 * little: it grows with whatever the other jest workers run beside it. CPU time does not.
 * Linux only (/proc): elsewhere nothing is logged.
 *
 * A descendant's time counts in the file during which it was spent. A process that ends is
 * counted through its parent's total of waited-for children; one whose parent ended first is
 * lost (rare: the query hosts and servers are children of the jest worker).
 */
import fs from 'node:fs';

/** The environment variable naming the log (scripts/test.js sets it). */
export const CPU_LOG_ENV = 'XMLDB_TEST_CPU_LOG';

/** CPU time in seconds: this process's own, and its descendants' (ended and running). */
export interface CpuTimes {
  readonly own: number;
  readonly descendants: number;
}

interface ProcStat {
  readonly ppid: number;
  /** Ticks in user and system mode. */
  readonly own: number;
  /** Ticks of the waited-for children, in user and system mode. */
  readonly children: number;
}

/** Clock ticks per second of /proc's times (USER_HZ, 100 on Linux). */
const TICKS = 100;

function procStat(pid: string): ProcStat | undefined {
  let text: string;
  try {
    text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined; // ended meanwhile, or no /proc
  }
  // proc(5): the fields after the command name, which is in parentheses and may hold spaces
  const f = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return { ppid: Number(f[1]), own: Number(f[11]) + Number(f[12]), children: Number(f[13]) + Number(f[14]) };
}

/** This process's CPU times now, or undefined where /proc cannot tell. */
export function cpuTimes(): CpuTimes | undefined {
  const self = procStat('self');
  if (self === undefined) return undefined;
  const byParent = new Map<number, string[]>();
  for (const pid of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    const stat = procStat(pid);
    if (stat === undefined) continue;
    const siblings = byParent.get(stat.ppid);
    if (siblings) siblings.push(pid);
    else byParent.set(stat.ppid, [pid]);
  }
  let descendants = self.children;
  const stack = [...(byParent.get(process.pid) ?? [])];
  for (let pid = stack.pop(); pid !== undefined; pid = stack.pop()) {
    const stat = procStat(pid);
    if (stat !== undefined) descendants += stat.own + stat.children;
    stack.push(...(byParent.get(Number(pid)) ?? []));
  }
  return { own: self.own / TICKS, descendants: descendants / TICKS };
}

/** One line of the log: a test file, its wall time and the CPU it took, in seconds. */
export interface FileCpu {
  readonly file: string;
  readonly wall: number;
  readonly own: number;
  readonly descendants: number;
}

/** Measures one test file: `start` when it begins, `end` when it ends (appends its line). */
export class FileCpuMeter {
  private started: { readonly at: number; readonly cpu: CpuTimes } | undefined;

  constructor(
    private readonly log: string,
    private readonly file: string,
  ) {}

  start(): void {
    const cpu = cpuTimes();
    this.started = cpu && { at: performance.now(), cpu };
  }

  end(): void {
    const cpu = cpuTimes();
    if (this.started === undefined || cpu === undefined) return;
    const line: FileCpu = {
      file: this.file,
      wall: round((performance.now() - this.started.at) / 1000),
      own: round(cpu.own - this.started.cpu.own),
      descendants: round(cpu.descendants - this.started.cpu.descendants),
    };
    fs.appendFileSync(this.log, `${JSON.stringify(line)}\n`);
  }
}

const round = (seconds: number) => Math.round(seconds * 100) / 100;
