/**
 * Password hashes at the real cost (scrypt N=2^17, about 0.5 s each) would dominate the
 * fixtures: every test file creates users and logs in, and unknown names cost a hash too.
 * Importing this module (helpers/rest.ts does) lowers the cost of every hash and check in this
 * test file to N=2^10 (hash-cost.ts), the same parameters everywhere (hashing, checking, what
 * counts as an outdated hash), so behaviour is unchanged but for the time. The blocks of tests of
 * the hashing itself call `useRealHashCost()`.
 */
import * as password from '../../lib/users/password';
import { CHEAP_HASH_COST as CHEAP } from './hash-cost';

let cheap: jest.ReplaceProperty<unknown> | undefined = jest.replaceProperty(password, 'HASH_COST', CHEAP);

/**
 * The production cost (OWASP) for the tests of the calling `describe` block, the tests of the
 * hashing and rehashing themselves; the cheap cost again after the block.
 */
export function useRealHashCost(): void {
  beforeAll(() => {
    cheap?.restore();
    cheap = undefined;
  });
  afterAll(() => {
    cheap = jest.replaceProperty(password, 'HASH_COST', CHEAP);
  });
}
