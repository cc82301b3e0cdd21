/**
 * Keys of the maps that bind variables or stylesheet parameters by name (xquery:eval's
 * `$bindings`, xslt:transform's `$params`; BaseX): an xs:QName, or a string `name`, `$name` or
 * `Q{uri}name`. The answer is the EQName `Q{uri}local`; the empty string stays empty (xquery:eval
 * binds the context with it).
 */
import { TypeCode, atomicDerivesFrom, type XdmAtomic } from '../../../saxon';

export function bindingName(key: XdmAtomic): string {
  if (atomicDerivesFrom(key, TypeCode.QName)) {
    const q = key as unknown as { q?: string; local: string };
    return `Q{${q.q ?? ''}}${q.local}`;
  }
  const text = String(key).replace(/^\$/, '');
  if (text === '' || text.startsWith('Q{')) return text;
  return `Q{}${text}`;
}
