/**
 * Source patch (saxon-js 2.7.0), applied with the other source patches (source.ts): the value of a
 * global variable built from literals only is computed once per process, not once per transform.
 *
 * saxon-js evaluates a global variable on first use in each transform (in `gVarRef` of
 * SaxonJS2N.js) and keeps the value for that transform only. Every compilation of a query is a
 * transform of the built-in XSLT compiler, whose global variables include large constant tables:
 * `xslt.schema` alone (a map of every XSLT element's attributes and content, about 2,900 SEF
 * nodes) took about 4 ms of each compilation, a fifth of compiling a trivial stylesheet.
 *
 * `markConstantGlobals` marks, in a SEF tree, the global variables whose select expression is made
 * of literals, sequences of them and map constructors over them (`CONSTANT_KINDS`): no reference to a
 * variable, parameter, function or the context, no constructed node, so their value is the same
 * in every transform, and XDM values are immutable. The patched evaluation keeps the value of a
 * marked variable on its SEF node (`KEPT`) after computing it once. Only trees the engine marks are
 * affected: compile.ts marks the built-in compiler's. The original text is found character for
 * character, or the patch throws.
 */
import type { SefTree } from '../types';
import { replaceOnce } from './replace-once';

/** saxon-js 2.7.0's first evaluation of a global variable in a transform (`t`: its SEF node). */
const ORIGINAL = 'try{const ua=d(t);T.value=a;T.value=ua(ia).expand()}';

/** The mark `markConstantGlobals` sets on a variable's node, and the property its value is kept in. */
export const MARK = 'constant';
export const KEPT = 'keptValue';

/** The same, reading and writing the value kept on a marked variable's node. */
const PATCHED = `try{if(t.${KEPT}!==void 0)T.value=t.${KEPT};else{const ua=d(t);T.value=a;T.value=ua(ia).expand();t.${MARK}===!0&&(t.${KEPT}=T.value)}}`;

/** SEF instructions whose value depends on nothing but their children: literals, sequences, maps. */
const CONSTANT_KINDS: ReadonlySet<string> = new Set(['str', 'int', 'dec', 'dbl', 'literal', 'true', 'false', 'empty', 'sequence', 'map']);

/** `source` (SaxonJS2N.js of 2.7.0) with constant global variables kept; throws for another text. */
export function patchConstantGlobals(source: string): string {
  return replaceOnce(source, ORIGINAL, PATCHED, 'saxon-js constant globals patch: the global variable evaluation of saxon-js 2.7.0 was not found; review lib/saxon/patches/constant-globals.ts for this saxon-js version');
}

/** Marks the global variables of `tree` built from literals only (see the file comment); answers their names. */
export function markConstantGlobals(tree: SefTree): string[] {
  const marked: string[] = [];
  const visit = (node: SefTree): void => {
    if (node.N === 'globalVariable') {
      if ((node.C ?? []).length > 0 && (node.C ?? []).every(constant)) {
        node[MARK] = true;
        marked.push(String(node.name));
      }
      return;
    }
    for (const child of node.C ?? []) visit(child);
  };
  visit(tree);
  return marked;
}

function constant(node: SefTree): boolean {
  return CONSTANT_KINDS.has(node.N) && (node.C ?? []).every(constant);
}
