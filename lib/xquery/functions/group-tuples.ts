/**
 * The grouping of a group by clause (XQuery 3.1 §3.12.7) over tuples whose keys are plain
 * strings, numbers or booleans, in one pass over a hash map, behind one extension function in
 * the engine's namespace:
 *
 *   Q{urn:xmldb-rest:engine}group-tuples($tuples as array(*)*, $names as xs:string*,
 *       $collation as xs:string) as item()*
 *
 * Each tuple is an array whose first K members are its atomized grouping keys (K the number of
 * `$names`, the local names of the grouping variables) and whose other members are the values
 * of the tuple's variables. A key of more than one item raises XPTY0004 (§3.12.7), for the first
 * such tuple in order, before anything is grouped. The answer is one array per group, in order of first appearance (the order
 * the spec leaves to the implementation; the one of the XSLT grouping this function stands in
 * for, language/translate/flwor/group.ts): the keys of the group's first tuple, then per variable the
 * concatenation of its values over the group's tuples, in order. It is the single item false()
 * when this function cannot group exactly; the caller then groups the same arrays with
 * `xsl:for-each-group`.
 *
 * Exactness. Two tuples are in one group when their keys are pairwise deep-equal (§3.12.7:
 * both empty, or the values compare equal with `eq`, NaN equal to NaN; values `eq` cannot
 * compare are distinct; xs:untypedAtomic compared as xs:string). The keys are mapped to strings
 * that are equal exactly then:
 * - xs:string, xs:anyURI (promoted to xs:string) and xs:untypedAtomic: the string, under the
 *   Unicode codepoint collation only;
 * - xs:double, xs:float, and xs:integer held as a JavaScript number: the number (a float or an
 *   integer promoted to xs:double is that number; −0 and 0 are equal, NaN equals NaN); xs:float
 *   beside xs:integer in one spec (both then promoted to xs:float, which may round) is left to
 *   the caller;
 * - xs:boolean: its value.
 * Any other type (decimals, dates, QNames…) or another collation is left to the caller.
 *
 * Registered by `registerGroupFunctions` (extension-functions.ts).
 */
import { ENGINE_NS } from '../constants';
import { arrayValue, castString, isArray, isAtomic, registerFunctions, xpathError, type XdmArray, type XdmValue } from '../../saxon';

export const GROUP_TUPLES_FUNCTION = 'group-tuples';

const CODEPOINT_COLLATION = 'http://www.w3.org/2005/xpath-functions/collation/codepoint';

/** The message of XPTY0004 for a grouping key of more than one item (the XSLT grouping raises it too). */
export function groupKeyMessage(name: string): string {
  return `The grouping key $${name} has more than one item.`;
}

/** The kinds of key one spec has seen, as bits. */
const FLOAT = 1;
const INTEGER = 2;

/** The hash of one key (`kinds[spec]` collects what it saw), or undefined when it is not plain. */
function keyOf(value: XdmValue, kinds: Uint8Array, spec: number): string | undefined {
  if (value.length === 0) return 'e';
  const item = value[0];
  if (!isAtomic(item)) return undefined;
  const code = item.code;
  const v = (item as { value: unknown }).value;
  if (code.startsWith('AS') || code === 'AZ' || code === 'AU') return `s${String(v)}`;
  if (code === 'AO') return `n${String(v)}`;
  if (code === 'AF') {
    kinds[spec] |= FLOAT;
    return `n${String(v)}`;
  }
  if (code.startsWith('ADI') && typeof v === 'number') {
    kinds[spec] |= INTEGER;
    return `n${String(v)}`;
  }
  if (code === 'AB') return `b${String(v)}`;
  return undefined;
}

/** The groups of `tuples` by their first `keys` members (see the head of this file); undefined when not plain. */
function groupTuples(tuples: readonly XdmArray[], names: readonly string[]): XdmArray[] | undefined {
  const keys = names.length;
  for (const tuple of tuples) {
    for (let k = 0; k < keys; k++) if (tuple.value[k].length > 1) throw xpathError(groupKeyMessage(names[k]), 'XPTY0004');
  }
  const kinds = new Uint8Array(keys);
  const groups = new Map<string, XdmValue[]>();
  for (const tuple of tuples) {
    const members = tuple.value;
    let hash = '';
    for (let k = 0; k < keys; k++) {
      const part = keyOf(members[k], kinds, k);
      if (part === undefined) return undefined;
      // no XPath string holds U+0000 (XML characters only): the parts cannot run into each other
      hash += k === 0 ? part : `\u0000${part}`;
    }
    const group = groups.get(hash);
    if (!group) {
      groups.set(hash, members.map((m) => [...m]));
      continue;
    }
    for (let m = keys; m < members.length; m++) for (const item of members[m]) group[m].push(item);
  }
  if (kinds.some((k) => k === (FLOAT | INTEGER))) return undefined;
  return [...groups.values()].map((members) => arrayValue(members));
}

function groupTuplesFn([tuples, names, collation]: XdmValue[]): XdmValue {
  const cannot = [castString('false', 'boolean')];
  if (!tuples.every(isArray)) return cannot;
  const arrays = tuples as XdmArray[];
  if (String(collation[0]) !== CODEPOINT_COLLATION) return cannot;
  return groupTuples(arrays, names.map(String)) ?? cannot;
}

/** Registers engine:group-tuples with saxon-js (the list in extension-functions.ts, in query workers). */
export function registerGroupFunctions(): void {
  registerFunctions(ENGINE_NS, {
    [GROUP_TUPLES_FUNCTION]: { sig: '1F r[*] a[*,*AS,1AS]', impl: groupTuplesFn },
  });
}
