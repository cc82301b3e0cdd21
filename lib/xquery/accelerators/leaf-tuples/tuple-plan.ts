/**
 * The plan of a FLWOR evaluated over the leaf columns of its for variable's elements
 * (leaf-tuples.ts): what flwor-leaf-tuples.ts makes of the syntax tree at translation, and
 * what the query worker runs. It travels as JSON in one string argument of engine:leaf-tuples.
 *
 * Variables are slots of a tuple, numbered by the planner, one per binding (a name bound again
 * gets a new slot). Slot 0 is the for variable. Leaf paths are indexes into `paths`, each path
 * written as accelerators/leaf-columns/element-locator.ts `parsePaths` reads it (`kind leaf`).
 * The plan says nothing of types: the worker infers them from the leaves up and declines what
 * it cannot evaluate exactly (leaf-tuples.ts).
 */

/** Slot of the for variable. */
export const FOR_SLOT = 0;

/** An expression of a clause or of the return clause. */
export type PlanExpr =
  /** A variable of the tuple. */
  | { readonly x: 'var'; readonly s: number }
  /** A variable bound outside the FLWOR (external, global, a let around it, a parameter), or a literal made a parameter: value `i` of the call's outer values. */
  | { readonly x: 'outer'; readonly i: number }
  /** `$v/path` (or a relative path inside a predicate on `$v`): the leaves of path `p` below the for variable's element(s). */
  | { readonly x: 'leaf'; readonly p: number }
  /** `$v[test]/path`: the leaves of path `p` when `test` (in which `.` is `$v`) is true, else none. */
  | { readonly x: 'filter'; readonly test: PlanExpr; readonly p: number }
  /** `$v/path/string()`, `$v/path/data()`: the function of each leaf of `a` (a leaf path, or one after predicates). */
  | { readonly x: 'each'; readonly f: 'string' | 'data'; readonly a: PlanExpr }
  | { readonly x: 'string' | 'integer' | 'double'; readonly v: string }
  /** A call of a function of the fn namespace, by local name. */
  | { readonly x: 'call'; readonly f: string; readonly a: readonly PlanExpr[] }
  /** A general (`=` …) or value (`eq` …) comparison. */
  | { readonly x: 'compare'; readonly op: string; readonly l: PlanExpr; readonly r: PlanExpr }
  | { readonly x: 'arith'; readonly op: '+' | '-' | '*' | 'div' | 'idiv' | 'mod'; readonly l: PlanExpr; readonly r: PlanExpr }
  | { readonly x: 'negate'; readonly a: PlanExpr }
  | { readonly x: 'and' | 'or' | 'concat'; readonly l: PlanExpr; readonly r: PlanExpr }
  /** `if (test) then A else B`; `()` for an empty branch. */
  | { readonly x: 'if'; readonly test: PlanExpr; readonly then: PlanExpr; readonly else: PlanExpr }
  | { readonly x: 'empty' }
  /** `E cast as xs:T` (`optional`: `xs:T?`, and the constructor function `xs:T(E)`), T integer, double or string. */
  | { readonly x: 'cast'; readonly to: 'integer' | 'double' | 'string'; readonly optional: boolean; readonly a: PlanExpr }
  /** `E1, E2, …` as an enclosed expression of a constructor: the items of each in turn. */
  | { readonly x: 'sequence'; readonly items: readonly PlanExpr[] };

/** An order spec: its key and how it sorts. */
export interface PlanOrderSpec {
  readonly e: PlanExpr;
  readonly descending: boolean;
  readonly emptyGreatest: boolean;
}

/** A grouping key: the slot of its variable after the clause, and its value before it. */
export interface PlanGroupKey {
  readonly s: number;
  readonly e: PlanExpr;
}

export type PlanClause =
  | { readonly c: 'let'; readonly s: number; readonly e: PlanExpr }
  | { readonly c: 'where'; readonly e: PlanExpr }
  | { readonly c: 'count'; readonly s: number }
  | { readonly c: 'order'; readonly specs: readonly PlanOrderSpec[] }
  /** `keep`: the slots of the other variables in scope, each bound after the clause to its values over the group. */
  | { readonly c: 'group'; readonly keys: readonly PlanGroupKey[]; readonly keep: readonly number[] };

/** What the return clause makes of a tuple. */
export type PlanReturn =
  /** The value of an expression: atomic values, or the for variable's element. */
  | { readonly r: 'value'; readonly e: PlanExpr }
  /** `(R1, R2, …)`: the values of each in turn. */
  | { readonly r: 'sequence'; readonly items: readonly PlanReturn[] }
  /**
   * A direct element constructor of a name in no namespace (translate/constructors/xpath.ts
   * `isPlainElement`): attributes of literal text and enclosed expressions, content of literal
   * text, enclosed expressions with atomic values and nested such elements.
   */
  | {
      readonly r: 'element';
      readonly name: string;
      readonly attributes: readonly { readonly name: string; readonly parts: readonly (string | PlanExpr)[] }[];
      readonly content: readonly (string | PlanExpr | PlanReturn)[];
    };

export interface TuplePlan {
  /**
   * The for clause binds the integers of a range `A to B` instead of elements: the call's first
   * argument is then the array `[A, B]`, and the plan has no leaf paths.
   */
  readonly range?: true;
  /** Leaf paths below the for variable's elements, each a list of `kind leaf` steps. */
  readonly paths: readonly (readonly string[])[];
  readonly clauses: readonly PlanClause[];
  readonly ret: PlanReturn;
  /** The number of slots. */
  readonly slots: number;
}
