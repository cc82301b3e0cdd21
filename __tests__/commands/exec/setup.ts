/** One-line helpers for executor tests: a fresh data folder, store, users and REST path per test. */
import { parseQuery } from '../../../lib/xquery/language/syntax';
import { analyzeModule, type UpdateAnalysis } from '../../../lib/xquery/language/analysis/updating';
import fs from 'node:fs/promises';
import { executeCommands, type CommandEnvironment, type CommandState } from '../../../lib/commands/exec';
import { parseScript } from '../../../lib/commands/script';
import { XmldbError } from '../../../lib/xmldb-error';
import { createFileStore } from '../../../lib/store/file/file-store';
import type { Store } from '../../../lib/store/types';
import type { Permission } from '../../../lib/users/permissions';
import { UserStore, type User } from '../../../lib/users/user-store';
import '../../helpers/fast-hashes';
import { rejection } from '../../helpers/failure';
import { tempDir } from '../../helpers/temp-dir';

export interface Fixture {
  readonly dbPath: string;
  readonly restPath: string;
  readonly store: Store;
  readonly users: UserStore;
  readonly admin: User;
  /** Environment of `user` (default admin); `extra` overrides fields. */
  env(user?: User, extra?: Partial<CommandEnvironment>): CommandEnvironment;
  /** Runs a script (string or XML syntax) as admin, or with the given environment and state. */
  run(script: string, options?: { env?: CommandEnvironment; state?: CommandState }): Promise<string>;
  /** Runs a script that must fail; answers the error's status, code and message. */
  fail(script: string, options?: { env?: CommandEnvironment; state?: CommandState }): Promise<Failure>;
  /** Creates a user with a global permission and optional grants. */
  user(name: string, perm: Permission, grants?: [string, 'none' | 'read' | 'write'][]): Promise<User>;
  /** Names of all databases. */
  databases(): Promise<string[]>;
  /** Paths of a database's resources. */
  resources(db: string): Promise<string[]>;
  close(): Promise<void>;
}

export interface Failure {
  readonly status: number;
  readonly code?: string;
  readonly message: string;
}

export function newState(currentDb?: string): CommandState {
  return { options: new Map(), ...(currentDb !== undefined ? { currentDb } : {}) };
}

/** The engine's static analysis of queries, as the REST layer provides it. */
export function analyzeQuery(query: string): UpdateAnalysis {
  return analyzeModule(parseQuery(query), query);
}

/** A query stub: echoes the query and its context. */
export const echoQuery: NonNullable<CommandEnvironment['query']> = async (query, context) =>
  `[${context.db ?? '-'}|${context.path ?? '-'}] ${query}`;

export async function setup(): Promise<Fixture> {
  const dbPath = tempDir('xmldb-exec-');
  const restPath = tempDir('xmldb-exec-rest-');
  const store = await createFileStore(dbPath);
  const users = await UserStore.open(dbPath);
  const admin = await users.create('admin', 'admin-pw', 'admin');
  const env = (user: User = admin, extra: Partial<CommandEnvironment> = {}): CommandEnvironment => ({
    store,
    users,
    user,
    allowFileAccess: false,
    restPath,
    query: echoQuery,
    analyzeQuery,
    ...extra,
  });
  const run: Fixture['run'] = (script, options = {}) =>
    executeCommands(parseScript(script), options.env ?? env(), options.state ?? newState());
  return {
    dbPath,
    restPath,
    store,
    users,
    admin,
    env,
    run,
    async fail(script, options) {
      const e = await rejection(() => run(script, options), XmldbError);
      return { status: e.status, code: e.code, message: e.message };
    },
    async user(name, perm, grants = []) {
      await users.create(name, 'pw', perm);
      for (const [pattern, p] of grants) await users.grant(name, p, pattern);
      return users.get(name) as User;
    },
    databases: () => store.read('*', async (v) => (await v.listDatabases()).map((d) => d.name)),
    resources: (db) => store.read([db], async (v) => (await v.listResources(db)).map((r) => r.path)),
    async close() {
      await store.close();
      await fs.rm(dbPath, { recursive: true, force: true });
      await fs.rm(restPath, { recursive: true, force: true });
    },
  };
}
