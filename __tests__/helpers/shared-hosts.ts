/**
 * Run by jest before each test file (jest.config.js `setupFilesAfterEnv`): the routers that the
 * file's tests open and close one after another reuse one query host while it is idle
 * (xquery/engine/shared-hosts.ts `keepIdleHosts`), rather than each starting a process and
 * compiling its first queries cold; after the file, the processes of the hosts still idle go to
 * the jest worker's kept processes (query-host-environment.ts), for the next test file's hosts
 * with equal settings.
 */
import { keepIdleHosts } from '../../lib/xquery/engine/shared-hosts';
import { KEPT_HOSTS, type KeptHostProcesses } from './kept-hosts';

/** This jest worker's kept processes (absent when the file runs in another environment). */
const kept = (globalThis as Record<string, unknown>)[KEPT_HOSTS] as KeptHostProcesses | undefined;

void keepIdleHosts(true, kept);
afterAll(() => keepIdleHosts(false));

/**
 * For a test that counts the host processes it starts: idle hosts are no longer kept, and the
 * processes that earlier test files left are ended.
 */
export async function ownHostProcessesOnly(): Promise<void> {
  await keepIdleHosts(false);
  await kept?.endAll();
}
