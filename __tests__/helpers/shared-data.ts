/**
 * Test data kept beside the repository in `../shared` (the public QT3 test suite and its runner),
 * which a clone does not bring along. Suites that need it run when it is there; when it is absent
 * they are skipped with a test named for the reason and a line on the console, except under CI
 * (`CI` set, as `.ci/run` does), where the data is expected and its absence fails the run.
 *
 *   describeWithShared('QT3 queries', ['qt3/catalog.xml'], () => { ... });
 */
import fs from 'node:fs';
import path from 'node:path';

/** The `shared` folder beside the repository, or where `XMLDB_SHARED_DIR` says (a checkout elsewhere). */
export const SHARED = process.env.XMLDB_SHARED_DIR ? path.resolve(process.env.XMLDB_SHARED_DIR) : path.resolve(__dirname, '..', '..', '..', 'shared');

/** A path inside `../shared`. */
export function sharedPath(...parts: string[]): string {
  return path.join(SHARED, ...parts);
}

/** Whether the tests run under CI (`CI` set and not false): required data must then be present. */
export function underCi(): boolean {
  const ci = process.env.CI;
  return ci !== undefined && ci !== '' && ci !== '0' && ci.toLowerCase() !== 'false';
}

/** `describe(name, body)` if every path of `needs` (relative to `../shared`) exists; see above. */
export function describeWithShared(name: string, needs: readonly string[], body: () => void): void {
  const missing = needs.filter((p) => !fs.existsSync(sharedPath(p)));
  if (missing.length === 0) {
    describe(name, body);
    return;
  }
  const why = `needs ${missing.map((p) => `../shared/${p}`).join(', ')} beside the repository`;
  if (underCi()) {
    describe(name, () => {
      test(`${why} (required under CI)`, () => {
        throw new Error(`${name}: ${why}, and CI is set: the data must be present here.`);
      });
    });
    return;
  }
  // Straight to stderr: jest does not show the console output of a suite whose tests all skip.
  process.stderr.write(`Skipped "${name}": it ${why}.\n`);
  describe(name, () => {
    test.skip(`skipped: ${why}`, () => undefined);
  });
}
