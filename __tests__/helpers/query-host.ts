/** The query host processes (xquery/engine/query-host.ts) this test process has started, found in Linux's /proc. */
import fs from 'node:fs';

/** Process ids of the running children of this process whose command line names the host's module. */
export function hostPids(): number[] {
  const pids: number[] = [];
  for (const task of fs.readdirSync(`/proc/${process.pid}/task`)) {
    const children = fs.readFileSync(`/proc/${process.pid}/task/${task}/children`, 'utf8').trim();
    for (const pid of children ? children.split(/\s+/).map(Number) : []) {
      try {
        if (fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('host-process')) pids.push(pid);
      } catch {
        // ended meanwhile
      }
    }
  }
  return pids;
}
