/**
 * A child process that takes a data folder's lock (lib/store/file/folder-lock.ts) and keeps it until it
 * is killed: a real holder whose death only the kernel sees. The lock's modules are transformed
 * once per test file into a temporary folder (as jest's transformer does per file), so that each
 * child is a bare `node` start (tens of milliseconds) rather than one that loads a transformer.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { transform } from 'sucrase';
import { SOURCE_TRANSFORM } from '../../lib/threads/launch';
import { tempDir } from './rest';

const ROOT = path.join(__dirname, '..', '..');

/** Transpiles `entry` (a path below the root) and every module it imports by relative path. */
function transpileClosure(entry: string, out: string): void {
  const pending = [path.join(ROOT, entry)];
  const done = new Set<string>();
  while (pending.length > 0) {
    const file = pending.pop() as string;
    if (done.has(file)) continue;
    done.add(file);
    const js = transform(fs.readFileSync(file, 'utf8'), { ...SOURCE_TRANSFORM, transforms: [...SOURCE_TRANSFORM.transforms], filePath: file }).code;
    // the modules it imports by relative path, as CommonJS requires
    for (const [, request] of js.matchAll(/\brequire\('(\.{1,2}\/[^']+)'\)/g)) pending.push(path.resolve(path.dirname(file), `${request}.ts`));
    const target = path.join(out, path.relative(ROOT, file)).replace(/\.ts$/, '.js');
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, js);
  }
}

let compiled: string | undefined;

/**
 * The script a child runs: `node script DBPATH [wait]` (wait: take the lock on the line "go").
 * It prints `pid N` and `ready` at once, then `locked` or (on stderr) the refusal.
 */
function holderScript(): string {
  if (compiled === undefined) {
    const out = tempDir('xmldb-lock-js-');
    transpileClosure('lib/store/file/folder-lock.ts', out);
    compiled = path.join(out, 'holder.js');
    fs.writeFileSync(
      compiled,
      `'use strict';
const { lockFolder } = require('./lib/store/file/folder-lock.js');
const [dbPath, mode] = process.argv.slice(2);
const take = () => lockFolder(dbPath).then(
  () => { process.stdout.write('locked\\n'); setInterval(() => undefined, 1 << 30); },
  (e) => { process.stderr.write(e.message + '\\n'); process.exit(3); },
);
if (mode === 'wait') process.stdin.once('data', take); else take();
process.stdout.write('pid ' + process.pid + '\\nready\\n');
`,
    );
  }
  return compiled;
}

export interface LockProcess {
  /** The holder, or with `unreaped` the shell that started it (then `sleep`). */
  readonly child: ChildProcess;
  /** The holder's pid (once ready). */
  pid(): number;
  /** Resolves with 'locked', or with the message of a refused lock (the child then exits 3). */
  readonly outcome: Promise<string>;
  /** Resolves once the child runs (in wait mode: waits for `go()`). */
  readonly ready: Promise<void>;
  /** Lets a child started in wait mode take the lock. */
  go(): void;
  /**
   * Kills the holder with SIGKILL; resolves when it has ended (with `unreaped`: when it is a
   * zombie, ended but not reaped by its parent).
   */
  kill(): Promise<void>;
  /** Ends the shell of an `unreaped` holder (its zombie is then reaped by init). */
  dispose(): void;
}

/**
 * Starts a holder. With `unreaped`, its parent is a shell that starts it in the background and
 * becomes `sleep`, which never waits for it: killed, it stays a zombie (Linux).
 */
export function startLockProcess(dbPath: string, options: { wait?: boolean; unreaped?: boolean } = {}): LockProcess {
  const args = [holderScript(), dbPath, ...(options.wait ? ['wait'] : [])];
  const stdio: ['pipe', 'pipe', 'pipe'] = ['pipe', 'pipe', 'pipe'];
  const child = options.unreaped
    ? spawn('sh', ['-c', '"$0" "$@" & exec sleep 600', process.execPath, ...args], { stdio })
    : spawn(process.execPath, args, { stdio });
  let out = '';
  let err = '';
  const ended = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('ready\n')) resolve();
    });
    void ended.then(() => reject(new Error(`the lock process ended: ${err}`)));
  });
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const outcome = new Promise<string>((resolve, reject) => {
    child.stdout.on('data', () => {
      if (out.includes('locked\n')) resolve('locked');
    });
    void ended.then(() => (child.exitCode === 3 ? resolve(err.trim()) : reject(new Error(`the lock process ended (${child.exitCode ?? child.signalCode}): ${err}`))));
  });
  ready.catch(() => undefined);
  outcome.catch(() => undefined);
  const pid = (): number => Number(/^pid (\d+)$/m.exec(out)?.[1]);
  return {
    child,
    pid,
    outcome,
    ready,
    go: () => child.stdin.write('go\n'),
    kill: async () => {
      if (options.unreaped) {
        process.kill(pid(), 'SIGKILL');
        await becomesZombie(pid());
        return;
      }
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await ended;
    },
    dispose: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    },
  };
}

/** Resolves once process `pid` is a zombie (state Z in /proc/PID/stat); at most 1,000 looks. */
async function becomesZombie(pid: number): Promise<void> {
  for (let look = 0; look < 1000; look++) {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    if (stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error(`process ${pid} did not become a zombie`);
}
