/**
 * XQuery and XPath Full Text 1.0 (W3C Recommendation, 2011), appendix A.1 grammar: FTContainsExpr
 * and everything below FTSelection, BaseX's `using fuzzy` match option, and the prolog's
 * FTOptionDecl options. The words `contains`, `ftor`, `window` … are not reserved; they are read
 * as keywords only where the grammar expects them.
 */
import type { Expr } from './ast';
import type { FTContainsExpr, FTMatchOption, FTPosFilter, FTRangeAst, FTSelection, FTWords } from './ast-fulltext';
import { parseAdditiveExpr, parseExpr, parseUnionExpr } from './expressions';
import type { Parser } from './parser';
import { parsePragmas, parseVarRef } from './primary';
import type { FTStopWordStep, FTThesaurusRef, FTUnit } from '../../fulltext/selection';

/** FTContainsExpr ::= StringConcatExpr ( "contains" "text" FTSelection FTIgnoreOption? )? — called with the parsed StringConcatExpr. */
export function parseFTContains(p: Parser, searched: Expr, start: number): Expr {
  if (!(p.isWord('contains') && p.isWord('text', 1))) return searched;
  p.next();
  p.next();
  const selection = parseFTSelection(p);
  let ignore: Expr | null = null;
  if (p.isWord('without') && p.isWord('content', 1)) {
    p.next();
    p.next();
    ignore = parseUnionExpr(p);
  }
  const node: FTContainsExpr = { kind: 'FTContainsExpr', start, end: p.pos, searched, selection, ignore };
  return node;
}

/** FTSelection ::= FTOr FTPosFilter* */
function parseFTSelection(p: Parser): FTSelection {
  return p.nested(p.nextStart(), () => {
    const start = p.nextStart();
    let item = parseFTOr(p);
    for (let filter = parsePosFilter(p); filter; filter = parsePosFilter(p)) {
      item = { kind: 'FTPosFilter', start, end: p.pos, item, filter };
    }
    return item;
  });
}

function parseList(p: Parser, word: string, kind: 'FTOr' | 'FTAnd', parseItem: (p: Parser) => FTSelection): FTSelection {
  const start = p.nextStart();
  const items = [parseItem(p)];
  while (p.eatWord(word)) items.push(parseItem(p));
  return items.length === 1 ? items[0] : { kind, start, end: p.pos, items };
}

/** FTOr ::= FTAnd ( "ftor" FTAnd )* */
function parseFTOr(p: Parser): FTSelection {
  return parseList(p, 'ftor', 'FTOr', parseFTAnd);
}

/** FTAnd ::= FTMildNot ( "ftand" FTMildNot )* */
function parseFTAnd(p: Parser): FTSelection {
  return parseList(p, 'ftand', 'FTAnd', parseFTMildNot);
}

/** FTMildNot ::= FTUnaryNot ( "not" "in" FTUnaryNot )* */
function parseFTMildNot(p: Parser): FTSelection {
  const start = p.nextStart();
  let left = parseFTUnaryNot(p);
  while (p.isWord('not') && p.isWord('in', 1)) {
    p.next();
    p.next();
    left = { kind: 'FTMildNot', start, end: p.pos, left, right: parseFTUnaryNot(p) };
  }
  return left;
}

/** FTUnaryNot ::= ("ftnot")? FTPrimaryWithOptions */
function parseFTUnaryNot(p: Parser): FTSelection {
  const start = p.nextStart();
  if (!p.eatWord('ftnot')) return parsePrimaryWithOptions(p);
  return { kind: 'FTUnaryNot', start, end: p.pos, item: parsePrimaryWithOptions(p) };
}

/** FTPrimaryWithOptions ::= FTPrimary FTMatchOptions? FTWeight? */
function parsePrimaryWithOptions(p: Parser): FTSelection {
  const start = p.nextStart();
  const item = parsePrimary(p);
  const options = parseMatchOptions(p);
  let weight: Expr | null = null;
  if (p.isWord('weight') && p.isSym('{', 1)) {
    p.next();
    weight = parseEnclosed(p);
  }
  if (options.length === 0 && weight === null) return item;
  return { kind: 'FTWithOptions', start, end: p.pos, item, options, weight };
}

function parseEnclosed(p: Parser): Expr {
  p.expect('{');
  const expr = parseExpr(p);
  p.expect('}');
  return expr;
}

/**
 * FTPrimary ::= (FTWords FTTimes?) | ("(" FTSelection ")") | FTExtensionSelection, where
 * FTExtensionSelection ::= Pragma+ "{" FTSelection "}": no pragma is known here, so the selection
 * inside is evaluated as it is (§3.7).
 */
function parsePrimary(p: Parser): FTSelection {
  if (p.isSym('(#')) {
    const start = p.nextStart();
    const pragmas = parsePragmas(p);
    p.expect('{');
    const item = parseFTSelection(p);
    p.expect('}');
    // The pragmas' names are checked as those of extension options are (their prefixes declared).
    const options: FTMatchOption[] = pragmas.map((pr) => ({ option: 'extension', value: null, name: pr.name, at: pr.start }));
    return { kind: 'FTWithOptions', start, end: p.pos, item, options, weight: null };
  }
  if (p.eat('(')) {
    const inner = parseFTSelection(p);
    p.expect(')');
    return inner;
  }
  const start = p.nextStart();
  let value: Expr;
  const t = p.peek();
  if (t.type === 'string') {
    p.next();
    value = { kind: 'StringLiteral', start: t.start, end: t.end, value: t.value };
  } else if (p.isSym('{')) {
    value = parseEnclosed(p);
  } else if (p.isSym('$')) {
    // BaseX reads a variable reference as a value of its own, as if it were enclosed in braces.
    value = parseVarRef(p);
  } else {
    return p.unexpected(t, 'a string literal, "{" or "("');
  }
  const mode = parseAnyAll(p);
  let times: FTRangeAst | null = null;
  if (p.eatWord('occurs')) {
    times = parseRange(p);
    p.expectWord('times');
  }
  const words: FTWords = { kind: 'FTWords', start, end: p.pos, value, mode, times };
  return words;
}

/** FTAnyallOption ::= ("any" "word"?) | ("all" "words"?) | "phrase" (default `any`). */
function parseAnyAll(p: Parser): FTWords['mode'] {
  if (p.eatWord('any')) return p.eatWord('word') ? 'any word' : 'any';
  if (p.eatWord('all')) return p.eatWord('words') ? 'all words' : 'all';
  if (p.eatWord('phrase')) return 'phrase';
  return 'any';
}

/** FTRange ::= ("exactly" AdditiveExpr) | ("at" "least" AdditiveExpr) | ("at" "most" AdditiveExpr) | ("from" AdditiveExpr "to" AdditiveExpr) */
function parseRange(p: Parser): FTRangeAst {
  if (p.eatWord('exactly')) {
    const n = parseAdditiveExpr(p);
    return { min: n, max: n };
  }
  if (p.isWord('at') && p.isWord('least', 1)) {
    p.next();
    p.next();
    return { min: parseAdditiveExpr(p), max: null };
  }
  if (p.isWord('at') && p.isWord('most', 1)) {
    p.next();
    p.next();
    return { min: null, max: parseAdditiveExpr(p) };
  }
  p.expectWord('from');
  const min = parseAdditiveExpr(p);
  p.expectWord('to');
  return { min, max: parseAdditiveExpr(p) };
}

function parseUnit(p: Parser): FTUnit {
  return p.expectOneOf(['words', 'sentences', 'paragraphs'] as const);
}

/** FTPosFilter ::= FTOrder | FTWindow | FTDistance | FTScope | FTContent, or null. */
function parsePosFilter(p: Parser): FTPosFilter | null {
  if (p.eatWord('ordered')) return { filter: 'ordered' };
  if (p.isWord('window') && !p.isSym('{', 1)) {
    p.next();
    const size = parseAdditiveExpr(p);
    return { filter: 'window', size, unit: parseUnit(p) };
  }
  if (p.isWord('distance') && (p.isWord('exactly', 1) || p.isWord('at', 1) || p.isWord('from', 1))) {
    p.next();
    const range = parseRange(p);
    return { filter: 'distance', range, unit: parseUnit(p) };
  }
  if ((p.isWord('same') || p.isWord('different')) && (p.isWord('sentence', 1) || p.isWord('paragraph', 1))) {
    const same = p.next().value === 'same';
    return { filter: 'scope', same, unit: p.next().value as 'sentence' | 'paragraph' };
  }
  if (p.isWord('at') && (p.isWord('start', 1) || p.isWord('end', 1))) {
    p.next();
    return { filter: 'content', at: p.next().value as 'start' | 'end' };
  }
  if (p.isWord('entire') && p.isWord('content', 1)) {
    p.next();
    p.next();
    return { filter: 'content', at: 'entire' };
  }
  return null;
}

/** FTMatchOptions ::= ("using" FTMatchOption)+ ; an option given twice is FTST0019 (§3.4). */
export function parseMatchOptions(p: Parser): FTMatchOption[] {
  const options: FTMatchOption[] = [];
  while (p.isWord('using')) {
    const at = p.next().start;
    const option = parseMatchOption(p);
    if (option.option !== 'extension' && options.some((o) => o.option === option.option)) p.error(`Match option '${option.option}' was declared twice.`, at, 'FTST0019');
    options.push(option);
  }
  return options;
}

function parseMatchOption(p: Parser): FTMatchOption {
  const t = p.peek();
  if (!p.isNCName()) return p.unexpected(t, 'a match option');
  switch (t.value) {
    case 'case':
      p.next();
      return { option: 'case', value: p.expectOneOf(['insensitive', 'sensitive'] as const) };
    case 'lowercase':
    case 'uppercase':
      p.next();
      return { option: 'case', value: t.value };
    case 'diacritics':
      p.next();
      return { option: 'diacritics', value: p.expectOneOf(['insensitive', 'sensitive'] as const) };
    case 'stemming':
      p.next();
      return { option: 'stemming', value: true };
    case 'wildcards':
      p.next();
      return { option: 'wildcards', value: true };
    case 'fuzzy':
      p.next();
      return { option: 'fuzzy', value: true };
    case 'language':
      p.next();
      return { option: 'language', value: p.expectString() };
    case 'stop':
      p.next();
      p.expectWord('words');
      return { option: 'stop words', value: parseStopWords(p) };
    case 'thesaurus':
      p.next();
      return { option: 'thesaurus', value: parseThesauri(p) };
    case 'option': {
      p.next();
      const at = p.nextStart();
      const name = p.expectEQName('an option name');
      p.expectString();
      return { option: 'extension', value: null, name, at };
    }
    case 'no': {
      p.next();
      const what = p.expectOneOf(['stemming', 'wildcards', 'fuzzy', 'stop', 'thesaurus'] as const);
      if (what === 'stop') {
        p.expectWord('words');
        return { option: 'stop words', value: [] };
      }
      if (what === 'thesaurus') return { option: 'thesaurus', value: [] };
      return { option: what, value: false };
    }
    default:
      return p.unexpected(t, 'a match option');
  }
}

/** FTStopWordOption after "stop words": (FTStopWords | "default") FTStopWordsInclExcl* */
function parseStopWords(p: Parser): FTStopWordStep[] {
  const steps: FTStopWordStep[] = [p.eatWord('default') ? { op: 'base', isDefault: true } : parseStopWordList(p, 'base')];
  for (;;) {
    if (p.eatWord('union')) steps.push(parseStopWordList(p, 'union'));
    else if (p.eatWord('except')) steps.push(parseStopWordList(p, 'except'));
    else return steps;
  }
}

/** FTStopWords ::= ("at" URILiteral) | ("(" StringLiteral ("," StringLiteral)* ")") */
function parseStopWordList(p: Parser, op: FTStopWordStep['op']): FTStopWordStep {
  if (p.eatWord('at')) return { op, at: p.expectURILiteral() };
  p.expect('(');
  const words = [p.expectString()];
  while (p.eat(',')) words.push(p.expectString());
  p.expect(')');
  return { op, words };
}

/** After "thesaurus": FTThesaurusID | "default" | "(" (FTThesaurusID | "default") ("," FTThesaurusID)* ")" */
function parseThesauri(p: Parser): FTThesaurusRef[] {
  if (!p.eat('(')) return [parseThesaurusId(p)];
  const list = [parseThesaurusId(p)];
  while (p.eat(',')) list.push(parseThesaurusId(p));
  p.expect(')');
  return list;
}

/** FTThesaurusID ::= "at" URILiteral ("relationship" StringLiteral)? (FTLiteralRange "levels")?, or "default" */
function parseThesaurusId(p: Parser): FTThesaurusRef {
  if (p.eatWord('default')) return {};
  p.expectWord('at');
  const at = p.expectURILiteral();
  const relationship = p.eatWord('relationship') ? p.expectString() : undefined;
  let levels: FTThesaurusRef['levels'];
  if (p.isWord('exactly') || p.isWord('at') || p.isWord('from')) {
    levels = parseLiteralRange(p);
    p.expectWord('levels');
  }
  return { at, ...(relationship !== undefined ? { relationship } : {}), ...(levels ? { levels } : {}) };
}

function integer(p: Parser): number {
  const t = p.peek();
  if (t.type !== 'integer') return p.unexpected(t, 'an integer literal');
  p.next();
  return Number(t.value);
}

/** FTLiteralRange: FTRange over integer literals. */
function parseLiteralRange(p: Parser): { min: number; max: number } {
  if (p.eatWord('exactly')) {
    const n = integer(p);
    return { min: n, max: n };
  }
  if (p.eatWord('from')) {
    const min = integer(p);
    p.expectWord('to');
    return { min, max: integer(p) };
  }
  p.expectWord('at');
  if (p.eatWord('least')) return { min: integer(p), max: Number.MAX_SAFE_INTEGER };
  p.expectWord('most');
  return { min: 0, max: integer(p) };
}
