/** The console's browser files for tests that serve it: built (esbuild, about a second) when missing or stale. */
import { buildConsole, consoleBuildStale } from '../../scripts/build-console';

export async function ensureConsoleBuilt(): Promise<void> {
  if (consoleBuildStale()) await buildConsole();
}
