/**
 * The built-in `admin` user of a fresh data folder or store (spec §13.2). Its password is the
 * configured one, or a generated one written to a file only the server's user can read: the log
 * names the file, never the password (logs are collected and kept where secrets should not be).
 * A store that has an `admin` keeps it: the configured password does not replace its password.
 * Once admin's password is changed (`ALTER PASSWORD admin`, `PASSWORD`), the file would hold a
 * password nobody has: it is removed.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { XmldbError } from '../xmldb-error';
import type { Logger } from '../logger';
import { errorCode, fsyncDir } from '../atomic-files';
import { generatePassword, verifyPassword } from './password';
import type { UserStore } from './user-store';
import { ADMIN_PASSWORD_FILE } from '../store/resource-names';

export { ADMIN_PASSWORD_FILE };

/** Where a generated password waits while `admin` is created: one file per attempt. */
const PENDING = `${ADMIN_PASSWORD_FILE}.pending-`;

/**
 * Writes the password to disk before the user exists: a crash in between leaves a pending file
 * whose password no user has, and the next start removes it; never a user whose password was lost.
 */
async function writeSecret(file: string, secret: string): Promise<void> {
  const handle = await fs.open(file, 'wx', 0o600);
  try {
    await handle.writeFile(`${secret}\n`);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Settles the pending files a start left behind (a crash, or a race lost to another server on
 * the same store): the one whose password is admin's becomes the password file, the others go.
 */
async function settlePending(users: UserStore, dbPath: string): Promise<void> {
  const admin = users.get('admin');
  const names = (await fs.readdir(dbPath).catch((error: unknown) => {
    if (errorCode(error) === 'ENOENT') return []; // a store kept elsewhere may have no folder here
    throw error;
  })).filter((name) => name.startsWith(PENDING));
  for (const name of names) {
    const file = path.join(dbPath, name);
    const secret = (await fs.readFile(file, 'utf8')).trim();
    if (admin !== undefined && (await verifyPassword(secret, admin.password))) {
      await fs.rename(file, path.join(dbPath, ADMIN_PASSWORD_FILE));
      await fsyncDir(dbPath);
    } else {
      await fs.rm(file, { force: true });
    }
  }
}

export async function ensureAdmin(
  users: UserStore,
  dbPath: string,
  adminPassword: string | undefined,
  logger: Logger,
): Promise<void> {
  users.onPasswordChanged((name) => (name === 'admin' ? removePasswordFile(dbPath, logger) : Promise.resolve()));
  if (users.get('admin') !== undefined) return settlePending(users, dbPath);
  if (adminPassword !== undefined) {
    await createAdmin(users, adminPassword);
    return;
  }
  // The password file is named only once `admin` has this password: on a store shared by several
  // servers (PostgreSQL), the one that loses the race to create `admin` must not leave a file
  // whose password no user has.
  const password = generatePassword();
  const pending = path.join(dbPath, `${PENDING}${randomUUID()}`);
  await writeSecret(pending, password);
  if (!(await createAdmin(users, password))) {
    await fs.rm(pending, { force: true });
    logger.warn('xmldb-rest: user admin was created by another server sharing the store; its password file is beside that server');
    return;
  }
  const file = path.join(dbPath, ADMIN_PASSWORD_FILE);
  await fs.rename(pending, file);
  await fsyncDir(dbPath);
  logger.warn(`xmldb-rest: created user admin; its password is in ${file} (readable by this user only; set the adminPassword option or XMLDB_ADMIN_PASSWORD to choose it)`);
}

/** Removes the generated password's file, if there is one. */
async function removePasswordFile(dbPath: string, logger: Logger): Promise<void> {
  const file = path.join(dbPath, ADMIN_PASSWORD_FILE);
  try {
    await fs.rm(file);
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return;
    throw error;
  }
  await fsyncDir(dbPath);
  logger.info(`xmldb-rest: the password of admin changed; removed ${file}`);
}

/** Creates `admin`; answers false if another server sharing the store created it first. */
async function createAdmin(users: UserStore, password: string): Promise<boolean> {
  try {
    await users.create('admin', password, 'admin');
    return true;
  } catch (error) {
    if (error instanceof XmldbError && error.code === 'USER_EXISTS_X') return false;
    throw error;
  }
}
