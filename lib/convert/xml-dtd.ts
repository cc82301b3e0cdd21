/**
 * The document type declaration (XML 1.0 productions 28–29, 70–76). Nothing is ever loaded: an
 * external subset or external entity is only noted. Of the internal subset, general entity
 * declarations are kept (internal ones are expanded later, with limits); element, attribute-list
 * and notation declarations are checked for their end and otherwise ignored (no attribute
 * defaults, no validation). The DOCTYPE itself is never part of the stored document.
 */
import { isNCName } from './names';
import type { Cursor } from './xml-cursor';

export type EntityDecl =
  | { readonly kind: 'internal'; readonly value: string }
  | { readonly kind: 'external' }
  | { readonly kind: 'unparsed' };

export interface Doctype {
  /** General entities by name; the first declaration wins. */
  readonly entities: ReadonlyMap<string, EntityDecl>;
}

const PUBID = /^[ \r\na-zA-Z0-9\-'()+,./:=?;!*#@$_%]*$/;

/** Parses `<!DOCTYPE …>`; the cursor stands after `<!DOCTYPE`. */
export function parseDoctype(cur: Cursor): Doctype {
  const entities = new Map<string, EntityDecl>();
  cur.requireS('white space after DOCTYPE');
  cur.name();
  const hadS = cur.skipS();
  if (hadS && (cur.startsWith('SYSTEM') || cur.startsWith('PUBLIC'))) {
    parseExternalId(cur);
    cur.skipS();
  }
  if (cur.eat('[')) {
    parseInternalSubset(cur, entities);
    cur.skipS();
  }
  if (!cur.eat('>')) throw cur.eof() ? cur.error('XML_EOF') : cur.error('XML_DOCTYPE_X', "expected '>'");
  return { entities };
}

/** ExternalID (production 75): read and checked, never resolved. */
function parseExternalId(cur: Cursor): void {
  if (cur.eat('SYSTEM')) {
    cur.requireS('white space after SYSTEM');
    cur.quoted('a system literal');
    return;
  }
  cur.expect('PUBLIC');
  cur.requireS('white space after PUBLIC');
  const start = cur.pos;
  if (!PUBID.test(cur.quoted('a public identifier'))) throw cur.errorAt(start, 'XML_DOCTYPE_X', 'invalid public identifier');
  cur.requireS('white space before the system literal');
  cur.quoted('a system literal');
}

/** intSubset (production 28b), up to and including `]`. */
function parseInternalSubset(cur: Cursor, entities: Map<string, EntityDecl>): void {
  // After a parameter-entity reference that is not read, later declarations must not be
  // processed (XML 1.0 §5.1): they are still checked for syntax.
  let skipping = false;
  for (;;) {
    cur.skipS();
    if (cur.eof()) throw cur.error('XML_EOF');
    if (cur.eat(']')) return;
    if (cur.eat('%')) {
      cur.name();
      cur.expect(';');
      skipping = true;
    } else if (cur.eat('<!ENTITY')) {
      parseEntityDecl(cur, skipping ? undefined : entities);
    } else if (cur.eat('<!--')) {
      const body = cur.until('-->');
      if (body.includes('--') || body.endsWith('-')) throw cur.error('XML_COMMENT');
    } else if (cur.eat('<?')) {
      cur.name();
      cur.until('?>');
    } else if (cur.startsWith('<!ELEMENT') || cur.startsWith('<!ATTLIST') || cur.startsWith('<!NOTATION')) {
      skipDeclaration(cur);
    } else {
      throw cur.error('XML_DOCTYPE_X', 'unknown declaration in the internal subset');
    }
  }
}

/** EntityDecl (productions 70–74); `entities` undefined: check only. */
function parseEntityDecl(cur: Cursor, entities: Map<string, EntityDecl> | undefined): void {
  cur.requireS('white space after ENTITY');
  const parameter = cur.eat('%');
  if (parameter) cur.requireS('white space after %');
  const name = cur.name();
  if (name.includes(':')) throw cur.error('XML_DOCTYPE_X', `entity name "${name}" contains a colon`);
  cur.requireS('white space after the entity name');
  let decl: EntityDecl;
  const q = cur.peek();
  if (q === '"' || q === "'") {
    decl = { kind: 'internal', value: entityValue(cur) };
  } else {
    parseExternalId(cur);
    decl = { kind: 'external' };
    const s = cur.skipS();
    if (s && cur.eat('NDATA')) {
      if (parameter) throw cur.error('XML_DOCTYPE_X', 'NDATA on a parameter entity');
      cur.requireS('white space after NDATA');
      cur.name();
      decl = { kind: 'unparsed' };
    }
  }
  cur.skipS();
  if (!cur.eat('>')) throw cur.eof() ? cur.error('XML_EOF') : cur.error('XML_DOCTYPE_X', "expected '>' after the entity declaration");
  if (!parameter && entities !== undefined && !entities.has(name) && !PREDEFINED.has(name)) entities.set(name, decl);
}

const PREDEFINED = new Set(['lt', 'gt', 'amp', 'apos', 'quot']);

/**
 * EntityValue (production 9): character references are replaced now, general entity references
 * are kept for expansion on use, parameter-entity references are not allowed in the internal subset.
 */
function entityValue(cur: Cursor): string {
  const start = cur.pos;
  const raw = cur.quoted('an entity value');
  if (raw.includes('%')) throw cur.errorAt(start, 'XML_DOCTYPE_X', 'parameter-entity reference in an entity value');
  return raw.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[^;]*)(;?)/g, (all, ref: string, semi: string) => {
    if (semi !== ';') throw cur.errorAt(start, 'XML_DOCTYPE_X', 'unterminated reference in an entity value');
    if (ref.startsWith('#')) {
      const cp = ref[1] === 'x' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      if (!isXmlChar(cp)) throw cur.errorAt(start, 'XML_CHARREF_X', ref.slice(1));
      return String.fromCodePoint(cp);
    }
    if (!isNCName(ref)) throw cur.errorAt(start, 'XML_DOCTYPE_X', 'invalid reference in an entity value');
    return all;
  });
}

/** Char (production 2) as a code point test. */
export function isXmlChar(cp: number): boolean {
  return (
    cp === 0x9 || cp === 0xa || cp === 0xd || (cp >= 0x20 && cp <= 0xd7ff) || (cp >= 0xe000 && cp <= 0xfffd) || (cp >= 0x10000 && cp <= 0x10ffff)
  );
}

/** Skips an element, attribute-list or notation declaration up to its `>` (outside literals). */
function skipDeclaration(cur: Cursor): void {
  cur.pos += 2;
  while (!cur.eof()) {
    const c = cur.peek();
    if (c === '>') {
      cur.pos++;
      return;
    }
    if (c === '"' || c === "'") cur.quoted('a literal');
    else cur.pos++;
  }
  throw cur.error('XML_EOF');
}
