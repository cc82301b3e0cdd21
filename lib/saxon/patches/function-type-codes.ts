/**
 * Runtime patch (saxon-js 2.7.0): saxon-js writes the types it infers as short codes (its
 * "alpha codes", e.g. `1F r[*] a[1AS]` for `function(xs:string) as item()*`) and reads them back
 * when a function item is made. Its writer leaves out the `[` of an empty argument list, so the
 * type of a function that takes no arguments comes out as `1F r[*] a]`, which its reader rejects:
 * `function($n) { function() { $n } }` fails with FORG0001 ("In alphaCode ... Expected '['")
 * although it is a plain XQuery 3.1 inline function (§3.1.7).
 *
 * The writer is private; the two methods that call it on a type's tree are not: the sequence
 * type's and the item type's `ea` (their code, cached on first use). The patch writes the code
 * with `alphaCode` below before either method would, so each finds it cached. Both methods are
 * reached through the return type of a function item made by the XPath evaluator, and checked
 * first: another saxon-js version fails when the patch is applied.
 */
import { saxon } from '..';

/** A type's tree as saxon-js keeps it: occurrence, primary kind, and the parts a kind has. */
interface AlphaTree {
  o?: string;
  p: string;
  n?: string;
  c?: string;
  k?: AlphaTree;
  v?: AlphaTree;
  r?: AlphaTree;
  a?: AlphaTree[];
  m?: AlphaTree[];
}

/** The code of a type's tree, in the order and syntax saxon-js's reader expects. */
export function alphaCode(t: AlphaTree): string {
  let code = (t.o || '1') + t.p;
  if (t.n) code += ` n${t.n}`;
  if (t.c) code += ` c${t.c}`;
  if (t.k) code += ` k[${alphaCode(t.k)}]`;
  if (t.v) code += ` v[${alphaCode(t.v)}]`;
  if (t.r) code += ` r[${alphaCode(t.r)}]`;
  if (t.a) code += ` a[${t.a.map(alphaCode).join(',')}]`;
  if (t.m) code += ` m[${t.m.map(alphaCode).join(',')}]`;
  return code;
}

/** A sequence type: `g` its tree, `b` its code once written. */
interface SequenceType {
  g?: AlphaTree;
  b?: string;
  K: object;
}

/** An item type: `b` its tree, `z` its code (without the occurrence) once written. */
interface ItemType {
  b?: AlphaTree;
  z?: string;
}

interface CodeMethod<T> {
  ea(this: T): string | null;
  __alphaCodePatched?: boolean;
}

/** Applies the patch in this thread (idempotent; throws for another saxon-js version). */
export function patchFunctionTypeCodes(): void {
  const made = saxon().XPath.evaluate('function() { 1 }', null, { resultForm: 'raw' }) as { value?: object } | null;
  const item = (made && 'value' in made ? made.value : made) as { ja?: SequenceType } | null | undefined;
  const sequenceType = item?.ja;
  const sequenceProto = sequenceType ? (Object.getPrototypeOf(sequenceType) as CodeMethod<SequenceType>) : undefined;
  const itemProto = sequenceType?.K ? ownerOf(sequenceType.K, 'ea') : undefined;
  if (sequenceProto?.__alphaCodePatched) return;
  const ownSequenceEa = sequenceProto && Object.prototype.hasOwnProperty.call(sequenceProto, 'ea') ? String(sequenceProto.ea) : '';
  const ownItemEa = itemProto ? String(itemProto.ea) : '';
  if (!sequenceProto || !itemProto || !/this\.b=this\.g\?\w+\(this\.g\)/.test(ownSequenceEa) || !/if\(!this\.z\)if\(this\.b\)\w+\(this,\w+\(this\.b\)\)/.test(ownItemEa)) {
    throw new Error('saxon-js type-code patch: the type codes of saxon-js 2.7.0 were not found; review lib/saxon/patches/function-type-codes.ts for this saxon-js version');
  }
  const sequenceEa = sequenceProto.ea;
  sequenceProto.ea = function codeOfSequenceType(this: SequenceType): string | null {
    if (!this.b && this.g) this.b = alphaCode(this.g);
    return sequenceEa.call(this);
  };
  const itemEa = itemProto.ea;
  itemProto.ea = function codeOfItemType(this: ItemType): string | null {
    // the item type keeps its code without the occurrence indicator
    if (!this.z && this.b) this.z = alphaCode(this.b).replace(/^[01?*+]/, '');
    return itemEa.call(this);
  };
  sequenceProto.__alphaCodePatched = true;
}

/** The prototype on `object`'s chain that defines `name`. */
function ownerOf(object: object, name: string): CodeMethod<ItemType> | undefined {
  for (let p = Object.getPrototypeOf(object) as object | null; p && p !== Object.prototype; p = Object.getPrototypeOf(p) as object | null) {
    if (Object.prototype.hasOwnProperty.call(p, name)) return p as CodeMethod<ItemType>;
  }
  return undefined;
}
