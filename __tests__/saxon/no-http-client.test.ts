/**
 * The HTTP client source patch (lib/saxon/patches/no-http-client.ts): found once in saxon-js
 * 2.7.0's script and refused elsewhere; with it, saxon-js's platform reaches no HTTP server even
 * when nothing guards it (the instances here have no resource guard: that wall is assumed to have
 * failed), where the unpatched platform does.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { patchNoHttpClient } from '../../lib/saxon/patches/no-http-client';
import { SAXON_SOURCE, saxonFrom } from '../helpers/saxon-instance';

interface UnguardedPlatform {
  resourcePromise(request: { location: string; encoding?: string }): Promise<string>;
}

let server: http.Server;
let url: string;
const requests: string[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    requests.push(req.url ?? '');
    res.end('<secret/>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

beforeEach(() => {
  requests.length = 0;
});

const platformOf = (source: string) => saxonFrom(source).getPlatform() as unknown as UnguardedPlatform;

describe('the HTTP client patch', () => {
  it("replaces saxon-js 2.7.0's HTTP client once, and refuses a text without it or with it twice", () => {
    expect(patchNoHttpClient(SAXON_SOURCE)).not.toBe(SAXON_SOURCE);
    expect(patchNoHttpClient(SAXON_SOURCE)).not.toContain('require("axios")');
    expect(() => patchNoHttpClient('function f(){}')).toThrow(/HTTP client patch/);
    expect(() => patchNoHttpClient('G=require("axios");G=require("axios")')).toThrow(/HTTP client patch/);
  });

  it('leaves an unguarded platform no way to an HTTP server: the read fails with FODC0002', async () => {
    const read = platformOf(patchNoHttpClient(SAXON_SOURCE)).resourcePromise({ location: `${url}/patched`, encoding: 'utf8' });
    await expect(read).rejects.toMatchObject({ code: 'FODC0002', message: `Failed to read ${url}/patched (saxon-js has no HTTP client here)` });
    expect(requests).toEqual([]);
  });

  it('(the unpatched platform, unguarded, reads from the server: what the patch takes away)', async () => {
    await expect(platformOf(SAXON_SOURCE).resourcePromise({ location: `${url}/unpatched`, encoding: 'utf8' })).resolves.toBe('<secret/>');
    expect(requests).toEqual(['/unpatched']);
  });
});
