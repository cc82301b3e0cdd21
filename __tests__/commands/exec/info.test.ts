import { formatSize } from '../../../lib/commands/defs/info';
import { commandHelp, helpAll } from '../../../lib/commands/registry';
import { newState, setup, type Fixture } from './setup';

let f: Fixture;
beforeEach(async () => {
  f = await setup();
});
afterEach(async () => {
  await f.close();
});

const sizeOf = (db: string) => f.store.read([db], async (v) => (await v.database(db))!.size);

describe('LIST', () => {
  test('all databases: table with sizes and summary', async () => {
    await f.run('CREATE DB acc_b\nCREATE DB acc_a <a/>\nOPEN acc_a\nADD TO b.xml <b/>');
    const [a, b] = [await sizeOf('acc_a'), await sizeOf('acc_b')];
    const w = Math.max(4, String(a).length, String(b).length);
    const cell = (s: string | number) => String(s).padEnd(w) + '  ';
    expect(await f.run('LIST')).toBe(
      `Name   Resources  ${cell('Size')}Input Path  \n` +
        `${'-'.repeat(7 + 11 + w + 2 + 10)}\n` +
        `acc_a  2          ${cell(a)}            \n` +
        `acc_b  0          ${cell(b)}            \n` +
        '\n2 database(s).\n',
    );
  });

  test('no databases', async () => {
    expect(await f.run('LIST')).toBe('Name  Resources  Size  Input Path  \n' + '-'.repeat(33) + '\n\n0 database(s).\n');
  });

  test('LIST db (path): resources with type, content type and size', async () => {
    await f.run('CREATE DB db <a><b/></a>\nOPEN db\nADD TO d/x.xml <x/>\nBINARY PUT TO d/r.png bytes');
    expect(await f.run('LIST db')).toBe(
      'Input Path  Type    Content-Type     Size  \n' +
        '-----------------------------------------\n' +
        'd/r.png     binary  image/png        5     \n' +
        'd/x.xml     xml     application/xml  2     \n' +
        'db.xml      xml     application/xml  3     \n' +
        '\n3 Resource(s).\n',
    );
    expect(await f.run('LIST db d/x.xml')).toContain('\n1 Resource(s).\n');
  });

  test('LIST of an unknown database fails with 500', async () => {
    expect(await f.fail('LIST nope')).toStrictEqual({ status: 500, code: 'DB_NOT_FOUND_X', message: "Database 'nope' was not found." });
  });
});

describe('DIR', () => {
  test('directories and resources directly below the path', async () => {
    await f.run('CREATE DB db <a/>\nOPEN db\nADD TO d/x.xml <x/>\nADD TO d/e/y.xml <y/>');
    expect(await f.run('OPEN db\nDIR')).toBe(
      'Input Path  Type       Content-Type     Size  \n' +
        '--------------------------------------------\n' +
        'd           directory                         \n' +
        'db.xml      xml        application/xml  2     \n' +
        '\n2 entries.\n',
    );
    expect(await f.run('OPEN db\nDIR d')).toBe(
      'Input Path  Type       Content-Type     Size  \n' +
        '--------------------------------------------\n' +
        'e           directory                         \n' +
        'x.xml       xml        application/xml  2     \n' +
        '\n2 entries.\n',
    );
  });
});

describe('INFO, INFO DB', () => {
  test('INFO: version and main options', async () => {
    const out = await f.run('SET STRIPWS\nINFO');
    expect(out).toMatch(/^General Information:\n Version: \d+\.\d+\.\d+\n\nLocal Options:\n STRIPWS: true\n STRIPNS: false\n/);
  });

  test('INFO DB: the three sections', async () => {
    await f.run('CREATE DB db <a x="1">text</a>\nOPEN db\nBINARY PUT TO r.bin 12345');
    const meta = await f.store.read(['db'], async (v) => (await v.database('db'))!);
    expect(await f.run('OPEN db\nINFO DB')).toBe(
      'Database Properties\n' +
        ' NAME: db\n' +
        ` SIZE: ${formatSize(meta.size)}\n` +
        ' NODES: 4\n' +
        ' DOCUMENTS: 1\n' +
        ' BINARIES: 1\n' +
        ' VALUES: 0\n' +
        ` TIMESTAMP: ${new Date(meta.modified).toISOString()}\n` +
        ' UPTODATE: true\n' +
        '\n' +
        'Resource Properties\n' +
        ' INPUTSIZE: 17 b\n' +
        ` INPUTDATE: ${new Date(meta.created).toISOString()}\n` +
        '\n' +
        'Indexes\n' +
        ' TEXTINDEX: true\n' +
        ' ATTRINDEX: true\n' +
        ' TOKENINDEX: true\n' +
        ' FTINDEX: false\n' +
        ' LANGUAGE: en\n' +
        ' STEMMING: false\n' +
        ' CASESENS: false\n' +
        ' DIACRITICS: false\n' +
        ' STOPWORDS: \n' +
        ' UPDINDEX: false\n' +
        ' AUTOOPTIMIZE: false\n' +
        ' MAXLEN: 96\n' +
        ' MAXCATS: 100\n',
    );
  });

  test('the XML syntax example of the spec: create-db + info-db', async () => {
    const out = await f.run('<commands><create-db name="acc_x"/><info-db/></commands>');
    expect(out).toMatch(/^Database Properties\n NAME: acc_x\n/);
    expect(await f.databases()).toStrictEqual(['acc_x']);
  });

  test.each([
    [0, '0 b'],
    [4, '4 b'],
    [1024, '1024 b'],
    [1025, '1 kB'],
    [5012, '5 kB'],
    [1536, '2 kB'],
    [3 * 1024 * 1024, '3 MB'],
    [1024 * 1024, '1024 kB'],
    [3.4 * 1024 * 1024, '3 MB'],
    [5 * 2 ** 30 + 7, '5 GB'],
  ])('formatSize(%d) = %s', (bytes, text) => {
    expect(formatSize(bytes)).toBe(text);
  });
});

describe('SET, SHOW OPTIONS', () => {
  test('SET stores canonical names; a boolean without value toggles; others reset', async () => {
    const state = newState();
    await f.run('SET stripws true\nSET maxlen 10\nSET chop\nSET language de\nSET language', { state });
    expect([...state.options]).toStrictEqual([
      ['STRIPWS', false],
      ['MAXLEN', 10],
    ]);
    await f.run('SET QUERYINFO', { state });
    expect(state.options.get('QUERYINFO')).toBe(true);
  });

  test('unknown options and invalid values fail', async () => {
    expect(await f.fail('SET nonsense 1')).toStrictEqual({ status: 500, code: 'UNKNOWN_OPTION_X', message: "Unknown option 'NONSENSE'." });
    expect(await f.fail('SET stripws maybe')).toStrictEqual({
      status: 500,
      code: 'INVALID_OPTION_VALUE_XX',
      message: "Invalid value for option 'STRIPWS': 'maybe'.",
    });
    expect(await f.fail('SET maxlen many')).toMatchObject({ code: 'INVALID_OPTION_VALUE_XX' });
  });

  test('SHOW OPTIONS name, and all of them', async () => {
    const state = newState();
    await f.run('SET stripns yes', { state });
    expect(await f.run('SHOW OPTIONS stripns\nSHOW OPTIONS createfilter', { state })).toBe('STRIPNS: true\nCREATEFILTER: *.xml\n');
    const all = await f.run('SHOW OPTIONS', { state });
    expect(all.startsWith('Local Options:\nSTRIPWS: false\nSTRIPNS: true\n')).toBe(true);
    expect(all).toContain('\nMAXSTAT: 30\n');
  });
});

describe('HELP', () => {
  test('all commands, or one in detail', async () => {
    expect(await f.run('HELP')).toBe(helpAll());
    expect(await f.run('HELP create')).toBe(commandHelp('CREATE', true));
    expect(await f.fail('HELP foo')).toMatchObject({ status: 500, code: 'UNKNOWN_TRY_X' });
  });
});
