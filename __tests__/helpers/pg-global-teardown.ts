/** Jest global teardown: stops the run's PostgreSQL cluster, if a test file started one. */
import { PG_STATE_ENV, stopSharedCluster } from './pg-cluster';

export default async function teardown(): Promise<void> {
  const state = process.env[PG_STATE_ENV];
  if (state) await stopSharedCluster(state);
}
