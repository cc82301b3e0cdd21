/**
 * The expressions of a FLWOR that engine:leaf-tuples evaluates (flwor-leaf-tuples.ts maps its
 * clauses), as plan expressions (tuple-plan.ts): `Planner` keeps the variables in scope, the
 * leaf paths of the for variable met and the outer values the call passes; an expression it
 * cannot map makes the whole FLWOR be translated as written. Also used for the predicates of a
 * path (predicate-leaf-tuples.ts).
 */
import type { DirElemConstructor, EQName, Expr, PathExpr, VarRef } from '../../language/syntax';
import { isGeneralComparison } from '../../language/syntax';
import { NS } from '../../language/translate/names';
import { expanded } from '../../language/translate/flwor/filter';
import { leafSteps } from '../leaf-groups/flwor-group-leaves';
import { stepText, type LeafStep } from '../leaf-columns/leaf-columns';
import { isPlainElement } from '../../language/translate/constructors/xpath';
import { contentRuns } from '../../language/translate/element-content';
import { fnCall } from '../../language/translate/fn-call';
import type { Scope } from '../../language/translate/scope';
import { FOR_SLOT, type PlanClause, type PlanExpr, type PlanReturn, type TuplePlan } from './tuple-plan';

const CAST_TYPES = ['integer', 'double', 'string'] as const;
const VALUE = new Set(['eq', 'ne', 'lt', 'le', 'gt', 'ge']);

/**
 * The items of `(A, B, …)`, two or more literals, all strings or all numbers (so that each
 * comparison casts the other side alike, and none can fail where another would not).
 */
function itemsOf(expr: Expr): Expr[] | undefined {
  const inner = expr.kind === 'ParenthesizedExpr' ? expr.expr : null;
  if (inner?.kind !== 'SequenceExpr' || inner.items.length < 2) return undefined;
  const strings = inner.items.every((i) => i.kind === 'StringLiteral');
  const numbers = inner.items.every((i) => i.kind === 'IntegerLiteral' || i.kind === 'DoubleLiteral');
  return strings || numbers ? inner.items : undefined;
}

/** The state of one plan being made: the variables in scope and the leaf paths met. */
export class Planner {
  private readonly names = new Map<string, number>();
  private readonly paths: string[][] = [];
  private readonly pathIndex = new Map<string, number>();
  /** The values from outside the FLWOR that it reads (variables, by expanded name; literals made parameters), by their index. */
  private readonly outerIndex = new Map<string | Expr, number>();
  readonly outer: Expr[] = [];
  private slots = 1;

  constructor(
    private readonly scope: Scope,
    /** The for variable's expanded name, and its name as written (for synthetic references). */
    private readonly forVar: string,
    private readonly forName: { readonly name: EQName; readonly start: number },
    /** The for variable binds the integers of a range: it has no leaves. */
    private readonly range: boolean,
    /**
     * Whether `.` in a predicate on the for variable may be read as its string value (a `self`
     * leaf): only where its items are known to be nodes (a path step's elements or text nodes).
     * Over any other sequence the call's test for nodes would bind it to a variable first, which
     * holds a lazily evaluated sequence (`(1 to 100000000)[. mod 2 = 0]`) in memory.
     */
    private readonly readsSelf = false,
  ) {
    this.names.set(forVar, FOR_SLOT);
  }

  /** A new slot for a binding of `name`; the name refers to it from now on. */
  bind(name: EQName, offset: number): number | undefined {
    const key = expanded(name, offset, this.scope);
    if (key === undefined) return undefined;
    const slot = this.slots++;
    this.names.set(key, slot);
    return slot;
  }

  /** The slot `name` refers to, if bound in the FLWOR. */
  slotOf(name: EQName, offset: number): number | undefined {
    const key = expanded(name, offset, this.scope);
    return key === undefined ? undefined : this.names.get(key);
  }

  /** The slots of every name in scope. */
  inScope(): Map<string, number> {
    return new Map(this.names);
  }

  plan(clauses: PlanClause[], ret: PlanReturn): TuplePlan {
    const plan = { paths: this.paths, clauses, ret, slots: this.slots };
    return this.range ? { range: true, ...plan } : plan;
  }

  /** The plan of `expr`; `context`: inside a predicate on `$v`, where `.` is `$v`. */
  expr(expr: Expr, context = false): PlanExpr | undefined {
    switch (expr.kind) {
      case 'VarRef': {
        const s = this.slotOf(expr.name, expr.start);
        return s === undefined ? this.outerVariable(expr) : { x: 'var', s };
      }
      case 'StringLiteral':
      case 'IntegerLiteral':
      case 'DoubleLiteral':
        // a literal the translation makes a parameter of (translate/literals.ts) comes as an
        // outer value, so that queries differing only in literals share the plan's text, and
        // with it their compiled stylesheet
        if (this.scope.ctx.literals.reference(expr) !== undefined) return this.outerOf(expr, expr);
        return { x: expr.kind === 'StringLiteral' ? 'string' : expr.kind === 'IntegerLiteral' ? 'integer' : 'double', v: expr.value };
      case 'ParenthesizedExpr':
        return expr.expr ? this.expr(expr.expr, context) : { x: 'empty' };
      case 'IfExpr': {
        const test = this.expr(expr.test, context);
        const then = test && this.expr(expr.then, context);
        const otherwise = then && this.expr(expr.else, context);
        return otherwise && { x: 'if', test: test!, then: then!, else: otherwise };
      }
      case 'CastExpr': {
        const to = this.castType(expr.type.name, expr.type.start);
        const a = to && this.expr(expr.expr, context);
        return a && { x: 'cast', to: to!, optional: expr.type.optional, a };
      }
      case 'PathExpr':
        return this.path(expr, context);
      case 'ContextItemExpr':
        // inside a predicate on `$v`, `.` is `$v`, read as a value: its string value (a `self` leaf)
        return context && this.readsSelf && !this.range && this.names.get(this.forVar) === FOR_SLOT ? this.leafOf([{ kind: 'self', leaf: '' }]) : undefined;
      case 'AxisStep':
        return context ? this.path({ kind: 'PathExpr', root: null, steps: [expr], start: expr.start, end: expr.end }, context) : undefined;
      case 'FunctionCall': {
        let fn;
        try {
          fn = this.scope.functionName(expr.name, expr.start);
        } catch {
          return undefined; // a name the translation refuses: left to it
        }
        if (fn.uri === NS.xs) {
          // a constructor function: `xs:T(E)` is `E cast as xs:T?` (XPath 3.1 §3.1.5.2)
          const to = CAST_TYPES.find((t) => t === fn.local);
          const arg = expr.args.length === 1 && expr.args[0].kind !== 'ArgumentPlaceholder' ? this.expr(expr.args[0], context) : undefined;
          return to && arg && { x: 'cast', to, optional: true, a: arg };
        }
        if (fn.uri !== NS.fn) return undefined;
        const a = each(expr.args, (arg) => (arg.kind === 'ArgumentPlaceholder' ? undefined : this.expr(arg, context)));
        return a && { x: 'call', f: fn.local, a };
      }
      case 'ComparisonExpr': {
        if (!isGeneralComparison(expr.op) && !VALUE.has(expr.op)) return undefined;
        // `E op (A, B, …)`: a general comparison is true when it is for one of the items, so
        // it is `E op A or E op B or …` (XPath 3.1 §3.7.2)
        const list = isGeneralComparison(expr.op) ? itemsOf(expr.right) : undefined;
        if (list) {
          let any: PlanExpr | undefined;
          for (const item of list) {
            const p = this.binary(expr.left, item, context, (l, r) => ({ x: 'compare', op: expr.op, l, r }));
            if (!p) return undefined;
            any = any ? { x: 'or', l: any, r: p } : p;
          }
          return any;
        }
        return this.binary(expr.left, expr.right, context, (l, r) => ({ x: 'compare', op: expr.op, l, r }));
      }
      case 'AdditiveExpr':
      case 'MultiplicativeExpr':
        return this.binary(expr.left, expr.right, context, (l, r) => ({ x: 'arith', op: expr.op, l, r }));
      case 'AndExpr':
        return this.binary(expr.left, expr.right, context, (l, r) => ({ x: 'and', l, r }));
      case 'OrExpr':
        return this.binary(expr.left, expr.right, context, (l, r) => ({ x: 'or', l, r }));
      case 'StringConcatExpr':
        return this.binary(expr.left, expr.right, context, (l, r) => ({ x: 'concat', l, r }));
      case 'UnaryExpr': {
        if (expr.op !== '-') return undefined;
        const a = this.expr(expr.operand, context);
        return a && { x: 'negate', a };
      }
      default:
        return undefined;
    }
  }

  /** The target of a cast the worker evaluates, by its type name. */
  private castType(name: EQName, offset: number): (typeof CAST_TYPES)[number] | undefined {
    try {
      const t = this.scope.typeName(name, offset);
      return t.uri === NS.xs ? CAST_TYPES.find((c) => c === t.local) : undefined;
    } catch {
      return undefined; // a name the translation refuses: left to it
    }
  }

  /** A variable bound outside the FLWOR, passed to the call as one of its outer values. */
  private outerVariable(ref: VarRef): PlanExpr | undefined {
    const key = expanded(ref.name, ref.start, this.scope);
    if (key === undefined) return undefined;
    try {
      this.scope.lookupVariable(ref.name, ref.start);
    } catch {
      return undefined; // XPST0008, raised by the translation as written
    }
    return this.outerOf(key, ref);
  }

  /** `expr`, known by `key`, passed to the call as one of its outer values. */
  private outerOf(key: string | Expr, expr: Expr): PlanExpr {
    let i = this.outerIndex.get(key);
    if (i === undefined) {
      i = this.outer.push(expr) - 1;
      this.outerIndex.set(key, i);
    }
    return { x: 'outer', i };
  }

  private binary(left: Expr, right: Expr, context: boolean, make: (l: PlanExpr, r: PlanExpr) => PlanExpr): PlanExpr | undefined {
    const l = this.expr(left, context);
    const r = l && this.expr(right, context);
    return r && make(l!, r);
  }

  /** `$v/leaf`, `$v[test]/leaf`, or inside a predicate on `$v` a relative leaf path; any of them followed by `/string()` or `/data()`. */
  private path(expr: PathExpr, context: boolean): PlanExpr | undefined {
    if (this.range || expr.root !== null || expr.steps.length === 0 || this.names.get(this.forVar) !== FOR_SLOT) return undefined;
    const last = expr.steps[expr.steps.length - 1];
    const each = expr.steps.length > 1 ? this.eachFunction(last) : undefined;
    if (each) {
      const a = this.path({ ...expr, steps: expr.steps.slice(0, -1) }, context);
      return a && (a.x === 'leaf' || a.x === 'filter') ? { x: 'each', f: each, a } : undefined;
    }
    const [base, ...rest] = expr.steps;
    const v: VarRef = { kind: 'VarRef', name: this.forName.name, start: this.forName.start, end: this.forName.start };
    if (base.kind === 'AxisStep') return context ? this.leaf({ ...expr, steps: [v, ...expr.steps] }) : undefined;
    if (base.kind === 'VarRef') return this.slotOf(base.name, base.start) === FOR_SLOT ? this.leaf({ ...expr, steps: [v, ...rest] }) : undefined;
    if (base.kind !== 'FilterExpr' || rest.length === 0) return undefined;
    // $v[t1][t2]/leaf: the predicates tested in order, each in the context of $v
    const tests: Expr[] = [];
    let b: Expr = base;
    while (b.kind === 'FilterExpr') {
      tests.unshift(b.predicate);
      b = b.base;
    }
    if (b.kind !== 'VarRef' || this.slotOf(b.name, b.start) !== FOR_SLOT) return undefined;
    const leaf = this.leaf({ ...expr, steps: [v, ...rest] });
    let test: PlanExpr | undefined;
    for (const t of tests) {
      const p = this.expr(t, true);
      if (!p) return undefined;
      test = test ? { x: 'and', l: test, r: p } : p;
    }
    return leaf && leaf.x === 'leaf' ? { x: 'filter', test: test!, p: leaf.p } : undefined;
  }

  /** The function a path's last step `step` applies to each leaf: `string()` or `data()` of the context item. */
  private eachFunction(step: Expr): 'string' | 'data' | undefined {
    const call = fnCall(step, this.scope);
    return call?.args.length === 0 && (call.local === 'string' || call.local === 'data') ? call.local : undefined;
  }

  private leaf(expr: PathExpr): PlanExpr | undefined {
    const steps = leafSteps(expr, this.forVar, this.scope);
    return steps && this.leafOf(steps);
  }

  /** The leaf path `steps` of the for variable, numbered once per plan. */
  private leafOf(steps: readonly LeafStep[]): PlanExpr {
    const written = steps.map(stepText);
    const key = JSON.stringify(written);
    let p = this.pathIndex.get(key);
    if (p === undefined) {
      p = this.paths.push(written) - 1;
      this.pathIndex.set(key, p);
    }
    return { x: 'leaf', p };
  }

  /** The return clause's plan. */
  ret(expr: Expr): PlanReturn | undefined {
    if (expr.kind === 'DirElemConstructor') return isPlainElement(expr, this.scope) ? this.element(expr) : undefined;
    if (expr.kind === 'ParenthesizedExpr' && expr.expr) return this.ret(expr.expr);
    if (expr.kind === 'SequenceExpr') {
      const items = each(expr.items, (item) => this.ret(item));
      return items && { r: 'sequence', items };
    }
    const e = this.expr(expr);
    return e && { r: 'value', e };
  }

  /** An enclosed expression of a constructor: an expression, or a sequence of them. */
  private enclosed(expr: Expr): PlanExpr | undefined {
    if (expr.kind !== 'SequenceExpr') return this.expr(expr);
    const items = each(expr.items, (item) => this.expr(item));
    return items && { x: 'sequence', items };
  }

  private element(e: DirElemConstructor): PlanReturn | undefined {
    const attributes: { name: string; parts: (string | PlanExpr)[] }[] = [];
    for (const a of e.attributes) {
      const parts: (string | PlanExpr)[] = [];
      for (const v of a.value) {
        if (v.kind === 'AttributeValueChars') parts.push(v.value);
        else if (v.expr) {
          const p = this.enclosed(v.expr);
          if (!p) return undefined;
          parts.push(p);
        }
      }
      attributes.push({ name: a.name.local, parts });
    }
    const content: (string | PlanExpr | PlanReturn)[] = [];
    for (const run of contentRuns(e.content, this.scope)) {
      if ('text' in run) content.push(run.text);
      else if (run.item.kind === 'DirElemConstructor') {
        const nested = this.element(run.item);
        if (!nested) return undefined;
        content.push(nested);
      } else if (run.item.kind === 'EnclosedExpr') {
        if (!run.item.expr) continue;
        // a sequence with leaf nodes among other items: the worker takes leading attributes only
        const p = this.enclosed(run.item.expr as Expr);
        if (!p) return undefined;
        content.push(p);
      } else return undefined;
    }
    return { r: 'element', name: e.name.local, attributes, content };
  }
}

/** Each of `items` planned by `plan`, in order; undefined when one of them cannot be. */
function each<T, P>(items: readonly T[], plan: (item: T) => P | undefined): P[] | undefined {
  const planned: P[] = [];
  for (const item of items) {
    const p = plan(item);
    if (p === undefined) return undefined;
    planned.push(p);
  }
  return planned;
}
