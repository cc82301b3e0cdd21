import { setup, type Fixture } from './setup';

let f: Fixture;
beforeEach(async () => {
  f = await setup();
});
afterEach(async () => {
  await f.close();
});

/**
 * Script `i` (re)creates database p{i % 5}, fills it, lists it, and sometimes copies it, drops a
 * neighbour, queries everything or manages a user. Names overlap, so scripts contend for locks.
 */
function script(i: number): string {
  const db = `p${i % 5}`;
  const lines = [`CREATE DB ${db} <d i="${i}"/>`, `ADD TO doc${i}.xml <d/>`, `ADD TO dir/doc${i}b.xml <d/>`, `LIST ${db}`];
  if (i % 3 === 0) lines.push(`DROP DB p${(i + 1) % 5}`);
  if (i % 4 === 1) lines.push(`COPY ${db} c${i % 3}`);
  if (i % 5 === 2) lines.push('XQUERY whole', 'LIST');
  if (i % 6 === 3) lines.push(`CREATE USER u${i} pw`, `GRANT read ON ${db} TO u${i}`, `DROP USER u${i}`);
  lines.push(`OPEN ${db}`, 'INFO DB');
  return lines.join('\n');
}

test('20 scripts in parallel all finish; every database holds what one script put there', async () => {
  const outputs = await Promise.all(Array.from({ length: 20 }, (_, i) => f.run(script(i))));
  for (const [i, out] of outputs.entries()) {
    // each script saw its own database as it built it: the script runs under one lock set
    expect(out).toContain(`doc${i}.xml`);
    expect(out).toMatch(/\n3 Resource\(s\)\.\n/);
    expect(out).toContain(`Database Properties\n NAME: p${i % 5}\n`);
    expect(out).toContain(' DOCUMENTS: 3\n');
  }
  for (const db of await f.databases()) {
    const paths = await f.resources(db);
    expect(paths).toHaveLength(3);
    const i = Number(/^doc(\d+)\.xml$/.exec(paths.find((p) => p.startsWith('doc'))!)![1]);
    expect(paths).toStrictEqual([`${db.startsWith('p') ? db : `p${i % 5}`}.xml`, `dir/doc${i}b.xml`, `doc${i}.xml`].sort());
    if (db.startsWith('p')) expect(i % 5).toBe(Number(db.slice(1)));
  }
  expect(f.users.list().map((u) => u.name)).toStrictEqual(['admin']);
});
