/**
 * The permission rules as an attacker meets them, on the query paths: each kind of user runs each
 * operation through `?query=` (without and with a database in the URL), `?command=XQUERY`, a
 * `<commands>` script, a `run` query file, a `run` command script and xquery:eval, naming the
 * database literally and computed (`concat('sec', 'ret')`). Every path must answer the same: the
 * operation is done (admin sees its change, or its read returns the data) or refused (nothing
 * changes, nothing leaks). The expected answers follow README's permission table (matrix.ts).
 * `npm test` runs a slice of the rows, `npm run test:parity` all of them (helpers/parity.ts).
 */
import { paritySlice, sliceNote } from '../helpers/parity';
import { attempt, attemptRefused, changed, mayCreate, mayRead, mayWrite, marker, NAME_FORMS, queryPaths, RULES, useMatrixServer, type Db, type NameForm } from './matrix';

useMatrixServer();

interface QueryCase {
  readonly name: string;
  readonly query: (name: string) => string;
  readonly updating: boolean;
  readonly allowed: (user: string, db: Db) => boolean;
  readonly effect: (before: string, after: string, body: string, db: Db) => boolean;
}

const QUERY_CASES: readonly QueryCase[] = [
  {
    name: 'read a document',
    query: (n) => `string(db:get(${n}))`,
    updating: false,
    allowed: mayRead,
    effect: (_b, _a, body, db) => body.includes(marker(db)),
  },
  {
    name: 'store a document',
    query: (n) => `db:put(${n}, <pwn/>, 'pwn.xml')`,
    updating: true,
    allowed: mayWrite,
    effect: changed,
  },
  {
    name: 'delete documents',
    query: (n) => `db:delete(${n}, '')`,
    updating: true,
    allowed: (u, db) => mayWrite(u, db),
    effect: changed,
  },
  {
    name: 'insert into every readable document',
    query: (n) => `for $r in db:get(${n})/* return insert node <owned/> into $r`,
    updating: true,
    allowed: mayWrite,
    effect: changed,
  },
  {
    name: 'copy a database',
    query: (n) => `db:copy(${n}, 'stolen')`,
    updating: true,
    allowed: (u, db) => RULES[u].create && mayRead(u, db),
    effect: changed,
  },
  {
    name: 'create over a database',
    query: (n) => `db:create(${n})`,
    updating: true,
    allowed: mayCreate,
    effect: changed,
  },
  {
    name: 'drop a database',
    query: (n) => `db:drop(${n})`,
    updating: true,
    allowed: mayCreate,
    effect: changed,
  },
  {
    name: 'rename a database',
    query: (n) => `db:alter(${n}, 'moved')`,
    updating: true,
    allowed: mayCreate,
    effect: changed,
  },
];

/**
 * The databases each user tries: one its grant raises or keeps writable, one its grant lowers
 * (`victim`, where the rules are those of `db1`, is opened instead).
 */
const TARGETS: Record<string, readonly Db[]> = { nobody: ['db1'], rw1: ['db1', 'secret'], writer: ['db1', 'secret'], creator: ['db1', 'secret'] };

/** One row of the matrix: a user runs a query on a database, named in one form. */
interface Row {
  readonly user: string;
  readonly c: QueryCase;
  readonly db: Db;
  readonly form: NameForm;
}

/** The slice of `npm test`: every 5th row (user, query, database, name form), in this order. */
const EVERY = 5;
const ROWS: readonly Row[] = paritySlice(
  Object.keys(TARGETS).flatMap((user) => QUERY_CASES.flatMap((c) => TARGETS[user].flatMap((db) => (Object.keys(NAME_FORMS) as NameForm[]).map((form) => ({ user, c, db, form }))))),
  EVERY,
);
const distinct = <T>(items: readonly T[]) => [...new Set(items)];

describe.each(distinct(ROWS.map((r) => r.user)))(`%s${sliceNote(EVERY)}`, (user) => {
  const mine = ROWS.filter((r) => r.user === user);
  describe.each(distinct(mine.map((r) => r.c)).map((c) => [c.name, c] as const))('%s', (_name, c) => {
    test.each(mine.filter((r) => r.c === c).map((r) => [r.db, r.form] as const))(
      'of %s (%s name): every query path answers the same',
      async (db, form) => {
        const expected = c.allowed(user, db);
        const text = c.query(NAME_FORMS[form](db));
        // The opened database is one the user may read (else opening it is refused first), and
        // one whose grant differs from the target's where there is one (rw1: db1 is writable).
        const opened = (['db1', 'victim'] as const).find((d) => mayRead(user, d) && d !== db);
        const effect = (b: string, a: string, body: string) => c.effect(b, a, body, db);
        const sends = Object.fromEntries(Object.entries(queryPaths(user, opened)).map(([name, send]) => [name, () => send(text, c.updating)]));
        const outcomes: Record<string, boolean> = {};
        if (expected) for (const [name, send] of Object.entries(sends)) outcomes[name] = await attempt(send, effect);
        else Object.assign(outcomes, await attemptRefused(sends, effect));
        const want = Object.fromEntries(Object.keys(outcomes).map((k) => [k, expected]));
        expect(outcomes).toEqual(want);
      },
    );
  });
});

