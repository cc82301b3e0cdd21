/**
 * Run by jest before each test file (jest.config.js `setupFilesAfterEnv`): the routers that the
 * file's tests open and close one after another reuse one query host while it is idle
 * (xquery/worker/shared-hosts.ts `keepIdleHosts`), rather than each starting a process and
 * compiling its first queries cold; the hosts still idle are stopped after the file.
 */
import { keepIdleHosts } from '../../lib/xquery/worker/shared-hosts';

void keepIdleHosts(true);
afterAll(() => keepIdleHosts(false));
