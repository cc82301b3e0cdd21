/**
 * BaseX's Hashing Module (docs.basex.org, "Hashing Functions"), as saxon-js extension functions in
 * namespace `http://basex.org/modules/hash` (prefix `hash`):
 *
 *   hash:md5($value) as xs:base64Binary
 *   hash:sha1($value) as xs:base64Binary
 *   hash:sha256($value) as xs:base64Binary
 *   hash:hash($value, $algorithm as xs:string) as xs:base64Binary
 *
 * `$value` is a string (hashed as UTF-8) or a binary item (xs:base64Binary, xs:hexBinary: its
 * bytes); other atomic values count as their string. Algorithms for hash:hash, in any case, with
 * or without a hyphen: MD5, SHA-1, SHA-256, SHA-384, SHA-512; any other is `[hash:algorithm]`.
 * The digests come from Node's crypto module.
 */
import { createHash } from 'node:crypto';
import { registerFunctions, type XdmAtomic, type XdmValue } from '../../saxon';
import { base64Item, binaryBytes } from './convert';
import { moduleError } from './support/option-maps';
import { MODULE_NAMESPACES } from '../module-namespaces';

const ALGORITHMS: Readonly<Record<string, string>> = { md5: 'md5', sha1: 'sha1', sha256: 'sha256', sha384: 'sha384', sha512: 'sha512' };

function bytesOf(value: XdmValue, fn: string): Buffer {
  const item = value[0] as XdmAtomic;
  return item.code === 'A2' || item.code === 'AX' ? binaryBytes(item, fn) : Buffer.from(String(item), 'utf8');
}

function hash(value: XdmValue, algorithm: string, fn: string): XdmValue {
  const name = ALGORITHMS[algorithm.toLowerCase().replace('-', '')];
  if (name === undefined) throw moduleError('hash', 'algorithm', `Algorithm not supported: '${algorithm}'.`);
  return [base64Item(createHash(name).update(bytesOf(value, fn)).digest())];
}

/** Registers the hash: functions with saxon-js (the list in extension-functions.ts, in query workers). */
export function registerHashFunctions(): void {
  registerFunctions(MODULE_NAMESPACES.hash, {
    md5: { sig: '1F r[1A2] a[1A]', impl: ([v]) => hash(v, 'md5', 'hash:md5') },
    sha1: { sig: '1F r[1A2] a[1A]', impl: ([v]) => hash(v, 'sha1', 'hash:sha1') },
    sha256: { sig: '1F r[1A2] a[1A]', impl: ([v]) => hash(v, 'sha256', 'hash:sha256') },
    hash: { sig: '1F r[1A2] a[1A,1AS]', impl: ([v, algorithm]) => hash(v, String(algorithm[0]), 'hash:hash') },
  });
}
