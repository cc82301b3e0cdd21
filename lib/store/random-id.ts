/** Random ids for both stores' database incarnations, etags and draft versions. */
import { randomBytes } from 'node:crypto';

/** A fresh random id (incarnations, etags). */
export function randomId(): string {
  return randomBytes(12).toString('base64url');
}
