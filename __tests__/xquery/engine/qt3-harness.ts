/**
 * QT3 measurement without the REST layer: a minimal HTTP endpoint that speaks just the POST
 * `<query>` body qt3.mjs sends (text, parameters, typed variables, one context document) and
 * answers through `engine.evaluate`, so the shared runner (`../shared/tools/qt3/qt3.mjs`,
 * `--target rest`) judges our results with exactly its own comparison rules.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { errorBody } from '../../../lib/xquery/static-errors';
import { QueryError } from '../../../lib/xquery/query-error';
import type { Engine, QueryContext } from '../../../lib/xquery/engine/engine';

const unescape = (s: string): string =>
  s.replace(/&(?:#x([0-9a-fA-F]+)|#(\d+)|(amp|lt|gt|quot|apos));/g, (_m, h: string, d: string, n: string) =>
    h ? String.fromCodePoint(parseInt(h, 16)) : d ? String.fromCodePoint(parseInt(d, 10)) : ({ amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" } as Record<string, string>)[n],
  );

const attrs = (s: string): Record<string, string> => {
  const out: Record<string, string> = {};
  for (const m of s.matchAll(/([\w:-]+)="([^"]*)"/g)) out[m[1]] = unescape(m[2]);
  return out;
};

/** The parts of a qt3.mjs POST body. */
export interface Qt3Request {
  readonly query: string;
  readonly serialization: Record<string, string>;
  readonly variables: Map<string, { values: string[]; type?: string }>;
  readonly context: QueryContext;
}

export function parseQt3Body(body: string): Qt3Request {
  const text = /<text>([\s\S]*?)<\/text>/.exec(body);
  const serialization: Record<string, string> = {};
  for (const m of body.matchAll(/<parameter\s([^>]*?)\/>/g)) {
    const a = attrs(m[1]);
    serialization[a.name] = a.value;
  }
  const variables = new Map<string, { values: string[]; type?: string }>();
  for (const m of body.matchAll(/<variable\s([^>]*?)\/>/g)) {
    const a = attrs(m[1]);
    const v = variables.get(a.name) ?? { values: [], type: a.type };
    v.values.push(a.value ?? '');
    variables.set(a.name, v);
  }
  const ctx = /<context>([\s\S]*)<\/context>/.exec(body);
  return {
    query: unescape(text ? text[1] : ''),
    serialization,
    variables,
    context: ctx ? { kind: 'documents', xml: [ctx[1]] } : { kind: 'none' },
  };
}

/** Starts the endpoint on an ephemeral port; resolves to its URL and a stop function. */
export async function serveEngine(engine: Engine): Promise<{ url: string; stop(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const r = parseQt3Body(Buffer.concat(chunks).toString('utf8'));
      engine
        .evaluate({ query: r.query, context: r.context, variables: r.variables, serialization: r.serialization })
        .then(
          (out) => {
            res.writeHead(200, { 'Content-Type': out.contentType });
            res.end(out.body);
          },
          (e: unknown) => {
            res.writeHead(e instanceof QueryError ? 500 : 599, { 'Content-Type': 'text/plain; charset=UTF-8' });
            res.end(e instanceof QueryError ? errorBody(e) : `[INTERNAL] ${e instanceof Error ? e.stack : String(e)}`);
          },
        );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/rest`,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
