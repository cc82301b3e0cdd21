/**
 * The permission rules as an attacker meets them, on REST and the commands: each kind of user
 * reads, stores, deletes, creates, drops, copies, renames and backs up each database through the
 * REST methods and the commands, which must answer as their db: twins do
 * (permission-matrix-queries.test.ts) and as README's permission table says (matrix.ts).
 * `npm test` runs a slice of the paths, `npm run test:parity` all of them (helpers/parity.ts).
 */
import request from 'supertest';
import { paritySlice, sliceNote } from '../helpers/parity';
import { attempt, changed, DATABASES, mayCreate, mayRead, mayWrite, marker, reset, RULES, state, useMatrixServer } from './matrix';

const server = useMatrixServer();
const NON_ADMINS = ['nobody', 'rw1', 'writer', 'creator'];
/** The slice of `npm test`: every 5th path of each user and database, turning from one to the next. */
const EVERY = 5;

/** Command and REST paths of create and admin operations: same rules as their db: twins. */
describe.each(NON_ADMINS)('%s: commands and REST', (user) => {
  const as = (t: request.Test) => t.auth(user, 'pw');
  const command = (text: string) => () => as(request(server().app).get(`/rest?command=${encodeURIComponent(text)}`));
  const script = (xmlText: string) => () => as(request(server().app).post('/rest').set('Content-Type', 'application/xml').send(`<commands>${xmlText}</commands>`));

  test.each(DATABASES)(`of %s: every path answers the same${sliceNote(EVERY)}`, async (db) => {
    const all: Array<[string, () => request.Test, boolean, (b: string, a: string, body: string) => boolean]> = [
      ['GET /rest/DB', () => as(request(server().app).get(`/rest/${db}/${db}.xml`)), mayRead(user, db), (_b, _a, body) => body.includes(marker(db))],
      ['GET ?command=GET', () => as(request(server().app).post('/rest').set('Content-Type', 'application/xml').send(`<commands><open name='${db}'/><get path='${db}.xml'/></commands>`)), mayRead(user, db), (_b, _a, body) => body.includes(marker(db))],
      ['PUT /rest/DB/doc', () => as(request(server().app).put(`/rest/${db}/pwn.xml`).set('Content-Type', 'application/xml').send('<pwn/>')), mayWrite(user, db), changed],
      ['PUT command', script(`<open name='${db}'/><put path='pwn.xml'><pwn/></put>`), mayWrite(user, db), changed],
      ['DELETE /rest/DB/doc', () => as(request(server().app).delete(`/rest/${db}/${db}.xml`)), mayWrite(user, db), changed],
      ['DELETE command', script(`<open name='${db}'/><delete path='${db}.xml'/>`), mayWrite(user, db), changed],
      ['PUT /rest/DB', () => as(request(server().app).put(`/rest/${db}`).set('Content-Type', 'application/xml').send('<pwn/>')), mayCreate(user, db), changed],
      ['CREATE DB', command(`CREATE DB ${db} <pwn/>`), mayCreate(user, db), changed],
      ['DELETE /rest/DB', () => as(request(server().app).delete(`/rest/${db}`)), mayCreate(user, db), changed],
      ['DROP DB', command(`DROP DB ${db}`), mayCreate(user, db), changed],
      ['DROP DB pattern', command(`DROP DB ${db.slice(0, 2)}*`), mayCreate(user, db), changed],
      ['COPY', command(`COPY ${db} stolen`), RULES[user].create && mayRead(user, db), changed],
      ['ALTER DB', command(`ALTER DB ${db} moved`), mayCreate(user, db), changed],
      ['CREATE BACKUP', command(`CREATE BACKUP ${db}`), RULES[user].create && mayRead(user, db), changed],
      ['CREATE BACKUP pattern', command(`CREATE BACKUP ${db.slice(0, 2)}*`), RULES[user].create && mayRead(user, db), changed],
    ];
    const outcomes: Record<string, boolean> = {};
    const want: Record<string, boolean> = {};
    for (const [name, send, expected, effect] of paritySlice(all, EVERY, NON_ADMINS.indexOf(user) * DATABASES.length + DATABASES.indexOf(db))) {
      outcomes[name] = await attempt(send, effect);
      want[name] = expected;
    }
    expect(outcomes).toEqual(want);
  });
});

describe('backups of a database the user may not read', () => {
  const creator = (text: string) => request(server().app).get(`/rest?command=${encodeURIComponent(text)}`).auth('creator', 'pw');

  test('are not listed, renamed, restored or dropped', async () => {
    await reset(undefined);
    await server().get(`/rest?command=${encodeURIComponent('CREATE BACKUP secret')}`).expect(200);
    const before = (await state()).key;
    expect(before).toContain('secret-T');
    const listed = (await creator('SHOW BACKUPS').expect(200)).text;
    expect(listed).toContain('0 backup(s).');
    expect(listed).not.toContain('secret');
    await creator('ALTER BACKUP secret mine').expect(500);
    await creator('RESTORE secret').expect(500);
    await creator('DROP BACKUP secret').expect(200);
    expect((await state()).key).toBe(before);
    // Restoring secret's backup under a name the user owns leaks nothing either.
    const name = /secret-\d{4}(-\d\d){5}/.exec((await server().get(`/rest?command=${encodeURIComponent('SHOW BACKUPS')}`)).text)?.[0];
    await creator(`RESTORE ${name}`).expect(500);
    expect((await state()).key).toBe(before);
  });

  test('their copies and renamed databases are not readable', async () => {
    await reset(undefined);
    await creator('COPY secret stolen').expect(500);
    await creator('ALTER DB secret mine').expect(500);
    await request(server().app).get('/rest/stolen').auth('creator', 'pw').expect(404);
    await request(server().app).get('/rest/mine').auth('creator', 'pw').expect(404);
  });
});

describe('one update of every readable database', () => {
  const everyOther = "for $d in db:list()[. != 'db1'], $r in db:get($d)/* return insert node <owned/> into $r";

  test.each([
    ['a command with a writable database opened', `/rest/db1?command=${encodeURIComponent(`XQUERY ${everyOther}`)}`],
    ['a query in a writable database', `/rest/db1?query=${encodeURIComponent(everyOther)}`],
  ])('through %s is refused as a whole when one of them is not writable', async (_how, url) => {
    await reset(undefined);
    const before = (await state()).key;
    const res = await request(server().app).get(url).auth('rw1', 'pw');
    expect([res.status, res.text]).toEqual([403, 'Write permission needed.']);
    expect((await state()).key).toBe(before);
    await server().get(url).expect(200);
    expect((await state()).key).not.toBe(before);
  });
});
