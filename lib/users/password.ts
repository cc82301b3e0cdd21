/** Salted scrypt password hashes. Only the hash and its parameters are ever stored. */
import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

export interface PasswordHash {
  readonly algorithm: 'scrypt';
  /** CPU/memory cost, block size and parallelism of scrypt. */
  readonly N: number;
  readonly r: number;
  readonly p: number;
  /** Base64 salt and derived key. */
  readonly salt: string;
  readonly key: string;
}

const KEY_LENGTH = 32;
const DEFAULT_COST = { N: 16384, r: 8, p: 1 };

function derive(password: string, salt: Buffer, cost: { N: number; r: number; p: number }): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password, salt, KEY_LENGTH, { ...cost, maxmem: 64 * 1024 * 1024 }, (err, key) =>
      err ? reject(err) : resolve(key),
    );
  });
}

export async function hashPassword(password: string): Promise<PasswordHash> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, DEFAULT_COST);
  return { algorithm: 'scrypt', ...DEFAULT_COST, salt: salt.toString('base64'), key: key.toString('base64') };
}

export async function verifyPassword(password: string, hash: PasswordHash): Promise<boolean> {
  const expected = Buffer.from(hash.key, 'base64');
  const key = await derive(password, Buffer.from(hash.salt, 'base64'), hash);
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/** A strong random password (for a fresh data folder without a configured admin password). */
export function generatePassword(): string {
  return randomBytes(18).toString('base64url');
}

export function isPasswordHash(value: unknown): value is PasswordHash {
  const h = value as PasswordHash;
  return (
    typeof h === 'object' && h !== null && h.algorithm === 'scrypt' &&
    Number.isInteger(h.N) && Number.isInteger(h.r) && Number.isInteger(h.p) &&
    typeof h.salt === 'string' && typeof h.key === 'string'
  );
}
