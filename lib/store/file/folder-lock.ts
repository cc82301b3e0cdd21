/**
 * The exclusive lock of a data folder: one store (one router, in one process) at a time. A second
 * opener would replay the first one's commit journals and sweep its temp files while its writes
 * are in flight, so it must fail before it touches anything.
 *
 * The lock is decided by the kernel, not by process ids: the holder listens on a Unix domain socket
 * in the folder (lock-socket.ts), which the kernel closes when the holder ends, however it ends. A
 * socket file nobody listens on refuses connections and is stale; a pid that is alive again (a
 * reused pid, pid 1 of every container start) or a zombie plays no part.
 *
 * Taking the lock, race-free without any atomic "replace if stale":
 *   1. listen on a socket under a private name `.lock-{token}.new.`, then publish it under its own
 *      public name `.lock-{token}.` with link() (so a published socket listens from its first
 *      instant: a refused connect to it proves its process gone);
 *   2. list the folder and connect to every other published socket: a refused one is removed (its
 *      unique name is never reused, so removing it cannot remove a live one); one that answers that
 *      it holds the folder refuses the open; one that answers that it is contending too makes this
 *      contender withdraw (close and remove its socket) and try again after a random pause;
 *   3. with no other live socket, this process holds the folder.
 * Two contenders never both hold: if one's listing missed the other's socket, that socket was
 * published after the listing began, so after the first one's own publication, and the other's
 * listing (which follows its publication) finds the first one's socket, live (a live socket is
 * never removed). Both may withdraw; they retry at random times until one holds.
 *
 * Processes of another kernel (another machine on a network file system) cannot be checked
 * through sockets: the record in `.lock.` is their lease (lock-holder.ts), honoured until it
 * expires. Two machines starting on the same folder in the same instant are not told apart.
 *
 * A folder whose file system cannot hold socket files keeps its sockets in a short private folder
 * of the temporary folder instead, named by the data folder's device and inode
 * (`{tmp}/xmldb-rest-locks-{uid}/{dev}-{ino}`): every process of the machine that shares that
 * temporary folder sees them, containers with temporary folders of their own do not.
 *
 * On Windows, where a local socket is a named pipe outside the file system, the lock is the pipe
 * `\\.\pipe\xmldb-rest-{dev}-{ino}`: creating it fails while another process has it, and it
 * ends with its process.
 */
import { randomBytes } from 'node:crypto';
import fsSync from 'node:fs';
import fs from 'node:fs/promises';
import type net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { raise } from '../../xmldb-error';
import { errorCode } from '../../atomic-files';
import { STORE_ERRORS } from '../store-errors';
import { LEASE_MS, leaseLeft, parseHolder, readRecord, removeRecordSync, renewRecord, thisProcess, writeRecord, type Holder } from './lock-holder';
import { closeServer, listenOn, probe, withShortFolder } from './lock-socket';

export { LOCK_FILE } from './lock-holder';

/** A published socket (`.lock-{16 characters}.`) and one not yet published (`….new.`). */
const PUBLISHED = /^\.lock-[A-Za-z0-9_-]{16}\.$/;
const UNPUBLISHED = /^\.lock-[A-Za-z0-9_-]{16}\.new\.$/;
/** A record being written (lock-holder.ts). */
const RECORD_TEMP = /^\.lock\.[A-Za-z0-9_-]{12}\.new\.$/;
const NAME_LENGTH = '.lock-0123456789abcdef.new.'.length;

/** Rounds of contention before giving up (each after a random pause of up to 10 ms per round). */
const ROUNDS = 20;

export interface FolderLock {
  /** Stops holding the folder (its socket and record are removed). */
  release(): Promise<void>;
}

/** Takes the lock of `dbPath` (which must exist) or throws `FOLDER_LOCKED_XXX`. */
export async function lockFolder(dbPath: string): Promise<FolderLock> {
  const me = thisProcess();
  if (process.platform === 'win32') return lockByPipe(dbPath, me);
  const sockets = await socketFolder(dbPath);
  for (let round = 1; round <= ROUNDS; round++) {
    const lease = await readRecord(dbPath);
    if (lease !== undefined && leaseLeft(lease) > 0) throw locked(dbPath, lease.holder, leaseLeft(lease));
    const taken = await contend(dbPath, sockets, me);
    if (taken === 'unknown' && round === ROUNDS) throw locked(dbPath, undefined, 0);
    if (taken !== 'withdrew' && taken !== 'unknown') return hold(dbPath, me, taken);
    await sleep(Math.random() * 10 * round);
  }
  throw raise(STORE_ERRORS, 'FOLDER_LOCKED_XXX', dbPath, 'other processes starting on it at the same time', 'Start again once they have started or stopped.');
}

/** A published socket of this process. */
interface Published {
  readonly server: net.Server;
  /** Its socket file (none for a named pipe). */
  readonly file: string | undefined;
  /** Whether the socket answers that it holds the folder. */
  held: boolean;
}

/**
 * One round of steps 1 to 3 in `folder`: the published socket that holds the folder, 'withdrew',
 * or 'unknown' when a live socket gave no answer that names its process. That happens to a
 * contender that withdrew while this one connected (its connection is reset or ended empty), so
 * it is tried again; a socket that never answers is refused after the last round.
 */
async function contend(dbPath: string, folder: string, me: Holder): Promise<Published | 'withdrew' | 'unknown'> {
  const token = randomBytes(12).toString('base64url');
  const publicName = `.lock-${token}.`;
  const own = await withShortFolder(folder, NAME_LENGTH, async (short) => {
    const privateFile = path.join(folder, `${publicName}new.`);
    const publicFile = path.join(folder, publicName);
    const published: Published = {
      file: publicFile,
      held: false,
      server: await listenOn(path.join(short, `${publicName}new.`), () => JSON.stringify({ ...me, held: published.held })),
    };
    try {
      await fs.link(privateFile, publicFile);
      return published;
    } catch (error) {
      // ENOENT: another contender found it not yet listening and removed it
      await closeServer(published.server);
      if (errorCode(error) === 'ENOENT') return undefined;
      throw error;
    } finally {
      await fs.rm(privateFile, { force: true });
    }
  });
  if (own === undefined) return 'withdrew';
  let silent = false;
  try {
    const others = (await fs.readdir(folder)).filter((name) => name !== publicName && (PUBLISHED.test(name) || UNPUBLISHED.test(name)));
    let contending = false;
    for (const name of others) {
      const found = await withShortFolder(folder, NAME_LENGTH, (short) => probe(path.join(short, name)));
      if (found.state === 'stale') await fs.rm(path.join(folder, name), { force: true });
      // an unpublished socket is no holder yet: its owner lists this one after publishing its own
      if (found.state !== 'live' || UNPUBLISHED.test(name)) continue;
      const holder = found.answer === undefined ? undefined : parseHolder(found.answer);
      if (holder?.held) throw locked(dbPath, holder, 0);
      if (holder === undefined) silent = true;
      else contending = true;
    }
    if (!contending && !silent) return own;
  } catch (error) {
    await unpublish(own);
    throw error;
  }
  await unpublish(own);
  return silent ? 'unknown' : 'withdrew';
}

async function unpublish(own: Published): Promise<void> {
  own.held = false;
  await closeServer(own.server);
  if (own.file !== undefined) await fs.rm(own.file, { force: true });
}

/** Holds the folder with `own`: records it, renews the record, releases on close or exit. */
async function hold(dbPath: string, me: Holder, own: Published): Promise<FolderLock> {
  own.held = true;
  try {
    for (const name of await fs.readdir(dbPath)) {
      if (RECORD_TEMP.test(name)) await fs.rm(path.join(dbPath, name), { force: true });
    }
    await writeRecord(dbPath, me);
  } catch (error) {
    await unpublish(own);
    throw error;
  }
  let renewing: Promise<void> = Promise.resolve();
  const renew = setInterval(() => {
    // A failed renewal is tried again at the next one; the lease outlasts three of them.
    renewing = renewing.then(() => renewRecord(dbPath, me)).catch(() => undefined);
  }, LEASE_MS / 4);
  renew.unref();
  const onExit = (): void => {
    if (own.file !== undefined) fsSync.rmSync(own.file, { force: true });
    removeRecordSync(dbPath, me);
  };
  atExit.add(onExit);
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.once('exit', () => atExit.forEach((fn) => fn()));
  }
  let released: Promise<void> | undefined;
  return {
    release: () =>
      (released ??= (async () => {
        clearInterval(renew);
        atExit.delete(onExit);
        await renewing;
        removeRecordSync(dbPath, me);
        await unpublish(own);
      })()),
  };
}

/**
 * What an exit without release removes: the socket files and records of the folders held. (The
 * kernel closes the sockets anyway; this only spares the next opener the clean-up.)
 */
const atExit = new Set<() => void>();
let exitHookInstalled = false;

/** The lock as a named pipe (Windows): the first process to create it holds the folder. */
async function lockByPipe(dbPath: string, me: Holder): Promise<FolderLock> {
  const lease = await readRecord(dbPath);
  if (lease !== undefined && leaseLeft(lease) > 0) throw locked(dbPath, lease.holder, leaseLeft(lease));
  const { dev, ino } = await fs.stat(dbPath, { bigint: true });
  const pipe = `\\\\.\\pipe\\xmldb-rest-${dev}-${ino}`;
  let server: net.Server;
  try {
    server = await listenOn(pipe, () => JSON.stringify({ ...me, held: true }));
  } catch (error) {
    if (errorCode(error) !== 'EADDRINUSE') throw error;
    const found = await probe(pipe);
    throw locked(dbPath, found.state === 'live' && found.answer !== undefined ? parseHolder(found.answer) : undefined, 0);
  }
  return hold(dbPath, me, { server, file: undefined, held: true });
}

/**
 * The folder that keeps the lock's sockets: the data folder, or where its file system cannot hold
 * socket files, a private folder of the temporary folder named by its device and inode.
 */
async function socketFolder(dbPath: string): Promise<string> {
  const name = `.lock-${randomBytes(12).toString('base64url')}.new.`;
  try {
    await withShortFolder(dbPath, NAME_LENGTH, async (short) => closeServer(await listenOn(path.join(short, name), () => '')));
    return dbPath;
  } catch (error) {
    if (errorCode(error) === 'EACCES') throw error;
    const { dev, ino } = await fs.stat(dbPath, { bigint: true });
    const folder = path.join(os.tmpdir(), `xmldb-rest-locks-${os.userInfo().uid}`, `${dev}-${ino}`);
    await fs.mkdir(folder, { recursive: true, mode: 0o700 });
    return folder;
  } finally {
    await fs.rm(path.join(dbPath, name), { force: true });
  }
}

/** The error of a folder held by `holder` (undefined: a process that did not say who it is). */
function locked(dbPath: string, holder: Holder | undefined, leaseMs: number): Error {
  if (holder === undefined) {
    return raise(
      STORE_ERRORS,
      'FOLDER_LOCKED_XXX',
      dbPath,
      'a running process that did not say which',
      `Stop the other server on this folder first (on Linux, ss -xlp | grep '${path.join(dbPath, '.lock-')}' names it). ${NOTHING_TO_REMOVE}`,
    );
  }
  const since = holder.since === undefined ? '' : `, holding it since ${holder.since}`;
  if (leaseMs > 0) {
    const seconds = Math.ceil(leaseMs / 1000);
    const renewed = holder.renewed === undefined ? '' : `, lease renewed at ${new Date(holder.renewed).toISOString()}`;
    return raise(
      STORE_ERRORS,
      'FOLDER_LOCKED_XXX',
      dbPath,
      `process ${holder.pid} on ${holder.host} (another machine${since}${renewed})`,
      `Stop that server first. If it has stopped, or its machine is down or no longer uses this folder, start again in ${seconds} s, when its lease has expired. ${NOTHING_TO_REMOVE}`,
    );
  }
  const self = holder.pid === process.pid && holder.host === os.hostname();
  return raise(
    STORE_ERRORS,
    'FOLDER_LOCKED_XXX',
    dbPath,
    `process ${holder.pid} on ${holder.host}${since}${self ? ' (this very process)' : ''}`,
    self
      ? `Close the router of this process that has it open first. ${NOTHING_TO_REMOVE}`
      : `Stop that server first (check it on ${holder.host} with: ps -p ${holder.pid}). ${NOTHING_TO_REMOVE}`,
  );
}

const NOTHING_TO_REMOVE = 'Nothing needs removing: the lock ends with its process, so a server that crashed or was killed never blocks a restart.';
