/**
 * What the web console (console/router.ts) needs of a REST router beyond its public type: its
 * resolved options and runtime (where the console keeps its data) and the router's authentication
 * of a request, so that the console's saved queries belong to the same users, checked by the
 * same `authenticate` hook and Basic credentials. Kept off the public `RestRouter` type: hosts
 * have no use for it.
 */
import type { IncomingMessage } from 'node:http';
import type { Runtime } from '../operations/composition-root';
import type { ResolvedOptions } from '../router-options';
import type { User } from '../users/backend';

export interface RouterInternals {
  readonly options: ResolvedOptions;
  /** The router's runtime (its store decides where the console keeps its data), once open. */
  runtime(): Promise<Runtime>;
  /** The user of a request, as the router authenticates it; rejects with the router's 401/403. */
  authenticate(req: IncomingMessage): Promise<User>;
}

const INTERNALS = new WeakMap<object, RouterInternals>();

export function registerInternals(router: object, internals: RouterInternals): void {
  INTERNALS.set(router, internals);
}

/** The internals of a router made by `createRestRouter`; undefined for anything else. */
export function internalsOf(router: object): RouterInternals | undefined {
  return INTERNALS.get(router);
}
