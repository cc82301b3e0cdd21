import type { QueryRequest } from '../../lib/xquery/engine/engine';

/** An engine request for `query`: no context, variables or serialization parameters, unless `more` gives them. */
export const engineRequest = (query: string, more: Partial<QueryRequest> = {}): QueryRequest => ({
  query,
  context: { kind: 'none' },
  variables: new Map(),
  serialization: {},
  ...more,
});
