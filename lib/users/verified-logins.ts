/**
 * Passwords recently proven right, so that authenticated traffic does not pay for scrypt on every
 * request (HTTP Basic sends the password each time, spec §13.1). An entry is an HMAC, under a
 * random key of this process, of the stored hash and the password: it is worthless outside the
 * process, cannot be tested offline, and dies by itself when the password (so the hash) changes.
 * Checks of the same password against the same hash that run at once share one computation.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { verifyPassword, type PasswordHash } from './password';

const PROCESS_KEY = randomBytes(32);
const remembered = new LRUCache<string, true>({ max: 10_000 });
const inFlight = new Map<string, Promise<boolean>>();

function fingerprint(password: string, hash: PasswordHash): string {
  return createHmac('sha256', PROCESS_KEY)
    .update(`${hash.salt}\0${hash.key}\0`)
    .update(password)
    .digest('base64');
}

/** True when this password was proven right for this hash before (no scrypt). */
export function isRemembered(password: string, hash: PasswordHash): boolean {
  return remembered.has(fingerprint(password, hash));
}

/** True while a check of this password against this hash runs (another would share it). */
export function isBeingChecked(password: string, hash: PasswordHash): boolean {
  return inFlight.has(fingerprint(password, hash));
}

/** Checks a password against a stored hash, remembering a success. */
export function checkPassword(password: string, hash: PasswordHash): Promise<boolean> {
  const key = fingerprint(password, hash);
  if (remembered.has(key)) return Promise.resolve(true);
  let check = inFlight.get(key);
  if (check === undefined) {
    check = verifyPassword(password, hash)
      .then((ok) => {
        if (ok) remembered.set(key, true);
        return ok;
      })
      .finally(() => inFlight.delete(key));
    inFlight.set(key, check);
  }
  return check;
}
