/** From source, large compilations are kept on disk for the next query host (sef-disk-cache.ts). */
import fs from 'node:fs';
import { randomUUID } from 'node:crypto';
import { compileKey } from '../../../lib/xquery/worker/compile';
import { compileKept, keptFile } from '../../../lib/xquery/worker/sef-disk-cache';

/** A stylesheet of `functions` functions, unique to this run (so that no earlier run kept it). */
function stylesheet(functions: number): string {
  const body = Array.from({ length: functions }, (_, i) => `<xsl:function name="f:f${i}" as="xs:string"><xsl:param name="x"/><xsl:sequence select="concat('${i}', string($x), '${randomUUID()}')"/></xsl:function>`);
  return `<xsl:stylesheet version="3.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:f="urn:f">${body.join('')}<xsl:template name="xsl:initial-template"><xsl:sequence select="f:f0(1)"/></xsl:template></xsl:stylesheet>`;
}

const files: string[] = [];
afterAll(() => {
  for (const file of files) fs.rmSync(file, { force: true });
});

/** A new stylesheet of `functions` functions, and the file its SEF would be kept in (removed after the tests). */
function fresh(functions: number): { xslt: string; file: string } {
  const xslt = stylesheet(functions);
  const file = keptFile(compileKey(xslt));
  files.push(file);
  return { xslt, file };
}

test('a large SEF is kept and read back instead of compiled', () => {
  const { xslt, file } = fresh(60);
  const first = compileKept(xslt);
  expect(first.sefText.length).toBeGreaterThanOrEqual(32 * 1024);
  expect(first.compileMs).toBeGreaterThan(0);
  expect(fs.readFileSync(file, 'utf8')).toBe(first.sefText);
  const again = compileKept(xslt);
  expect([again.key, again.sefText, again.compileMs]).toEqual([first.key, first.sefText, 0]);
});

test('a small SEF is compiled every time and not kept', () => {
  const { xslt, file } = fresh(1);
  const first = compileKept(xslt);
  expect(first.sefText.length).toBeLessThan(32 * 1024);
  expect(first.compileMs).toBeGreaterThan(0);
  expect(fs.existsSync(file)).toBe(false);
  expect(compileKept(xslt).compileMs).toBeGreaterThan(0);
});

test('a kept file that is not a SEF is compiled again and replaced', () => {
  const { xslt, file } = fresh(60);
  fs.writeFileSync(file, '{ not json');
  const compiled = compileKept(xslt);
  expect(compiled.compileMs).toBeGreaterThan(0);
  expect(fs.readFileSync(file, 'utf8')).toBe(compiled.sefText);
});
