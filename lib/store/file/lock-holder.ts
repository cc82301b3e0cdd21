/**
 * Who holds a data folder (folder-lock.ts): the record its holder answers on its socket and keeps
 * in the file `{dbPath}/.lock.`, and the lease that record gives a holder on another machine.
 *
 * The record names the process (pid, host name, start of the hold) for messages only, and the
 * kernel it runs on. Processes of one kernel see one another's sockets, so among them the sockets
 * alone decide. A process of another kernel (another machine sharing the folder over a network file
 * system, or a volume moved to another machine) cannot be checked that way: its socket files are
 * refused here whether it runs or not. Its record is a lease instead, renewed by the holder every
 * LEASE_MS / 4 and honoured until LEASE_MS after its last renewal; after that the folder is taken over.
 * The renewal time is the holder's clock: clocks must agree within the lease.
 */
import { randomBytes } from 'node:crypto';
import fsSync from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { errorCode } from '../../atomic-files';

export const LOCK_FILE = '.lock.';

/** How long a holder of another kernel is honoured after its last renewal. */
export const LEASE_MS = 60_000;

export interface Holder {
  readonly pid: number;
  readonly host: string;
  /** The kernel the holder runs on (kernelId()); absent in records of versions before leases. */
  readonly kernel?: string;
  /** When the hold began (ISO 8601). */
  readonly since?: string;
  /** When the lease was last renewed (ms since the epoch). */
  readonly renewed?: number;
  /** Set in a socket's answer once its process holds the folder, not while it is contending. */
  readonly held?: boolean;
}

let kernel: string | undefined;

/**
 * The identity of the running kernel: Linux's boot id, shared by every container of a machine and
 * new on every boot; elsewhere the host name.
 */
export function kernelId(): string {
  if (kernel === undefined) {
    try {
      kernel = `boot:${fsSync.readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim()}`;
    } catch {
      kernel = `host:${os.hostname()}`;
    }
  }
  return kernel;
}

/** This process as a holder. */
export function thisProcess(): Holder {
  return { pid: process.pid, host: os.hostname(), kernel: kernelId(), since: new Date().toISOString() };
}

/** Parses a record; undefined if it is not one (a torn write, or not a record at all). */
export function parseHolder(text: string): Holder | undefined {
  try {
    const h = JSON.parse(text) as Partial<Holder>;
    if (typeof h.pid === 'number' && typeof h.host === 'string') return h as Holder;
  } catch {
    // not JSON
  }
  return undefined;
}

/** The record in the folder's lock file, with the file's modification time; undefined if none. */
export async function readRecord(dbPath: string): Promise<{ holder: Holder; mtimeMs: number } | undefined> {
  const file = path.join(dbPath, LOCK_FILE);
  try {
    const [text, stat] = await Promise.all([fs.readFile(file, 'utf8'), fs.stat(file)]);
    const holder = parseHolder(text);
    return holder && { holder, mtimeMs: stat.mtimeMs };
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return undefined;
    throw error;
  }
}

/**
 * Milliseconds left of the lease of a record written on another kernel; 0 for a record of this
 * kernel (its socket decides) or an expired lease. A record without a kernel (an older version)
 * counts as this kernel's when it names this host, and as renewed when the file was last written.
 */
export function leaseLeft(record: { holder: Holder; mtimeMs: number }, now = Date.now()): number {
  const { holder } = record;
  const sameKernel = holder.kernel === undefined ? holder.host === os.hostname() : holder.kernel === kernelId();
  if (sameKernel) return 0;
  return Math.max(0, (holder.renewed ?? record.mtimeMs) + LEASE_MS - now);
}

/**
 * Writes the record (renewed now) in place of the lock file: a new file renamed over it, so that a
 * reader never sees half of it.
 */
export async function writeRecord(dbPath: string, holder: Holder): Promise<void> {
  const temp = path.join(dbPath, `${LOCK_FILE}${randomBytes(9).toString('base64url')}.new.`);
  try {
    await fs.writeFile(temp, JSON.stringify({ ...holder, renewed: Date.now(), held: undefined }), { mode: 0o600 });
    await fs.rename(temp, path.join(dbPath, LOCK_FILE));
  } finally {
    await fs.rm(temp, { force: true });
  }
}

/**
 * Renews the record of `holder`, unless the lock file records another holder now: one of another
 * machine that took the folder over after this holder's lease ran out (its process was suspended
 * or cut off for longer than the lease) must not be overwritten.
 */
export async function renewRecord(dbPath: string, holder: Holder): Promise<void> {
  const found = await readRecord(dbPath);
  if (found === undefined || isRecordOf(found.holder, holder)) await writeRecord(dbPath, holder);
}

/** Removes the lock file if it still records `holder`. */
export function removeRecordSync(dbPath: string, holder: Holder): void {
  const file = path.join(dbPath, LOCK_FILE);
  try {
    const found = parseHolder(fsSync.readFileSync(file, 'utf8'));
    if (found && isRecordOf(found, holder)) fsSync.rmSync(file, { force: true });
  } catch {
    // already gone
  }
}

/** Whether a record read is the one of `holder` (same pid, host and start). */
function isRecordOf(found: Holder, holder: Holder): boolean {
  return found.pid === holder.pid && found.host === holder.host && found.since === holder.since;
}
