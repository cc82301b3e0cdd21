/**
 * The standalone server (lib/server.ts) in a child process of its own, run from the TypeScript
 * source: the child installs the `.ts` loader of source mode (lib/threads/launch.ts), then calls
 * `main()`. Answers once the server prints its URL.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { sourceLoader } from '../../lib/threads/launch';
import { cheapHashesInChild } from './hash-cost';

const ROOT = path.join(__dirname, '..', '..');

/**
 * Makes `require` of a child process load the TypeScript sources: `.ts` files are transpiled as
 * they load (through the transpile cache the query workers use, so that a child transpiles only
 * what changed), and a relative `.js` request falls back to its `.ts` file.
 */
export const TS_LOADER = sourceLoader();

// The server hashes at the tests' cheap cost (hash-cost.ts): its tests are not of the hashing.
const BOOTSTRAP = `${TS_LOADER}
${cheapHashesInChild(ROOT)}
require('./lib/server.ts').main().then((code) => { if (code !== undefined) process.exit(code); });
`;

export interface ServerProcess {
  readonly url: string;
  readonly child: ChildProcess;
  /** Everything the server printed so far. */
  output(): string;
  /** SIGTERM (graceful) or SIGKILL (a crash); resolves when the process has ended. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

export function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['-e', BOOTSTRAP], {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  const ended = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      text += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(text);
      if (match) {
        resolve({
          url: match[1],
          child,
          output: () => text,
          stop: async (signal = 'SIGTERM') => {
            if (child.exitCode === null && child.signalCode === null) child.kill(signal);
            await ended;
          },
        });
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    void ended.then(() => reject(new Error(`the server process ended before listening:\n${text}`)));
  });
}
