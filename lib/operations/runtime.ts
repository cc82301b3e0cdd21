/**
 * What one router owns: its options, the store of its data folder and its users. Created once,
 * lazily, on the first request (opening the store and the users file is asynchronous).
 */
import fs from 'node:fs/promises';
import type { ResolvedOptions } from '../options';
import { createFileStore } from '../store';
import type { Store } from '../store/types';
import { generatePassword } from '../users/password';
import { UserStore } from '../users/user-store';

export interface Runtime {
  readonly options: ResolvedOptions;
  readonly store: Store;
  readonly users: UserStore;
}

export async function openRuntime(options: ResolvedOptions): Promise<Runtime> {
  await fs.mkdir(options.dbPath, { recursive: true });
  const store = await createFileStore(options.dbPath);
  const users = await UserStore.open(options.dbPath);
  if (users.get('admin') === undefined) {
    const password = options.adminPassword ?? generatePassword();
    await users.create('admin', password, 'admin');
    if (options.adminPassword === undefined) {
      options.log(`xmldb-rest: created user admin with password ${password} (shown once; set XMLDB_ADMIN_PASSWORD to choose it)`);
    }
  }
  return { options, store, users };
}

export async function closeRuntime(runtime: Runtime): Promise<void> {
  await runtime.store.close();
}
