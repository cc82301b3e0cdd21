/**
 * A query that differs from a prepared one only in the values of some literals (syntax/literal-shape.ts):
 * `for $i in 1 to 200 where $i mod 7 = 3 …` after `… = 4 …`, a search box's string, an id. When
 * each literal that differs is one the translation makes a parameter of (translate/literals.ts),
 * nothing the translation holds depends on its value, which travels with each run: the query
 * takes the prepared one's translations with its own values for those parameters
 * (translate/translation.ts `withLiteralValues`), and is neither parsed nor translated. A
 * never-seen query of a known shape then costs a scan of its text.
 *
 * What holds the prepared query is reused only where it is the variant's too:
 * - the shapes agree, so the literals are at the same offsets, of the same kinds and lengths: every
 *   position a translation holds (lines, the body's offset) and every error's place are the same;
 * - the scan found every literal of its parse (`scannedAll`), checked once per shape;
 * - every literal that differs is one the translations make a parameter of; any other (the name
 *   of a database or document, a regular expression, a position) makes the variant a query of its
 *   own;
 * - the analysis (update, permission, databases) is taken only when it names no database: a
 *   database name may be built from literals that are parameters (`collection("a" || "b")`);
 * - purity and the use of the account depend on which functions a query calls, not on values;
 * - a static error, or any facet that cannot be reused, is the variant's own: it is then
 *   parsed and translated as any query (`own`).
 */
import type { MainModule } from '../language/syntax';
import { scannedAll, type ScannedLiteral } from '../language/syntax/literal-shape';
import { withLiteralValues, type ContextMode, type Translation } from '../language/translate';
import { replaceableLiterals } from '../language/translate/literals';
import type { UpdateAnalysis } from '../language/analysis/updating';
import type { PreparedQuery } from './prepared';

/** A prepared query of a shape, as its variants use it. */
export interface ShapeBase extends PreparedQuery {
  /** Its parsed module; throws its static error. */
  module(): MainModule;
}

/** A shape's first query and its scanned literals; once checked against its parse, the offsets of the literals that may differ. */
export interface Shape {
  readonly base: ShapeBase;
  readonly literals: readonly ScannedLiteral[];
  variable?: ReadonlySet<number> | null;
}

/**
 * The prepared form of `text`, a query of `shape` whose scanned literals are `literals`, from the
 * shape's query; undefined when the shape cannot serve it.
 */
export function literalVariant(text: string, literals: readonly ScannedLiteral[], shape: Shape, own: () => PreparedQuery): PreparedQuery | undefined {
  if (shape.variable === undefined) shape.variable = variableLiterals(shape);
  const variable = shape.variable;
  if (variable === null) return undefined;
  const values = new Map<number, string>();
  for (const [i, l] of literals.entries()) {
    if (l.value === shape.literals[i].value) continue;
    // a literal read where it is written (a database's or document's name, a regular expression, a
    // position): the query is another one
    if (!variable.has(l.start)) return undefined;
    values.set(l.start, l.value);
  }
  return values.size === 0 ? shape.base : new LiteralVariant(text, shape.base, values, own);
}

/**
 * The offsets of the literals of the shape's query that its translations make parameters
 * (translate/literals.ts `replaceableLiterals`): only these may differ in a variant. Null when the
 * query does not parse, or the scan missed one of its literals.
 */
function variableLiterals(shape: Shape): ReadonlySet<number> | null {
  let module: MainModule;
  try {
    module = shape.base.module();
  } catch {
    return null;
  }
  if (!scannedAll(shape.literals, module)) return null;
  return new Set([...replaceableLiterals(module).keys()].map((node) => node.start));
}

/** A value of the base, or undefined when it fails (the variant then makes its own). */
function reused<T>(step: () => T): { value: T } | undefined {
  try {
    return { value: step() };
  } catch {
    return undefined;
  }
}

class LiteralVariant implements PreparedQuery {
  private prepared?: PreparedQuery;
  /** The base's translations with this query's values, by the base's translation (null: not reusable). */
  private readonly derived = new Map<Translation, Translation | null>();

  constructor(
    readonly text: string,
    private readonly base: ShapeBase,
    private readonly values: ReadonlyMap<number, string>,
    private readonly own: () => PreparedQuery,
  ) {}

  private self(): PreparedQuery {
    return (this.prepared ??= this.own());
  }

  analysis(mixUpdates?: boolean): UpdateAnalysis {
    const a = reused(() => this.base.analysis(mixUpdates));
    return a && Array.isArray(a.value.databases) && a.value.databases.length === 0 ? a.value : this.self().analysis(mixUpdates);
  }

  translation(mode: ContextMode): Translation {
    return this.derive(() => this.base.translation(mode)) ?? this.self().translation(mode);
  }

  firstTranslation(mode: ContextMode): Translation | undefined {
    const first = reused(() => this.base.firstTranslation(mode));
    if (first === undefined) return this.self().firstTranslation(mode);
    if (first.value === undefined) return undefined;
    return this.derive(() => first.value!) ?? this.self().firstTranslation(mode);
  }

  stylesheetTranslation(mode: ContextMode): Translation {
    return this.derive(() => this.base.stylesheetTranslation(mode)) ?? this.self().stylesheetTranslation(mode);
  }

  pure(): boolean {
    return reused(() => this.base.pure())?.value ?? this.self().pure();
  }

  usesAccount(): boolean {
    return reused(() => this.base.usesAccount())?.value ?? this.self().usesAccount();
  }

  /** The base's translation `of` with this query's values; undefined where it is not this query's. */
  private derive(of: () => Translation): Translation | undefined {
    const t = reused(of);
    if (t === undefined) return undefined;
    let d = this.derived.get(t.value);
    if (d === undefined) {
      d = withLiteralValues(t.value, this.values) ?? null;
      this.derived.set(t.value, d);
    }
    return d ?? undefined;
  }
}
