/**
 * Static analysis of XQuery Update Facility 3.0 (§2.2–2.4): which expressions are updating,
 * where they may appear, and whether a main module is an updating query.
 *
 * Categories: an expression is `updating` (a basic updating expression, a call of an
 * %updating function, of a db: write function, update:output or xquery:eval-update, `invoke
 * updating`), `vacuous` (`()`, fn:error, and, as in BaseX, calls of module functions that always
 * return the empty sequence: prof:sleep, prof:void, prof:dump), or `simple`. Rules enforced:
 * - XUST0001: an updating expression where only simple ones are allowed: anywhere except the
 *   query body, a FLWOR's return clause, the branches of if/typeswitch/switch/try-catch, the
 *   operands of a comma, parentheses, copy-modify's modify and return clauses, `transform
 *   with`'s modify clause, and the body of an %updating function; also branches that mix
 *   updating and non-vacuous simple expressions;
 * - XUST0002: a modify clause or an %updating function body that is simple and not vacuous;
 * - XUST0028: an %updating function that declares a return type.
 *
 * The REST layer asks `analyzeModule` before running a query: it locks the databases the query
 * can reach (for writing if it is updating), and an updating query needs the write permission on
 * them (create, globally, for db:create, db:drop, db:copy, db:alter; admin for the user: changes).
 */
import { databasesOf, type DatabaseSet } from './databases';
import { StaticPrefixes } from '../static-prefixes';
import { eachChild, type EQName, type Expr, type FunctionDecl, type MainModule, type Node } from '../syntax';
import { staticUpdateError } from '../../update/update-errors';
import { functionPrefixUri, MODULE_NAMESPACES, UPDATE_MODULE_NS } from '../../module-namespaces';
import { rank } from '../../../users/permissions';

const DB_NS = MODULE_NAMESPACES.db;
const XQUERY_NS = MODULE_NAMESPACES.xquery;
const USER_NS = MODULE_NAMESPACES.user;
const FN_NS = 'http://www.w3.org/2005/xpath-functions';

/**
 * Module functions declared `as empty-sequence()`: XQuery Update 3.0 §2.2 counts only `()` and
 * fn:error as vacuous, but the reference server also accepts these beside updates
 * (`db:create('x'), prof:sleep(1000)`), and scripts written for it rely on that.
 */
const EMPTY_RESULT_FUNCTIONS = new Set(['sleep', 'void', 'dump'].map((local) => `Q{${MODULE_NAMESPACES.prof}}${local}`));

/** db: functions that change the store, and the permission each needs. */
export const DB_WRITE_FUNCTIONS: Readonly<Record<string, 'write' | 'create'>> = {
  add: 'write',
  put: 'write',
  'put-value': 'write',
  'put-binary': 'write',
  delete: 'write',
  rename: 'write',
  optimize: 'write',
  flush: 'write',
  create: 'create',
  drop: 'create',
  copy: 'create',
  alter: 'create',
};

/**
 * user: functions that change users, and the permission the query needs at least: admin, but
 * a user may change its own password (the server decides each change, operations/query-users.ts).
 */
const USER_WRITE_FUNCTIONS: Readonly<Record<string, UpdatePermission>> = { create: 'admin', drop: 'admin', alter: 'admin', grant: 'admin', password: 'write' };

/** The permission an updating query needs beyond reading. */
export type UpdatePermission = 'write' | 'create' | 'admin';

export interface UpdateAnalysis {
  /** The query body is an updating expression: its pending updates are applied to the store. */
  readonly updating: boolean;
  /** Permission the query needs beyond reading. */
  readonly permission: 'none' | UpdatePermission;
  /** The databases the query can reach (databases.ts), besides the one of its context. */
  readonly databases: DatabaseSet;
}

type Category = 'simple' | 'updating' | 'vacuous';

class Analyzer {
  /** The query's prefixes; BaseX's `update` is looked up after them (`functionKey`). */
  private readonly namespaces = new StaticPrefixes();
  private defaultFunctionNs = FN_NS;
  private readonly updatingFunctions = new Set<string>();
  permission: 'none' | UpdatePermission = 'none';

  constructor(
    private readonly source: string,
    private readonly mixUpdates: boolean,
  ) {}

  module(m: MainModule): UpdateAnalysis {
    const functions: FunctionDecl[] = [];
    for (const d of m.prolog.decls) {
      if (d.kind === 'NamespaceDecl') this.namespaces.set(d.prefix, d.uri);
      else if (d.kind === 'DefaultNamespaceDecl' && d.target === 'function') this.defaultFunctionNs = d.uri;
      else if (d.kind === 'FunctionDecl') functions.push(d);
    }
    for (const f of functions) {
      if (f.annotations.some((a) => a.name.local === 'updating')) this.updatingFunctions.add(`${this.functionKey(f.name)}#${f.params.length}`);
    }
    for (const d of m.prolog.decls) {
      if (d.kind === 'VarDecl' && d.value) this.simple(d.value);
      if (d.kind === 'FunctionDecl') this.functionBody(d);
    }
    const body = this.expr(m.body);
    return { updating: body === 'updating', permission: this.permission, databases: databasesOf(m) };
  }

  private functionBody(d: FunctionDecl): void {
    const updating = d.annotations.some((a) => a.name.local === 'updating');
    if (!d.body) return;
    if (updating && d.returnType) throw staticUpdateError('XUST0028', this.source, d.start, d.name.local);
    const expr = d.body.expr;
    if (!expr) return;
    if (updating) {
      if (this.expr(expr) === 'simple') throw staticUpdateError('XUST0002', this.source, expr.start, 'the body of an updating function');
    } else this.simple(expr);
  }

  private functionKey(name: EQName): string {
    const uri = name.uri ?? (name.prefix ? functionPrefixUri(name.prefix, this.namespaces.get(name.prefix)) ?? `?${name.prefix}` : this.defaultFunctionNs);
    return `Q{${uri}}${name.local}`;
  }

  /** `e` must not be updating (XUST0001). */
  private simple(e: Node): void {
    if (this.expr(e) === 'updating') throw staticUpdateError('XUST0001', this.source, e.start, describeNode(e));
  }

  /** Branches of one expression: all updating or vacuous, or none updating. */
  private branches(list: readonly Node[]): Category {
    const cats = list.map((e) => ({ e, c: this.expr(e) }));
    if (cats.some((x) => x.c === 'updating')) {
      const bad = this.mixUpdates ? undefined : cats.find((x) => x.c === 'simple');
      if (bad) throw staticUpdateError('XUST0001', this.source, bad.e.start, 'updating and non-updating expressions mixed');
      return 'updating';
    }
    return cats.length > 0 && cats.every((x) => x.c === 'vacuous') ? 'vacuous' : 'simple';
  }

  private expr(n: Node): Category {
    switch (n.kind) {
      case 'InsertExpr':
        this.simple(n.source);
        this.simple(n.target);
        return this.updates('write');
      case 'DeleteExpr':
        this.simple(n.target);
        return this.updates('write');
      case 'ReplaceExpr':
        this.simple(n.target);
        this.simple(n.with);
        return this.updates('write');
      case 'RenameExpr':
        this.simple(n.target);
        this.simple(n.newName);
        return this.updates('write');
      case 'UpdatingFunctionCall':
        this.simple(n.function);
        n.args.forEach((a) => this.simple(a));
        return this.updates('write');
      case 'CopyModifyExpr': {
        n.bindings.forEach((b) => this.simple(b.value));
        if (this.modifyClause(n.modify) === 'simple') throw staticUpdateError('XUST0002', this.source, n.modify.start, 'the modify clause');
        return this.expr(n.return);
      }
      case 'TransformWithExpr':
        this.simple(n.expr);
        if (n.modify && this.modifyClause(n.modify) === 'simple') throw staticUpdateError('XUST0002', this.source, n.modify.start, 'the modify clause');
        return 'simple';
      case 'FunctionCall':
        return this.call(n);
      case 'ParenthesizedExpr':
        return n.expr ? this.expr(n.expr) : 'vacuous';
      case 'EnclosedExpr':
        return n.expr ? this.expr(n.expr) : 'vacuous';
      case 'OrderedExpr':
      case 'UnorderedExpr':
        return n.expr ? this.expr(n.expr) : 'vacuous';
      case 'ExtensionExpr':
        return n.expr ? this.expr(n.expr) : 'vacuous';
      case 'SequenceExpr':
        return this.branches(n.items);
      case 'IfExpr':
        this.simple(n.test);
        return this.branches([n.then, n.else]);
      case 'SwitchExpr':
        this.simple(n.operand);
        n.cases.forEach((c) => c.operands.forEach((o) => this.simple(o)));
        return this.branches([...n.cases.map((c) => c.result), n.default]);
      case 'TypeswitchExpr':
        this.simple(n.operand);
        return this.branches([...n.cases.map((c) => c.result), n.default]);
      case 'TryCatchExpr':
        return this.branches([n.body, ...n.catches.map((c) => c.body)]);
      case 'FLWORExpr':
        n.clauses.forEach((c) => this.generic(c));
        return this.expr(n.return);
      case 'InlineFunctionExpr': {
        const updating = n.annotations.some((a) => a.name.local === 'updating');
        if (n.body.expr) {
          if (updating) this.expr(n.body.expr);
          else this.simple(n.body.expr);
        }
        return 'simple';
      }
      default:
        this.generic(n);
        return 'simple';
    }
  }

  /** A modify clause: updating or vacuous; the updates it makes stay inside the query. */
  private modifyClause(e: Expr): Category {
    const saved = this.permission;
    const c = this.expr(e);
    this.permission = saved;
    return c;
  }

  private updates(perm: UpdatePermission): Category {
    if (rank(perm) > rank(this.permission)) this.permission = perm;
    return 'updating';
  }

  /** Every sub-expression must be simple. */
  private generic(n: Node): void {
    eachChild(n, this.simpleChild);
  }

  /** `simple` as one function for every walk of `generic`. */
  private readonly simpleChild = (child: Node): void => this.simple(child);

  private call(n: Extract<Expr, { kind: 'FunctionCall' }>): Category {
    n.args.forEach((a) => {
      if (a.kind !== 'ArgumentPlaceholder') this.simple(a);
    });
    const key = this.functionKey(n.name);
    if (this.updatingFunctions.has(`${key}#${n.args.length}`)) return this.updates('write');
    if (key.startsWith(`Q{${DB_NS}}`)) {
      const perm = DB_WRITE_FUNCTIONS[n.name.local];
      if (perm) return this.updates(perm);
    }
    if (key.startsWith(`Q{${USER_NS}}`)) {
      const perm = USER_WRITE_FUNCTIONS[n.name.local];
      if (perm) return this.updates(perm);
    }
    if (key === `Q{${UPDATE_MODULE_NS}}output`) return 'updating';
    // the query it evaluates is not known before it runs (functions/xquery.ts)
    if (key === `Q{${XQUERY_NS}}eval-update`) return this.updates('write');
    if (key === `Q{${FN_NS}}error` || EMPTY_RESULT_FUNCTIONS.has(key)) return 'vacuous';
    if (key === `Q{${FN_NS}}put`) return this.updates('write');
    return 'simple';
  }
}

function describeNode(n: Node): string {
  switch (n.kind) {
    case 'InsertExpr':
      return 'insert';
    case 'DeleteExpr':
      return 'delete';
    case 'ReplaceExpr':
      return 'replace';
    case 'RenameExpr':
      return 'rename';
    case 'FunctionCall':
      return `${n.name.prefix ? `${n.name.prefix}:` : ''}${n.name.local}()`;
    default:
      return n.kind;
  }
}

/**
 * Analyses a parsed main module; throws XUST0001/XUST0002/XUST0028 as located static errors.
 * `mixUpdates` (BaseX's MIXUPDATES option): the branches of a sequence, conditional or FLWOR may
 * mix updating and non-updating expressions; the query is updating, and the values it returns
 * are its result. Updating expressions in other places stay XUST0001.
 */
export function analyzeModule(module: MainModule, source: string, mixUpdates = false): UpdateAnalysis {
  return new Analyzer(source, mixUpdates).module(module);
}
