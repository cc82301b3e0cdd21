/**
 * XQuery main module → XSLT 3.0 stylesheet.
 *
 *   translateModule(module, source, { contextMode }) → Translation
 *
 * Context modes (spec §6.1, §9.2):
 * - `none`: no context; `.` raises XPDY0002 at run time;
 * - `single`: one context document; the body runs inside `xsl:for-each` over CONTEXT_PARAM
 *   (a native focus);
 * - `multi`: a sequence of documents (a database, or several `context` values); the focus is
 *   CONTEXT_PARAM itself (`.` is the sequence, relative paths start from it). When the
 *   parameter is not supplied, it defaults to the engine's `collection($CONTEXT_URI_PARAM)`,
 *   which the worker's DocumentSource answers (a database context).
 */
import { CONTEXT_PARAM } from '../../constants';
import type { Expr, MainModule } from '../syntax';
import { contextItemDecl, contextItemType, declareContextItem, DECLARED_CONTEXT_FOCUS, usesDeclaredValue } from './context-item';
import { translateExpr } from './expressions';
import { LiteralParams, literalParamDeclaration, replaceableLiterals, type LiteralParam } from './literals';
import { CONTEXT_URI_PARAM, NS, xmlAttr } from './names';
import { fitsLibrary, LIBRARY_EXTERNALS } from './library';
import { translateProlog, type ExternalVariable } from './prolog';
import { BODY_DECLARATION, bindVariables } from './variable-lets';
import { Scope, StaticContext, type Focus } from './scope';
import { checkedValue } from './types';
import { contextCount } from '../../accelerators/leaf-summaries/paths-summary';
import { TranslationUnit, type AssembledStylesheet, type TriedFirst } from './unit';
import { braced } from './emit';
import { functionsAsItems } from './function-items';
import { functionNames } from '../analysis/function-names';

export type ContextMode = 'none' | 'single' | 'multi';

export interface TranslateOptions {
  readonly contextMode: ContextMode;
  /**
   * Emit chosen literals as stylesheet parameters (literals.ts), so that queries differing only
   * in them share one compilation; default true.
   */
  readonly literalParams?: boolean;
  /**
   * Plain direct element constructors as calls of the runtime library's functions
   * (xpath.ts), which a run on the library needs; default true. False: nested
   * instructions, which build nested elements in place (see `Translation.copiesConstructedElements`).
   */
  readonly plainConstructors?: boolean;
  /**
   * Declared functions as function items of the query's expression (function-items.ts) and
   * try/catch as a call of the runtime library (conditional.ts), where that spares the query a
   * stylesheet; default true. False: `xsl:function`s and lifted `xsl:try`s.
   */
  readonly expressionForms?: boolean;
  /**
   * Translate for the call tried first alone (`translateFirstCall`): the body's FLWOR that
   * engine:leaf-tuples evaluates is not translated otherwise, and the stylesheet is not made.
   */
  readonly firstOnly?: boolean;
}

export interface Translation {
  readonly xslt: string;
  /** XQuery offset of each XSLT line (1-based index). */
  readonly lineOffsets: readonly (number | undefined)[];
  readonly externals: readonly ExternalVariable[];
  /** Literals emitted as parameters: every run binds each one to its value. */
  readonly literals: readonly LiteralParam[];
  /** `declare option output:*` values. */
  readonly outputOptions: Readonly<Record<string, string>>;
  /** `declare base-uri`, if any. */
  readonly baseUri: string | null;
  readonly contextMode: ContextMode;
  /**
   * Whether plain constructor calls copy elements built by other calls into their parents: the
   * query's own stylesheet is then better translated with `plainConstructors: false`.
   */
  readonly copiesConstructedElements: boolean;
  /**
   * The query as one XPath 3.1 expression, when the stylesheet would be nothing but that
   * expression: no declared or generated functions, no global variables but those bound around
   * the body (variable-lets.ts `declareGlobals`), external variables only as the evaluator's parameters
   * (`ExternalVariable.bound` too) and bound around the body (variable-lets.ts `externalLets`). It
   * reads the context from CONTEXT_PARAM as the stylesheet does (in `single` mode the caller
   * focuses on it). `offset` is where the query body starts, for error positions. With
   * `library`, the expression runs on the runtime library (library.ts): it calls declarations
   * of the library, or it is longer than an XPath plan may be (XPATH_MAX_LENGTH); without, it
   * runs on saxon-js's XPath evaluator.
   */
  readonly xpath?: {
    readonly expression: string;
    readonly offset: number;
    readonly library: boolean;
    readonly summary?: string;
    /**
     * A call that answers for the whole body unless it declines (unit.ts `TriedFirst`): engine:leaf-tuples
     * of a FLWOR that is the body. Run first, it spares the run the parse or compilation of
     * the body as written, which is the answer only when the call declines.
     */
    readonly first?: TriedFirst;
  };
}

export function translateModule(module: MainModule, source: string, options: TranslateOptions): Translation {
  if (options.expressionForms === false) return translateWith(module, source, options, false).translation;
  return withForms(module, source, options, translateWith(module, source, options, true));
}

/**
 * The translation with the forms of a run as one expression (`attempt`), or without them. Those
 * forms only where they spare the query its stylesheet: a stylesheet keeps xsl:functions and
 * xsl:try, whose errors map back to their lines, and the functions it generates could not see
 * the function items' map bound around the body.
 */
function withForms(module: MainModule, source: string, options: TranslateOptions, attempt: { translation: Translation; usedForms: boolean }): Translation {
  return attempt.translation.xpath !== undefined || !attempt.usedForms ? attempt.translation : translateWith(module, source, options, false).translation;
}

/**
 * A query translated for the call tried first for its body (`Translation.xpath.first`: a FLWOR
 * that engine:leaf-tuples evaluates), `alone`: made without the body's plain form, which is the
 * answer only when the call declines (a FLWOR with `order by` translates to several KB), and which
 * `translateModule` then makes. Only its `xpath.first` and `offset`, literals, externals, output
 * options, base URI and context mode are the query's; its expression is not, and reading its
 * stylesheet throws. A query without such a call is translated in the same pass: `full`, what
 * `translateModule` answers.
 */
export type FirstCallTranslation = { readonly alone: Translation } | { readonly full: Translation };

export function translateFirstCall(module: MainModule, source: string, options: TranslateOptions): FirstCallTranslation {
  if (options.expressionForms === false) return { full: translateModule(module, source, options) };
  const attempt = translateWith(module, source, { ...options, firstOnly: true }, true);
  if (!attempt.leftPlain) return { full: withForms(module, source, options, attempt) };
  // the plain form was left out for a call that then was not the body's (a variable bound around it)
  return attempt.translation.xpath?.first ? { alone: attempt.translation } : { full: translateModule(module, source, options) };
}

/**
 * A translation, with the forms of a run as one expression or without them, whether it used
 * any, and whether it left out the plain form of the body's FLWOR (`TranslateOptions.firstOnly`).
 */
function translateWith(
  module: MainModule,
  source: string,
  options: TranslateOptions,
  expressionForms: boolean,
): { translation: Translation; usedForms: boolean; leftPlain: boolean } {
  const ctx = new StaticContext(source);
  const unit = new TranslationUnit(source);
  const items = expressionForms ? functionsAsItems(module) : undefined;
  if (items !== undefined) {
    ctx.functionItems = new Map();
    ctx.functionUses = functionNames(module);
  }
  ctx.tryAsCall = expressionForms;
  if (options.literalParams !== false) ctx.literals = new LiteralParams(replaceableLiterals(module));
  ctx.plainConstructors = options.plainConstructors !== false;
  if (options.firstOnly) ctx.firstOnly = unparenthesized(module.body);
  const mode = options.contextMode;
  const ctxRef = `$${CONTEXT_PARAM}`;
  let globalFocus: Focus;
  let bodyFocus: Focus;
  switch (mode) {
    case 'none':
      globalFocus = bodyFocus = { kind: 'absent' };
      break;
    case 'single':
      globalFocus = { kind: 'params', item: ctxRef, position: '1', last: '1' };
      bodyFocus = { kind: 'native' };
      unit.addParam(`<xsl:param name="${CONTEXT_PARAM}" as="document-node()" required="yes"/>`, module);
      break;
    case 'multi':
      globalFocus = bodyFocus = { kind: 'value', item: ctxRef, position: '1', last: '1' };
      unit.addParam(`<xsl:param name="${CONTEXT_URI_PARAM}" as="${braced(NS.xs)}string?" select="()"/>`, module);
      unit.addParam(
        `<xsl:param name="${CONTEXT_PARAM}" as="node()*" select="${xmlAttr(`if (exists($${CONTEXT_URI_PARAM})) then ${braced(NS.engine)}collection($${CONTEXT_URI_PARAM}) else ()`)}"/>`,
        module,
      );
      break;
  }
  const decl = contextItemDecl(module.prolog, Scope.root(ctx, globalFocus));
  const declared = usesDeclaredValue(decl, mode !== 'none');
  if (declared) globalFocus = bodyFocus = DECLARED_CONTEXT_FOCUS;
  const root = Scope.root(ctx, globalFocus);
  const { externals, globals } = translateProlog(module.prolog, root, unit, globalFocus);
  if (declared) declareContextItem(decl!, root, unit);
  ctx.currentDeclaration = BODY_DECLARATION;
  const expression = translateExpr(module.body, root.withFocus(bodyFocus), unit);
  ctx.currentDeclaration = null;
  const lets = bindVariables(globals, externals, root, unit);
  const body = unit.withGlobals(expression, items === 'before-globals');
  // `multi` only: a whole `count(//name…)` first asks the database's summaries (paths-summary.ts)
  const summary = mode === 'multi' && !declared ? contextCount(module.body, root.withFocus(bodyFocus), unit) : undefined;
  // a declared type checks the request's context document (in the stylesheet: no XPath shortcut)
  const checked = mode === 'single' && !declared && decl?.type !== null && decl?.type !== undefined;
  const context = mode === 'single' && !declared ? (checked ? checkedValue(ctxRef, contextItemType(decl, root), 'The context item') : ctxRef) : undefined;
  const literals = ctx.literals.params;
  for (const p of literals) unit.addParam(literalParamDeclaration(p), module.body);
  // The stylesheet's text is made when first read: a query that runs as one expression (most
  // never-seen ones) never needs it, and escaping the body into an attribute and splitting the
  // text into lines were a fifth of such a query's translation.
  let assembled: AssembledStylesheet | undefined;
  const stylesheet = (): AssembledStylesheet => {
    if (assembled !== undefined) return assembled;
    if (ctx.leftPlain) throw new Error('a translation for the call tried first has no stylesheet');
    let template = `${unit.marker(module.body)}<xsl:sequence select="${xmlAttr(body)}"/>`;
    if (context !== undefined) template = `<xsl:for-each select="${xmlAttr(context)}">\n${template}\n</xsl:for-each>`;
    return (assembled = unit.assemble(template, module.body));
  };
  const libraryNames = unit.libraryOnly();
  const library = libraryNames !== undefined && libraryNames.size > 0;
  const expressionOnly = unit.bare || (library && fitsLibrary(libraryNames));
  // a bare expression too long for a kept XPath plan runs on the library too: parsed per run, not compiled
  // external variables are parameters of the XPath evaluator, or of the library (a few), bound around the body
  const run = lets === undefined || lets.length === 0 ? body : `let ${lets.join(', ')} return (${body})`;
  const onLibrary = library || run.length > XPATH_MAX_LENGTH;
  const runnable = lets !== undefined && expressionOnly && !checked && (externals.length <= LIBRARY_EXTERNALS || !onLibrary);
  // the call tried first reads nothing bound around the body: no external or global variables
  const first = run === expression && !declared && summary === undefined ? unit.triedFirst(unparenthesized(module.body)) : undefined;
  const xpath = runnable
    ? { expression: run, offset: module.body.start, library: onLibrary, ...(summary && externals.length === 0 ? { summary } : {}), ...(first ? { first } : {}) }
    : undefined;
  const translation = new StylesheetOnRead(stylesheet, {
    externals,
    literals,
    outputOptions: { ...ctx.outputOptions },
    baseUri: ctx.baseUri,
    contextMode: mode,
    copiesConstructedElements: ctx.copiesConstructedElements,
    xpath,
  });
  return { translation, usedForms: (ctx.functionItems?.size ?? 0) > 0 || ctx.triedAsCall, leftPlain: ctx.leftPlain };
}

/**
 * `t` for a query that differs from the one translated only in literals made parameters: the
 * same translation with `values` (a new value by literal offset) for those literals' parameters.
 * Such a literal is never read by the translation (literals.ts): its value travels with each run.
 * Undefined when a literal of `values` is not one of `t`'s parameters: its value may be written
 * into `t`, which is then not the other query's.
 */
export function withLiteralValues(t: Translation, values: ReadonlyMap<number, string>): Translation | undefined {
  let replaced = 0;
  const literals = t.literals.map((l) => {
    const value = values.get(l.start);
    if (value === undefined) return l;
    replaced++;
    return { ...l, value };
  });
  // every changed literal must be a parameter; one literal may stand for one parameter only
  if (replaced !== values.size) return undefined;
  const { externals, outputOptions, baseUri, contextMode, copiesConstructedElements, xpath } = t;
  return new StylesheetOnRead(() => t, { externals, literals, outputOptions, baseUri, contextMode, copiesConstructedElements, xpath });
}

/** What a translation holds besides its stylesheet's text. */
type TranslationParts = Omit<Translation, 'xslt' | 'lineOffsets'>;

/**
 * A translation whose stylesheet text is made when first read (`stylesheet`). A class rather
 * than an object literal with getters: V8 gives each literal whose accessors are new closures a
 * hidden class of its own, which the transitions of the literal's first hidden class hold
 * weakly, and its minor collections keep weakly held objects alive. Every translation (its
 * closures, the syntax tree and translation state they hold) then outlived the young
 * generation until a full collection: a server answering never-seen queries copied and
 * promoted about 3 MB at every scavenge.
 */
interface StylesheetOnRead extends TranslationParts {}
class StylesheetOnRead implements Translation {
  constructor(
    private readonly stylesheet: () => Pick<Translation, 'xslt' | 'lineOffsets'>,
    { xpath, ...parts }: TranslationParts,
  ) {
    Object.assign(this, parts);
    // only what is there: a run reads an absent form as none
    if (xpath) Object.assign(this, { xpath });
  }

  get xslt(): string {
    return this.stylesheet().xslt;
  }

  get lineOffsets(): readonly (number | undefined)[] {
    return this.stylesheet().lineOffsets;
  }
}

/**
 * Longest expression run as XPath on saxon-js's evaluator (compiled into a plan once per text,
 * xpath-plans.ts); a longer one runs its stylesheet.
 */
export const XPATH_MAX_LENGTH = 4096;

/**
 * Longest expression run on the runtime library (`Translation.xpath.library`). Such a run is
 * the first sight of a query shape only (a shape seen again compiles its own stylesheet,
 * engine.ts), and parses its expression (about 0.5 ms per KB): far less than compiling the
 * stylesheet of a never-seen query, which takes hundreds of milliseconds. A FLWOR with a few
 * `let` clauses, order keys and a constructor translates to 4-6 KB of expression.
 */
export const LIBRARY_MAX_LENGTH = 16384;

/**
 * The XPath expression to run instead of the stylesheet (Translation.xpath), with the context
 * the stylesheet would set up: the focus on the one context document, or, for a database
 * context (CONTEXT_URI_PARAM given), the database's documents. Undefined: run the stylesheet.
 */
export function xpathToRun(t: Translation, databaseContext: boolean): string | undefined {
  if (!t.xpath || t.xpath.expression.length > (t.xpath.library ? LIBRARY_MAX_LENGTH : XPATH_MAX_LENGTH)) return undefined;
  const run = inContext(t.xpath.expression, t.contextMode, databaseContext);
  const summary = t.xpath.summary;
  if (summary === undefined || t.contextMode !== 'multi' || !databaseContext) return run;
  // the summaries' answer, else (false()) the query as written, which only then binds the context
  const r = `$${braced(NS.gen)}summary`;
  return `let ${r} := ${summary} return if (${r} instance of ${braced(NS.xs)}boolean) then (${run}) else ${r}`;
}

/** The call to try before `xpathToRun`'s expression (`Translation.xpath.first`), in the same context. */
export function firstToRun(t: Translation, databaseContext: boolean): TriedFirst | undefined {
  const first = t.xpath?.first;
  return first && { expression: inContext(first.expression, t.contextMode, databaseContext), data: first.data };
}

/** `expression` with the focus the stylesheet would set up for `mode`. */
function inContext(expression: string, mode: ContextMode, databaseContext: boolean): string {
  const ctx = `$${CONTEXT_PARAM}`;
  switch (mode) {
    case 'none':
      return expression;
    case 'single':
      return `${ctx} ! (${expression})`;
    case 'multi':
      return databaseContext ? `let ${ctx} := ${braced(NS.engine)}collection($${CONTEXT_URI_PARAM}) return (${expression})` : expression;
  }
}

function unparenthesized(expr: Expr): Expr {
  return expr.kind === 'ParenthesizedExpr' && expr.expr !== null ? unparenthesized(expr.expr) : expr;
}
