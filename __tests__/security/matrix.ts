/**
 * Helpers of the permission matrix tests (permission-matrix-*.test.ts): the permission rules as an attacker meets them: each kind of user, each way into the server
 * (REST GET/PUT/DELETE, `?query=`, `?command=`, a `<commands>` script, a `run` file, xquery:eval),
 * each operation, with database names written literally and computed (`concat('sec', 'ret')`).
 * Every path must give the same answer for the same user, operation and database: the operation
 * is done (its change is seen by admin afterwards, or its read returns the data) or refused
 * (nothing changes, nothing leaks).
 *
 * The expected answers follow README's permission table: `read` and `write` per database (a grant
 * lowers or raises the global level for the databases it matches); `create` globally, and on top
 * the database rules: a create operation reads its sources and writes its targets.
 */
import fs from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { seedUsers, startTestServer, tempDir, type SeedUser, type TestServer } from '../helpers/rest';

/** Every database the tests start with, and a marker its document carries. */
export const DATABASES = ['db1', 'secret', 'victim'] as const;
export type Db = (typeof DATABASES)[number];
export const marker = (db: string) => `MARK-${db.toUpperCase()}`;

export const USERS: readonly SeedUser[] = [
  { name: 'admin', password: 'admin-pw', perm: 'admin' },
  { name: 'nobody', password: 'pw', perm: 'none' },
  { name: 'rw1', password: 'pw', perm: 'read', grants: [['db1', 'write']] },
  { name: 'writer', password: 'pw', perm: 'write', grants: [['secret', 'read']] },
  { name: 'creator', password: 'pw', perm: 'create', grants: [['secret', 'none']] },
];

/** The rules (README, Security): what each user may do with each database. */
export const RULES: Record<string, { read: readonly Db[]; write: readonly Db[]; create: boolean }> = {
  nobody: { read: [], write: [], create: false },
  rw1: { read: ['db1', 'secret', 'victim'], write: ['db1'], create: false },
  writer: { read: ['db1', 'secret', 'victim'], write: ['db1', 'victim'], create: false },
  creator: { read: ['db1', 'victim'], write: ['db1', 'victim'], create: true },
};
export const mayRead = (user: string, db: Db) => RULES[user].read.includes(db);
export const mayWrite = (user: string, db: Db) => RULES[user].write.includes(db);
export const mayCreate = (user: string, db: Db) => RULES[user].create && mayWrite(user, db);

let s: TestServer;

/** Starts the suite's server (users seeded, databases at the baseline) and closes it after. */
export function useMatrixServer(): () => TestServer {
  beforeAll(async () => {
    const dbPath = tempDir();
    await seedUsers(dbPath, USERS);
    s = await startTestServer({ dbPath });
    await reset(undefined);
    baseline = await state();
  });
  afterAll(() => s.close());
  return () => s;
}

/** What admin sees: each database with its resources and their content, and the backups. */
interface State {
  readonly dbs: ReadonlyMap<string, string>;
  readonly backups: string;
  /** All of it, to compare. */
  readonly key: string;
}

export async function state(): Promise<State> {
  const query = `string-join(for $d in db:list() return $d || '=' || string-join(for $p in db:list($d) return $p || ':' || serialize(db:get($d, $p)), ','), '&#10;')`;
  const text = (await s.post('/rest', `<commands><xquery>${query}</xquery><xquery>'&#10;#'</xquery><show-backups/></commands>`).expect(200)).text;
  const [dbText, backupText] = text.split('\n#');
  const dbs = new Map(dbText.split('\n').filter((l) => l !== '').map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)] as const));
  const backups = backupText.replace(/\d{4}-\d\d-\d\d-\d\d-\d\d-\d\d/g, 'T');
  return { dbs, backups, key: text.replace(/\d{4}-\d\d-\d\d-\d\d-\d\d-\d\d/g, 'T') };
}

const createDb = (db: string) => `<create-db name='${db}'><${db}>${marker(db)}</${db}></create-db>`;
let baseline: State;

/** Back to the baseline: only what differs from it is dropped or created again (one admin script). */
export async function reset(from: State | undefined): Promise<void> {
  const commands: string[] = [];
  if (from === undefined) commands.push(`<drop-db name='*'/>`, `<drop-backup name='*'/>`, ...DATABASES.map(createDb));
  else {
    for (const [db, content] of from.dbs) if (baseline.dbs.get(db) !== content && !(DATABASES as readonly string[]).includes(db)) commands.push(`<drop-db name='${db}'/>`);
    for (const db of DATABASES) if (from.dbs.get(db) !== baseline.dbs.get(db)) commands.push(createDb(db));
    if (from.backups !== baseline.backups) commands.push(`<drop-backup name='*'/>`);
  }
  await s.post('/rest', `<commands>${commands.join('')}</commands>`).expect(200);
}

/** A name as a query writes it: literally, or computed so that no analysis can know it. */
export const NAME_FORMS = {
  literal: (db: string) => `'${db}'`,
  computed: (db: string) => `concat('${db.slice(0, 3)}', '${db.slice(3)}')`,
};
export type NameForm = keyof typeof NAME_FORMS;

const xml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;');

let runFiles = 0;

/** Ways to run a query as `user`; `opened` is a database opened (in the URL or by the script) first. */
export function queryPaths(user: string, opened: Db | undefined): Record<string, (query: string, updating: boolean) => request.Test> {
  const dbUrl = opened === undefined ? '/rest' : `/rest/${opened}`;
  const open = opened === undefined ? '' : `<open name='${opened}'/>`;
  const openLine = opened === undefined ? '' : `OPEN ${opened}\n`;
  const runFile = (suffix: string, text: string) => {
    const name = `m${++runFiles}.${suffix}`;
    fs.writeFileSync(path.join(s.restPath, name), text);
    return name;
  };
  const as = (t: request.Test) => t.auth(user, 'pw');
  return {
    query: (q) => as(request(s.app).get(`/rest?query=${encodeURIComponent(q)}`)),
    queryInDb: (q) => as(request(s.app).get(`${dbUrl}?query=${encodeURIComponent(q)}`)),
    command: (q) => as(request(s.app).get(`${dbUrl}?command=${encodeURIComponent(`XQUERY ${q}`)}`)),
    script: (q) => as(request(s.app).post('/rest').set('Content-Type', 'application/xml').send(`<commands>${open}<xquery>${xml(q)}</xquery></commands>`)),
    runQuery: (q) => as(request(s.app).get(`${dbUrl}?run=${runFile('xq', q)}`)),
    runScript: (q) => as(request(s.app).get(`/rest?run=${runFile('bxs', `${openLine}XQUERY ${q.replace(/\n/g, ' ')}\n`)}`)),
    eval: (q, updating) => {
      const call = `xquery:${updating ? 'eval-update' : 'eval'}('${q.replace(/'/g, "''")}')`;
      return as(request(s.app).get(`/rest?query=${encodeURIComponent(call)}`));
    },
  };
}

/** The state after the last attempt, when it differs from the baseline. */
let dirty: State | undefined;

type Effect = (before: string, after: string, body: string) => boolean;

async function fromBaseline(): Promise<void> {
  if (dirty !== undefined) {
    await reset(dirty);
    dirty = undefined;
  }
}

/** Runs one attempt from the baseline and answers whether it took effect. */
export async function attempt(send: () => request.Test, effect: Effect): Promise<boolean> {
  await fromBaseline();
  const res = await send();
  const after = await state();
  if (after.key !== baseline.key) dirty = after;
  const done = effect(baseline.key, after.key, res.text);
  if (done) expect(res.status).toBeLessThan(300);
  // Never a stack trace.
  expect(res.text).not.toMatch(/\n\s+at /);
  return done;
}

/**
 * Runs attempts that should all be refused: one after the other, with one look at the state
 * after the last (a refused attempt changes nothing). If something changed, each is run again
 * from the baseline on its own, to tell which one took effect.
 */
export async function attemptRefused(sends: Record<string, () => request.Test>, effect: Effect): Promise<Record<string, boolean>> {
  await fromBaseline();
  const bodies: Record<string, string> = {};
  for (const [name, send] of Object.entries(sends)) {
    const res = await send();
    expect(res.text).not.toMatch(/\n\s+at /);
    bodies[name] = res.text;
  }
  const after = await state();
  if (after.key === baseline.key) return Object.fromEntries(Object.entries(bodies).map(([name, body]) => [name, effect(baseline.key, after.key, body)]));
  dirty = after;
  const outcomes: Record<string, boolean> = {};
  for (const [name, send] of Object.entries(sends)) outcomes[name] = await attempt(send, effect);
  return outcomes;
}

export const changed = (before: string, after: string) => before !== after;
