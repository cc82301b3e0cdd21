/** The runtime patches of saxon-js (apply.ts tells which, when and where) and the guards the query workers raise with them. */
export { guardPlatformResources, readThroughPlatform, type ResourcePolicy } from './platform-resources';
export { sealHostGlobal } from './host-global';
export { guardDomReceivers } from './dom-receivers';
export { removeHostBindings } from './host-bindings';
export { applyQueryPatches } from './apply';
