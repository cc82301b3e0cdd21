import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { openApiDocument } from '../lib';
import { tempDir } from './helpers/rest';

const run = promisify(execFile);
/** The validator ships as ESM only: it runs in a process of its own, on a file. */
const VALIDATOR = require.resolve('@seriousme/openapi-schema-validator/bin/validate-api-cli.js');

async function validate(document: unknown): Promise<{ valid: boolean; errors?: unknown }> {
  const file = path.join(tempDir('openapi-'), 'openapi.json');
  fs.writeFileSync(file, JSON.stringify(document));
  try {
    const { stdout } = await run(process.execPath, [VALIDATOR, file]);
    return JSON.parse(stdout) as { valid: boolean };
  } catch (e) {
    return JSON.parse((e as { stdout: string }).stdout) as { valid: boolean; errors: unknown };
  }
}

type Doc = { paths: Record<string, Record<string, { parameters?: Array<{ $ref?: string }>; responses: Record<string, unknown> }>> };

describe('openApiDocument()', () => {
  test('is a valid OpenAPI 3.1 document', async () => {
    const doc = openApiDocument();
    expect(doc.openapi).toBe('3.1.0');
    expect(await validate(doc)).toStrictEqual({ valid: true });
  });

  test('the validator does reject a broken document', async () => {
    const broken = { ...openApiDocument(), paths: { '/': { get: { responses: 'none' } } } };
    expect((await validate(broken)).valid).toBe(false);
  });

  test('describes every method, the new headers and statuses', () => {
    const doc = openApiDocument({ serverUrl: '/api/xml' }) as unknown as Doc & { servers: unknown };
    expect(doc.servers).toStrictEqual([{ url: '/api/xml' }]);
    expect(Object.keys(doc.paths)).toStrictEqual(['/', '/{db}', '/{db}/{path}']);
    for (const item of Object.values(doc.paths)) {
      for (const method of ['get', 'head', 'post', 'x-query', 'options']) expect(item[method]).toBeDefined();
    }
    const resource = doc.paths['/{db}/{path}'];
    expect(Object.keys(resource).sort()).toStrictEqual(['delete', 'get', 'head', 'options', 'post', 'put', 'x-query']);
    expect(Object.keys(resource.get.responses)).toEqual(expect.arrayContaining(['200', '206', '304', '416', '401', '404', '500']));
    expect(Object.keys(resource.put.responses)).toEqual(expect.arrayContaining(['201', '412', '413']));
    // cross-site refusals (403) and throttled logins (429) can answer every authenticated operation
    for (const op of [resource.get, resource.put, resource.delete, resource.post]) {
      expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['403', '429']));
    }
    const refs = (op: { parameters?: Array<{ $ref?: string }> }) => (op.parameters ?? []).map((p) => p.$ref);
    expect(refs(resource.get)).toEqual(expect.arrayContaining(['#/components/parameters/Range', '#/components/parameters/If-None-Match', '#/components/parameters/If-Modified-Since']));
    expect(refs(resource.put)).toEqual(expect.arrayContaining(['#/components/parameters/If-Match', '#/components/parameters/If-None-Match']));
  });
});
