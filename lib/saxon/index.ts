/** The door to saxon-js for the query engine (xdm.ts): the package object, XDM items, parsing and extension functions. */
export type { SaxonError, SefTree, XdmArray, XdmAtomic, XdmFunction, XdmItem, XdmMap, XdmNode, XdmValue } from './types';
export { floatCanonical } from './float-canonical';
export { dropOrderedSorts } from './compiled-document-order';
export { markConstantGlobals } from './patches/constant-globals';
export * from './xdm';
