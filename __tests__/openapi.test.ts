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

type Json = Record<string, unknown>;
type Doc = { paths: Record<string, Record<string, { parameters?: Array<{ $ref?: string }>; responses: Record<string, unknown> }>> };

describe('openApiDocument()', () => {
  test('is a valid OpenAPI 3.2 document, versioned as the package', async () => {
    const doc = openApiDocument();
    expect(doc.openapi).toBe('3.2.0');
    expect(doc.info).toMatchObject({ title: 'xmldb-rest', version: (JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'package.json'), 'utf8')) as { version: string }).version });
    expect(await validate(doc)).toStrictEqual({ valid: true });
  });

  test('describes request bodies: the XML elements of POST, the types PUT converts', () => {
    const doc = openApiDocument() as { paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: Json }> } }>>; components: { schemas: Record<string, Json> } };
    const post = doc.paths['/{db}'].post.requestBody!.content;
    expect(Object.keys(post)).toStrictEqual(['application/xml']);
    expect(post['application/xml'].schema).toStrictEqual({ oneOf: ['PostQuery', 'PostCommand', 'PostRun', 'PostCommands'].map((n) => ({ $ref: `#/components/schemas/${n}` })) });
    const query = doc.components.schemas.PostQuery as { xml: Json; required: string[]; properties: Record<string, Json> };
    expect(query.xml).toStrictEqual({ name: 'query' });
    expect(query.required).toStrictEqual(['text']);
    expect(Object.keys(query.properties)).toStrictEqual(['text', 'variable', 'context', 'parameter', 'option']);
    expect(Object.keys(doc.paths['/{db}/{path}'].put.requestBody!.content)).toStrictEqual(['application/xml', 'application/json', 'text/csv', 'text/html', '*/*']);
    expect(Object.keys(doc.paths['/'].query.requestBody!.content)).toStrictEqual(['text/plain']);
  });

  test('its descriptions cite no internal spec sections or catalog names', () => {
    const text = JSON.stringify(openApiDocument());
    expect(text).not.toMatch(/§|spec |_X\b/);
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
      for (const method of ['get', 'head', 'post', 'query', 'options']) expect(item[method]).toBeDefined();
    }
    const resource = doc.paths['/{db}/{path}'];
    expect(Object.keys(resource).sort()).toStrictEqual(['delete', 'get', 'head', 'options', 'post', 'put', 'query']);
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
