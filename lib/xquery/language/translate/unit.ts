/**
 * The translation unit: collects the pieces of the generated stylesheet (parameters, global
 * variables, declared and generated functions, the initial template) and assembles them into
 * XSLT 3.0 text with a line map back to the XQuery source.
 *
 * Line map: every top-level declaration is added with the XQuery span it comes from; inside a
 * multi-line piece, a line may carry a marker comment made by `marker(span)` (put it on the
 * line of the instruction it describes). Each generated line maps to the last span seen, so a
 * saxon-js error on an XSLT line is reported at an XQuery line/column. The markers are removed
 * from the assembled text (lines stay where they are).
 */
import { DEFAULT_MATCH_OPTIONS, type FTMatchOptions } from '../../fulltext/selection';
import { lineColumn, type Span } from '../syntax';
import type { SourcePosition } from '../../static-errors';
import { NS, xmlAttr } from './names';
import { braced } from './emit';
import { FUNCTIONS_VAR, functionsMap } from './function-items';

const MARKER = /<!--@q:(\d+)-->/;
const MARKERS = /<!--@q:\d+-->/g;

export interface AssembledStylesheet {
  readonly xslt: string;
  /** XQuery offset of each XSLT line (index = line number, 1-based; undefined: unknown). */
  readonly lineOffsets: readonly (number | undefined)[];
}

/**
 * An expression that answers for a larger one or declines: `expression` gives the empty sequence
 * when it declines, else a one-member array holding the larger expression's value. It reads
 * `data` from the parameter FIRST_DATA_PARAM, so that expressions differing only in that data
 * share one compiled plan.
 */
export interface TriedFirst {
  readonly expression: string;
  readonly data: string;
}

export class TranslationUnit {
  private readonly params: { text: string; offset: number }[] = [];
  private readonly declarations: { text: string; offset: number }[] = [];
  private functionCounter = 0;
  private readonly prefixes = new Map<string, string>();
  private readonly shared = new Set<string>();
  /** Names of the declarations that belong to the runtime library (library.ts). */
  private readonly library = new Set<string>();
  private stylesheetNeeded = false;

  /** The match options `contains text` starts from: the defaults, as `declare ft-option` changed them. */
  ftOptions: FTMatchOptions = DEFAULT_MATCH_OPTIONS;

  constructor(readonly source: string) {}

  /** A fresh name for a generated function: `Q{urn:xmldb-rest:gen}fN`. */
  newFunctionName(): string {
    return `${braced(NS.gen)}f${++this.functionCounter}`;
  }

  /**
   * A prefix bound to `uri` on the stylesheet root (`nsN`). Only for what EQNames cannot
   * express in saxon-js 2.7: function names whose local part is reserved (`local:function`).
   */
  prefixFor(uri: string): string {
    let p = this.prefixes.get(uri);
    if (!p) {
      p = `ns${this.prefixes.size + 1}`;
      this.prefixes.set(uri, p);
    }
    return p;
  }

  /** A comment that maps the line it is on to the XQuery span (XML comments are legal anywhere in XSLT content). */
  marker(span: Span): string {
    return `<!--@q:${span.start}-->`;
  }

  /**
   * Whether the stylesheet has nothing besides its parameters and the initial template, and no
   * part of the query needs the stylesheet's static context (see `requireStylesheet`).
   */
  get bare(): boolean {
    return this.declarations.length === 0 && this.prefixes.size === 0 && !this.stylesheetNeeded;
  }

  /**
   * Whether the stylesheet has nothing besides its parameters, the initial template and
   * declarations of the runtime library (`addLibraryDeclaration`), which are then returned: the
   * query can run as one expression inside the precompiled library (library.ts).
   */
  libraryOnly(): ReadonlySet<string> | undefined {
    const ok = this.declarations.length === this.library.size && this.prefixes.size === 0 && !this.stylesheetNeeded;
    return ok ? this.library : undefined;
  }

  /**
   * Adds a declaration of the runtime library (a fixed text that does not depend on the query)
   * the first time `name` is asked for.
   */
  addLibraryDeclaration(name: string, text: string): void {
    if (this.library.has(name)) return;
    this.library.add(name);
    this.addDeclaration(text, { start: 0, end: 0 });
  }

  /** A call of the runtime library's function `name` (declared by `text` the first time it is called): `name(args)`. */
  callLibrary(name: string, text: string, args: string): string {
    this.addLibraryDeclaration(name, text);
    return `${name}(${args})`;
  }

  /** Marks the query as needing the compiled stylesheet even when it is one expression. */
  requireStylesheet(): void {
    this.stylesheetNeeded = true;
  }

  /** Global variables bound around the query body (variable-lets.ts `declareGlobals`), in order. */
  private readonly globalLets: { param: string; value: string }[] = [];

  /** Binds global variable `param` (EQName) to `value` (XPath) around the query body (`withGlobals`). */
  addGlobalLet(param: string, value: string): void {
    this.globalLets.push({ param, value });
  }

  /** The entries of the map of declared functions (function-items.ts), in the order of their numbers. */
  private readonly functionEntries: string[] = [];

  /** Adds a declared function as an entry of the map bound around the query body (`withGlobals`). */
  addFunctionItem(entry: string): void {
    this.functionEntries.push(entry);
  }

  /** Calls tried before an expression, by the expression as written (`tryFirst`). */
  private readonly firstCalls = new Map<object, TriedFirst>();

  /**
   * Notes that `expr` (as written) translated to a call whose answer, when it gives one, is the
   * expression's value: a run of the whole query as that expression may try `call` alone first
   * (translation.ts `Translation.xpath.first`).
   */
  tryFirst(expr: object, call: TriedFirst): void {
    this.firstCalls.set(expr, call);
  }

  /** The call noted for `expr`, if any. */
  triedFirst(expr: object): TriedFirst | undefined {
    return this.firstCalls.get(expr);
  }

  /**
   * The query body (XPath) inside the `let` bindings of the global variables, if any, and of the
   * map of declared functions, if they are items: after the globals, which the functions may read,
   * or before them when the globals call the functions (`functionsFirst`, function-items.ts).
   */
  withGlobals(body: string, functionsFirst: boolean): string {
    const lets = this.globalLets.map((g) => `$${g.param} := ${g.value}`);
    if (this.functionEntries.length > 0) {
      const map = `$${FUNCTIONS_VAR} := ${functionsMap(this.functionEntries)}`;
      if (functionsFirst) lets.unshift(map);
      else lets.push(map);
    }
    if (lets.length === 0) return body;
    return `let ${lets.join(', ')} return (${body})`;
  }

  /** Adds an `xsl:param` (external variable); parameters come first in the stylesheet. */
  addParam(text: string, span: Span): void {
    this.params.push({ text, offset: span.start });
  }

  /** Adds a generated declaration that several use sites share, the first time `name` is asked for. */
  addDeclarationOnce(name: string, text: () => string): void {
    if (this.shared.has(name)) return;
    this.shared.add(name);
    this.addDeclaration(text(), { start: 0, end: 0 });
  }

  /** Adds a top-level declaration (`xsl:variable`, `xsl:function`, …) from XQuery `span`. */
  addDeclaration(text: string, span: Span): void {
    this.declarations.push({ text, offset: span.start });
  }

  /**
   * The whole stylesheet: declarations, then the initial template whose body is
   * `templateBody` (XSLT instructions) from XQuery `span`.
   */
  assemble(templateBody: string, span: Span): AssembledStylesheet {
    const lines: string[] = [];
    const offsets: (number | undefined)[] = [undefined];
    const push = (text: string, offset: number | undefined): void => {
      let current = offset;
      for (const line of text.split('\n')) {
        const m = MARKER.exec(line);
        if (m) current = Number(m[1]);
        // the map keeps the offsets; the stylesheet drops them, so that queries differing only
        // in the lengths of their literals share one compilation (literals.ts)
        lines.push(m ? line.replace(MARKERS, '') : line);
        offsets.push(current);
      }
    };
    const extra = [...this.prefixes].map(([uri, p]) => ` xmlns:${p}="${xmlAttr(uri)}"`).join('');
    push(`<xsl:stylesheet xmlns:xsl="${NS.xsl}" xmlns:xs="${NS.xs}"${extra} version="3.0" exclude-result-prefixes="#all">`, undefined);
    for (const p of this.params) push(p.text, p.offset);
    for (const d of this.declarations) push(d.text, d.offset);
    push('<xsl:template name="xsl:initial-template">', span.start);
    push(templateBody, span.start);
    push('</xsl:template>\n</xsl:stylesheet>', undefined);
    return { xslt: lines.join('\n'), lineOffsets: offsets };
  }
}

/** The XQuery position of an XSLT line, if the line map knows it. */
export function sourcePosition(source: string, map: readonly (number | undefined)[], line: number | undefined): SourcePosition | undefined {
  if (line === undefined) return undefined;
  for (let l = Math.min(line, map.length - 1); l >= 1; l--) {
    const offset = map[l];
    if (offset !== undefined) return lineColumn(source, offset);
  }
  return undefined;
}
