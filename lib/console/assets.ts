/**
 * The console's browser files: the page, its script and its style sheet, built by esbuild at
 * `npm run build` (scripts/build-console.js) into `dist/console/ui` beside the compiled router,
 * and shipped in the package (no CDN: the console works offline). They are read once and served
 * from memory, by exact name only, so no request path reaches the file system.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * The console's own policy (CSP Level 3): its page and bundle only, requests to its own origin
 * only; no inline script, no `eval`, no plugin, no frame of it elsewhere. Images may be `data:`
 * URLs (sanitized HTML results may carry them), never another origin's (no tracking pixel in a
 * result). Style elements need the page's nonce: CodeMirror writes its styles into a `<style>`
 * element that carries it (`EditorView.cspNonce`); markup from a result can have none.
 */
export function consolePolicy(nonce?: string): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    nonce === undefined ? "style-src 'self'" : `style-src 'self' 'nonce-${nonce}'`,
    "img-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** Where the page names its nonce (`<meta name="csp-nonce" content="...">`), for the bundle to read. */
const NONCE_SLOT = '__CSP_NONCE__';

const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=UTF-8',
  '.js': 'text/javascript; charset=UTF-8',
  '.css': 'text/css; charset=UTF-8',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
};

interface Asset {
  readonly type: string;
  readonly body: Buffer;
}

/**
 * The folder of the built files: `ui` beside this module in the package (dist/console/ui); from
 * the TypeScript sources (tests, ts-node) the build's output, dist/console/ui of the checkout.
 */
export function defaultAssetsDir(): string {
  const beside = path.join(__dirname, 'ui');
  if (fs.existsSync(path.join(beside, 'index.html'))) return beside;
  return path.resolve(__dirname, '..', '..', 'dist', 'console', 'ui');
}

export class ConsoleAssets {
  private files: Map<string, Asset> | undefined;

  constructor(private readonly dir: string) {}

  /**
   * The files, read on the first request: a checkout that was not built (`npm run build`) still
   * serves its REST interface, and its console answers what is missing.
   */
  private load(): Map<string, Asset> | undefined {
    if (this.files !== undefined) return this.files;
    if (!fs.existsSync(path.join(this.dir, 'index.html'))) return undefined;
    const files = new Map<string, Asset>();
    for (const name of fs.readdirSync(this.dir)) {
      const type = TYPES[path.extname(name)];
      if (type !== undefined) files.set(name, { type, body: fs.readFileSync(path.join(this.dir, name)) });
    }
    return (this.files = files);
  }

  /** Answers the file `name` (the page, with a fresh style nonce, for ''); false when there is none. */
  serve(req: IncomingMessage, res: ServerResponse, name: string): boolean {
    const files = this.load();
    if (files === undefined) {
      res.statusCode = 503;
      setPageHeaders(res);
      res.setHeader('Content-Type', 'text/plain; charset=UTF-8');
      res.end("The console's files are not built: run `npm run build`.");
      return true;
    }
    const page = name === '' || name === 'index.html';
    const asset = files.get(page ? 'index.html' : name);
    if (asset === undefined) return false;
    const nonce = page ? randomBytes(18).toString('base64') : undefined;
    const body = nonce === undefined ? asset.body : Buffer.from(asset.body.toString('utf8').replace(NONCE_SLOT, nonce));
    res.statusCode = 200;
    setPageHeaders(res, nonce);
    res.setHeader('Content-Type', asset.type);
    res.setHeader('Content-Length', body.length);
    // the page is small and names the bundle: always fresh; the bundle revalidates
    res.setHeader('Cache-Control', 'no-cache');
    res.end(req.method === 'HEAD' ? undefined : body);
    return true;
  }
}

/** The headers of every console response that is not the REST router's. */
export function setPageHeaders(res: ServerResponse, nonce?: string): void {
  res.setHeader('Content-Security-Policy', consolePolicy(nonce));
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Cross-Origin-Resource-Policy', 'same-origin');
  res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('Referrer-Policy', 'no-referrer');
}
