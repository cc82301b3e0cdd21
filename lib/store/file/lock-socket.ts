/**
 * Unix domain sockets as liveness markers for the data folder lock (folder-lock.ts): a socket file
 * answers a `connect` while its process listens on it, and the kernel closes it when that process
 * ends, however it ends (SIGKILL, OOM killer, a node that fails). A connect to a socket file that
 * no process listens on is refused (ECONNREFUSED): the file is stale, whatever pid or host name it
 * was created by.
 *
 * A socket address holds at most 107 bytes on Linux (103 on macOS and the BSDs). A socket in a
 * deeper folder is bound and reached through a short alias: a symbolic link to the folder in a
 * private temporary folder of its own (mode 0700), removed as soon as the call is done. The
 * kernel follows the link when it resolves the address, so the socket file is created in the
 * folder itself, where every process that opens the folder sees it (a chdir would change the whole
 * process's working folder, which a library must not do).
 */
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { errorCode } from '../../atomic-files';

/** Longest socket address, in bytes (sockaddr_un's sun_path less its terminating NUL). */
const MAX_ADDRESS = process.platform === 'linux' ? 107 : 103;

/** How long a listening socket may take to answer a probe before it counts as an unknown holder. */
const ANSWER_MS = 2_000;

/** What a probe of a socket file found. */
export type Probe =
  | { readonly state: 'live'; readonly answer: string | undefined }
  /** Refused: no process listens on it (its holder ended), or it is not a socket this kernel serves. */
  | { readonly state: 'stale' }
  /** Removed while being probed. */
  | { readonly state: 'gone' };

/**
 * Runs `fn` with a folder path under which a socket named with at most `nameLength` bytes has an
 * address short enough: `folder` itself, or a short alias of it.
 */
export async function withShortFolder<T>(folder: string, nameLength: number, fn: (short: string) => Promise<T>): Promise<T> {
  if (Buffer.byteLength(folder) + 1 + nameLength <= MAX_ADDRESS) return fn(folder);
  const alias = await fs.mkdtemp(path.join(os.tmpdir(), 'xmldb-rest-'));
  try {
    const short = path.join(alias, 'd');
    if (Buffer.byteLength(short) + 1 + nameLength > MAX_ADDRESS) {
      throw new Error(`The temporary folder '${os.tmpdir()}' is too deep for a socket address; set TMPDIR to a shorter one.`);
    }
    await fs.symlink(folder, short, 'dir');
    return await fn(short);
  } finally {
    await fs.rm(alias, { recursive: true, force: true });
  }
}

/**
 * Listens on a new socket file at `address` (which must not exist) and answers every connection
 * with `answer()`. The server does not keep the process alive.
 */
export async function listenOn(address: string, answer: () => string): Promise<net.Server> {
  const server = net.createServer((socket) => {
    socket.on('error', () => undefined); // a prober that went away
    socket.end(answer());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(address, () => {
      server.off('error', reject);
      resolve();
    });
  });
  server.unref();
  return server;
}

/** Stops listening (the socket file itself is the caller's to remove). */
export function closeServer(server: net.Server): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}

/** Connects to the socket file at `address` and reads its answer. */
export function probe(address: string): Promise<Probe> {
  return new Promise((resolve) => {
    const socket = net.connect(address);
    let text = '';
    let connected = false;
    const done = (result: Probe): void => {
      clearTimeout(timer);
      socket.destroy();
      resolve(result);
    };
    // A holder whose event loop is busy still holds its socket: it counts as live.
    const timer = setTimeout(() => done({ state: 'live', answer: undefined }), ANSWER_MS);
    timer.unref();
    socket.setEncoding('utf8');
    socket.on('connect', () => (connected = true));
    socket.on('data', (chunk: string) => (text += chunk));
    socket.on('end', () => done({ state: 'live', answer: text }));
    socket.on('error', (error) => {
      const code = errorCode(error);
      if (!connected && code === 'ECONNREFUSED') done({ state: 'stale' });
      else if (!connected && code === 'ENOENT') done({ state: 'gone' });
      // anything else (a full backlog, no permission, a reset) cannot prove the holder gone
      else done({ state: 'live', answer: text || undefined });
    });
  });
}
