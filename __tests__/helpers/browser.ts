/**
 * Headless Chromium for the console's browser tests: Debian's `chromium` driven by playwright-core
 * (no browser download). One browser per test file, with a fresh profile. Without a chromium the
 * tests are skipped with a note, except under CI=true, where they must fail instead (.ci/run
 * installs the package).
 */
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';
import { tempDir } from './temp-dir';

/** `CHROMIUM_PATH` when set (and then only it), else Debian's. */
const CANDIDATES = process.env.CHROMIUM_PATH ? [process.env.CHROMIUM_PATH] : ['/usr/bin/chromium', '/usr/bin/chromium-browser'];

export const CHROMIUM = CANDIDATES.find((file) => fs.existsSync(file));

/** `describe`, or `describe.skip` with a visible note when there is no chromium outside CI. */
export function describeInBrowser(name: string, body: () => void): void {
  if (CHROMIUM === undefined && process.env.CI !== 'true') {
    console.warn(`SKIPPED: ${name}: no chromium found (install Debian's chromium package, or set CHROMIUM_PATH).`);
    describe.skip(name, body);
    return;
  }
  describe(name, body);
}

const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface TestBrowser {
  readonly context: BrowserContext;
  close(): Promise<void>;
}

/** Launches chromium with a fresh profile folder (removed at close). */
export async function launchBrowser(): Promise<TestBrowser> {
  if (CHROMIUM === undefined) throw new Error('No chromium found: CI=true needs /usr/bin/chromium (Debian package chromium).');
  const profile = tempDir('xmldb-chromium-');
  const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: FLAGS, viewport: { width: 1280, height: 800 } });
  return {
    context,
    async close() {
      await context.close();
      fs.rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Where the screenshots of a test file go, emptied first: test-output/console (git-ignored). */
export function screenshotDir(): string {
  const dir = path.join(__dirname, '..', '..', 'test-output', 'console');
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}
