/**
 * Prepared queries: a query text parsed once, its static update analysis (analysis/updating.ts) and
 * its translations to XSLT (one per context mode) made once, all kept in one bounded LRU cache
 * keyed by the text; a query that differs from a kept one only in literals takes its parse and
 * translations (literal-variants.ts). A request prepares its query once: locking and permission read the analysis,
 * evaluation the translation, and whether its result may be kept (analysis/pure.ts). Static errors are kept too (they are deterministic) and thrown
 * wherever the failing step is asked for.
 */
import { LRUCache } from 'lru-cache';
import { LocatedQueryError } from '../static-errors';
import { NESTED_TOO_DEEPLY, XQuerySyntaxError, parseQuery, type MainModule } from '../language/syntax';
import { translateFirstCall, translateModule, type ContextMode, type TranslateOptions, type Translation } from '../language/translate';
import { analyzeModule, type UpdateAnalysis } from '../language/analysis/updating';
import { isPure } from '../language/analysis/pure';
import { usesAccount } from '../language/analysis/account-use';
import { literalShape } from '../language/syntax/literal-shape';
import { literalVariant, type Shape, type ShapeBase } from './literal-variants';

export interface PreparedQuery {
  /** The XQuery source. */
  readonly text: string;
  /** Whether the query updates, the permission and the databases it needs; throws static errors. */
  /** `mixUpdates`: BaseX's MIXUPDATES option (analysis/updating.ts). */
  analysis(mixUpdates?: boolean): UpdateAnalysis;
  /** The translation for a context mode; throws static errors. */
  translation(mode: ContextMode): Translation;
  /**
   * The translation for the call tried first alone (translate/translation.ts `translateFirstCall`),
   * undefined when the query has none; throws static errors.
   */
  firstTranslation(mode: ContextMode): Translation | undefined;
  /**
   * The translation to compile as the query's own stylesheet: `translation(mode)`, or, when its
   * plain constructors copy the elements they nest, the translation that builds them in place
   * (translate/translation.ts `copiesConstructedElements`).
   */
  stylesheetTranslation(mode: ContextMode): Translation;
  /** The query's result depends on its text, external variables and serialization only (analysis/pure.ts); throws static errors. */
  pure(): boolean;
  /** The query may call a user: function (analysis/account-use.ts); throws static errors. */
  usesAccount(): boolean;
}

type Outcome<T> = { readonly value: T } | { readonly error: LocatedQueryError };

/**
 * A stack overflow while parsing, analysing or translating: the query nests deeper than the
 * limits of syntax/nesting.ts allow for on this thread's stack (a host that calls the router
 * with little stack left). The same static error as past the limits, not a crash.
 */
function nestingError(e: unknown): LocatedQueryError | undefined {
  if (!(e instanceof RangeError) || !/call stack/i.test(e.message)) return undefined;
  return new LocatedQueryError({ code: 'XPST0003', message: NESTED_TOO_DEEPLY, status: 500, phase: 'compile' });
}

/** Runs one static step, keeping a static error as the outcome. */
function attempt<T>(step: () => T): Outcome<T> {
  try {
    return { value: step() };
  } catch (e) {
    if (e instanceof XQuerySyntaxError) {
      const error = new LocatedQueryError(
        { code: e.code, message: e.description, status: 500, phase: 'compile' },
        { line: e.line, column: e.column },
      );
      return { error };
    }
    if (e instanceof LocatedQueryError) return { error: e };
    throw nestingError(e) ?? e;
  }
}

function unwrap<T>(outcome: Outcome<T>): T {
  if ('error' in outcome) throw outcome.error;
  return outcome.value;
}

class Prepared implements ShapeBase {
  private parsed?: Outcome<MainModule>;
  /** By the MIXUPDATES option: without it, and with it. */
  private readonly analysed: [Outcome<UpdateAnalysis>?, Outcome<UpdateAnalysis>?] = [];
  private readonly translations = new Map<ContextMode, Outcome<Translation>>();
  /** Translations for the call tried first alone (undefined: the query has none, `translations` has its own). */
  private readonly alone = new Map<ContextMode, Outcome<Translation | undefined>>();
  /** Translations without plain constructor calls, for those of `translations` that copy nested elements. */
  private readonly inPlace = new Map<ContextMode, Outcome<Translation>>();
  private isPure?: boolean;
  private accountUse?: boolean;

  constructor(
    readonly text: string,
    private readonly options: Omit<TranslateOptions, 'contextMode'>,
  ) {}

  module(): MainModule {
    this.parsed ??= attempt(() => parseQuery(this.text));
    return unwrap(this.parsed);
  }

  analysis(mixUpdates = false): UpdateAnalysis {
    const i = mixUpdates ? 1 : 0;
    this.analysed[i] ??= attempt(() => analyzeModule(this.module(), this.text, mixUpdates));
    return unwrap(this.analysed[i]!);
  }

  translation(mode: ContextMode): Translation {
    let t = this.translations.get(mode);
    if (t === undefined) {
      t = attempt(() => translateModule(this.module(), this.text, { ...this.options, contextMode: mode }));
      this.translations.set(mode, t);
    }
    return unwrap(t);
  }

  firstTranslation(mode: ContextMode): Translation | undefined {
    let t = this.alone.get(mode);
    if (t === undefined) {
      // one pass for a query without such a call: its translation is the query's own
      const made = attempt(() => translateFirstCall(this.module(), this.text, { ...this.options, contextMode: mode }));
      if ('error' in made) t = made;
      else if ('alone' in made.value) t = { value: made.value.alone };
      else {
        this.translations.set(mode, { value: made.value.full });
        t = { value: undefined };
      }
      this.alone.set(mode, t);
    }
    return unwrap(t);
  }

  pure(): boolean {
    this.isPure ??= isPure(this.module());
    return this.isPure;
  }

  usesAccount(): boolean {
    this.accountUse ??= usesAccount(this.module());
    return this.accountUse;
  }

  stylesheetTranslation(mode: ContextMode): Translation {
    const plain = this.translation(mode);
    if (!plain.copiesConstructedElements) return plain;
    let t = this.inPlace.get(mode);
    if (t === undefined) {
      t = attempt(() => translateModule(this.module(), this.text, { ...this.options, contextMode: mode, plainConstructors: false }));
      this.inPlace.set(mode, t);
    }
    return unwrap(t);
  }
}

/**
 * The cache of prepared queries, by text; and by literal shape (syntax/literal-shape.ts), the
 * first query of each shape, whose parse and translations a query that differs from it only in
 * literals made parameters takes (literal-variants.ts).
 */
export class PreparedQueries {
  private readonly cache: LRUCache<string, PreparedQuery>;
  /** Absent when literals are no parameters (`literalParams: false`): no query of a shape could take another's translation. */
  private readonly shapes: LRUCache<string, Shape> | undefined;

  /** `options`: how every query is translated (all but the context mode). */
  constructor(
    max: number,
    private readonly options: Omit<TranslateOptions, 'contextMode'> = {},
  ) {
    this.cache = new LRUCache({ max });
    this.shapes = options.literalParams === false ? undefined : new LRUCache({ max });
  }

  /** The prepared form of a query text (made now, or found in the cache). */
  prepare(text: string): PreparedQuery {
    let p = this.cache.get(text);
    if (p === undefined) {
      p = this.ofShape(text);
      this.cache.set(text, p);
    }
    return p;
  }

  private ofShape(text: string): PreparedQuery {
    const own = (): Prepared => new Prepared(text, this.options);
    const shape = this.shapes && literalShape(text);
    if (!shape) return own();
    const known = this.shapes!.get(shape.key);
    if (known) return literalVariant(text, shape.literals, known, own) ?? own();
    const p = own();
    this.shapes!.set(shape.key, { base: p, literals: shape.literals });
    return p;
  }
}
