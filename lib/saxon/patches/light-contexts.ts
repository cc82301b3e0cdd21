/**
 * Runtime patch (saxon-js 2.7.0): every path step (`$v/price`), simple map (`!`), for-each,
 * filter with a focus and function call runs in a new dynamic context, which `newContext` (of the
 * context class, `rf` in SaxonJS2N.js) makes with the class's constructor and then fills from the
 * parent. The constructor allocates nine fresh objects (parameter tables, variable slots, maps
 * and lists) that `newContext` overwrites at once, every one of them garbage the moment it is
 * made: a FLWOR over 30,000 nodes made about half a million of them per run, and the collector's
 * work showed as a fifth of the run's time.
 *
 * The patched `newContext` builds a child context that shares its parent's variable frame (the
 * kind every step, map and focus change asks for) with the same prototype and the same fields,
 * set to the values `newContext` gives them, without the discarded objects. A context with a
 * new variable frame (function and template calls) is still built by the original. The one field
 * `newContext` leaves to the constructor (`g`, null) is set to null. Everything that reads a
 * context sees the values it saw before; `instanceof` and the prototype's methods are the
 * class's. Guarded like the other patches: the constructor and `newContext` must be saxon-js
 * 2.7.0's, character for character, or applying the patch throws.
 */
import { saxon } from '..';

/** The context fields this patch copies, as saxon-js 2.7.0 names them. */
interface Context {
  depth: number;
  masterDocument: unknown;
  g: unknown;
  resultDocument: unknown;
  currentComponent: unknown;
  focus: unknown;
  tempOutputState: unknown;
  outputURIs: unknown;
  fixed: unknown;
  localParams: unknown;
  tunnelParams: unknown;
  currentTemplate: unknown;
  currentMode: unknown;
  currentMergeGroup: unknown;
  currentGroupingKey: unknown;
  currentGroup: unknown;
  currentEvent: unknown;
  currentError: unknown;
  regexGroups: unknown;
  useAccumulators: unknown;
  localVars: unknown[];
  messageCounts: unknown;
  b: Context | null;
}

type NewContext = ((this: Context, frame?: boolean) => Context) & { __lightContextsPatched?: boolean };

interface ContextProto {
  newContext: NewContext;
  constructor: new () => Context;
}

/** saxon-js 2.7.0's context constructor and newContext, as this patch replaces them. */
const CONSTRUCTOR =
  'class rf{constructor(){this.depth=0;this.masterDocument=this.g=this.resultDocument=this.currentComponent=this.focus=null;this.tempOutputState=!1;' +
  'this.outputURIs=[];this.fixed={md:null,nd:[],Ga:null};this.localParams=new lc;this.tunnelParams=new lc;this.currentTemplate=null;this.currentMode={};' +
  'this.currentMergeGroup=this.currentGroupingKey=this.currentGroup=this.currentEvent=this.currentError=null;this.regexGroups=[];this.useAccumulators=null;' +
  'this.localVars=[];this.messageCounts={};this.b=null}';
const NEW_CONTEXT =
  'newContext(a){const b=new rf;b.depth=this.depth+1;b.focus=this.focus;b.currentComponent=this.currentComponent;b.resultDocument=this.resultDocument;' +
  'b.masterDocument=this.masterDocument;b.currentMode=this.currentMode;b.currentTemplate=this.currentTemplate;b.currentError=this.currentError;' +
  'b.currentGroup=this.currentGroup;b.regexGroups=this.regexGroups;b.currentGroupingKey=this.currentGroupingKey;b.fixed=this.fixed;' +
  'b.tempOutputState=this.tempOutputState;b.outputURIs=this.outputURIs;b.currentEvent=this.currentEvent;b.useAccumulators=this.useAccumulators;' +
  'b.messageCounts=this.messageCounts;b.b=this;a?(b.localParams=new lc,b.tunnelParams=new lc,b.localVars=[],b.currentMergeGroup=null):' +
  '(b.localParams=this.localParams,b.tunnelParams=this.tunnelParams,b.localVars=this.localVars,b.currentMergeGroup=this.currentMergeGroup);return b}';

/** A function's source without the line breaks the minified file has at fixed widths. */
function sourceOf(f: unknown): string {
  return String(f).replace(/\n/g, '');
}

const PROBE_NS = 'urn:xmldb-rest:saxon-context-probe';

/** The prototype of saxon-js's dynamic contexts: the context an extension function is called with. */
function contextPrototype(): ContextProto | undefined {
  let context: unknown;
  const api = saxon() as unknown as {
    registerExtensionFunctions(def: { namespace: string; signatures: Record<string, { sig: string; impl: (args: unknown[], context: unknown) => unknown }> }): void;
    XPath: { evaluate(expr: string): unknown };
    internals: { Iter: { ForArray(items: unknown[]): unknown } };
  };
  api.registerExtensionFunctions({
    namespace: PROBE_NS,
    signatures: {
      context: {
        sig: '1F r[*] a[]',
        impl: (_args, c) => {
          context ??= c;
          return api.internals.Iter.ForArray([]);
        },
      },
    },
  });
  api.XPath.evaluate(`Q{${PROBE_NS}}context()`);
  return context === null || typeof context !== 'object' ? undefined : (Object.getPrototypeOf(context) as ContextProto);
}

/** Applies the patch in this thread (idempotent; throws for another saxon-js version). */
export function patchLightContexts(): void {
  const proto = contextPrototype();
  if (proto?.newContext?.__lightContextsPatched) return;
  const ContextClass = proto?.constructor;
  if (!proto || typeof ContextClass !== 'function' || !sourceOf(ContextClass).startsWith(CONSTRUCTOR) || sourceOf(proto.newContext) !== NEW_CONTEXT) {
    throw new Error('saxon-js context patch: the dynamic context of saxon-js 2.7.0 was not found; review lib/saxon/patches/light-contexts.ts for this saxon-js version');
  }
  const original = proto.newContext;

  /** A child context of `parent` in its variable frame, field for field as `newContext` sets it. */
  function ChildContext(this: Context, parent: Context): void {
    this.depth = parent.depth + 1;
    this.masterDocument = parent.masterDocument;
    this.g = null;
    this.resultDocument = parent.resultDocument;
    this.currentComponent = parent.currentComponent;
    this.focus = parent.focus;
    this.tempOutputState = parent.tempOutputState;
    this.outputURIs = parent.outputURIs;
    this.fixed = parent.fixed;
    this.localParams = parent.localParams;
    this.tunnelParams = parent.tunnelParams;
    this.currentTemplate = parent.currentTemplate;
    this.currentMode = parent.currentMode;
    this.currentMergeGroup = parent.currentMergeGroup;
    this.currentGroupingKey = parent.currentGroupingKey;
    this.currentGroup = parent.currentGroup;
    this.currentEvent = parent.currentEvent;
    this.currentError = parent.currentError;
    this.regexGroups = parent.regexGroups;
    this.useAccumulators = parent.useAccumulators;
    this.localVars = parent.localVars;
    this.messageCounts = parent.messageCounts;
    this.b = parent;
  }
  ChildContext.prototype = proto;
  const Child = ChildContext as unknown as new (parent: Context) => Context;

  // a new variable frame (function and template calls) needs the fresh tables the constructor
  // makes: the original builds it
  const newContext: NewContext = function (this: Context, frame?: boolean): Context {
    return frame ? original.call(this, frame) : new Child(this);
  };
  proto.newContext = Object.assign(newContext, { __lightContextsPatched: true });
}
