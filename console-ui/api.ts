/**
 * Requests to the REST interface below the console (`rest/...`, relative to the page) and to the
 * console's own routes (`api/...`). Credentials are held in this module's memory and in the
 * tab's sessionStorage (so a reload keeps the login), never in localStorage: they go with the
 * tab, and logout forgets them. Requests go to the page's own origin only.
 */
const SESSION_KEY = 'xmldb-console-auth';

let authorization: string | undefined = sessionStorage.getItem(SESSION_KEY) ?? undefined;

export interface Me {
  readonly name: string;
  readonly perm: string;
}

/** A failed request: its status and the server's text (`[CODE] message`), line and column of a query error. */
export class RequestError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly line?: number,
    readonly column?: number,
  ) {
    super(message);
  }
}

function basic(user: string, password: string): string {
  const bytes = new TextEncoder().encode(`${user}:${password}`);
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return `Basic ${btoa(binary)}`;
}

/** The `Authorization` header of the login, for requests made without `request` (uploads with progress). */
export function authorizationHeader(): string | undefined {
  return authorization;
}

export function loggedIn(): boolean {
  return authorization !== undefined;
}

export function logout(): void {
  authorization = undefined;
  sessionStorage.removeItem(SESSION_KEY);
}

/** Checks the credentials (api/me) and keeps them when accepted. */
export async function login(user: string, password: string): Promise<Me> {
  const candidate = basic(user, password);
  const res = await fetch('api/me', { headers: { Authorization: candidate } });
  if (!res.ok) throw await failure(res);
  authorization = candidate;
  sessionStorage.setItem(SESSION_KEY, candidate);
  return (await res.json()) as Me;
}

/** A failed response as a RequestError (problem details give the query error's position). */
export async function failure(res: Response): Promise<RequestError> {
  const type = res.headers.get('Content-Type') ?? '';
  if (type.startsWith('application/problem+json')) {
    const problem = (await res.json()) as { detail?: string; title?: string; line?: number; column?: number };
    return new RequestError(res.status, problem.detail ?? problem.title ?? `HTTP ${res.status}`, problem.line, problem.column);
  }
  const text = await res.text();
  return new RequestError(res.status, text || `HTTP ${res.status}`);
}

export interface RequestOptions {
  readonly method?: string;
  readonly body?: BodyInit;
  readonly headers?: Record<string, string>;
  readonly signal?: AbortSignal;
}

/** A request to `url` (relative to the page) with the login; rejects with RequestError unless 2xx. */
export async function request(url: string, options: RequestOptions = {}): Promise<Response> {
  const headers: Record<string, string> = { Accept: 'application/problem+json, */*;q=0.5', ...options.headers };
  if (authorization !== undefined) headers.Authorization = authorization;
  const res = await fetch(url, { method: options.method ?? 'GET', body: options.body, headers, signal: options.signal });
  if (res.status === 401) {
    logout();
    window.dispatchEvent(new Event('console-logout'));
  }
  if (!res.ok) throw await failure(res);
  return res;
}

/** A REST URL: `rest/` then the path, each segment encoded, then the parameters. */
export function restUrl(path: readonly string[], params: Record<string, string> = {}): string {
  const query = new URLSearchParams(params).toString();
  return `rest/${path.map(encodeURIComponent).join('/')}${query ? `?${query}` : ''}`;
}

/**
 * A command argument: as it is when it has no space, `;` or quote; in double quotes when it has
 * no double quote (the command parser reads a quoted string up to the next quote, without escapes).
 */
export function commandArg(value: string): string {
  if (/^[^\s;"]+$/.test(value)) return value;
  if (!value.includes('"')) return `"${value}"`;
  throw new RequestError(400, `A command argument cannot hold a double quote: ${value}`);
}

/** Runs one command (POST `<command>`, so a password never lands in a URL); answers its output. */
export async function command(text: string, db?: string): Promise<string> {
  const doc = document.implementation.createDocument('http://basex.org/rest', 'command', null);
  const t = doc.createElementNS('http://basex.org/rest', 'text');
  t.textContent = text;
  doc.documentElement.appendChild(t);
  const body = new XMLSerializer().serializeToString(doc);
  const res = await request(restUrl(db ? [db] : []), { method: 'POST', body, headers: { 'Content-Type': 'application/xml' } });
  return res.text();
}

export async function me(): Promise<Me> {
  return (await request('api/me')).json() as Promise<Me>;
}

/** Parses an XML answer of the REST interface (listings). */
export function parseXml(text: string): Document {
  return new DOMParser().parseFromString(text, 'application/xml');
}

export async function json<T>(url: string, options?: RequestOptions): Promise<T> {
  return (await request(url, options)).json() as Promise<T>;
}
