import { COMMAND_ERRORS, commandError } from '../../lib/commands/messages';
import { commandHelp, DOCUMENTED_KEYWORDS, helpAll } from '../../lib/commands/registry';
import { XmldbError } from '../../lib/xmldb-error';

describe('command error catalog', () => {
  test('entries carry their status; names count their % slots', () => {
    for (const [key, e] of Object.entries(COMMAND_ERRORS)) {
      const slots = (e.template.match(/%/g) ?? []).length;
      const suffix = key.match(/(_X)+$/)?.[0] ?? '';
      expect([key, slots]).toStrictEqual([key, suffix.length / 2]);
      expect([400, 403, 404, 500]).toContain(e.status);
    }
  });

  test('commandError builds an XmldbError with the entry name as code', () => {
    const e = commandError('UNKNOWN_SIMILAR_X_X', 'XQERY', 'XQUERY');
    expect(e).toBeInstanceOf(XmldbError);
    expect([e.status, e.code, e.message]).toStrictEqual([500, 'UNKNOWN_SIMILAR_X_X', "Unknown command: XQERY. Did you mean 'XQUERY'?"]);
  });
});

describe('help texts', () => {
  test('every keyword has a syntax and a summary ending in a full stop', () => {
    for (const k of DOCUMENTED_KEYWORDS) {
      const summary = (commandHelp(k, false) ?? '').split('\n')[1];
      expect([k, summary.startsWith('  '), summary.endsWith('.')]).toStrictEqual([k, true, true]);
    }
  });

  test('short and detailed help', () => {
    expect(commandHelp('list', false)).toBe('LIST ([name] ([path]))\n  List databases, or the resources of a database.\n');
    expect(commandHelp('OPTIMIZE', true)).toBe('OPTIMIZE (ALL)\n  Optimize the opened database.\n\nALL: rebuild all of its structures.\n');
    expect(commandHelp('CLOSE', true)).toBe('CLOSE\n  Close the opened database.\n');
    expect(commandHelp('store', false)).toBe('STORE (TO [path]) [input]\n  Old name of BINARY PUT.\n');
    expect(commandHelp('nothing', false)).toBeUndefined();
  });

  test('HELP lists every command once, in order', () => {
    const text = helpAll();
    const keywords = text.split('\n').filter((l: string) => l !== '' && !l.startsWith(' ')).map((l: string) => l.split(' ')[0]);
    expect(keywords).toStrictEqual(DOCUMENTED_KEYWORDS);
    expect(DOCUMENTED_KEYWORDS).toStrictEqual([...DOCUMENTED_KEYWORDS].sort());
    expect(DOCUMENTED_KEYWORDS).toStrictEqual([
      'ADD', 'ALTER', 'BINARY', 'CHECK', 'CLOSE', 'COPY', 'CREATE', 'DELETE', 'DIR', 'DROP', 'EXECUTE', 'EXIT', 'EXPORT', 'FIND', 'FLUSH', 'GET', 'GRANT', 'HELP', 'INFO', 'INSPECT', 'JOBS', 'KILL', 'LIST', 'OPEN', 'OPTIMIZE', 'PASSWORD', 'PUT', 'QUIT', 'RENAME', 'REPO', 'RESTORE', 'RUN', 'SET', 'SHOW', 'TEST', 'XQUERY',
    ]);
  });
});
