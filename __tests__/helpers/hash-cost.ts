/**
 * The cheap scrypt cost of the tests (N=2^10 instead of the production N=2^17, about 0.3 s of CPU
 * per hash): in a test file through fast-hashes.ts, in a server process the tests start through
 * `cheapHashesInChild`. Parameters are the same everywhere in a process (hashing, checking, what
 * counts as an outdated hash), so behaviour is unchanged but for the time.
 */
import path from 'node:path';

export const CHEAP_HASH_COST = Object.freeze({ N: 2 ** 10, r: 8, p: 1 });

/**
 * A line of a child's bootstrap, after the source loader: lowers the cost of the password module
 * that the child's server loads from the repository `root` (`export const` compiles to a property
 * of `exports`, which the module itself reads).
 */
export function cheapHashesInChild(root: string): string {
  const module = path.join(root, 'lib', 'users', 'password.ts');
  return `require(${JSON.stringify(module)}).HASH_COST = Object.freeze(${JSON.stringify(CHEAP_HASH_COST)});`;
}
