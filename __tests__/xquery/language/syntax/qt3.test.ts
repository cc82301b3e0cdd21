/**
 * Parses every query of the public QT3 subset: a query whose only expected outcome is XPST0003
 * must fail to parse, every other query must parse (or fail with a code its result allows).
 * Known exceptions, with reasons: fixtures/xquery/qt3-syntax-exceptions.csv.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseQuery, XQuerySyntaxError } from '../../../../lib/xquery/language/syntax';
import { describeWithShared } from '../../../helpers/shared-data';
import { loadQt3Cases, QT3_NEEDS } from './qt3-catalog';

const EXCEPTIONS = new Map(
  readFileSync(join(__dirname, '../../../../fixtures/xquery/qt3-syntax-exceptions.csv'), 'utf8')
    .split('\n')
    .slice(1)
    .filter((l) => l.trim())
    .map((l) => [l.slice(0, l.indexOf(',')), l.slice(l.indexOf(',') + 1)] as const),
);

interface Outcome {
  name: string;
  pass: boolean;
  detail: string;
}

function run(): { outcomes: Outcome[]; mustFail: number } {
  const outcomes: Outcome[] = [];
  let mustFail = 0;
  for (const c of loadQt3Cases()) {
    const expectFail = c.errorOnly && c.errors.includes('XPST0003');
    if (expectFail) mustFail++;
    let err: XQuerySyntaxError | null = null;
    try {
      parseQuery(c.query);
    } catch (e) {
      if (!(e instanceof XQuerySyntaxError)) throw e;
      err = e;
    }
    const pass = err ? c.errors.includes(err.code) : !expectFail;
    const detail = `${c.set} ${c.name}: expected ${c.errors.join('|') || 'a parse'}, got ${err ? `${err.code} ${err.message}` : 'a parse'}\n  ${c.query.slice(0, 300)}`;
    outcomes.push({ name: c.name, pass, detail });
  }
  return { outcomes, mustFail };
}

describeWithShared('QT3 public subset through the parser', QT3_NEEDS, () => {
  const { outcomes, mustFail } = run();
  const failures = outcomes.filter((o) => !o.pass && !EXCEPTIONS.has(o.name));

  it('parses or rejects every query as the catalog expects', () => {
    const passed = outcomes.filter((o) => o.pass).length;
    console.log(`QT3 syntax: ${outcomes.length} queries, ${mustFail} expect XPST0003; ${passed} as expected, ${outcomes.length - passed - failures.length} known exceptions, ${failures.length} unexpected`);
    expect(failures.map((f) => f.detail)).toEqual([]);
  });

  it('lists no stale exceptions', () => {
    const byName = new Map(outcomes.map((o) => [o.name, o]));
    const stale = [...EXCEPTIONS.keys()].filter((n) => !byName.has(n) || byName.get(n)!.pass);
    expect(stale).toEqual([]);
  });
});
