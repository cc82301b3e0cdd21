/**
 * The web console in a real browser (headless Chromium, helpers/browser.ts) against the
 * standalone server, which serves it at /console: log in, create a database, upload, browse, run
 * queries, page, errors, cancel, sanitized HTML, saved queries, a non-admin. Each step leaves a
 * screenshot in test-output/console.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import '../helpers/fast-hashes';
import { startServer, type RunningServer } from '../../lib/server';
import { describeInBrowser, launchBrowser, screenshotDir, type TestBrowser } from '../helpers/browser';
import { ensureConsoleBuilt } from '../helpers/console-build';
import { tempDir } from '../helpers/rest';

const PASSWORD = 'admin-pw';
const STEP_TIMEOUT = 15_000;
/** Well under the 20 s a query sleeps: an answer within it shows the sleeping query was stopped. */
const AFTER_CANCEL_TIMEOUT = 10_000;

let server: RunningServer;
let browser: TestBrowser;
let page: Page;
let base: string;
let shots: string;
let shot = 0;

async function screenshot(name: string, on: Page = page): Promise<void> {
  shot += 1;
  await on.screenshot({ path: path.join(shots, `${String(shot).padStart(2, '0')}-${name}.png`) });
}

/** A request to the REST interface from the test itself, as admin. */
async function rest(method: string, url: string, body?: string, contentType = 'application/xml'): Promise<string> {
  const res = await fetch(`${base}/rest${url}`, {
    method,
    body,
    headers: { Authorization: `Basic ${Buffer.from(`admin:${PASSWORD}`).toString('base64')}`, 'Content-Type': contentType },
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${text}`);
  return text;
}

async function login(on: Page, user: string, password: string): Promise<void> {
  await on.goto(`${base}/console/`);
  await on.fill('#login-user', user);
  await on.fill('#login-password', password);
  await on.click('#login-submit');
  await on.waitForSelector('#who');
}

/** Replaces the editor's text (CodeMirror: select all, type). */
async function typeQuery(text: string): Promise<void> {
  await page.click('.cm-content');
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(text);
}

async function runWithKeys(): Promise<void> {
  await page.click('.cm-content');
  await page.keyboard.press('Control+Enter');
}

describeInBrowser('web console in Chromium', () => {
  const errors: string[] = [];

  beforeAll(async () => {
    await ensureConsoleBuilt();
    shots = screenshotDir();
    const dbPath = tempDir();
    server = await startServer(
      { port: 0, host: '127.0.0.1', dbPath, restPath: `${dbPath}-restpath`, adminPassword: PASSWORD, workers: 1 },
      () => undefined,
    );
    base = server.url.replace(/\/rest$/, '');
    // the query worker's first FLWOR compiles the runtime library: done here, while the browser starts
    [browser] = await Promise.all([launchBrowser(), rest('GET', `?query=${encodeURIComponent('for $i in (2, 1) order by $i return string($i)')}`)]);
    page = await browser.context.newPage();
    page.setDefaultTimeout(STEP_TIMEOUT);
    // CSP violations and script errors show up here; none may happen
    // (a refused request, 4xx or 5xx, is logged as a failed load: those are expected here)
    page.on('console', (m) => m.type() === 'error' && !m.text().startsWith('Failed to load resource') && errors.push(m.text()));
    page.on('pageerror', (e) => errors.push(e.message));
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  test('logs in with the login form; the password is kept in no localStorage', async () => {
    await login(page, 'admin', PASSWORD);
    expect(await page.textContent('#who')).toBe('admin (admin)');
    expect(await page.evaluate(() => JSON.stringify({ ...localStorage }))).not.toContain(Buffer.from(`admin:${PASSWORD}`).toString('base64'));
    expect(await page.isVisible('#tab-users')).toBe(true);
    // how long the page took to load, for the record (test-output/console/page-load.json)
    const load = await page.evaluate(() => (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming).loadEventEnd);
    fs.writeFileSync(path.join(shots, 'page-load.json'), JSON.stringify({ loadEventEndMs: load }));
    await screenshot('logged-in');
    // the theme button switches to dark and back
    await page.click('button[aria-label="Toggle light and dark theme"]');
    expect(await page.getAttribute('html', 'data-theme')).toBe('dark');
    await screenshot('dark-theme');
    await page.click('button[aria-label="Toggle light and dark theme"]');
    expect(await page.getAttribute('html', 'data-theme')).toBe('light');
  });

  test('creates a database', async () => {
    await page.fill('#new-db', 'library');
    await page.click('text=Create database');
    await page.waitForSelector('a[href="#/db/library"]');
    await screenshot('database-created');
  });

  test('uploads XML and JSON with the file picker and CSV by drag and drop, with progress, and lists them', async () => {
    await page.click('a[href="#/db/library"]');
    await page.setInputFiles('#file-picker', [
      { name: 'books.xml', mimeType: 'application/xml', buffer: Buffer.from('<books><book id="1"><title>Dune</title></book><book id="2"><title>Solaris</title></book></books>') },
      { name: 'data.json', mimeType: 'application/json', buffer: Buffer.from('{"title":"Neuromancer","year":1984}') },
    ]);
    await page.waitForSelector('a[href="#/doc/library/data.json"]');
    await page.waitForSelector('a[href="#/doc/library/books.xml"]');
    expect(await page.textContent('.uploads')).toContain('data.json');
    // a file dropped on the drop zone
    const drop = await page.evaluateHandle(() => {
      const transfer = new DataTransfer();
      transfer.items.add(new File(['author,born\nLem,1921\n'], 'classics.csv', { type: 'text/csv' }));
      return transfer;
    });
    await page.dispatchEvent('.dropzone', 'drop', { dataTransfer: drop });
    await page.waitForSelector('a[href="#/doc/library/classics.csv"]');
    expect(await page.textContent('.uploads')).toMatch(/classics\.csv\s*stored/);
    await screenshot('uploaded');
  });

  test('opens a document pretty-printed and highlighted, and raw', async () => {
    await page.click('a[href="#/doc/library/books.xml"]');
    await page.waitForSelector('.document .cm-content');
    const text = await page.textContent('.document .cm-content');
    expect(text).toContain('<title>Dune</title>');
    expect(await page.locator('.document .cm-line').count()).toBeGreaterThan(3);
    await screenshot('document');
    await page.click('text=Raw');
    expect(await page.textContent('pre.raw')).toBe('<books><book id="1"><title>Dune</title></book><book id="2"><title>Solaris</title></book></books>');
  });

  test('runs a query with Ctrl-Enter and shows the result and its timings', async () => {
    await page.click('#tab-query');
    await page.waitForSelector('.cm-content');
    await page.selectOption('#context-db', 'library');
    await typeQuery('for $t in //title order by $t return $t/string()');
    await runWithKeys();
    // the JSON document, converted, has a title too
    await page.waitForFunction(() => document.getElementById('result')?.textContent === 'Dune\nNeuromancer\nSolaris');
    const timing = await page.textContent('#timing');
    expect(timing).toMatch(/^parse [\d.]+ ms · compile [\d.]+ ms · evaluate [\d.]+ ms · serialize [\d.]+ ms · total [\d.]+ ms · round trip \d+ ms$/);
    await screenshot('query-result');
  });

  test('pages through 10,000 results without an element per item', async () => {
    await page.selectOption('#context-db', '');
    await typeQuery('1 to 10000');
    await runWithKeys();
    await page.waitForFunction(() => document.getElementById('result-info')?.textContent === 'items 1–100 of 10000');
    for (let shown = 100; shown < 10000; ) {
      await page.click('#load-more');
      shown = Math.min(10000, shown + 1000);
      await page.waitForFunction((n) => document.getElementById('result-info')?.textContent === `items 1–${n} of 10000`, shown);
    }
    expect(await page.isHidden('#load-more')).toBe(true);
    const result = await page.evaluate(() => {
      const pre = document.getElementById('result')!;
      const lines = (pre.textContent ?? '').split('\n');
      return { count: lines.length, first: lines[0], last: lines[lines.length - 1], nodes: pre.childNodes.length };
    });
    expect(result).toEqual({ count: 10000, first: '1', last: '10000', nodes: 11 });
    await screenshot('paged');
  });

  test('marks a syntax error at its line in the gutter, with the message', async () => {
    await typeQuery('let $a := 1\nreturn\n  $a +');
    await runWithKeys();
    await page.waitForSelector('.cm-query-error-marker');
    expect(await page.textContent('#query-error')).toMatch(/^Line 3, column \d+: .*XPST0003/);
    const marked = await page.evaluate(() => {
      const lines = Array.from(document.querySelectorAll('.cm-content .cm-line'));
      return lines.findIndex((l) => l.classList.contains('cm-query-error-line')) + 1;
    });
    expect(marked).toBe(3);
    expect(await page.getAttribute('.cm-query-error-marker', 'title')).toContain('XPST0003');
    await screenshot('syntax-error');
  });

  test('cancels a 20-second query, and the server is free again', async () => {
    await typeQuery('prof:sleep(20000), "slept"');
    await runWithKeys();
    await page.waitForFunction(() => document.getElementById('query-status')?.textContent === 'Running…');
    await page.click('#cancel');
    await page.waitForFunction(() => document.getElementById('query-status')?.textContent === 'Cancelled.');
    await screenshot('cancelled');
    // one query worker: had the server not stopped the sleeping query, this would wait for it
    await typeQuery('1 + 1');
    await runWithKeys();
    await page.waitForFunction(() => document.getElementById('result')?.textContent === '2', undefined, { timeout: AFTER_CANCEL_TIMEOUT });
  });

  test('shows an HTML result sanitized: a stored script never runs', async () => {
    await rest('PUT', '/library/page.xml', '<div><b>bold</b><script>window.pwned = 1</script><img src="x" onerror="window.pwned = 2"/><a href="javascript:window.pwned = 3">x</a></div>');
    await page.selectOption('#context-db', 'library');
    await page.selectOption('#method', 'html');
    await typeQuery("db:get('library', 'page.xml')/div");
    await runWithKeys();
    await page.waitForSelector('#preview-toggle:not([hidden])');
    expect(await page.textContent('#result')).toContain('<script>');
    await page.click('#preview-toggle');
    await page.waitForSelector('.preview b');
    expect(await page.innerHTML('.preview')).toBe('<div><b>bold</b><img src="x"><a rel="noopener noreferrer nofollow" target="_blank">x</a></div>');
    await page.click('.preview a');
    expect(await page.evaluate(() => (window as { pwned?: number }).pwned)).toBeUndefined();
    await screenshot('html-preview');
    await page.click('#preview-toggle');
    await page.selectOption('#method', 'xml');
  });

  test('a saved query is there again after a reload', async () => {
    await typeQuery('count(//book)');
    page.once('dialog', (dialog) => void dialog.accept('count books'));
    await page.click('#save-query');
    await page.waitForSelector('#saved-list button:text("count books")');
    await page.reload();
    await page.waitForSelector('#who');
    await page.waitForSelector('#saved-list button:text("count books")');
    await typeQuery('');
    await page.click('#saved-list button:text("count books")');
    expect(await page.textContent('.cm-content')).toBe('count(//book)');
    await screenshot('saved-query');
  });

  test('runs commands, with the history on the Up key', async () => {
    await page.click('#tab-commands');
    await page.fill('#command', 'LIST');
    await page.press('#command', 'Enter');
    await page.waitForFunction(() => document.getElementById('command-output')?.textContent?.includes('library'));
    await page.fill('#command', 'XQUERY 6 * 7');
    await page.press('#command', 'Enter');
    await page.waitForFunction(() => document.getElementById('command-output')?.textContent === '42');
    await page.fill('#command', '');
    await page.press('#command', 'ArrowUp');
    expect(await page.inputValue('#command')).toBe('XQUERY 6 * 7');
    await page.press('#command', 'ArrowUp');
    expect(await page.inputValue('#command')).toBe('LIST');
    await screenshot('commands');
  });

  test('an admin creates a user and grants it a permission in the users tab', async () => {
    await page.click('#tab-users');
    await page.waitForFunction(() => document.getElementById('users')?.textContent?.includes('admin'));
    await page.fill('#user-name', 'reader');
    await page.fill('#user-password', 'reader-pw');
    await page.click('text=Create user');
    await page.waitForFunction(() => document.getElementById('users')?.textContent?.includes('reader'));
    await page.selectOption('#user-perm', 'read');
    await page.click('text=Grant to user');
    await page.waitForFunction(() => /reader\s+read/.test(document.getElementById('users')?.textContent ?? ''));
    await screenshot('users');
  });

  test('a non-admin sees no users tab, and what it may not do is refused with 403', async () => {
    const other = await browser.context.newPage();
    other.setDefaultTimeout(STEP_TIMEOUT);
    try {
      await login(other, 'reader', 'reader-pw');
      expect(await other.textContent('#who')).toBe('reader (read)');
      expect(await other.$('#tab-users')).toBeNull();
      await other.fill('#new-db', 'mine');
      await other.click('text=Create database');
      await other.waitForSelector('.status.error');
      expect(await other.textContent('.status.error')).toMatch(/^403: /);
      await other.goto(`${base}/console/#/users`);
      await other.waitForSelector('main .error');
      await screenshot('non-admin', other);
    } finally {
      await other.close();
    }
  });

  test('no script error and no CSP violation happened', () => {
    expect(errors).toEqual([]);
    expect(fs.readdirSync(shots).filter((f) => f.endsWith('.png')).length).toBeGreaterThanOrEqual(10);
  });
});
