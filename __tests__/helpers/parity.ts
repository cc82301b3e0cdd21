/**
 * The conformance and parity suites (XQUTS, XQFTTS, the permission matrices, and through them
 * their PostgreSQL runs) check many cases of one kind, which take most of the suite's time. By
 * default (`npm test`) each runs a slice of its cases: every `every`-th case in its own order,
 * starting with the first: the same cases every run, spread evenly over the suite's groups
 * (catalog sections, users, operations), so that every group larger than `every` has some. With
 * `XMLDB_TEST_PARITY=full` (`npm run test:parity`, which CI runs after `npm test`) every case
 * runs. A slice keeps every assertion of the cases it runs.
 */

/** The environment variable that runs the parity suites whole: `full`. */
export const PARITY_ENV = 'XMLDB_TEST_PARITY';

/** Whether this run checks every case of the parity suites. */
export function fullParity(): boolean {
  return process.env[PARITY_ENV] === 'full';
}

/**
 * The cases of this run: all of them in a full run, else every `every`-th, from the one at
 * `offset` (suites that slice several lists of the same cases turn the offset, so that each case
 * runs in one of them).
 */
export function paritySlice<T>(cases: readonly T[], every: number, offset = 0): T[] {
  return fullParity() ? [...cases] : cases.filter((_, i) => i % every === offset % every);
}

/** How a slice is named in test titles: ` (1 case in 8, ...)`, or nothing in a full run. */
export function sliceNote(every: number): string {
  return fullParity() ? '' : ` (1 case in ${every}; ${PARITY_ENV}=full runs all)`;
}

/**
 * A parity suite that `npm test` leaves to the full run: there a skipped test names it and the
 * command that runs it.
 */
export function inFullParity(name: string, body: () => void): void {
  if (fullParity()) body();
  else test.skip(`${name}: runs with ${PARITY_ENV}=full (npm run test:parity)`, () => undefined);
}
