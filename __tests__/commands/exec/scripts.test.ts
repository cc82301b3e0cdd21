import fs from 'node:fs/promises';
import path from 'node:path';
import { executeCommands } from '../../../lib/commands/exec';
import { parseScript } from '../../../lib/commands/script';
import { XmldbError } from '../../../lib/xmldb-error';
import type { LockSet, Store } from '../../../lib/store/types';
import { analyzeQuery, newState, setup, type Fixture } from './setup';

const FIXTURES = path.join(__dirname, '../../../fixtures/commands');

let f: Fixture;
beforeEach(async () => {
  f = await setup();
});
afterEach(async () => {
  await f.close();
});

describe('outputs and OPEN scoping', () => {
  test('outputs are concatenated without separator', async () => {
    expect(await f.run('XQUERY 3\nXQUERY 4', { env: f.env(f.admin, { query: async (q) => q }) })).toBe('34');
  });

  test('XQUERY gets the opened database and path as context', async () => {
    await f.run('CREATE DB a\nCREATE DB b');
    expect(await f.run('XQUERY q1\nOPEN a\nXQUERY q2\nOPEN b docs\nXQUERY q3\nCLOSE\nXQUERY q4')).toBe(
      '[-|-] q1[a|-] q2[b|docs] q3[-|-] q4',
    );
  });

  test('the database of the state (URL) is the context until OPEN or CLOSE; state keeps the last one', async () => {
    await f.run('CREATE DB a\nCREATE DB b');
    const state = newState('a');
    expect(await f.run('XQUERY x\nOPEN b\nXQUERY y', { state })).toBe('[a|-] x[b|-] y');
    expect(state.currentDb).toBe('b');
  });

  test('CREATE DB opens the new database', async () => {
    const state = newState();
    await f.run('CREATE DB a\nADD TO x.xml <x/>', { state });
    expect(state.currentDb).toBe('a');
    expect(await f.resources('a')).toStrictEqual(['x.xml']);
  });

  test('EXECUTE runs a script in the same session: its OPEN holds after it', async () => {
    await f.run('CREATE DB a <x/>');
    const state = newState();
    expect(await f.run('EXECUTE "OPEN a; XQUERY in"\nXQUERY after\nLIST a', { state })).toMatch(
      /^\[a\|-\] in\[a\|-\] afterInput Path/,
    );
    expect(await f.run('EXECUTE <commands><close/></commands>', { state })).toBe('');
    expect(state.currentDb).toBeUndefined();
  });

  test('the fixture scripts (string and XML syntax)', async () => {
    const env = f.env(f.admin, { query: async () => '<hits>3</hits>' });
    for (const file of ['setup.bxs', 'setup-xml.bxs']) {
      const out = await f.run(await fs.readFile(path.join(FIXTURES, file), 'utf8'), { env });
      expect(out).toMatch(/^<hits>3<\/hits>Input Path +Type/);
      expect(out).toContain('\n2 Resource(s).\nDatabase Properties\n NAME: acc_script\n');
      expect(await f.resources('acc_script')).toStrictEqual(['docs/a.xml', 'embedded.xml']);
      expect(await f.run('OPEN acc_script\nGET docs/a.xml')).toBe('<a>one; two</a>');
    }
  });
});

describe('RUN', () => {
  test('a .bxs file runs as a script; other files go to runFile with their absolute path and the text planning read', async () => {
    await fs.copyFile(path.join(FIXTURES, 'exec', 'script.bxs'), path.join(f.restPath, 'script.bxs'));
    await fs.mkdir(path.join(f.restPath, 'sub'));
    await fs.writeFile(path.join(f.restPath, 'sub', 'q.xq'), '1 + 1');
    const runFile = jest.fn(async (file: string, text: string) => `ran ${path.relative(f.restPath, file)}: ${text}`);
    const env = f.env(f.admin, { runFile });
    expect(await f.run('RUN script.bxs', { env })).toBe('[run_bxs|-] count(/)');
    expect(await f.run('RUN sub/q.xq\nRUN sub/q', { env })).toBe(`ran ${path.join('sub', 'q.xq')}: 1 + 1ran ${path.join('sub', 'q.xq')}: 1 + 1`);
    expect(await f.run('RUN script', { env })).toBe('[run_bxs|-] count(/)');
  });

  test('missing files, folders and names outside the REST path are not found', async () => {
    await fs.mkdir(path.join(f.restPath, 'dir.xq'));
    for (const name of ['none.xq', 'dir.xq', '../x.xq', path.join(f.restPath, 'none.xq')]) {
      expect(await f.fail(`RUN "${name}"`)).toStrictEqual({ status: 500, code: 'FILE_NOT_FOUND_X', message: `Resource "${name}" not found.` });
    }
  });

  test('a script that runs itself stops at the depth limit, before anything runs', async () => {
    await fs.writeFile(path.join(f.restPath, 'loop.bxs'), 'CREATE DB loop\nRUN loop.bxs\n');
    expect(await f.fail('RUN loop.bxs')).toMatchObject({ status: 500, code: 'SCRIPT_DEPTH_X' });
    expect(await f.databases()).toStrictEqual([]);
  });
});

describe('failures', () => {
  test('a failing command ends the script; earlier changes stay', async () => {
    const e = await f.fail('CREATE DB a <x/>\nADD TO b.xml <b/>\nOPEN nope\nCREATE DB c');
    expect(e).toStrictEqual({ status: 404, code: 'DB_NOT_FOUND_X', message: "Database 'nope' was not found." });
    expect(await f.databases()).toStrictEqual(['a']);
    expect(await f.resources('a')).toStrictEqual(['a.xml', 'b.xml']);
  });

  test('unsupported commands are refused before anything runs', async () => {
    for (const cmd of ['JOBS LIST', 'REPO LIST', 'KILL x', 'INSPECT', 'TEST x.xq', 'CHECK db', 'INFO STORAGE']) {
      const e = await f.fail(`CREATE DB z\n${cmd}`);
      expect(e).toMatchObject({ status: 500, code: 'NOT_SUPPORTED_X' });
    }
    expect(await f.fail('JOBS LIST')).toMatchObject({ message: 'Command is not supported: JOBS LIST.' });
    expect(await f.databases()).toStrictEqual([]);
  });

  test('without a query engine XQUERY fails', async () => {
    expect(await f.fail('XQUERY 1', { env: f.env(f.admin, { query: undefined }) })).toMatchObject({ status: 500, code: 'NO_QUERY_ENGINE' });
  });

  test('query errors pass through with their status', async () => {
    const env = f.env(f.admin, {
      query: async () => {
        throw new XmldbError(500, '[XPST0003] Incomplete expression.', 'XPST0003');
      },
    });
    expect(await f.fail('XQUERY 1 +', { env })).toMatchObject({ status: 500, code: 'XPST0003' });
  });
});

describe('locks', () => {
  /** A store that records the lock requests it gets. */
  function recording(store: Store, calls: [string, LockSet][]): Store {
    return {
      ...store,
      read: (dbs, fn) => (calls.push(['read', dbs]), store.read(dbs, fn)),
      write: (dbs, fn) => (calls.push(['write', dbs]), store.write(dbs, fn)),
      subscribe: (fn) => store.subscribe(fn),
      close: () => store.close(),
    };
  }

  test.each<[string, string, LockSet]>([
    ['OPEN a\nINFO DB\nGET a.xml', 'read', ['a']],
    ['LIST', 'read', '*'],
    ['INFO\nSHOW USERS', 'read', []],
    ['OPEN a\nADD TO x.xml <x/>', 'write', ['a']],
    ['COPY a b\nOPEN b\nDELETE a.xml', 'write', ['a', 'b']],
    ['DROP DB a*', 'write', '*'],
    ['XQUERY 1', 'read', []],
    ['XQUERY db:list()', 'read', '*'],
    ['XQUERY doc("a/a.xml")', 'read', ['a']],
    ['OPEN a\nXQUERY count(.)', 'read', ['a']],
    ['XQUERY insert node <x/> into /', 'write', []],
    ['OPEN a\nXQUERY db:add("b", <x/>, "x.xml")', 'write', ['a', 'b']],
    ['XQUERY db:add(string(1), <x/>, "x.xml")', 'write', '*'],
    ['EXECUTE "OPEN a"\nDIR', 'read', ['a']],
    ['LIST\nCREATE DB n', 'write', '*'],
  ])('%j takes one %s lock on %j', async (script, mode, locks) => {
    await f.run('CREATE DB a <a/>');
    const calls: [string, LockSet][] = [];
    await executeCommands(parseScript(script), f.env(f.admin, { store: recording(f.store, calls) }), newState());
    expect(calls).toStrictEqual([[mode, locks]]);
  });

  test.each([
    ['1 + 1', 'none'],
    ['db:get("a")//x', 'none'],
    ['db:list()', 'none'],
    ['insert node <a/> into /x', 'write'],
    ['delete nodes //x', 'write'],
    ['replace value of node /a with 1', 'write'],
    ['rename node /a as "b"', 'write'],
    ['copy $c := <a/> modify () return $c', 'none'],
    ['"insert node"', 'none'],
    ['db:put("a", <x/>, "x.xml")', 'write'],
    ['db:put-value("a", 1, "v")', 'write'],
        ['db:create("x")', 'create'],
    ['db:drop("x")', 'create'],
  ])('the analysis of %j needs %s', (query, perm) => {
    expect(analyzeQuery(query).permission).toBe(perm);
  });
});
