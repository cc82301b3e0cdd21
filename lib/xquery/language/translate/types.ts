/**
 * Sequence types, item types and single types → XPath 3.1 syntax with EQNames, checked
 * statically (unknown atomic type → XPST0051, unknown prefix → XPST0081).
 */
import type { ElementTest, EQName, ItemType, KindTest, SequenceType, SingleType } from '../syntax';
import { isAtomicTypeName } from '../../../saxon';
import { checkAnnotations } from './annotations';
import { NS, eqname, nodeNameInXPath, xpathError, type QName } from './names';
import type { Scope } from './scope';
import { braced } from './emit';

/**
 * Atomic types XQuery allows in `cast`/`castable` and sequence types beyond the primitive ones.
 * xs:NOTATION is abstract: a sequence type may name it (`$x instance of xs:NOTATION`, XQuery 3.1
 * §2.5.4.2), `cast`/`castable` may not (XPST0080, translateSingleType).
 */
const EXTRA_ATOMIC = new Set(['anyAtomicType', 'untypedAtomic', 'numeric', 'error', 'NOTATION']);

/** Whether `name` is a known atomic (or the built-in union `xs:numeric`) type. */
export function isKnownAtomicType(name: QName): boolean {
  return name.uri === NS.xs && (isAtomicTypeName(name.local) || EXTRA_ATOMIC.has(name.local));
}

/** Resolves and checks an atomic/union type name. */
export function atomicTypeName(scope: Scope, name: EQName, offset: number): QName {
  const qn = scope.typeName(name, offset);
  if (!isKnownAtomicType(qn)) {
    if (qn.uri === NS.xs && ['anyType', 'anySimpleType', 'untyped'].includes(qn.local)) return qn;
    throw scope.error('XPST0051', offset, qn.prefix ? `${qn.prefix}:${qn.local}` : eqname(qn));
  }
  return qn;
}

export function translateSequenceType(t: SequenceType, scope: Scope): string {
  if (t.item === null) return 'empty-sequence()';
  const item = translateItemType(t.item, scope);
  return t.occurrence ? `${wrapForOccurrence(item)}${t.occurrence}` : item;
}

/** `function(…) as T` followed by an occurrence indicator needs parentheses. */
function wrapForOccurrence(item: string): string {
  return /^function\(.*\) as /.test(item) ? `(${item})` : item;
}

export function translateItemType(t: ItemType, scope: Scope): string {
  switch (t.kind) {
    case 'AnyItemType':
      return 'item()';
    case 'AtomicOrUnionType': {
      const qn = atomicTypeName(scope, t.name, t.start);
      if (qn.uri === NS.xs && ['anyType', 'anySimpleType', 'untyped'].includes(qn.local)) {
        throw scope.error('XPST0051', t.start, qn.local);
      }
      return eqname(qn);
    }
    case 'AnyFunctionTest':
      checkAnnotations(t.annotations, 'function test', scope);
      return 'function(*)';
    case 'TypedFunctionTest':
      checkAnnotations(t.annotations, 'function test', scope);
      return `function(${t.params.map((p) => translateSequenceType(p, scope)).join(', ')}) as ${translateSequenceType(t.returnType, scope)}`;
    case 'AnyMapTest':
      return 'map(*)';
    case 'TypedMapTest':
      return `map(${translateItemType(t.key, scope)}, ${translateSequenceType(t.value, scope)})`;
    case 'AnyArrayTest':
      return 'array(*)';
    case 'TypedArrayTest':
      return `array(${translateSequenceType(t.member, scope)})`;
    case 'ParenthesizedItemType':
      return `(${translateItemType(t.item, scope)})`;
    default:
      return translateKindTest(t, scope);
  }
}

function typeAnnotation(scope: Scope, name: EQName | null, offset: number): string {
  if (!name) return '';
  const qn = scope.typeName(name, offset);
  if (qn.uri !== NS.xs || !(isAtomicTypeName(qn.local) || ['anyType', 'untyped', 'anySimpleType', 'untypedAtomic', 'anyAtomicType'].includes(qn.local))) {
    throw scope.error('XPST0008', offset, `type ${qn.local}`);
  }
  return `, ${eqname(qn)}`;
}

/**
 * The element or attribute name of a kind test. A namespaced name whose local part starts with
 * a character beyond ASCII has no spelling saxon-js reads (names.ts); path steps test such names
 * in a predicate (paths/paths.ts), a sequence type cannot.
 */
function kindTestName(name: QName, scope: Scope, offset: number): string {
  const written = nodeNameInXPath(name);
  if (written === undefined) throw scope.error('XMLR0001', offset, `the name ${eqname(name)} in a sequence type`);
  return written;
}

function elementTest(t: ElementTest, scope: Scope): string {
  if (t.name === null) return 'element()';
  const name = t.name === '*' ? '*' : kindTestName(scope.elementName(t.name, t.start), scope, t.start);
  return `element(${name}${typeAnnotation(scope, t.type, t.start)}${t.nillable ? '?' : ''})`;
}

export function translateKindTest(t: KindTest, scope: Scope): string {
  switch (t.kind) {
    case 'AnyKindTest':
      return 'node()';
    case 'TextTest':
      return 'text()';
    case 'CommentTest':
      return 'comment()';
    case 'NamespaceNodeTest':
      return 'namespace-node()';
    case 'PITest':
      return t.target === null ? 'processing-instruction()' : `processing-instruction(${t.target})`;
    case 'DocumentTest':
      if (t.test === null) return 'document-node()';
      return `document-node(${t.test.kind === 'ElementTest' ? elementTest(t.test, scope) : schemaTest(t.test.name, scope, t.start)})`;
    case 'ElementTest':
      return elementTest(t, scope);
    case 'AttributeTest': {
      if (t.name === null) return 'attribute()';
      const name = t.name === '*' ? '*' : kindTestName(scope.attributeName(t.name, t.start), scope, t.start);
      return `attribute(${name}${typeAnnotation(scope, t.type, t.start)})`;
    }
    case 'SchemaAttributeTest':
    case 'SchemaElementTest':
      return schemaTest(t.name, scope, t.start);
  }
}

function schemaTest(name: EQName, scope: Scope, offset: number): never {
  // no schema is ever imported: the element/attribute declaration cannot be in scope
  const qn = scope.elementName(name, offset);
  throw scope.error('XPST0008', offset, `schema declaration ${eqname(qn)}`);
}

/** `xs:integer?` → `Q{…}integer?` for cast/castable; XPST0080 for the abstract types. */
export function translateSingleType(t: SingleType, scope: Scope): string {
  const qn = scope.typeName(t.name, t.start);
  if (qn.uri === NS.xs && ['anyAtomicType', 'NOTATION', 'anySimpleType', 'anyType', 'untyped'].includes(qn.local)) {
    throw scope.error('XPST0080', t.start, qn.local);
  }
  if (!isKnownAtomicType(qn) || qn.local === 'error' || qn.local === 'numeric') {
    if (!(qn.uri === NS.xs && (qn.local === 'numeric' || qn.local === 'error'))) throw scope.error('XPST0051', t.start, qn.local);
  }
  return `${eqname(qn)}${t.optional ? '?' : ''}`;
}

/**
 * `value` checked against a declared type with XQuery's SequenceType matching (no conversion,
 * as in `let $x as T := …`): XPTY0004 at run time when it does not match.
 */
export function checkedValue(value: string, type: string, what: string): string {
  const v = `$${braced(NS.vars)}typecheck`;
  const message = `${what} does not match the declared type ${type.replace(/Q\{[^}]*\}/g, (m) => (m === braced(NS.xs) ? 'xs:' : m))}.`;
  return `(let ${v} := ${value} return if (${v} instance of ${type}) then ${v} else ${xpathError('XPTY0004', message)})`;
}

/** Item types whose values `coercedValue` leaves to the stylesheet (see there). */
const FUNCTION_COERCED: ReadonlySet<ItemType['kind']> = new Set(['AnyFunctionTest', 'TypedFunctionTest', 'AnyMapTest', 'TypedMapTest', 'AnyArrayTest', 'TypedArrayTest', 'ParenthesizedItemType']);

/** Whether values of type `t` are converted by function coercion (function, map, array and parenthesized item types), which `coercedValue` leaves to the stylesheet. */
export function coercedAsFunction(t: SequenceType): boolean {
  return t.item !== null && FUNCTION_COERCED.has(t.item.kind);
}

/**
 * `value` converted to a declared type by the function conversion rules (XPath 3.1 §3.1.5.2), as
 * an `xsl:param` with `as` converts its value, and then checked (`checkedValue`): for an atomic
 * item type, the value is atomized, each xs:untypedAtomic cast to the type (xs:double for
 * xs:numeric), and xs:decimal, xs:float and xs:anyURI values promoted (to xs:float or xs:double,
 * and to xs:string). Undefined for function, map and array types (function coercion), for
 * parenthesized item types, and for namespace-sensitive atomic types (a cast from
 * xs:untypedAtomic is XPTY0117): only the stylesheet converts those.
 */
export function coercedValue(value: string, t: SequenceType, type: string, what: string, scope: Scope): string | undefined {
  const item = t.item;
  if (coercedAsFunction(t)) return undefined;
  // empty-sequence(), item() and node tests: no conversion
  if (item === null || item.kind !== 'AtomicOrUnionType') return checkedValue(value, type, what);
  const name = atomicTypeName(scope, item.name, item.start);
  if (name.uri !== NS.xs || ['QName', 'NOTATION', 'error'].includes(name.local)) return undefined;
  const xs = braced(NS.xs);
  const a = `$${braced(NS.vars)}atom`;
  const cast = name.local === 'anyAtomicType' || name.local === 'untypedAtomic' ? a : `(${a} cast as ${xs}${name.local === 'numeric' ? 'double' : name.local})`;
  const promotedFrom: Readonly<Record<string, string>> = { double: `${a} instance of ${xs}decimal or ${a} instance of ${xs}float`, float: `${a} instance of ${xs}decimal`, string: `${a} instance of ${xs}anyURI` };
  const from = promotedFrom[name.local];
  const promoted = from === undefined ? a : `(if (${from}) then ${a} cast as ${xs}${name.local} else ${a})`;
  const converted = `(for ${a} in ${braced(NS.fn)}data(${value}) return if (${a} instance of ${xs}untypedAtomic) then ${cast} else ${promoted})`;
  return checkedValue(converted, type, what);
}
