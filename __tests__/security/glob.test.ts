/**
 * Glob patterns (lib/glob.ts): the same answers as the regular expression they stand for, without
 * its backtracking, and bounded lists, on every command that takes patterns and on GRANT.
 */
import { globMatches, MAX_PATTERN_LENGTH, MAX_PATTERNS } from '../../lib/glob';
import { seedUsers, startTestServer, tempDir, type TestServer } from '../helpers/rest';

/** The pattern as a regular expression (what the matcher must agree with). */
function reference(pattern: string, name: string): boolean {
  const source = pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.');
  return new RegExp(`^${source}$`, 's').test(name);
}

describe('globMatches', () => {
  test('agrees with the regular expression on every short pattern and name over a small alphabet', () => {
    const words = (alphabet: string, max: number): string[] => {
      let level = [''];
      const all = [''];
      for (let n = 1; n <= max; n++) {
        level = level.flatMap((w) => [...alphabet].map((c) => w + c));
        all.push(...level);
      }
      return all;
    };
    const names = words('ab', 5);
    // one assertion over all 21,483 pairs (an expect per pair cost more than the comparisons)
    const disagreements: Array<[pattern: string, name: string, matched: boolean]> = [];
    let compared = 0;
    for (const pattern of words('ab*?', 4)) {
      for (const name of names) {
        const matched = globMatches(pattern, name);
        if (matched !== reference(pattern, name)) disagreements.push([pattern, name, matched]);
        compared++;
      }
    }
    expect(disagreements).toEqual([]);
    expect(compared).toBe(341 * 63);
  });

  test('literal characters, regular expression syntax included, match themselves', () => {
    expect(globMatches('a.b', 'a.b')).toBe(true);
    expect(globMatches('a.b', 'axb')).toBe(false);
    expect(globMatches('(x)+', '(x)+')).toBe(true);
    expect(globMatches('db-*', 'db-2026-01-01-10-00-00')).toBe(true);
  });

  test('many stars against a long name that almost matches: answered without backtracking', () => {
    const name = 'a'.repeat(255);
    expect(globMatches(`${'*a'.repeat(100)}*b`, name)).toBe(false);
    expect(globMatches(`${'*a'.repeat(100)}*`, name)).toBe(true);
  });
});

describe('commands and grants', () => {
  let s: TestServer;
  const long = 'a'.repeat(255);
  beforeAll(async () => {
    const dbPath = tempDir();
    await seedUsers(dbPath, [{ name: 'admin', password: 'admin-pw', perm: 'admin' }, { name: 'u', password: 'pw', perm: 'read' }]);
    s = await startTestServer({ dbPath });
    await s.put(`/rest/${long}`).expect(201);
  });
  afterAll(() => s.close());
  const command = (text: string) => s.get(`/rest?command=${encodeURIComponent(text)}`);

  test('DROP DB, CREATE BACKUP and DROP BACKUP with the longest list of star patterns finish', async () => {
    const patterns = Array.from({ length: MAX_PATTERNS }, (_, i) => `*a*a*a*a*a*a*${String.fromCharCode(98 + (i % 20))}`).join(',');
    await command(`CREATE BACKUP ${patterns}`).expect(500);
    await command(`DROP BACKUP ${patterns}`).expect(200);
    await command(`DROP DB ${patterns}`).expect(200);
    await s.get(`/rest/${long}`).expect(200);
  });

  test('a list of more patterns, or a longer pattern, is refused before anything runs', async () => {
    const many = Array.from({ length: MAX_PATTERNS + 1 }, (_, i) => `x${i}*`).join(',');
    // Planning refuses the commands before the script runs (400); GRANT fails as it runs (500).
    expect((await command(`DROP DB ${many}`).expect(400)).text).toBe(`More than ${MAX_PATTERNS} patterns.`);
    expect((await command(`DROP BACKUP ${many}`).expect(400)).text).toBe(`More than ${MAX_PATTERNS} patterns.`);
    const longPattern = '*'.repeat(MAX_PATTERN_LENGTH + 1);
    expect((await command(`DROP DB ${longPattern}`).expect(400)).text).toBe(`Pattern longer than ${MAX_PATTERN_LENGTH} characters: '${'*'.repeat(32)}…'.`);
    expect((await command(`GRANT READ ON ${longPattern} TO u`).expect(500)).text).toBe(`Pattern longer than ${MAX_PATTERN_LENGTH} characters: '${'*'.repeat(32)}…'.`);
    await s.get(`/rest/${long}`).expect(200);
  });

  test('a grant pattern with many stars decides by the same matcher', async () => {
    await command(`GRANT NONE ON ${'*a'.repeat(100)}* TO u`).expect(200);
    await s.get(`/rest/${long}`).auth('u', 'pw').expect(404);
    await command(`GRANT READ ON ${'*a'.repeat(100)}* TO u`).expect(200);
    await s.get(`/rest/${long}`).auth('u', 'pw').expect(200);
  });
});
