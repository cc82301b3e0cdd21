/**
 * BaseX's Database Module, index functions (BaseX 13 names), answered from the value indexes of
 * accelerators/value-index/value-index.ts, in namespace `http://basex.org/modules/db`:
 *
 *   db:text($db, $strings as xs:string*) as text()*                     text nodes with one of the values
 *   db:text-range($db, $min, $max) as text()*                           text nodes with a value in [min, max]
 *   db:attribute($db, $strings as xs:string*[, $name]) as attribute()*  attributes with one of the values
 *   db:attribute-range($db, $min, $max[, $name]) as attribute()*        attributes with a value in [min, max]
 *   db:token($db, $tokens as xs:string*[, $name]) as attribute()*       attributes whose value holds a token
 *
 * `$name` keeps attributes of that (lexical) name only. Ranges compare by codepoints. Results are
 * in document order: the documents in path order, each in its own order.
 * Errors: db:open (unknown database), db:no-index `Database 'x' has no text index.` when the
 * database's TEXTINDEX/ATTRINDEX/TOKENINDEX option is false (store/index-kinds.ts).
 *
 * And, in the engine's namespace, what the translator emits for predicates BaseX's optimizer
 * answers from its indexes (accelerators/value-index/paths-value-index.ts):
 *
 *   Q{urn:xmldb-rest:engine}descendants-matching($node as item()*, $name as xs:string,
 *       $kind as xs:string, $key as xs:string, $values as item()*) as item()*
 *
 * What `$node//name[P]` selects (`$name` `Q{uri}local`, or ANY_ELEMENT, tree/name-rows.ts), P by `$kind`:
 * `text`: `text() = $values`; `attribute`: `@key = $values` (`$key` the attribute's `Q{uri}local`,
 * or '*' for any attribute: `@* = $values`);
 * `self`: `. = $values`; `token`: `contains-token(@key, $values)`. It answers false() when it
 * cannot answer exactly, and the caller evaluates the predicate as written: when `$node` is not
 * the document node of a stored document of a database with that index, when a value is not an
 * xs:string, xs:untypedAtomic or xs:anyURI (another type compares otherwise, or raises), for
 * `token` unless there is exactly one value, and for `self` with the value '' or elements that
 * are not simple leaves (value-index.ts `leavesAreSimple`). Strings compare by codepoints: the
 * engine's only collation (translate/prolog.ts refuses others).
 *
 * With a sixth argument `$path` (expanded names, the last `$name`), it selects what the child
 * path `$node/p1/…/pn[P]` selects instead: the elements found whose ancestors up to the document
 * node are named `p1 … pn` (BaseX answers `/site/people/person[@id = $v]` from its attribute
 * index the same way).
 */
import { ENGINE_NS } from '../constants';
import { atomicTypeName, castString, isAtomic, isNode, NodeKind, registerFunctions, type XdmNode, type XdmValue } from '../../saxon';
import { activeDatabases, dbError } from '../worker/documents/database-access';
import { attributeNameAt, leavesAreSimple, lookup, lookupRange, nameAt, nodeAt, parentPre, tokensOf } from '../accelerators/value-index/value-index';
import { descendantsNamed } from '../accelerators/name-index/name-index';
import { ANY_ELEMENT } from '../../tree/name-rows';
import { hasValueIndex, type ValueIndexKind } from '../../store';
import { DB_NS } from './db';

/** The local name of the engine's function. */
export const DESCENDANTS_MATCHING_FUNCTION = 'descendants-matching';

const KIND_NAMES: Readonly<Record<ValueIndexKind, string>> = { text: 'text', attribute: 'attribute', token: 'token' };

const str = (v: XdmValue | undefined): string => (v && v.length > 0 ? String(v[0]) : '');

/** The XML documents of database `db`, which must have index `kind`. */
function indexedDocuments(db: string, kind: ValueIndexKind): XdmNode[] {
  const access = activeDatabases();
  if (!hasValueIndex(access.databaseInfo(db).options, kind)) throw dbError('no-index', `Database '${db}' has no ${KIND_NAMES[kind]} index.`);
  return access.documents(db);
}

/** The nodes at `pres` of each document, documents in order. */
function collect(docs: readonly XdmNode[], pres: (doc: XdmNode) => number[], keep: (doc: XdmNode, pre: number) => boolean = () => true): XdmNode[] {
  const out: XdmNode[] = [];
  for (const doc of docs) for (const pre of pres(doc)) if (keep(doc, pre)) out.push(nodeAt(doc, pre) as XdmNode);
  return out;
}

function named(name: XdmValue | undefined): (doc: XdmNode, pre: number) => boolean {
  if (!name || name.length === 0) return () => true;
  const wanted = String(name[0]);
  return (doc, pre) => attributeNameAt(doc, pre) === wanted;
}

function text([db, strings]: XdmValue[]): XdmValue {
  const values = strings.map(String);
  return collect(indexedDocuments(str(db), 'text'), (doc) => lookup(doc, 'text', values));
}

function textRange([db, min, max]: XdmValue[]): XdmValue {
  return collect(indexedDocuments(str(db), 'text'), (doc) => lookupRange(doc, 'text', str(min), str(max)));
}

function attribute([db, strings, name]: XdmValue[]): XdmValue {
  const values = strings.map(String);
  return collect(indexedDocuments(str(db), 'attribute'), (doc) => lookup(doc, 'attribute', values), named(name));
}

function attributeRange([db, min, max, name]: XdmValue[]): XdmValue {
  return collect(indexedDocuments(str(db), 'attribute'), (doc) => lookupRange(doc, 'attribute', str(min), str(max)), named(name));
}

function token([db, tokens, name]: XdmValue[]): XdmValue {
  const values = tokens.flatMap((t) => tokensOf(String(t)));
  return collect(indexedDocuments(str(db), 'token'), (doc) => lookup(doc, 'token', values), named(name));
}

// ---------------------------------------------------------------------------------------------
// descendants-matching

type MatchKind = 'text' | 'attribute' | 'self' | 'token';

const INDEX_OF: Readonly<Record<MatchKind, ValueIndexKind>> = { text: 'text', attribute: 'attribute', self: 'text', token: 'token' };
const STRING_TYPES = new Set(['string', 'untypedAtomic', 'anyURI']);
const CANNOT: XdmValue = [castString('false', 'boolean')];

/** The stored document node `node` is, if its database has index `kind`. */
function indexedDocument(node: XdmValue, kind: ValueIndexKind): XdmNode | undefined {
  if (node.length !== 1 || !isNode(node[0]) || node[0].nodeType !== NodeKind.document) return undefined;
  const access = activeDatabases();
  const where = access.locate(node[0]);
  if (!where || !access.hasDatabase(where.db) || !hasValueIndex(access.databaseInfo(where.db).options, kind)) return undefined;
  return node[0];
}

/**
 * Whether the element at `pre` lies at `path` below the document node: its name the last of
 * `path`, its parent's the one before, …, the first a child of the document node.
 */
function atPath(doc: XdmNode, pre: number, path: readonly string[]): boolean {
  let at = pre;
  for (let i = path.length - 1; i >= 0; i--) {
    if (at <= 0 || nameAt(doc, at) !== path[i]) return false;
    at = parentPre(doc, at);
  }
  return at === 0;
}

function descendantsMatching([node, nameArg, kindArg, keyArg, valuesArg, pathArg]: XdmValue[]): XdmValue {
  const kind = str(kindArg) as MatchKind;
  const doc = indexedDocument(node, INDEX_OF[kind]);
  if (!doc) return CANNOT;
  if (!valuesArg.every((v) => isAtomic(v) && STRING_TYPES.has(atomicTypeName(v)))) return CANNOT;
  const name = str(nameArg);
  const key = str(keyArg);
  let values = valuesArg.map(String);
  if (kind === 'token') {
    if (values.length !== 1) return CANNOT;
    const t = values[0].replace(/^[ \t\r\n]+|[ \t\r\n]+$/g, '');
    values = t === '' ? [] : [t];
  }
  if (kind === 'self' && (values.includes('') || !leavesAreSimple(doc, name, descendantsNamed(doc, name)))) return CANNOT;
  const path = pathArg?.map(String);
  const matches = (pre: number): boolean => (path ? atPath(doc, pre, path) : name === ANY_ELEMENT ? nameAt(doc, pre) !== '' : nameAt(doc, pre) === name);
  const owners: number[] = [];
  for (const pre of lookup(doc, INDEX_OF[kind], values)) {
    if ((kind === 'attribute' || kind === 'token') && key !== '*' && nameAt(doc, pre) !== key) continue;
    const owner = parentPre(doc, pre);
    if (owner > 0 && matches(owner)) owners.push(owner);
  }
  owners.sort((a, b) => a - b);
  const unique = owners.filter((p, i) => i === 0 || owners[i - 1] !== p);
  return unique.map((pre) => nodeAt(doc, pre) as XdmNode);
}

/** Registers the index functions of the db: module and engine:descendants-matching (extension-functions.ts). */
export function registerDbIndexFunctions(): void {
  registerFunctions(DB_NS, {
    text: { sig: '1F r[*N] a[1AS,*AS]', impl: text },
    'text-range': { sig: '1F r[*N] a[1AS,1AS,1AS]', impl: textRange },
    attribute: { sig: '1F r[*N] a[1AS,*AS,?AS]', arity: [2, 3], impl: attribute },
    'attribute-range': { sig: '1F r[*N] a[1AS,1AS,1AS,?AS]', arity: [3, 4], impl: attributeRange },
    token: { sig: '1F r[*N] a[1AS,*AS,?AS]', arity: [2, 3], impl: token },
  });
  registerFunctions(ENGINE_NS, {
    [DESCENDANTS_MATCHING_FUNCTION]: { sig: '1F r[*] a[*,1AS,1AS,1AS,*,*AS]', arity: [5, 6], impl: descendantsMatching },
  });
}
