/**
 * Comment, processing-instruction and document constructors, direct and computed, as calls of
 * fixed functions of the runtime library (library.ts), as plain element constructors are
 * (xpath.ts): a query whose only XSLT-only parts are such constructors needs no stylesheet of its
 * own. The checks XQuery makes of their values (XQDY0072 for `--` in a comment, XQDY0026 for `?>`
 * in a processing instruction, XQDY0064 and XQDY0041 for its target, XPTY0004 for attributes in
 * a document) are the XPath of computed.ts and runtime.ts, evaluated before the call; the
 * function only builds the node, from a string or from content that is copied in as
 * `xsl:document` copies it (copy-namespaces preserve, the default: `copy-namespaces no-preserve`
 * keeps the lifted instruction, constructors.ts `copyContent`).
 */
import type { CompCommentConstructor, CompDocConstructor, CompPIConstructor, DirCommentConstructor, DirPIConstructor } from '../../syntax';
import { staticPITarget } from './computed';
import { joinedValue, raise, useHelper } from './runtime';
import { tempVar } from './constructors';
import { translateExpr } from '../expressions';
import { NS, xpathString } from '../names';
import type { Scope } from '../scope';
import type { TranslationUnit } from '../unit';
import { braced } from '../emit';

const F = braced(NS.fn);
const V = braced(NS.vars);

/** The library functions of this file, by EQName, with their XSLT text. */
export const NODE_CONSTRUCTOR_FUNCTIONS: Readonly<Record<string, string>> = {
  [`${braced(NS.gen)}lib.comment`]: [
    `<xsl:function name="${braced(NS.gen)}lib.comment" as="comment()">`,
    `<xsl:param name="${V}value" as="xs:string"/>`,
    `<xsl:comment select="$${V}value"/>`,
    '</xsl:function>',
  ].join('\n'),
  [`${braced(NS.gen)}lib.pi`]: [
    `<xsl:function name="${braced(NS.gen)}lib.pi" as="processing-instruction()">`,
    `<xsl:param name="${V}name" as="xs:string"/>`,
    `<xsl:param name="${V}value" as="xs:string"/>`,
    `<xsl:processing-instruction name="{$${V}name}" select="$${V}value"/>`,
    '</xsl:function>',
  ].join('\n'),
  [`${braced(NS.gen)}lib.document`]: [
    `<xsl:function name="${braced(NS.gen)}lib.document" as="document-node()">`,
    `<xsl:param name="${V}content" as="item()*"/>`,
    `<xsl:document><xsl:sequence select="$${V}content"/></xsl:document>`,
    '</xsl:function>',
  ].join('\n'),
};

function call(unit: TranslationUnit, local: 'comment' | 'pi' | 'document', args: string): string {
  const name = `${braced(NS.gen)}lib.${local}`;
  return unit.callLibrary(name, NODE_CONSTRUCTOR_FUNCTIONS[name], args);
}

type NodeConstructor = DirCommentConstructor | DirPIConstructor | CompCommentConstructor | CompPIConstructor | CompDocConstructor;

/** Whether `expr` is a constructor of this file. */
export function isLibraryNodeConstructor(expr: { kind: string }): expr is NodeConstructor {
  return ['DirCommentConstructor', 'DirPIConstructor', 'CompCommentConstructor', 'CompPIConstructor', 'CompDocConstructor'].includes(expr.kind);
}

/** XPath constructing the node of `expr` by a library call; undefined where the lifted instruction must build it. */
export function libraryNodeCall(expr: NodeConstructor, scope: Scope, unit: TranslationUnit): string | undefined {
  const t = (e: Parameters<typeof translateExpr>[0] | null): string => (e ? translateExpr(e, scope, unit) : '()');
  switch (expr.kind) {
    case 'DirCommentConstructor':
      return call(unit, 'comment', xpathString(expr.value));
    case 'DirPIConstructor':
      return call(unit, 'pi', `${xpathString(expr.target)}, ${xpathString(expr.value)}`);
    case 'CompCommentConstructor': {
      const v = tempVar(scope, 'comment').ref;
      const checked = `if (${F}contains(${v}, "--") or ${F}ends-with(${v}, "-")) then ${raise('XQDY0072')} else ${v}`;
      return `(let ${v} := ${joinedValue(t(expr.expr))} return ${call(unit, 'comment', checked)})`;
    }
    case 'CompPIConstructor': {
      // a static `xml` target is an error before anything is built (passed to the call as a
      // value, the error's empty type would fail the parameter's type statically)
      if (expr.target !== null && expr.target.toLowerCase() === 'xml') return staticPITarget(expr.target);
      const target = expr.target !== null ? staticPITarget(expr.target) : `${useHelper(unit, 'pi-target')}(${t(expr.targetExpr)})`;
      const n = tempVar(scope, 'pi').ref;
      const v = tempVar(scope, 'pivalue').ref;
      const checked = `if (${F}contains(${v}, "?>")) then ${raise('XQDY0026')} else ${v}`;
      return `(let ${n} := ${target}, ${v} := ${joinedValue(t(expr.value))} return ${call(unit, 'pi', `${n}, ${checked}`)})`;
    }
    case 'CompDocConstructor': {
      if (!scope.ctx.copyNamespaces.preserve) return undefined;
      if (!expr.expr) return call(unit, 'document', '()');
      return call(unit, 'document', `${useHelper(unit, 'document-content')}(${useHelper(unit, 'content')}(${t(expr.expr)}))`);
    }
  }
}
