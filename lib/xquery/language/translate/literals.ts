/**
 * Auto-parameterisation of literals: queries that differ only in literal values share one
 * compiled stylesheet.
 *
 * A never-seen query that is not one XPath expression is compiled by saxon-js's XSLT compiler,
 * which costs far more than running it. Compilations are cached by stylesheet text, so the
 * translator emits chosen literals not as text but as references to stylesheet parameters
 * (`$Q{urn:xmldb-rest:lit}pN`, typed like the literal: xs:integer, xs:decimal, xs:double,
 * xs:string, exactly one item); the values travel with each run. `for $i in 1 to 200 where
 * $i mod 7 = 3 …` and `… = 4 …` then translate to the same stylesheet.
 *
 * A literal is replaced only where its value cannot change how the query is compiled: operands
 * of arithmetic, comparison and string concatenation, the end of a range, bound values and
 * results of FLWOR clauses, branches of `if`, items of a sequence, and numeric arguments of
 * function calls. Literals stay as written where the translator or saxon-js reads the value
 * itself: predicates except in comparisons (positional access), the start of a range (range-expression.ts), operands of
 * unary minus (saxon-js negates a double zero correctly only when it folds a literal), string
 * arguments of function calls (regular expressions, pictures, collations, names of decimal
 * formats, documents and databases) but the plain text ones of STRING_ARGUMENTS (in predicates
 * too: a string there is never positional), casts (`"p:l" cast as xs:QName` resolves the prefix
 * statically), names of computed constructors, prolog declarations and everything else not
 * listed. The parameter has the literal's own type and cardinality (XQuery 3.1 §3.1.1), so
 * static typing sees the same types. A query run as one XPath expression gets the literals of
 * its predicates written back in (`inlinePredicateLiterals`).
 */
import { isLiteral, type Node } from '../syntax';
import { NS, xpathString } from './names';
import { braced } from './emit';

/** A literal replaced by a stylesheet parameter: its name, sequence type and lexical value. */
export interface LiteralParam {
  /** The parameter's EQName, without `$`. */
  readonly param: string;
  /** `xs:integer`, `xs:decimal`, `xs:double` or `xs:string`. */
  readonly type: string;
  /** The literal's value: the lexical form of a number, the (unescaped) string. */
  readonly value: string;
  /** Whether the literal is an operand of a comparison inside a predicate (`inlinePredicateLiterals`). */
  readonly inPredicate: boolean;
  /** The literal's offset in the query. */
  readonly start: number;
}

export type LiteralNode = Extract<Node, { kind: 'IntegerLiteral' | 'DecimalLiteral' | 'DoubleLiteral' | 'StringLiteral' }>;

const TYPES: Readonly<Record<LiteralNode['kind'], string>> = {
  IntegerLiteral: 'xs:integer',
  DecimalLiteral: 'xs:decimal',
  DoubleLiteral: 'xs:double',
  StringLiteral: 'xs:string',
};

/** `Parent.field` places where any literal may become a parameter. */
const ANY_LITERAL = new Set([
  'ComparisonExpr.left',
  'ComparisonExpr.right',
  'AdditiveExpr.left',
  'AdditiveExpr.right',
  'MultiplicativeExpr.left',
  'MultiplicativeExpr.right',
  'StringConcatExpr.left',
  'StringConcatExpr.right',
  'RangeExpr.right',
  'LetBinding.value',
  'ForBinding.in',
  'WhereClause.test',
  'FLWORExpr.return',
  'IfExpr.then',
  'IfExpr.else',
  'SequenceExpr.items',
]);

/** `Parent.field` places where a numeric literal may become a parameter. */
const NUMERIC_LITERAL = new Set(['FunctionCall.args']);

/**
 * fn functions (`local#arity`) whose string arguments at these positions are text the function
 * only reads as data: the searched string of `contains(., "gold")`, `starts-with`, `ends-with`,
 * `substring-before` and `-after` (not a collation), the token of `contains-token`, the separator
 * of `string-join`, the maps of `translate`, the parts of `concat`. Search strings change from one
 * query to the next as numbers do; as parameters, such queries share their compilation.
 * Only calls written without a prefix in a module that keeps fn as its default function
 * namespace count: a prefix may be bound to another namespace anywhere, even by an enclosing
 * element constructor.
 */
const STRING_ARGUMENTS: ReadonlyMap<string, readonly number[]> = new Map([
  ['contains#2', [1]],
  ['starts-with#2', [1]],
  ['ends-with#2', [1]],
  ['substring-before#2', [1]],
  ['substring-after#2', [1]],
  ['contains-token#2', [1]],
  ['string-join#2', [1]],
  ['translate#3', [1, 2]],
]);

/** The positions of `call`'s arguments whose string literals may become parameters (see STRING_ARGUMENTS). */
function stringArguments(call: Extract<Node, { kind: 'FunctionCall' }>): readonly number[] | undefined {
  if (call.name.prefix !== undefined || call.name.uri !== undefined) return undefined;
  if (call.name.local === 'concat') return call.args.map((_, i) => i);
  return STRING_ARGUMENTS.get(`${call.name.local}#${call.args.length}`);
}

/** Whether a module declares its own default function namespace (unprefixed calls are then not fn's). */
function declaresFunctionNamespace(root: Node): boolean {
  return root.kind === 'MainModule' && root.prolog.decls.some((d) => d.kind === 'DefaultNamespaceDecl' && d.target === 'function');
}

/**
 * Predicates: a number there selects by position, and saxon-js decides that from the static type
 * of the predicate (`[if (…) then 2 else true()]`), which a parameter of an XPath run does not
 * have. Inside them only operands of comparisons (whose value is a boolean) become parameters.
 */
const PREDICATES = new Set(['AxisStep.predicates', 'FilterExpr.predicate']);
const COMPARED = new Set(['ComparisonExpr.left', 'ComparisonExpr.right']);

/** Fields whose whole subtree keeps its literals (range-expression.ts reads a range's start literally). */
const KEEP_SUBTREE = new Set(['RangeExpr.left']);

/**
 * The literals of `root` that may be replaced by parameters (see the module comment), each with
 * whether it stands inside a predicate.
 */
export function replaceableLiterals(root: Node): ReadonlyMap<Node, boolean> {
  const out = new Map<Node, boolean>();
  const fnDefault = !declaresFunctionNamespace(root);
  const visit = (node: Node, inPredicate: boolean): void => {
    const fields = node as unknown as Record<string, unknown>;
    for (const field in fields) {
      const value = fields[field];
      // names, operators, values and positions hold no nodes
      if (value === null || typeof value !== 'object') continue;
      const place = placeOf(node.kind, field);
      if (place.keep) continue;
      const strings = fnDefault && node.kind === 'FunctionCall' && field === 'args' ? stringArguments(node) : undefined;
      visitField(value, place, inPredicate || place.predicate, strings, 0);
    }
  };
  /**
   * The AST nodes held by one field, in order (a node, or nodes in nested arrays; a key
   * specifier's expression), with `i` the position of the next among them; answers the position
   * after the last. A walk with its place as arguments, not a list or a closure per field: every
   * never-seen query passes each of its fields here.
   */
  const visitField = (value: unknown, place: Place, predicate: boolean, strings: readonly number[] | undefined, i: number): number => {
    if (Array.isArray(value)) {
      for (let k = 0; k < value.length; k++) i = visitField(value[k], place, predicate, strings, i);
      return i;
    }
    if (!value || typeof value !== 'object') return i;
    const o = value as { kind?: unknown; type?: unknown; expr?: unknown };
    if (typeof o.kind !== 'string') return o.type === 'expr' ? visitField(o.expr, place, predicate, strings, i) : i;
    const child = value as Node;
    if (isLiteral(child)) {
      if (child.kind === 'StringLiteral' && strings?.includes(i)) out.set(child, predicate);
      else if (predicate ? place.compared : place.any || (place.numeric && child.kind !== 'StringLiteral')) out.set(child, predicate);
    } else {
      visit(child, predicate);
    }
    return i + 1;
  };
  visit(root, false);
  return out;
}

/** What the sets above say of one `Parent.field` place. */
interface Place {
  readonly keep: boolean;
  readonly predicate: boolean;
  readonly compared: boolean;
  readonly any: boolean;
  readonly numeric: boolean;
}

/** Places by node kind and field, made once each (every never-seen query walks its whole tree here). */
const places = new Map<string, Map<string, Place>>();

function placeOf(kind: string, field: string): Place {
  let byField = places.get(kind);
  if (byField === undefined) places.set(kind, (byField = new Map()));
  let place = byField.get(field);
  if (place === undefined) {
    const name = `${kind}.${field}`;
    place = { keep: KEEP_SUBTREE.has(name), predicate: PREDICATES.has(name), compared: COMPARED.has(name), any: ANY_LITERAL.has(name), numeric: NUMERIC_LITERAL.has(name) };
    byField.set(field, place);
  }
  return place;
}

/** Collects the parameters of one translation; a literal not chosen by `replaceableLiterals` stays text. */
export class LiteralParams {
  private readonly list: LiteralParam[] = [];
  /** One parameter per literal, however often the translator emits it. */
  private readonly byNode = new Map<Node, string>();

  constructor(private readonly replaceable: ReadonlyMap<Node, boolean>) {}

  /** The reference to emit for `literal`, or undefined to emit the literal itself. */
  reference(literal: LiteralNode): string | undefined {
    const inPredicate = this.replaceable.get(literal);
    if (inPredicate === undefined) return undefined;
    let param = this.byNode.get(literal);
    if (!param) {
      param = `${braced(NS.lit)}p${this.list.length + 1}`;
      this.list.push({ param, type: TYPES[literal.kind], value: literal.value, inPredicate, start: literal.start });
      this.byNode.set(literal, param);
    }
    return `$${param}`;
  }

  get params(): readonly LiteralParam[] {
    return this.list;
  }
}

/** The `xsl:param` declaring a literal's parameter. */
export function literalParamDeclaration(p: LiteralParam): string {
  return `<xsl:param name="${p.param}" as="${braced(NS.xs)}${p.type.slice(3)}" required="yes"/>`;
}

/** A literal as XPath text, parenthesized so that it stands wherever its parameter's reference stood. */
export function literalText(p: LiteralParam): string {
  return `(${p.type === 'xs:string' ? xpathString(p.value) : p.value})`;
}

/**
 * An expression run as one XPath expression (translate/translation.ts `Translation.xpath`), with the
 * references to the parameters of literals inside predicates replaced by the literals.
 *
 * A predicate is evaluated once per node it filters, and saxon-js plans a comparison with a
 * literal statically (an integer literal becomes a compare-to-integer test; a parameter, typed
 * `item()*` in an XPath run, is atomized and a comparer is chosen for every node: about half the
 * time of `//*[string-length(local-name()) > 3]`). Literals elsewhere stay parameters: they are
 * evaluated once per run, and expressions differing only in them share one compiled plan
 * (xpath-plans.ts). The literal has the type its parameter was declared with (the literal's own),
 * so only the way saxon-js evaluates the comparison changes.
 *
 * References are replaced only outside string literals and braced URI literals (where the
 * translator never writes one, but a query's own text may spell one).
 */
export function inlinePredicateLiterals(expression: string, literals: readonly LiteralParam[]): string {
  const values = new Map(literals.filter((l) => l.inPredicate).map((l) => [`$${l.param}`, literalText(l)]));
  if (values.size === 0) return expression;
  const prefix = `$${braced(NS.lit)}`;
  let out = '';
  let i = 0;
  while (i < expression.length) {
    const c = expression[i];
    if (c === '"' || c === "'") {
      // a string literal; a doubled delimiter is an escaped one
      let j = i + 1;
      while (j < expression.length && !(expression[j] === c && expression[j + 1] !== c)) j += expression[j] === c ? 2 : 1;
      out += expression.slice(i, j + 1);
      i = j + 1;
    } else if (c === '$' && expression.startsWith(prefix, i)) {
      const m = /^\$Q\{[^}]*\}p[0-9]+/.exec(expression.slice(i, i + prefix.length + 12));
      const name = m ? m[0] : prefix;
      out += values.get(name) ?? name;
      i += name.length;
    } else if (c === 'Q' && expression[i + 1] === '{') {
      const j = expression.indexOf('}', i);
      const end = j < 0 ? expression.length : j + 1;
      out += expression.slice(i, end);
      i = end;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}
