/** From source, large compilations are kept on disk for the next query host (sef-disk-cache.ts). */
import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { compileKey, compileUncached } from '../../../lib/xquery/worker/compile';
import { tempDir } from '../../helpers/temp-dir';
import { compileKept, keptFile } from '../../../lib/xquery/worker/sef-disk-cache';

/**
 * A stylesheet unique to this run (so that no earlier run kept it). `large`: its text and its SEF
 * are above the lengths from which a compilation is claimed and kept, through one long string
 * literal, which the compiler copies into the SEF in milliseconds (sixty small functions, which
 * made a SEF as large, took 0.2-1.2 s to compile each time); `small`: both far below them.
 */
function stylesheet(size: 'large' | 'small'): string {
  const text = `${randomUUID()}${size === 'large' ? '.'.repeat(40 * 1024) : ''}`;
  return `<xsl:stylesheet version="3.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform"><xsl:template name="xsl:initial-template"><xsl:sequence select="'${text}'"/></xsl:template></xsl:stylesheet>`;
}

const files: string[] = [];
afterAll(() => {
  for (const file of files) fs.rmSync(file, { force: true });
});

/** A new stylesheet of `size`, and the file its SEF would be kept in (removed after the tests). */
function fresh(size: 'large' | 'small'): { xslt: string; file: string } {
  const xslt = stylesheet(size);
  const file = keptFile(compileKey(xslt));
  files.push(file, `${file}.claim`);
  return { xslt, file };
}

test('a large SEF is kept and read back instead of compiled', () => {
  const { xslt, file } = fresh('large');
  const first = compileKept(xslt);
  expect(first.sefText.length).toBeGreaterThanOrEqual(32 * 1024);
  expect(first.compileMs).toBeGreaterThan(0);
  expect(fs.readFileSync(file, 'utf8')).toBe(first.sefText);
  const again = compileKept(xslt);
  expect([again.key, again.sefText, again.compileMs]).toEqual([first.key, first.sefText, 0]);
});

test('a small SEF is compiled every time and not kept', () => {
  const { xslt, file } = fresh('small');
  const first = compileKept(xslt);
  expect(first.sefText.length).toBeLessThan(32 * 1024);
  expect(first.compileMs).toBeGreaterThan(0);
  expect(fs.existsSync(file)).toBe(false);
  expect(compileKept(xslt).compileMs).toBeGreaterThan(0);
});

test('a kept file that is not a SEF is compiled again and replaced', () => {
  const { xslt, file } = fresh('large');
  fs.writeFileSync(file, '{ not json');
  const compiled = compileKept(xslt);
  expect(compiled.compileMs).toBeGreaterThan(0);
  expect(fs.readFileSync(file, 'utf8')).toBe(compiled.sefText);
});

/**
 * Another process that holds the claim of `file`: after `ms`, it writes `sef` there (unless
 * undefined) and releases the claim. Settles when it has started.
 */
async function claimant(file: string, sef: string | undefined, ms: number): Promise<void> {
  fs.writeFileSync(`${file}.claim`, '');
  const sefFile = path.join(tempDir('xmldb-claim-'), 'sef.json');
  if (sef !== undefined) fs.writeFileSync(sefFile, sef);
  const script = `setTimeout(() => {
    const fs = require('node:fs');
    if (${JSON.stringify(sef !== undefined)}) fs.writeFileSync(${JSON.stringify(file)}, fs.readFileSync(${JSON.stringify(sefFile)}));
    fs.rmSync(${JSON.stringify(`${file}.claim`)});
  }, ${ms}); console.log('started');`;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise((resolve) => child.stdout.once('data', resolve));
}

describe('a stylesheet another process claimed', () => {
  test('is read once that process has kept its SEF, not compiled beside it', async () => {
    const { xslt, file } = fresh('large');
    // any SEF will do (the one of a small stylesheet compiles at once): what is read is what that process kept
    const sef = compileUncached(stylesheet('small')).sefText;
    await claimant(file, sef, 300);
    const compiled = compileKept(xslt);
    expect([compiled.sefText, compiled.compileMs]).toEqual([sef, 0]);
  });

  test('is compiled here when the claim is released without a SEF', async () => {
    const { xslt, file } = fresh('large');
    await claimant(file, undefined, 200);
    const compiled = compileKept(xslt);
    expect(compiled.compileMs).toBeGreaterThan(0);
    expect(fs.readFileSync(file, 'utf8')).toBe(compiled.sefText);
  });

  test('is compiled here, and the claim taken over, when the claim is older than any compilation', () => {
    const { xslt, file } = fresh('large');
    fs.writeFileSync(`${file}.claim`, '');
    const minuteAgo = new Date(Date.now() - 60_000);
    fs.utimesSync(`${file}.claim`, minuteAgo, minuteAgo);
    const compiled = compileKept(xslt);
    expect(compiled.compileMs).toBeGreaterThan(0);
    expect(fs.readFileSync(file, 'utf8')).toBe(compiled.sefText);
    expect(fs.existsSync(`${file}.claim`)).toBe(false);
  });

  test('is compiled at once when it is small (small ones are neither claimed nor kept)', () => {
    const { xslt, file } = fresh('small');
    fs.writeFileSync(`${file}.claim`, '');
    expect(compileKept(xslt).compileMs).toBeGreaterThan(0);
    expect(fs.existsSync(`${file}.claim`)).toBe(true);
  });
});

test('a compilation releases its claim, also when it fails', () => {
  const { xslt, file } = fresh('large');
  compileKept(xslt);
  expect(fs.existsSync(`${file}.claim`)).toBe(false);
  const broken = fresh('large');
  const text = broken.xslt.replace('<xsl:template', '<xsl:template select="1 +"');
  const claim = `${keptFile(compileKey(text))}.claim`;
  files.push(claim);
  expect(() => compileKept(text)).toThrow();
  expect(fs.existsSync(claim)).toBe(false);
});
