/**
 * Password hashes at the real cost (scrypt N=2^17, about 0.5 s each) would dominate the
 * fixtures: every test file creates users and logs in, and unknown names cost a hash too.
 * Importing this module (helpers/rest.ts does) lowers the cost of every hash and check in this
 * test file to N=2^10, the same parameters everywhere (hashing, checking, what counts as an
 * outdated hash), so behaviour is unchanged but for the time. Tests of the hashing itself call
 * `useRealHashCost()` first.
 */
import * as password from '../../lib/users/password';

const cheap = jest.replaceProperty(password, 'HASH_COST', Object.freeze({ N: 2 ** 10, r: 8, p: 1 }));

/** Back to the production cost (OWASP), for tests of hashing, rehashing and throttling. */
export function useRealHashCost(): void {
  cheap.restore();
}
