/**
 * One path into the store (README "Architecture"): a REST request is the command it is, and each
 * decision has one home, which the REST operations (lib/operations/) and the HTTP layer
 * (lib/http/) call rather than copy. A second copy of a decision in those folders fails here.
 * The store as a user may use it (operations/guarded-store.ts) and what a session may read
 * (operations/permission.ts) are homes themselves.
 */
import fs from 'node:fs';
import path from 'node:path';
import { REPOSITORY, sourcesUnder } from '../helpers/source-files';

const ROOT = REPOSITORY;

/** The code of a file, its comments left out. */
function codeOf(file: string): string {
  return fs
    .readFileSync(path.join(ROOT, file), 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/^\s*\/\/.*$/gm, '');
}

const DECISIONS: readonly { readonly what: string; readonly code: RegExp; readonly home: string; readonly besides?: readonly string[] }[] = [
  {
    // reading is judged where the store is used (guarded-store.ts) and, to refuse early, by mayRead
    what: 'a permission judged by its level',
    code: /\b(allowsUpdate|permissionNeeded)\(|\ballows\((?![^)]*'read')/,
    home: 'commands/exec/plan.ts checkPermission, commands/exec/query-access.ts',
    besides: ['lib/operations/guarded-store.ts'],
  },
  { what: 'the locks of a query', code: /\bwithDatabase\(|\.analysis\(\s*\)/, home: 'commands/exec/query-access.ts' },
  { what: 'an option value parsed or checked', code: /\b(parseOptionValue|unsupportedIndexSetting|requireValidSerializerOption)\(/, home: 'commands/exec/session-options.ts optionSetting' },
  { what: 'an option read by its name', code: /'(MIXUPDATES|REPLACE|FTINDEX|CREATEFILTER|ADDRAW)'/, home: 'commands/exec/session-options.ts, commands/defs/' },
  { what: 'a database created or a resource stored', code: /\.(createDatabase|putResource)\(/, home: 'commands/defs/create-db.ts, commands/defs/put.ts', besides: ['lib/operations/guarded-store.ts'] },
  { what: 'a server file read', code: /\b(readFile|readFileSync)\(/, home: 'commands/exec/run-files.ts' },
];

describe('one home per decision', () => {
  const files = [...sourcesUnder('lib/operations'), ...sourcesUnder('lib/http')];

  test.each(DECISIONS.map((d) => [d.what, d] as const))('%s: only in its home', (_what, decision) => {
    const copies = files.filter((file) => !decision.besides?.includes(file) && decision.code.test(codeOf(file)));
    expect(copies.map((file) => `${file} (home: ${decision.home})`)).toEqual([]);
  });

  test('a copy is caught', () => {
    expect(DECISIONS.filter((d) => d.code.test("if (!allows(user, 'write', db)) return view.putResource(db, p, input);")).map((d) => d.what)).toEqual([
      'a permission judged by its level',
      'a database created or a resource stored',
    ]);
    expect(DECISIONS.some((d) => d.code.test("options.get('MIXUPDATES') === true"))).toBe(true);
    expect(DECISIONS.some((d) => d.code.test("if (!allows(session.user, perm, db)) throw x;"))).toBe(true);
    expect(DECISIONS.some((d) => d.code.test("return allows(session.user, 'read', db);"))).toBe(false);
  });
});
