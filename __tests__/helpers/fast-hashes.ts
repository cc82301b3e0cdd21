/**
 * Password hashes at the real cost (N=2^17, about 0.5 s each) would dominate the fixtures, which
 * create users in every test. Importing this module makes `hashPassword` return one hash per
 * distinct password in a test file (computed for real once, at full cost); checks of a password
 * against it are then remembered by the login cache. Tests of hashing itself do not import it.
 */
import * as password from '../../lib/users/password';

const real = password.hashPassword;
const hashes = new Map<string, Promise<password.PasswordHash>>();

jest.spyOn(password, 'hashPassword').mockImplementation((text: string) => {
  let hash = hashes.get(text);
  if (hash === undefined) {
    hash = real(text);
    hashes.set(text, hash);
  }
  return hash;
});
