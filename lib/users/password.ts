/** Salted scrypt password hashes. Only the hash and its parameters are ever stored. */
import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { raise } from '../xmldb-error';
import { USER_ERRORS } from './user-errors';

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

interface Cost {
  readonly N: number;
  readonly r: number;
  readonly p: number;
}

const KEY_LENGTH = 32;
/** OWASP Password Storage Cheat Sheet, scrypt: N=2^17, r=8, p=1. */
export const HASH_COST: Cost = Object.freeze({ N: 2 ** 17, r: 8, p: 1 });
/** scrypt needs 128·N·r·p bytes (128 MiB at HASH_COST); Node's default limit is 32 MiB. */
const MAX_MEMORY = 256 * 1024 * 1024;

/**
 * scrypt runs on libuv's thread pool (4 threads by default), which every file read and write
 * of the store shares. One hash at a time leaves the other threads to the store, so a flood of
 * logins slows logins only, and bounds the memory scrypt takes to one 128 MiB block.
 */
const MAX_CONCURRENT_HASHES = 1;
let hashing = 0;
const waiting: Array<() => void> = [];

async function exclusive<T>(work: () => Promise<T>): Promise<T> {
  if (hashing < MAX_CONCURRENT_HASHES) hashing++;
  else await new Promise<void>((resolve) => waiting.push(resolve));
  try {
    return await work();
  } finally {
    // The slot passes straight to the next waiter, if any.
    const next = waiting.shift();
    if (next) next();
    else hashing--;
  }
}

function derive(password: string, salt: Buffer, cost: Cost): Promise<Buffer> {
  return exclusive(
    () =>
      new Promise<Buffer>((resolve, reject) => {
        scrypt(password, salt, KEY_LENGTH, { N: cost.N, r: cost.r, p: cost.p, maxmem: MAX_MEMORY }, (err, key) =>
          err ? reject(err) : resolve(key),
        );
      }),
  );
}

/**
 * A new hash of `password`. A password with U+0000 is refused: scrypt keys its HMAC with the
 * password, padded with zero bytes, so `pw` and `pw\0` would hash alike.
 */
export async function hashPassword(password: string): Promise<PasswordHash> {
  if (password.includes('\0')) throw raise(USER_ERRORS, 'INVALID_PASSWORD');
  const salt = randomBytes(16);
  const key = await derive(password, salt, HASH_COST);
  return { algorithm: 'scrypt', ...HASH_COST, salt: salt.toString('base64'), key: key.toString('base64') };
}

export async function verifyPassword(password: string, hash: PasswordHash): Promise<boolean> {
  const expected = Buffer.from(hash.key, 'base64');
  const key = await derive(password, Buffer.from(hash.salt, 'base64'), hash);
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/** True when a stored hash was made with weaker parameters than today's (rehash it on login). */
export function isOutdated(hash: PasswordHash): boolean {
  return hash.N < HASH_COST.N || hash.r < HASH_COST.r || hash.p < HASH_COST.p;
}

/** The stand-in hash of verifyUnknownUser, and the cost it was made at. */
let dummy: { readonly cost: Cost; readonly hash: Promise<PasswordHash> } | undefined;

/**
 * Spends what checking a real password costs, for a user name that does not exist: the answer
 * then takes as long as for a known user with a wrong password, and does not tell which names
 * exist. Always false.
 */
export async function verifyUnknownUser(password: string): Promise<false> {
  // made again if the cost changed since (it is a constant, but tests lower it for a while)
  if (dummy?.cost !== HASH_COST) dummy = { cost: HASH_COST, hash: hashPassword(generatePassword()) };
  await verifyPassword(password, await dummy.hash);
  return false;
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
