/**
 * The query host processes that one jest worker keeps between test files (query-host.ts
 * KeptHosts): a test file's idle hosts hand their processes here when the file ends
 * (shared-hosts.ts, this folder), and the next file's hosts with equal settings take them up,
 * ready and with warm workers, rather than each file starting its own (a process, then worker
 * threads loading saxon-js and the runtime library). Created once per jest worker by the test
 * environment (query-host-environment.ts), whose module outlives the files' module registries.
 */
import type { ChildProcess } from 'node:child_process';
import type { KeptHosts } from '../../lib/xquery/engine/kept-hosts';

/** The global through which a test file reaches its jest worker's kept processes. */
export const KEPT_HOSTS = '__xmldbKeptHosts';

/**
 * Processes kept at most, the least recently kept ended first: each holds a process and its warm
 * workers (about 200 MB). With 4, 10 of the 25 files of a run that found no process of their
 * settings had had one ended to make room (2026-12-06); 8 per jest worker, 32 in all, fit a
 * machine of this suite's size.
 */
const MOST = 8;

export class KeptHostProcesses implements KeptHosts {
  /** Settings key and process, least recently kept first. */
  private readonly kept: { readonly settings: string; readonly process: ChildProcess }[] = [];

  take(settings: string): ChildProcess | undefined {
    const i = this.kept.findIndex((k) => k.settings === settings && alive(k.process));
    if (i < 0) return undefined;
    const [{ process }] = this.kept.splice(i, 1);
    process.off('exit', this.forget);
    return process;
  }

  keep(settings: string, process: ChildProcess): void {
    if (!alive(process)) return;
    process.unref();
    process.channel?.unref();
    process.once('exit', this.forget);
    this.kept.push({ settings, process });
    while (this.kept.length > MOST) end(this.kept.shift()?.process);
  }

  /** The process ids of the kept processes, least recently kept first. */
  get pids(): (number | undefined)[] {
    return this.kept.map(({ process }) => process.pid);
  }

  /** Ends every kept process (a test that counts the host processes of its own). */
  async endAll(): Promise<void> {
    await Promise.all(this.kept.splice(0).map(({ process }) => end(process)));
  }

  /** Drops a process that ended while kept ('exit': its streams, paused while kept, never close). */
  private readonly forget = () => {
    for (let i = this.kept.length - 1; i >= 0; i--) if (!alive(this.kept[i].process)) this.kept.splice(i, 1);
  };
}

function alive(process: ChildProcess): boolean {
  return process.exitCode === null && process.signalCode === null && process.connected;
}

function end(process: ChildProcess | undefined): Promise<void> {
  if (!process || process.exitCode !== null || process.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    process.once('exit', () => resolve());
    process.kill('SIGKILL');
  });
}
