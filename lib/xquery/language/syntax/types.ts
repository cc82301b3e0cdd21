/**
 * Sequence types, item types, kind tests, single types and annotations.
 */
import type {
  Annotation,
  AtomicOrUnionType,
  ElementTest,
  EQName,
  ItemType,
  KindTest,
  Literal,
  Occurrence,
  SchemaElementTest,
  SequenceType,
  SingleType,
} from './ast';
import type { Parser } from './parser';

export const KIND_TEST_NAMES = new Set([
  'document-node',
  'element',
  'attribute',
  'schema-element',
  'schema-attribute',
  'processing-instruction',
  'comment',
  'text',
  'namespace-node',
  'node',
]);

/** True when the next tokens are `kindtest-name (`. */
export function startsKindTest(p: Parser, k = 0): boolean {
  const t = p.peek(k);
  return p.isNCName(k) && KIND_TEST_NAMES.has(t.name!.local) && p.isSym('(', k + 1);
}

/** TypeDeclaration ::= "as" SequenceType  (returns null when there is no `as`) */
export function parseTypeDeclaration(p: Parser): SequenceType | null {
  if (!p.eatWord('as')) return null;
  return parseSequenceType(p);
}

/** SequenceType ::= ("empty-sequence" "(" ")") | (ItemType OccurrenceIndicator?) */
export function parseSequenceType(p: Parser): SequenceType {
  const start = p.nextStart();
  if (p.isWord('empty-sequence') && p.isSym('(', 1)) {
    p.next();
    p.next();
    p.expect(')');
    return { kind: 'SequenceType', start, end: p.pos, item: null, occurrence: '' };
  }
  const item = parseItemType(p);
  let occurrence: Occurrence = '';
  // occurrence-indicators constraint: an indicator right after an ItemType always binds to it.
  if (p.isSym('?') || p.isSym('*') || p.isSym('+')) occurrence = p.next().value as Occurrence;
  return { kind: 'SequenceType', start, end: p.pos, item, occurrence };
}

/** ItemType ::= KindTest | ("item" "(" ")") | FunctionTest | MapTest | ArrayTest | AtomicOrUnionType | ParenthesizedItemType */
export function parseItemType(p: Parser): ItemType {
  return p.nested(p.nextStart(), () => parseItemTypeAlternatives(p));
}

function parseItemTypeAlternatives(p: Parser): ItemType {
  const start = p.nextStart();
  if (p.isSym('(')) {
    p.next();
    const item = parseItemType(p);
    p.expect(')');
    return { kind: 'ParenthesizedItemType', start, end: p.pos, item };
  }
  if (p.isSym('%')) return parseFunctionTest(p, parseAnnotations(p), start);
  const t = p.peek();
  if (t.type !== 'name') p.unexpected(t, 'an item type');
  if (p.isNCName() && p.isSym('(', 1)) {
    if (KIND_TEST_NAMES.has(t.value)) return parseKindTest(p);
    switch (t.value) {
      case 'item':
        p.next();
        p.next();
        p.expect(')');
        return { kind: 'AnyItemType', start, end: p.pos };
      case 'function':
        return parseFunctionTest(p, [], start);
      case 'map':
        return parseMapTest(p);
      case 'array':
        return parseArrayTest(p);
    }
  }
  return parseAtomicOrUnionType(p);
}

function parseAtomicOrUnionType(p: Parser): AtomicOrUnionType {
  const start = p.nextStart();
  const name = p.expectEQName('an item type');
  return { kind: 'AtomicOrUnionType', start, end: p.pos, name };
}

/** FunctionTest ::= Annotation* (AnyFunctionTest | TypedFunctionTest) */
function parseFunctionTest(p: Parser, annotations: Annotation[], start: number): ItemType {
  p.expectWord('function');
  p.expect('(');
  if (p.eat('*')) {
    p.expect(')');
    return { kind: 'AnyFunctionTest', start, end: p.pos, annotations };
  }
  const params: SequenceType[] = [];
  if (!p.isSym(')')) {
    do params.push(parseSequenceType(p));
    while (p.eat(','));
  }
  p.expect(')');
  p.expectWord('as');
  const returnType = parseSequenceType(p);
  return { kind: 'TypedFunctionTest', start, end: p.pos, annotations, params, returnType };
}

/** MapTest ::= AnyMapTest | TypedMapTest */
function parseMapTest(p: Parser): ItemType {
  const start = p.next().start;
  p.expect('(');
  if (p.eat('*')) {
    p.expect(')');
    return { kind: 'AnyMapTest', start, end: p.pos };
  }
  const key = parseAtomicOrUnionType(p);
  p.expect(',');
  const value = parseSequenceType(p);
  p.expect(')');
  return { kind: 'TypedMapTest', start, end: p.pos, key, value };
}

/** ArrayTest ::= AnyArrayTest | TypedArrayTest */
function parseArrayTest(p: Parser): ItemType {
  const start = p.next().start;
  p.expect('(');
  if (p.eat('*')) {
    p.expect(')');
    return { kind: 'AnyArrayTest', start, end: p.pos };
  }
  const member = parseSequenceType(p);
  p.expect(')');
  return { kind: 'TypedArrayTest', start, end: p.pos, member };
}

/** KindTest (the name and "(" are the next two tokens). */
export function parseKindTest(p: Parser): KindTest {
  const start = p.nextStart();
  const name = p.next().value;
  p.expect('(');
  switch (name) {
    case 'node':
      p.expect(')');
      return { kind: 'AnyKindTest', start, end: p.pos };
    case 'text':
      p.expect(')');
      return { kind: 'TextTest', start, end: p.pos };
    case 'comment':
      p.expect(')');
      return { kind: 'CommentTest', start, end: p.pos };
    case 'namespace-node':
      p.expect(')');
      return { kind: 'NamespaceNodeTest', start, end: p.pos };
    case 'document-node': {
      let test: ElementTest | SchemaElementTest | null = null;
      if (p.isWord('element') || p.isWord('schema-element')) {
        if (!p.isSym('(', 1)) p.unexpected(p.peek(1), '"("');
        test = parseKindTest(p) as ElementTest | SchemaElementTest;
      }
      p.expect(')');
      return { kind: 'DocumentTest', start, end: p.pos, test };
    }
    case 'processing-instruction': {
      let target: string | null = null;
      if (p.peek().type === 'string') target = p.next().value.replace(/[ \t\r\n]+/g, ' ').trim();
      else if (!p.isSym(')')) target = p.expectNCName('an NCName or string literal');
      p.expect(')');
      return { kind: 'PITest', start, end: p.pos, target };
    }
    case 'element':
    case 'attribute': {
      let testName: EQName | '*' | null = null;
      let type: EQName | null = null;
      let nillable = false;
      if (!p.isSym(')')) {
        testName = p.eat('*') ? '*' : p.expectEQName('a name or "*"');
        if (p.eat(',')) {
          type = p.expectEQName('a type name');
          if (name === 'element' && p.eat('?')) nillable = true;
        }
      }
      p.expect(')');
      if (name === 'element') return { kind: 'ElementTest', start, end: p.pos, name: testName, type, nillable };
      return { kind: 'AttributeTest', start, end: p.pos, name: testName, type };
    }
    case 'schema-element':
    case 'schema-attribute': {
      const declName = p.expectEQName('a declaration name');
      p.expect(')');
      return name === 'schema-element'
        ? { kind: 'SchemaElementTest', start, end: p.pos, name: declName }
        : { kind: 'SchemaAttributeTest', start, end: p.pos, name: declName };
    }
  }
  return p.error(`Unknown kind test "${name}"`, start);
}

/** SingleType ::= SimpleTypeName "?"? */
export function parseSingleType(p: Parser): SingleType {
  const start = p.nextStart();
  const name = p.expectEQName('a type name');
  const optional = p.eat('?');
  return { kind: 'SingleType', start, end: p.pos, name, optional };
}

/** Annotation* ; Annotation ::= "%" EQName ("(" Literal ("," Literal)* ")")? */
export function parseAnnotations(p: Parser): Annotation[] {
  const out: Annotation[] = [];
  while (p.isSym('%')) {
    const start = p.next().start;
    const name = p.expectEQName('an annotation name');
    const values: Literal[] = [];
    if (p.eat('(')) {
      do values.push(parseLiteral(p));
      while (p.eat(','));
      p.expect(')');
    }
    out.push({ kind: 'Annotation', start, end: p.pos, name, values });
  }
  return out;
}

/** Literal ::= NumericLiteral | StringLiteral */
export function parseLiteral(p: Parser): Literal {
  const t = p.peek();
  switch (t.type) {
    case 'integer':
      p.next();
      return { kind: 'IntegerLiteral', start: t.start, end: t.end, value: t.value };
    case 'decimal':
      p.next();
      return { kind: 'DecimalLiteral', start: t.start, end: t.end, value: t.value };
    case 'double':
      p.next();
      return { kind: 'DoubleLiteral', start: t.start, end: t.end, value: t.value };
    case 'string':
      p.next();
      return { kind: 'StringLiteral', start: t.start, end: t.end, value: t.value };
    default:
      return p.unexpected(t, 'a literal');
  }
}
