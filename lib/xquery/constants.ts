/**
 * Names and constants the layers of the engine share (the translator writes them, the runtime
 * reads them): namespaces, predeclared prefixes, the context parameter and the default static
 * base URI. They live here, below every layer, so no import points back up.
 */
import { MODULE_NAMESPACES } from './module-namespaces';

/** What the server's own namespaces start with (never callable or declarable from a query). */
export const INTERNAL_NAMESPACE_PREFIX = 'urn:xmldb-rest:';

/** Namespace URIs the translator knows by name. */
export const NS = {
  xml: 'http://www.w3.org/XML/1998/namespace',
  xmlns: 'http://www.w3.org/2000/xmlns/',
  xs: 'http://www.w3.org/2001/XMLSchema',
  xsi: 'http://www.w3.org/2001/XMLSchema-instance',
  fn: 'http://www.w3.org/2005/xpath-functions',
  local: 'http://www.w3.org/2005/xquery-local-functions',
  math: 'http://www.w3.org/2005/xpath-functions/math',
  map: 'http://www.w3.org/2005/xpath-functions/map',
  array: 'http://www.w3.org/2005/xpath-functions/array',
  err: 'http://www.w3.org/2005/xqt-errors',
  output: 'http://www.w3.org/2010/xslt-xquery-serialization',
  /** The XQuery namespace: unprefixed annotation names (`%public`, `%private`). */
  xquery: 'http://www.w3.org/2012/xquery',
  db: MODULE_NAMESPACES.db,
  prof: MODULE_NAMESPACES.prof,
  xsl: 'http://www.w3.org/1999/XSL/Transform',
  /** Generated functions (lifted constructs). */
  gen: `${INTERNAL_NAMESPACE_PREFIX}gen`,
  /** Generated local variable names. */
  vars: `${INTERNAL_NAMESPACE_PREFIX}var`,
  /** Stylesheet parameters that carry the query's literals (literals.ts). */
  lit: `${INTERNAL_NAMESPACE_PREFIX}lit`,
  /** The engine's own extension functions (extension-functions.ts). */
  engine: `${INTERNAL_NAMESPACE_PREFIX}engine`,
  /** Prefix of the namespaces of declared names written in ASCII (see `declaredName`). */
  ascii: `${INTERNAL_NAMESPACE_PREFIX}ascii:`,
} as const;

/** Prefixes every query knows without declaring them (XQuery 3.1 §C.2, plus the implemented modules). */
export const PREDECLARED: Readonly<Record<string, string>> = {
  xml: NS.xml,
  xs: NS.xs,
  xsi: NS.xsi,
  fn: NS.fn,
  local: NS.local,
  math: NS.math,
  map: NS.map,
  array: NS.array,
  err: NS.err,
  output: NS.output,
  ...MODULE_NAMESPACES,
};

/** `PREDECLARED` as a map, for the maps of a query's prefixes to start from (a copy of a map is cheaper than one made from entries). */
export const PREDECLARED_PREFIXES: ReadonlyMap<string, string> = new Map(Object.entries(PREDECLARED));

/**
 * The reserved namespaces (XQuery 3.1 §2.1.1): no query may declare a function or an annotation
 * in them (XQST0045).
 */
export const RESERVED_NAMESPACES: ReadonlySet<string> = new Set([NS.xml, NS.xs, NS.xsi, NS.fn, NS.math, NS.map, NS.array, NS.xquery]);

/** The namespace of the engine's own extension functions (`Q{urn:xmldb-rest:engine}doc`, …). */
export const ENGINE_NS = NS.engine;

/**
 * The stylesheet parameter that carries a query's context (spec §9.2): a sequence of document
 * nodes, declared and focused on by the translation (evaluate.ts).
 */
export const CONTEXT_PARAM = `Q{${ENGINE_NS}}context`;

/** Static base URI used when the caller gives none: relative URIs resolve below it. */
export const DEFAULT_BASE_URI = 'file:///xmldb-rest/query.xq';

/** The folder of the default static base URI: what relative `doc('db/path')` resolves below. */
export const BASE_FOLDER = DEFAULT_BASE_URI.slice(0, DEFAULT_BASE_URI.lastIndexOf('/') + 1);

/** The message of XPTY0004 for an order by key of more than one item (XQuery 3.1 §3.12.8). */
export const ORDER_KEY_CARDINALITY_MESSAGE = 'An order by key has more than one item.';
