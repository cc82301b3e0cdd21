/**
 * The built-in `admin` user of a fresh data folder or store (spec §13.2). Its password is the
 * configured one, or a generated one written to a file only the server's user can read: the log
 * names the file, never the password (logs are collected and kept where secrets should not be).
 * A store that has an `admin` keeps it: the configured password does not replace its password.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { XmldbError } from '../errors';
import type { Logger } from '../logger';
import { generatePassword } from './password';
import type { UserStore } from './user-store';

export const ADMIN_PASSWORD_FILE = 'admin-password.txt';

/**
 * Writes the password to disk before the user exists: a crash in between leaves a file whose
 * password no user has, and the next start writes a new one; never a user whose password was lost.
 */
async function writeSecret(file: string, secret: string): Promise<void> {
  const handle = await fs.open(file, 'w', 0o600);
  try {
    await handle.chmod(0o600); // an older file may have had another mode
    await handle.writeFile(`${secret}\n`);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

export async function ensureAdmin(
  users: UserStore,
  dbPath: string,
  adminPassword: string | undefined,
  logger: Logger,
): Promise<void> {
  if (users.get('admin') !== undefined) return;
  if (adminPassword !== undefined) {
    await createAdmin(users, adminPassword);
    return;
  }
  const password = generatePassword();
  const file = path.join(dbPath, ADMIN_PASSWORD_FILE);
  await writeSecret(file, password);
  if (!(await createAdmin(users, password))) return;
  logger.warn(`xmldb-rest: created user admin; its password is in ${file} (readable by this user only; set XMLDB_ADMIN_PASSWORD to choose it)`);
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
